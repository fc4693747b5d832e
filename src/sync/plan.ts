import { isMap, parseAllDocuments } from 'yaml';
import {
  type InventoryEntry,
  compareValidationErrors,
  validateParsedFlowFile,
  type ValidationError,
} from '../api/index.js';
import type { KubeObject } from '../kube/index.js';
import { mayHoldOperator, schemaRegistryOf, typecheckFile } from '../typecheck/index.js';
import { describeEntry, objectId } from './inventory.js';

/** One definition file of the commit, by its path in the repository. */
export interface DefinitionFile {
  path: string;
  text: string;
}

export interface PlanInput {
  /** Definition files added or changed by the commit (every definition file when `full`). */
  files: readonly DefinitionFile[];
  /** Definition files the commit deleted. */
  removed: readonly string[];
  /** `files` is the whole commit (first sync, or the previous commit is not available). */
  full: boolean;
  /** What the last applied commit applied. */
  inventory: readonly InventoryEntry[];
  /** Namespace for namespaced objects that name none: the FlowSource's. */
  defaultNamespace: string;
  /** Other definition files of the commit, read only for the CRDs the type check needs. */
  context?: readonly DefinitionFile[];
  /**
   * The server's CustomResourceDefinitions, for the kinds whose CRD is not among the commit's files
   * (an incremental sync reads only the touched files; a CRD may come from another source or Helm).
   */
  serverCrds?: readonly unknown[];
  /** false: skip the template type check (bench/typecheck.ts measures what it adds). */
  typecheck?: boolean;
  /**
   * Given: the type check's own time (ms, by the monotonic clock) is added to it (bench/typecheck.ts,
   * same-run share). Not CPU time: process.cpuUsage is a system call, and on a loaded machine a
   * system call per file hands the core to another process each time (seconds of wall time, and
   * cold caches after) — the figure would slow what it measures.
   */
  typecheckTime?: { ms: number };
}

export interface DesiredObject {
  object: KubeObject;
  path: string;
}

export type Plan =
  | { ok: false; errors: ValidationError[] }
  | {
      ok: true;
      /** Objects to apply (from the files the commit touched). */
      apply: DesiredObject[];
      /** Inventory entries from files the commit did not touch: still applied, unchanged. */
      keep: InventoryEntry[];
      /** The type check's warnings (a field that may be absent): they do not reject the commit. */
      warnings: ValidationError[];
    };

const error = (file: string, line: number, field: string, message: string): ValidationError => ({
  file,
  line,
  column: 1,
  field,
  message,
});

/**
 * Validates a commit as a unit and works out what to apply and prune. Any error anywhere rejects
 * the whole commit: nothing is applied, so the previous commit keeps running untouched. Only the
 * touched files are read; files the commit did not touch were validated when they were applied.
 */
export function planCommit(input: PlanInput): Plan {
  const errors: ValidationError[] = [];
  const warnings: ValidationError[] = [];
  const apply: DesiredObject[] = [];
  const took = input.typecheckTime;
  const since = took && performance.now();
  const registry =
    input.typecheck === false
      ? undefined
      : schemaRegistryOf([...input.files, ...(input.context ?? [])], input.serverCrds);
  if (took && since !== undefined) took.ms += performance.now() - since;
  for (const file of input.files) {
    const result = validateParsedFlowFile(file.text, file.path);
    errors.push(...result.errors);
    if (result.errors.length === 0) apply.push(...objectsOf(file, input.defaultNamespace, errors));
    // Right after the structural check, whose parsed templates it reads again. A type error
    // anywhere rejects the commit like any other error; warnings ride along.
    if (!registry || result.errors.length > 0 || (result.flows === 0 && !mayHoldOperator(file.text))) continue;
    const start = took && performance.now();
    const found = typecheckFile({ ...file, parsed: result.parsed }, registry);
    if (took && start !== undefined) took.ms += performance.now() - start;
    for (const f of found) {
      (f.severity === 'error' ? errors : warnings).push(f);
    }
  }
  const touched = new Set([...input.files.map((f) => f.path), ...input.removed]);
  const keep = input.full ? [] : input.inventory.filter((e) => !touched.has(e.path));
  checkDuplicates(apply, keep, errors);
  if (errors.length) return { ok: false, errors: errors.sort(compareValidationErrors) };
  return { ok: true, apply, keep, warnings };
}

/**
 * Inventory entries no longer wanted, worked out after applying (the API server decides whether a
 * kind is namespaced, which changes an object's identity).
 */
export function pruneCandidates(
  inventory: readonly InventoryEntry[],
  wanted: readonly InventoryEntry[],
): InventoryEntry[] {
  const ids = new Set(wanted.map(objectId));
  return inventory.filter((e) => !ids.has(objectId(e)));
}

export function entryOf(d: DesiredObject): InventoryEntry {
  const m = d.object.metadata;
  return {
    apiVersion: d.object.apiVersion,
    kind: d.object.kind,
    ...(m.namespace ? { namespace: m.namespace } : {}),
    name: m.name!,
    path: d.path,
  };
}

/** The objects of one valid file; a document that is not an object (no apiVersion/kind) is an error unless empty. */
function objectsOf(file: DefinitionFile, defaultNamespace: string, errors: ValidationError[]): DesiredObject[] {
  const out: DesiredObject[] = [];
  const docs = parseAllDocuments(file.text, { merge: true });
  for (const doc of docs) {
    if (doc.contents === null) continue;
    const line = lineOf(file.text, doc.range[0]);
    if (!isMap(doc.contents)) {
      errors.push(error(file.path, line, '', 'expected a Kubernetes object (a mapping with apiVersion and kind)'));
      continue;
    }
    const obj = doc.toJS() as Partial<KubeObject>;
    if (typeof obj.apiVersion !== 'string' || !obj.apiVersion)
      errors.push(error(file.path, line, 'apiVersion', 'Required'));
    if (typeof obj.kind !== 'string' || !obj.kind) errors.push(error(file.path, line, 'kind', 'Required'));
    const name = obj.metadata?.name;
    if (typeof name !== 'string' || !name) errors.push(error(file.path, line, 'metadata.name', 'Required'));
    if (typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string' || typeof name !== 'string' || !name)
      continue;
    const metadata = { ...obj.metadata! };
    // Whether the kind is namespaced is known only to the API server; the applier drops the
    // namespace again for cluster-scoped kinds. Defaulting here makes identities comparable.
    if (!metadata.namespace && !isClusterScopedCore(obj.apiVersion, obj.kind)) metadata.namespace = defaultNamespace;
    out.push({ object: { ...(obj as KubeObject), metadata }, path: file.path });
  }
  return out;
}

const CLUSTER_SCOPED = new Set([
  'v1/Namespace',
  'apiextensions.k8s.io/v1/CustomResourceDefinition',
  'rbac.authorization.k8s.io/v1/ClusterRole',
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding',
  'storage.k8s.io/v1/StorageClass',
  'v1/PersistentVolume',
  'v1/Node',
]);

function isClusterScopedCore(apiVersion: string, kind: string): boolean {
  return CLUSTER_SCOPED.has(`${apiVersion}/${kind}`);
}

function checkDuplicates(
  apply: readonly DesiredObject[],
  keep: readonly InventoryEntry[],
  errors: ValidationError[],
): void {
  const seen = new Map<string, string>(keep.map((e) => [objectId(e), e.path]));
  for (const d of apply) {
    const e = entryOf(d);
    const id = objectId(e);
    const other = seen.get(id);
    if (other !== undefined) errors.push(error(d.path, 0, '', `${describeEntry(e)} is also defined in ${other}`));
    else seen.set(id, d.path);
  }
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
