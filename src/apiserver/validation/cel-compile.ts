// The part of kube-apiserver's CEL compilation of admission expressions (k8s.io/apiserver
// pkg/admission/plugin/cel/compile.go, as validateValidationExpression, validateMessageExpression and
// validateMatchConditionsExpression call it) that needs no type checker: the expression parses (with
// @bufbuild/cel, admission/cel.ts's library), every free identifier is one the environment declares, and a
// constant result has the type asked for. Types of fields and function overloads are not checked: such
// an expression is stored and fails when evaluated.
import { parse } from '@bufbuild/cel';
import type { FieldCause } from '../schema/types.js';
import { invalid } from '../schema/field-errors.js';

/** Type names and constants CEL itself declares, usable as identifiers (`type(x) == int`). */
const BUILTIN_IDENTS = [
  'bool',
  'bytes',
  'double',
  'duration',
  'int',
  'list',
  'map',
  'null_type',
  'string',
  'timestamp',
  'type',
  'uint',
];

type Want = 'bool' | 'string' | 'any';

interface Node {
  id?: bigint | number | string;
  exprKind?: { case?: string; value?: unknown };
}

function children(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (typeof v !== 'object' || v === null) return [];
  return Object.values(v);
}

/**
 * The free identifiers of a parsed expression (comprehension variables bound inside their bodies), each
 * with its expression id, in the order met.
 */
function freeIdents(node: unknown, bound: Set<string>, out: Map<string, string>): void {
  if (typeof node !== 'object' || node === null) return;
  const n = node as Node;
  const kind = n.exprKind?.case;
  const value = n.exprKind?.value as Record<string, unknown> | undefined;
  if (kind === 'identExpr' && value && typeof value.name === 'string') {
    if (!bound.has(value.name) && !out.has(value.name)) out.set(value.name, String(n.id ?? ''));
    return;
  }
  if (kind === 'comprehensionExpr' && value) {
    freeIdents(value.iterRange, bound, out);
    freeIdents(value.accuInit, bound, out);
    const inner = new Set(bound);
    for (const k of ['iterVar', 'iterVar2', 'accuVar']) if (typeof value[k] === 'string') inner.add(value[k]);
    for (const k of ['loopCondition', 'loopStep', 'result']) freeIdents(value[k], inner, out);
    return;
  }
  for (const c of children(node)) freeIdents(c, bound, out);
}

function constantType(node: Node): string | undefined {
  if (node.exprKind?.case !== 'constExpr') return undefined;
  const c = node.exprKind.value as { constantKind?: { case?: string } } | undefined;
  return c?.constantKind?.case;
}

const CONSTANT_OF: Record<Exclude<Want, 'any'>, string> = { bool: 'boolValue', string: 'stringValue' };
/** cel-go's names of the constants' types. */
const TYPE_OF: Record<string, string> = {
  boolValue: 'bool',
  bytesValue: 'bytes',
  doubleValue: 'double',
  int64Value: 'int',
  nullValue: 'null_type',
  stringValue: 'string',
  uint64Value: 'uint',
};

/** cel-go's error location: `<input>:line:col: text` and the source line with a caret under the column. */
function located(expression: string, offset: number, text: string): string {
  const before = expression.slice(0, offset);
  const line = before.split('\n').length;
  const start = before.lastIndexOf('\n') + 1;
  const col = offset - start + 1;
  const source = expression.slice(start).split('\n')[0] ?? '';
  return `ERROR: <input>:${line}:${col}: ${text}\n | ${source}\n | ${'.'.repeat(col - 1)}^`;
}

/** Invalid causes of one expression at `path`, in an environment declaring `declared`. */
export function celCompileCauses(expression: string, declared: string[], want: Want, path: string): FieldCause[] {
  let parsed: { expr?: unknown; sourceInfo?: { positions?: Record<string, number> } };
  try {
    parsed = parse(expression) as typeof parsed;
  } catch (e) {
    return [invalid(path, expression, `compilation failed: ERROR: ${e instanceof Error ? e.message : String(e)}`)];
  }
  const free = new Map<string, string>();
  freeIdents(parsed.expr, new Set(), free);
  const known = new Set([...declared, ...BUILTIN_IDENTS]);
  const unknown = [...free].find(([x]) => !known.has(x));
  if (unknown) {
    const [name, id] = unknown;
    const offset = parsed.sourceInfo?.positions?.[id] ?? 0;
    const text = located(expression, offset, `undeclared reference to '${name}' (in container '')`);
    return [invalid(path, expression, `compilation failed: ${text}`)];
  }
  const ct = parsed.expr ? constantType(parsed.expr as Node) : undefined;
  if (want !== 'any' && ct !== undefined && ct !== CONSTANT_OF[want]) {
    return [invalid(path, expression, `must evaluate to ${want} but got ${TYPE_OF[ct] ?? ct}`)];
  }
  return [];
}
