// Finds template actions in a script step that stand where the interpreter would read their
// value as code or as a variable name. It depends only on the step's text, so `flowops validate`
// and a commit's validation report it before anything runs, and prepareScript checks the same at
// run time as a backstop.

import { rewriteShell } from './bash-rewrite.js';
import { rewritePython } from './python-rewrite.js';
import type { Interpreter } from './script-interpreter.js';
import type { LeadingArgument } from './shell-commands.js';
import { positionOf, splitActionsWithSpans, type SpannedPart } from './template-actions.js';

export interface UnsafePosition {
  /** 1-based, in the script. */
  line: number;
  column: number;
  message: string;
  /** Not a danger but a form the rewrite cannot convert (a quoted heredoc, a bytes literal). */
  unsupported?: true;
}

export interface ScriptStepText {
  script: string;
  env?: Record<string, string> | undefined;
}

export interface CheckedScript {
  /** The script with each action replaced by its variable reference. */
  text: string;
  /** Actions whose value must be an integer (bash arithmetic). */
  arithmetic: number[];
  /** Actions that start an ordinary program's argument: a value starting with `-` is refused. */
  leading: LeadingArgument[];
  /** Values from objects that reach arithmetic through variables: each origin must be an integer at run time. */
  tainted: TaintedArithmetic[];
  unsafe: UnsafePosition[];
}

export interface TaintedArithmetic {
  line: number;
  column: number;
  /** Environment variables of the script whose values must be integers. */
  origins: string[];
  /** V ← W ← {{ .v }} */
  path: string;
}

/** `names[i]` is the variable of the i-th action; `values[i]` its value when known (python keeps its type). */
export function checkScript(
  step: ScriptStepText,
  interpreter: Interpreter,
  parts: readonly SpannedPart[],
  names: readonly string[],
  values: readonly unknown[] = [],
): CheckedScript {
  const at = (offset: number, r: { message: string; unsupported?: true }): UnsafePosition => ({
    ...positionOf(step.script, offset),
    ...r,
  });
  if (interpreter.family === 'python') {
    const actions = parts.filter((p) => p.kind === 'action');
    const py = rewritePython([...parts], [...names], [...values]);
    const unsafe = py.refusals.map(({ action, ...r }) => at(actions[action]!.offset, r));
    return { text: py.script, arithmetic: [], leading: [], tainted: [], unsafe };
  }
  const shell = rewriteShell(parts, names, { env: step.env });
  const tainted = shell.requirements.map(({ offset, ...r }) => ({ ...positionOf(step.script, offset), ...r }));
  const unsafe = shell.refusals.map(({ offset, ...r }) => at(offset, r));
  return { text: shell.script, arithmetic: shell.arithmetic, leading: shell.leading, tainted, unsafe };
}

export const controlMessage = (keyword: string): string =>
  `{{ ${keyword} }}: template control structures are not supported inside scripts, because values are passed as environment variables rather than spliced into the code; use the script's own if/for over env variables (each {{ value }} becomes one)`;

/** What cannot run in a script, without data (for validation): control actions and unsafe positions. */
export function unsafeScriptPositions(step: ScriptStepText, interpreter: Interpreter): UnsafePosition[] {
  const all = splitActionsWithSpans(step.script);
  // The first control action is enough: its {{ end }} is the same mistake.
  const control = all
    .flatMap((p) =>
      p.kind === 'action' && p.keyword
        ? [{ ...positionOf(step.script, p.offset), message: controlMessage(p.keyword), unsupported: true as const }]
        : [],
    )
    .slice(0, 1);
  const parts = all.filter((p) => p.kind === 'text' || !p.keyword);
  const names = parts.filter((p) => p.kind === 'action').map((_, i) => `FLOWOPS_T${i}`);
  return [...control, ...checkScript(step, interpreter, parts, names).unsafe];
}
