import { unsafeScriptPositions, findInterpreter } from '../script-safety/index.js';
import { parseTemplate, TemplateParseError } from '../template/index.js';
import type { FieldPath, FieldProblem } from './problem.js';
import { isRaw, type Raw } from './step-rules.js';

/**
 * A script step's template values reach the interpreter as environment variables, which keeps
 * them data only where the interpreter treats them so: a value that becomes a variable name, the
 * command, or an eval/bash -c/python -c argument runs code. Which positions those are follows from
 * the script's text alone, so they are reported here, before anything runs.
 */
export function scriptProblems(step: Raw, at: FieldPath): FieldProblem[] {
  if (step.type !== 'script' || typeof step.script !== 'string') return [];
  const script = step.script;
  const env = isRaw(step.env)
    ? Object.fromEntries(Object.entries(step.env).filter((e): e is [string, string] => typeof e[1] === 'string'))
    : undefined;
  // Untemplated scripts too: an earlier step's output (STEP_*) or the object's file can reach arithmetic.
  try {
    parseTemplate(script);
  } catch (e) {
    if (e instanceof TemplateParseError) return []; // reported by the template check
    throw e;
  }
  const interpreter = findInterpreter({
    script,
    language: typeof step.language === 'string' ? step.language : undefined,
  });
  if ('unsupported' in interpreter) return [];
  return unsafeScriptPositions({ script, env }, interpreter).map((u) => ({
    path: [...at, 'script'],
    message: u.message,
    inner: { line: u.line, column: u.column },
  }));
}
