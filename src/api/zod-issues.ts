import type { z } from 'zod';
import type { FieldPath, FieldProblem } from './problem.js';
import { suggestField } from './suggest.js';

/**
 * Rewrites zod's issues into the short messages a Flow author reads next to a line number
 * ("required", "unknown field", "expected one of ..."). Parse with `reportInput: true`: the
 * messages quote the value that was given.
 */

type Issue = z.core.$ZodIssue;

export function zodProblems(issues: readonly Issue[]): FieldProblem[] {
  return issues.flatMap((issue): FieldProblem[] => {
    const path = toPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((k) => {
        const hint = suggestField(path, k);
        return { path: [...path, k], message: hint ? `unknown field (did you mean "${hint}"?)` : 'unknown field' };
      });
    }
    const branch = issue.code === 'invalid_union' ? matchingBranch(issue) : undefined;
    if (branch) return zodProblems(branch.map((i) => ({ ...i, path: [...issue.path, ...i.path] })));
    return [{ path, message: messageOf(issue) }];
  });
}

/**
 * A plain union (string-or-map) where the value has the type of exactly one branch: that branch's
 * own problems ("chart.name: required"), which say more than "invalid input" at the union.
 */
function matchingBranch(issue: Extract<Issue, { code: 'invalid_union' }>): readonly Issue[] | undefined {
  if ('options' in issue && issue.discriminator) return undefined;
  const typed = issue.errors.filter((branch) => !branch.some((i) => i.code === 'invalid_type' && i.path.length === 0));
  return typed.length === 1 ? typed[0] : undefined;
}

function toPath(path: readonly PropertyKey[]): FieldPath {
  return path.map((seg) => (typeof seg === 'number' ? seg : String(seg)));
}

/** A value as a message quotes it: short, and always one line. */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a map';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 37)}...` : v);
  return String(v);
}

function oneOf(values: readonly unknown[]): string {
  return values.length === 1 ? JSON.stringify(values[0]) : `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
}

const TYPE_NAMES: Record<string, string> = { object: 'a map', record: 'a map', array: 'a list', int: 'an integer' };

function messageOf(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'required';
      return `expected ${TYPE_NAMES[issue.expected] ?? issue.expected}, got ${describeValue(issue.input)}`;
    case 'invalid_value':
      if (issue.input === undefined) return `required: expected ${oneOf(issue.values)}`;
      return `expected ${oneOf(issue.values)}, got ${describeValue(issue.input)}`;
    case 'invalid_union':
      return unionMessage(issue);
    case 'too_small':
      return boundMessage(issue.origin, 'at least', issue.minimum, issue.inclusive !== false);
    case 'too_big':
      return boundMessage(issue.origin, 'at most', issue.maximum, issue.inclusive !== false);
    default:
      return issue.message;
  }
}

function unionMessage(issue: Extract<Issue, { code: 'invalid_union' }>): string {
  if ('options' in issue && issue.discriminator && issue.options) {
    const valid = issue.options.join(', ');
    // The only discriminated union in a Flow is the step list, keyed by `type`.
    const noun = issue.discriminator === 'type' ? 'step type' : issue.discriminator;
    // zod reports the whole object as the input; the message is about its discriminator.
    const input: unknown = issue.input;
    const value =
      typeof input === 'object' && input !== null && !Array.isArray(input)
        ? (input as Record<string, unknown>)[issue.discriminator]
        : input;
    if (value === undefined) return `required: the ${noun}, one of ${valid}`;
    return `unknown ${noun} ${describeValue(value)}: expected one of ${valid}`;
  }
  // A plain union (string-or-map): name what each branch wanted when they all disagree on type.
  const wanted = issue.errors.map((branch) => branch.find((i) => i.code === 'invalid_type' && i.path.length === 0));
  if (wanted.every((w) => w?.code === 'invalid_type')) {
    const names = [
      ...new Set(wanted.map((w) => (w?.code === 'invalid_type' ? (TYPE_NAMES[w.expected] ?? w.expected) : ''))),
    ];
    return `expected ${names.join(' or ')}, got ${describeValue(issue.input)}`;
  }
  return issue.message;
}

function boundMessage(
  origin: string,
  side: 'at least' | 'at most',
  bound: number | bigint,
  inclusive: boolean,
): string {
  const n = Number(bound);
  if (origin === 'string')
    return side === 'at least' && n === 1 ? 'must not be empty' : `must be ${side} ${n} characters long`;
  if (origin === 'array') return `must have ${side} ${n} item${n === 1 ? '' : 's'}`;
  const strictly = inclusive ? '' : side === 'at least' ? 'greater than ' : 'less than ';
  return strictly ? `must be ${strictly}${n}` : `must be ${side} ${n}`;
}
