import { compareObjects } from './compare.js';
import { assertNoConflicts } from './conflicts.js';
import { InvalidApplyError } from './errors.js';
import { KUBECTL_MANAGER, lastAppliedFields, withSyncedLastApplied } from './last-applied.js';
import type { ListTypeResolver } from './list-types.js';
import {
  decodeLenient,
  encodeManagers,
  entryToJson,
  sameIdentity,
  type ManagedFieldsEntry,
  type Manager,
} from './managed-fields.js';
import { mergeApplied } from './merge.js';
import { prune } from './prune.js';
import { configInScope, trackedPart, withoutUntrackedRoots, type Scope } from './scope.js';
import { withoutNulls } from './shape.js';
import { appliedFieldSet } from './to-field-set.js';
import { cloneJson, deepEqual, isJsonObject, type JsonObject } from '../strategic/json.js';

export interface ServerSideApplyOptions {
  /** The stored object, or undefined when the apply creates it. */
  live: JsonObject | undefined;
  /** The apply configuration (request body). */
  applied: JsonObject;
  manager: string;
  force: boolean;
  /** apiVersion of the request, recorded in the manager's entry. */
  apiVersion: string;
  /** RFC 3339 timestamp for entries this request touches. */
  now: string;
  listType: ListTypeResolver;
  /** Main-resource apply on a kind with a status subresource: status is left alone. */
  ignoreStatus?: boolean;
  /** `status` for an apply through /status, which only touches status. */
  subresource?: string;
  /** Top-level fields the strategy resets (CSR's spec): merged as sent, owned by no one. */
  resetRoots?: readonly string[];
}

export interface ServerSideApplyResult {
  /** The merged object; its `metadata.managedFields` is already set to `managedFields`. */
  object: JsonObject;
  managedFields: ManagedFieldsEntry[];
}

/**
 * `application/apply-patch+yaml`: merges the configuration into the live
 * object, records the manager's ownership, removes fields the manager applied
 * before but dropped now (unless someone else owns them), and throws
 * ApplyConflictError when the configuration would change fields other managers
 * own (unless `force`, which takes them over).
 */
export function serverSideApply(opts: ServerSideApplyOptions): ServerSideApplyResult {
  const { live, manager, listType } = opts;
  if (!isJsonObject(opts.applied)) throw new InvalidApplyError('the apply configuration must be an object');
  if (isJsonObject(opts.applied.metadata) && opts.applied.metadata.managedFields !== undefined) {
    throw new InvalidApplyError('metadata.managedFields must be nil');
  }
  const scope: Scope = { ignoreStatus: opts.ignoreStatus ?? false, statusOnly: opts.subresource === 'status' };
  const subresource = opts.subresource || undefined;
  const config = configInScope(withoutNulls(cloneJson(opts.applied)) as JsonObject, scope);
  const liveObject = live ? withoutManagedFields(cloneJson(live)) : undefined;

  const tracked: Scope = opts.resetRoots ? { ...scope, resetRoots: opts.resetRoots } : scope;
  const newSet = withoutUntrackedRoots(appliedFieldSet(trackedPart(config, tracked)!, listType));
  const managers = decodeLenient(live && isJsonObject(live.metadata) ? live.metadata.managedFields : undefined);
  const self = { manager, operation: 'Apply' as const, subresource };
  const previous = managers.find((m) => sameIdentity(m, self));
  const others = managers.filter((m) => m !== previous);

  const merged = mergeApplied(liveObject, config, [], listType) as JsonObject;
  const kept = others.reduce((acc, m) => acc.union(m.set), newSet);
  const pruned = previous ? (prune(merged, previous.set, kept, [], listType) as JsonObject) : merged;

  const diff = compareObjects(trackedPart(liveObject, tracked), trackedPart(pruned, tracked), listType);
  const changed = diff.modified.union(diff.added);
  if (!opts.force) {
    const allowed = manager === KUBECTL_MANAGER ? lastAppliedFields(live, scope, listType) : undefined;
    assertNoConflicts(others, changed, allowed);
  }

  // Forced fields change hands; removed fields are owned by nobody any more.
  for (const m of others) m.set = m.set.difference(changed).difference(diff.removed);

  const objectChanged = !deepEqual(liveObject, pruned);
  const keepTime = previous && !objectChanged && previous.set.equals(newSet) && previous.apiVersion === opts.apiVersion;
  const applier: Manager = {
    ...self,
    apiVersion: opts.apiVersion,
    time: keepTime ? previous.time : opts.now,
    set: newSet,
  };
  const managedFields = encodeManagers([...others, applier]);
  const object = manager === KUBECTL_MANAGER ? withSyncedLastApplied(pruned, opts.applied) : pruned;
  return { object: withManagedFields(object, managedFields), managedFields };
}

function withoutManagedFields(obj: JsonObject): JsonObject {
  if (!isJsonObject(obj.metadata) || !('managedFields' in obj.metadata)) return obj;
  const { managedFields: _dropped, ...meta } = obj.metadata;
  return { ...obj, metadata: meta };
}

export function withManagedFields(obj: JsonObject, entries: readonly ManagedFieldsEntry[]): JsonObject {
  const meta: JsonObject = isJsonObject(obj.metadata) ? { ...obj.metadata } : {};
  if (entries.length > 0) meta.managedFields = entries.map(entryToJson);
  else delete meta.managedFields;
  return { ...obj, metadata: meta };
}
