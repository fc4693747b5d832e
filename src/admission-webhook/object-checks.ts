// The checks `flowops validate` runs, on one object as the API server hands it over: a Flow's
// structure and its templates' types, a FlowSource's spec, an Operator's controllers and their
// pipelines' expressions.
import { flowSourceSpecSchema, formatPath, validateParsedFlowFile, zodProblems } from '../api/index.js';
import { objectYaml } from '../kube/object-yaml.js';
import { checkController, controllersOf } from '../operator/types.js';
import { checkOperator, typecheckFile, type SchemaRegistry } from '../typecheck/index.js';

export interface ObjectFinding {
  /** The field as kubectl users write it (`spec.steps[0].manifest.spec.replicas`), '' for the whole object. */
  field: string;
  message: string;
  severity: 'error' | 'warning';
}

export interface CheckedKind {
  group: string;
  kind: string;
}

/** The kinds the webhook answers for; anything else is admitted untouched. */
export const CHECKED_KINDS: readonly CheckedKind[] = [
  { group: 'flowops.io', kind: 'Flow' },
  { group: 'flowops.io', kind: 'FlowSource' },
  { group: 'dcontroller.io', kind: 'Operator' },
];

/**
 * A Flow is checked as the text `flowops validate` would read: the same YAML parse, structure
 * check and type check, so the two never disagree. Positions are dropped (there is no file).
 */
function flowFindings(obj: Record<string, unknown>, registry: SchemaRegistry): ObjectFinding[] {
  const text = objectYaml(obj);
  const file = 'object';
  const result = validateParsedFlowFile(text, file);
  const errors: ObjectFinding[] = result.errors.map((e) => ({ field: e.field, message: e.message, severity: 'error' }));
  if (errors.length) return errors;
  return typecheckFile({ path: file, text, parsed: result.parsed }, registry).map((f) => ({
    field: f.field,
    message: f.message.replace(/^warning: /, ''),
    severity: f.severity,
  }));
}

function flowSourceFindings(obj: Record<string, unknown>): ObjectFinding[] {
  const parsed = flowSourceSpecSchema.safeParse(obj.spec ?? {}, { reportInput: true });
  if (parsed.success) return [];
  return zodProblems(parsed.error.issues).map((p) => ({
    field: formatPath(['spec', ...p.path]),
    message: p.message,
    severity: 'error',
  }));
}

/**
 * The controllers' shape checks the Δ-controller runtime makes, refused here instead of in status,
 * then their pipelines' expressions against the sources' schemas, as `flowops validate` checks them.
 */
function operatorFindings(obj: Record<string, unknown>, registry: SchemaRegistry): ObjectFinding[] {
  const out: ObjectFinding[] = [];
  for (const [i, c] of controllersOf(obj.spec).entries()) {
    try {
      checkController(c);
    } catch (e) {
      out.push({ field: `spec.controllers[${i}]`, message: (e as Error).message, severity: 'error' });
    }
  }
  if (out.length) return out;
  return checkOperator(obj, registry).map((p) => ({
    field: formatPath(p.path),
    message: p.message,
    severity: p.severity,
  }));
}

function specText(o: Record<string, unknown> | undefined): string {
  return JSON.stringify(o?.spec ?? null);
}

/**
 * Whether a write needs the checks: an update that leaves the spec as it was (finalizers, labels,
 * status) or of an object being deleted does not, so a Flow that a later CRD change made invalid
 * can still lose its finalizer and go.
 */
export function needsCheck(
  operation: string,
  obj: Record<string, unknown>,
  old: Record<string, unknown> | undefined,
): boolean {
  if (operation !== 'CREATE' && operation !== 'UPDATE') return false;
  const meta = obj.metadata;
  if (typeof meta === 'object' && meta !== null && 'deletionTimestamp' in meta && meta.deletionTimestamp) return false;
  return operation === 'CREATE' || !old || specText(obj) !== specText(old);
}

/** The findings for one object of a checked kind; [] for any other kind. */
export function checkObject(
  kind: CheckedKind,
  obj: Record<string, unknown>,
  registry: SchemaRegistry,
): ObjectFinding[] {
  if (kind.group === 'flowops.io' && kind.kind === 'Flow') return flowFindings(obj, registry);
  if (kind.group === 'flowops.io' && kind.kind === 'FlowSource') return flowSourceFindings(obj);
  if (kind.group === 'dcontroller.io' && kind.kind === 'Operator') return operatorFindings(obj, registry);
  return [];
}

/** `field: message`, as the API server's denial shows it after `denied the request: `. */
export function formatFinding(f: ObjectFinding): string {
  return f.field ? `${f.field}: ${f.message}` : f.message;
}
