import { compareObjects } from './compare.js';
import type { ListTypeResolver } from './list-types.js';
import {
  decodeLenient,
  decodeStrict,
  encodeManagers,
  sameIdentity,
  type ManagedFieldsEntry,
  type Manager,
} from './managed-fields.js';
import { trackedPart, withoutUntrackedRoots, type Scope } from './scope.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../strategic/json.js';

export interface TrackUpdateOptions {
  /** The stored object, or undefined for a create. */
  before: JsonObject | undefined;
  /** The object about to be stored. */
  after: JsonObject;
  manager: string;
  apiVersion: string;
  now: string;
  listType: ListTypeResolver;
  subresource?: string;
  /**
   * The kind has a status subresource: a main-resource write's status is reset by the strategy,
   * and the real field manager drops such reset fields from what the writer owns.
   */
  statusSubresource?: boolean;
  /** Top-level fields besides status the strategy resets on this write (CSR's spec), owned by no one. */
  resetRoots?: readonly string[];
}

/**
 * Field ownership after a non-apply write (create, update, merge/JSON/strategic
 * patch): the manager takes every field the write added or changed, and every
 * other manager loses the fields the write added, changed or removed. Returns
 * the new managedFields; the caller stores them in `after.metadata.managedFields`.
 *
 * Like the real server, managedFields carried by `after` (a client replacing
 * them, as kubectl's client-side → server-side apply upgrade does) are the
 * starting point when they are valid and non-empty; otherwise `before`'s are.
 */
export function trackUpdate(opts: TrackUpdateOptions): ManagedFieldsEntry[] {
  const subresource = opts.subresource || undefined;
  const scope: Scope = {
    ignoreStatus: opts.statusSubresource === true && subresource === undefined,
    statusOnly: false,
    ...(opts.resetRoots ? { resetRoots: opts.resetRoots } : {}),
  };
  const managers = startingManagers(opts.before, opts.after, subresource);

  const diff = compareObjects(trackedPart(opts.before, scope), trackedPart(opts.after, scope), opts.listType);
  // Set operations copy whole tries: skip the ones that cannot change anything (a create has no
  // modified or removed fields and usually no other managers).
  const changed = withoutUntrackedRoots(diff.modified.isEmpty() ? diff.added : diff.modified.union(diff.added));
  if (managers.length > 0) {
    const touched = diff.removed.isEmpty() ? changed : changed.union(diff.removed);
    for (const m of managers) m.set = m.set.difference(touched);
  }

  if (!changed.isEmpty()) {
    const self = { manager: opts.manager, operation: 'Update' as const, subresource };
    const previous = managers.find((m) => sameIdentity(m, self));
    const updated: Manager = {
      ...self,
      apiVersion: opts.apiVersion,
      time: opts.now,
      set: previous ? changed.union(previous.set) : changed,
    };
    return encodeManagers([...managers.filter((m) => m !== previous), updated]);
  }
  return encodeManagers(managers);
}

function startingManagers(
  before: JsonObject | undefined,
  after: JsonObject,
  subresource: string | undefined,
): Manager[] {
  const sent = managedFieldsOf(after);
  if (!subresource && Array.isArray(sent) && sent.length > 0) {
    try {
      return decodeStrict(sent);
    } catch {
      // An unreadable replacement is ignored, as the real server does.
    }
  }
  return decodeLenient(managedFieldsOf(before));
}

function managedFieldsOf(obj: JsonObject | undefined): JsonValue | undefined {
  return obj && isJsonObject(obj.metadata) ? obj.metadata.managedFields : undefined;
}
