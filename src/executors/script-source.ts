// Turns a script step's text into what runs: which interpreter, and the text with each template
// action replaced by an environment variable reference (see bash-rewrite.ts / python-rewrite.ts)
// plus the values of those variables.

import { basename } from 'node:path';
import type { ScriptStep } from '../api/flow.js';
import { parseTemplate, TemplateParseError, TemplateRenderError } from '../template/index.js';
import { isArithmeticSafe, rewriteShell, ShellRewriteError } from './bash-rewrite.js';
import { PythonRewriteError, rewritePython } from './python-rewrite.js';
import { invalid, templated } from './step-errors.js';
import { positionOf, splitActions, type TemplatePart } from './template-actions.js';
import { StepError, type TemplateData } from './types.js';

export interface Interpreter {
  family: 'shell' | 'python';
  command: 'bash' | 'sh' | 'python3';
  file: string;
}

const BY_NAME: Record<string, Interpreter> = {
  bash: { family: 'shell', command: 'bash', file: 'script.sh' },
  sh: { family: 'shell', command: 'sh', file: 'script.sh' },
  python: { family: 'python', command: 'python3', file: 'script.py' },
  python3: { family: 'python', command: 'python3', file: 'script.py' },
};

/** `language` when given, else the shebang (`#!/bin/sh`, `#!/usr/bin/env python3`), else bash. */
export function interpreterFor(step: ScriptStep): Interpreter {
  if (step.language) return BY_NAME[step.language]!;
  const shebang = /^#!\s*(\S+)([^\n]*)/.exec(step.script.trimStart());
  if (!shebang) return BY_NAME.bash!;
  let program = basename(shebang[1] as string);
  if (program === 'env') program = (shebang[2] ?? '').trim().split(/\s+/).find((a) => a && !a.startsWith('-')) ?? '';
  const found = BY_NAME[program.replace(/^python3(\.\d+)?$/, 'python3')];
  if (!found) throw invalid(`${step.name}.script: unsupported interpreter "${program}" in the #! line; use bash, sh or python3 (or set language)`);
  return found;
}

export interface PreparedScript {
  text: string;
  /** FLOWOPS_T<i> → rendered value of the i-th action. */
  vars: Record<string, string>;
}

interface RenderedAction {
  text: string;
  value: unknown;
}

function renderAction(part: Extract<TemplatePart, { kind: 'action' }>, src: string, data: TemplateData, name: string): RenderedAction {
  try {
    const tpl = parseTemplate(`{{${part.body}}}`, { name });
    return { text: tpl.render(data), value: tpl.value(data) };
  } catch (err) {
    if (err instanceof TemplateParseError || err instanceof TemplateRenderError) {
      // Rendered on its own, the action's line/column would be 1/1: point into the script instead.
      const at = positionOf(src, part.offset);
      throw new StepError(`template "${name}": ${err.detail} (line ${at.line}, column ${at.column})`, { reason: 'TemplateError', permanent: true, cause: err });
    }
    throw err;
  }
}

export function prepareScript(step: ScriptStep, interpreter: Interpreter, data: TemplateData): PreparedScript {
  const name = `${step.name}.script`;
  const src = step.script;
  // The real parser first, so malformed templates are reported with exact positions.
  templated(() => parseTemplate(src, { name }));
  const parts = splitActions(src);
  const actions = parts.filter((p): p is Extract<TemplatePart, { kind: 'action' }> => p.kind === 'action');
  if (actions.length === 0) return { text: src, vars: {} };
  const control = actions.find((a) => a.keyword);
  if (control) {
    const at = positionOf(src, control.offset);
    throw invalid(
      `${name}: {{ ${control.keyword} }} at line ${at.line}, column ${at.column}: template control structures are not supported inside scripts, because values are passed as environment variables rather than spliced into the code; use the script's own if/for over env variables (each {{ value }} becomes one)`,
      'TemplateError',
    );
  }
  const rendered = actions.map((a) => renderAction(a, src, data, name));
  const names = actions.map((_, i) => `FLOWOPS_T${i}`);
  const vars: Record<string, string> = {};
  rendered.forEach((r, i) => {
    if (r.text.includes('\0')) throw invalid(`${name}: the value of the action at line ${positionOf(src, actions[i]!.offset).line} contains a NUL byte`, 'InvalidValue');
    vars[names[i]!] = r.text;
  });
  try {
    if (interpreter.family === 'python') return { text: rewritePython(parts, names, rendered.map((r) => r.value)), vars };
    const shell = rewriteShell(parts, names);
    for (const i of shell.arithmetic) {
      const text = rendered[i]!.text;
      if (!isArithmeticSafe(text)) {
        const at = positionOf(src, actions[i]!.offset);
        throw invalid(
          `${name}: the action at line ${at.line}, column ${at.column} is in an arithmetic context, where bash would evaluate its value as an expression; it must be an integer, got ${JSON.stringify(text.slice(0, 60))}`,
          'InvalidValue',
        );
      }
    }
    return { text: shell.script, vars };
  } catch (err) {
    if (err instanceof ShellRewriteError || err instanceof PythonRewriteError) throw invalid(`${name}: ${err.message}`, 'TemplateError');
    throw err;
  }
}
