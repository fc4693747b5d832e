// Turns a script step's text into what runs: which interpreter, and the text with each template
// action replaced by an environment variable reference (see bash-rewrite.ts / python-rewrite.ts)
// plus the values of those variables.

import type { ScriptStep } from '../api/index.js';
import { parseTemplate, TemplateParseError, TemplateRenderError } from '../template/index.js';
import {
  isArithmeticSafe,
  checkScript,
  controlMessage,
  type TaintedArithmetic,
  findInterpreter,
  type Interpreter,
  positionOf,
  splitActionsWithSpans,
  type TemplatePart,
} from '../script-safety/index.js';
import { Masker } from './mask.js';
import { invalid, templated } from './step-errors.js';
import { StepError, type TemplateData } from './types.js';

export type { Interpreter } from '../script-safety/index.js';

export function interpreterFor(step: ScriptStep): Interpreter {
  const found = findInterpreter(step);
  if ('unsupported' in found)
    throw invalid(
      `${step.name}.script: unsupported interpreter "${found.unsupported}" in the #! line; use bash, sh or python3 (or set language)`,
    );
  return found;
}

export interface PreparedScript {
  text: string;
  /** FLOWOPS_T<i> → rendered value of the i-th action. */
  vars: Record<string, string>;
  /** Checked on the script's whole environment before it starts (checkTaintedValues). */
  tainted: TaintedArithmetic[];
}

interface RenderedAction {
  text: string;
  value: unknown;
}

function renderAction(
  part: Extract<TemplatePart, { kind: 'action' }>,
  src: string,
  data: TemplateData,
  name: string,
): RenderedAction {
  try {
    const tpl = parseTemplate(`{{${part.body}}}`, { name });
    return { text: tpl.render(data), value: tpl.value(data) };
  } catch (err) {
    if (err instanceof TemplateParseError || err instanceof TemplateRenderError) {
      // Rendered on its own, the action's line/column would be 1/1: point into the script instead.
      const at = positionOf(src, part.offset);
      throw new StepError(`template "${name}": ${err.detail} (line ${at.line}, column ${at.column})`, {
        reason: 'TemplateError',
        permanent: true,
        cause: err,
      });
    }
    throw err;
  }
}

export function prepareScript(step: ScriptStep, interpreter: Interpreter, data: TemplateData): PreparedScript {
  const name = `${step.name}.script`;
  const src = step.script;
  // The real parser first, so malformed templates are reported with exact positions.
  templated(() => parseTemplate(src, { name }));
  const parts = splitActionsWithSpans(src);
  const actions = parts.filter((p): p is Extract<TemplatePart, { kind: 'action' }> => p.kind === 'action');
  const control = actions.find((a) => a.keyword);
  if (control) {
    const at = positionOf(src, control.offset);
    throw invalid(
      `${name}: line ${at.line}, column ${at.column}: ${controlMessage(control.keyword ?? '')}`,
      'TemplateError',
    );
  }
  const names = actions.map((_, i) => `FLOWOPS_T${i}`);
  // Before rendering: a script whose text puts a value where it is code or a name never runs.
  const checked = checkScript(step, interpreter, parts, names);
  const unsafe = checked.unsafe[0];
  if (unsafe) {
    const more = checked.unsafe.length > 1 ? ` (and ${checked.unsafe.length - 1} more)` : '';
    throw invalid(
      `${name}: line ${unsafe.line}, column ${unsafe.column}: ${unsafe.message}${more}`,
      unsafe.unsupported ? 'TemplateError' : 'UnsafeTemplate',
    );
  }
  if (actions.length === 0) return { text: src, vars: {}, tainted: checked.tainted };
  const rendered = actions.map((a) => renderAction(a, src, data, name));
  const vars: Record<string, string> = {};
  rendered.forEach((r, i) => {
    if (r.text.includes('\0'))
      throw invalid(
        `${name}: the value of the action at line ${positionOf(src, actions[i]!.offset).line} contains a NUL byte`,
        'InvalidValue',
      );
    vars[names[i]!] = r.text;
  });
  if (interpreter.family === 'python') {
    const values = rendered.map((r) => r.value);
    return { text: checkScript(step, interpreter, parts, names, values).text, vars, tainted: [] };
  }
  for (const i of checked.arithmetic) {
    const text = rendered[i]!.text;
    if (!isArithmeticSafe(text)) {
      const at = positionOf(src, actions[i]!.offset);
      throw invalid(
        `${name}: the action at line ${at.line}, column ${at.column} is in an arithmetic context, where bash would evaluate its value as an expression; it must be an integer, got ${JSON.stringify(text.slice(0, 60))}`,
        'InvalidValue',
      );
    }
  }
  for (const { action, command } of checked.leading) {
    const text = rendered[action]!.text;
    if (text.startsWith('-')) {
      const at = positionOf(src, actions[action]!.offset);
      throw invalid(
        `${name}: the action at line ${at.line}, column ${at.column} starts an argument of ${command}, which would read its value ${JSON.stringify(text.slice(0, 60))} as an option; put -- before the operands, or give the value as an option's own argument (--name={{ … }})`,
        'InvalidValue',
      );
    }
  }
  return { text: checked.text, vars, tainted: checked.tainted };
}

/**
 * Values from objects that reach bash arithmetic through variables by direct copies (V={{ .v }};
 * (( V > 0 ))): bash evaluates the variable's content there, so each original value — a template
 * action, a step env entry, an earlier step's output — must be an integer, checked on the
 * environment the script would get, before it starts.
 */
export function checkTaintedValues(
  step: ScriptStep,
  prepared: PreparedScript,
  env: Readonly<Record<string, string>>,
): void {
  // The value is quoted in the error; one in a secret-named variable is not.
  const masker = new Masker();
  masker.addEnv({ ...env });
  for (const t of prepared.tainted) {
    for (const origin of t.origins) {
      const value = env[origin] ?? '';
      if (isArithmeticSafe(value)) continue;
      const what = origin.startsWith('FLOWOPS_T') ? 'the template value' : `$${origin}`;
      const message =
        `${step.name}.script: line ${t.line}, column ${t.column}: ${t.path} reaches bash arithmetic, ` +
        `which evaluates a variable's content as an expression; ${what} must be an integer, ` +
        `got ${JSON.stringify(value.slice(0, 60))}`;
      throw invalid(masker.mask(message), 'InvalidValue');
    }
  }
}
