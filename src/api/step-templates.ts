import { isTemplated, parsedTemplate, templateRefs, TemplateParseError } from '../template/index.js';
import type { FieldPath, FieldProblem } from './problem.js';
import { isRaw, type Raw } from './step-rules.js';

/**
 * Checks every templated string of a step before anything runs: it must parse (with the real
 * function table, so a misspelt function is caught), and it may only read the outputs of steps
 * that ran before it in the same list — a later step's outputs are simply absent at run time and
 * would render as empty text, which is the kind of bug nobody finds until production.
 */

/** Step fields that are never rendered: identifiers, enums, error handling, JSONPaths, expressions. */
export const NOT_TEMPLATED: ReadonlySet<string> = new Set([
  'name',
  'type',
  'action',
  'engine',
  'language',
  'method',
  'patchType',
  'errorHandling',
  'timeout',
  'outputs',
  'expression',
  'ownerReference',
]);

export interface StepNames {
  /** Names of the steps before this one in its list. */
  before: ReadonlySet<string>;
  /** Every name in the list. */
  all: ReadonlySet<string>;
  self: string | undefined;
}

export function templateProblems(step: Raw, at: FieldPath, names: StepNames): FieldProblem[] {
  const out: FieldProblem[] = [];
  for (const [key, value] of Object.entries(step)) {
    if (NOT_TEMPLATED.has(key)) continue;
    for (const [path, text] of stringLeaves(value, [...at, key])) {
      if (isTemplated(text)) out.push(...checkTemplate(text, path, names));
    }
  }
  return out;
}

function* stringLeaves(value: unknown, path: FieldPath): Generator<[FieldPath, string]> {
  if (typeof value === 'string') yield [path, value];
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* stringLeaves(v, [...path, i]);
  else if (isRaw(value)) for (const [k, v] of Object.entries(value)) yield* stringLeaves(v, [...path, k]);
}

export function checkTemplate(text: string, path: FieldPath, names: StepNames): FieldProblem[] {
  try {
    // Kept by text: the type check reads the same tree after this check.
    parsedTemplate(text);
  } catch (e) {
    if (!(e instanceof TemplateParseError)) throw e;
    return [{ path, message: `template: ${e.detail}`, inner: { line: e.line, column: e.column } }];
  }
  const problems: FieldProblem[] = [];
  const reported = new Set<string>();
  for (const ref of templateRefs(text)) {
    const name = /^\.Steps\.([^.]+)/.exec(ref)?.[1];
    if (name === undefined || names.before.has(name) || reported.has(name)) continue;
    reported.add(name);
    const inner = positionOfRef(text, name);
    problems.push({ path, message: refMessage(name, names), ...(inner ? { inner } : {}) });
  }
  return problems;
}

function refMessage(name: string, names: StepNames): string {
  if (name === names.self) return `refers to the outputs of its own step "${name}"; only steps before it can be read`;
  if (names.all.has(name)) return `refers to step "${name}", which runs after this one`;
  return `refers to unknown step "${name}"`;
}

/** Where `.Steps.name` or the seed's `steps.name` first appears, for the error's line. */
function positionOfRef(text: string, name: string): { line: number; column: number } | undefined {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`[Ss]teps\\.${escaped}(?![\\w-])`).exec(text);
  if (!m) return undefined;
  const before = text.slice(0, m.index).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}
