import { ManagedFieldsError } from './errors.js';
import { FieldSet } from './fieldpath.js';
import { isJsonObject, type JsonObject } from '../strategic/json.js';

export type ManagedFieldsOperation = 'Apply' | 'Update';

/** One `metadata.managedFields` entry, as the real API server serialises it. */
export interface ManagedFieldsEntry {
  manager: string;
  operation: ManagedFieldsOperation;
  apiVersion: string;
  time: string;
  fieldsType: 'FieldsV1';
  fieldsV1: object;
  subresource?: string;
}

/** Working form of an entry: the fields as a set instead of FieldsV1. */
export interface Manager {
  readonly manager: string;
  readonly operation: ManagedFieldsOperation;
  readonly subresource: string | undefined;
  apiVersion: string;
  time: string;
  set: FieldSet;
}

/** Entries with the same identity are one manager (merged on decode). */
export function sameIdentity(
  a: Pick<Manager, 'manager' | 'operation' | 'subresource'>,
  b: Pick<Manager, 'manager' | 'operation' | 'subresource'>,
): boolean {
  return a.manager === b.manager && a.operation === b.operation && (a.subresource ?? '') === (b.subresource ?? '');
}

/**
 * How the real server names a manager in conflict messages (printManager in
 * k8s.io/apiserver): Update managers carry their apiVersion, appliers do not.
 */
export function describeManager(m: Pick<Manager, 'manager' | 'operation' | 'subresource' | 'apiVersion'>): string {
  let s = JSON.stringify(m.manager);
  if (m.subresource) s += ` with subresource ${JSON.stringify(m.subresource)}`;
  return m.operation === 'Update' ? `${s} using ${m.apiVersion}` : s;
}

/** The JSON manager identifier the real server sorts conflicting managers by. */
export function managerSortKey(m: Pick<Manager, 'manager' | 'operation' | 'subresource' | 'apiVersion'>): string {
  return JSON.stringify({
    manager: m.manager,
    operation: m.operation,
    ...(m.operation === 'Update' ? { apiVersion: m.apiVersion } : {}),
    ...(m.subresource ? { subresource: m.subresource } : {}),
  });
}

/**
 * Validates client-sent `metadata.managedFields` (kubectl's client-side →
 * server-side apply upgrade replaces them with a JSON patch) and returns them
 * in canonical form: same-identity entries merged, empty ones dropped, sorted.
 * A list of only `{}` entries is the documented way to reset managedFields and
 * yields []. Throws ManagedFieldsError on anything else that is malformed.
 */
export function normaliseManagedFields(x: unknown): ManagedFieldsEntry[] {
  return encodeManagers(decodeStrict(x));
}

export function decodeStrict(x: unknown): Manager[] {
  if (!Array.isArray(x)) throw new ManagedFieldsError('metadata.managedFields must be a list');
  const out: Manager[] = [];
  x.forEach((raw, i) => {
    if (isJsonObject(raw) && Object.keys(raw).length === 0) return;
    addManager(out, decodeEntry(raw, i));
  });
  return out;
}

/**
 * Stored managedFields are trusted but not relied on: if they are unreadable
 * the real server starts over with none, and so do we.
 */
export function decodeLenient(x: unknown): Manager[] {
  if (x === undefined || x === null) return [];
  try {
    return decodeStrict(x);
  } catch {
    return [];
  }
}

function decodeEntry(raw: unknown, i: number): Manager {
  const where = `metadata.managedFields[${i}]`;
  if (!isJsonObject(raw)) throw new ManagedFieldsError(`${where} must be an object`);
  const { manager, operation, apiVersion, time, fieldsType, fieldsV1, subresource } = raw;
  if (typeof manager !== 'string') throw new ManagedFieldsError(`${where}.manager must be a string`);
  if (operation !== 'Apply' && operation !== 'Update') {
    throw new ManagedFieldsError(`${where}.operation must be "Apply" or "Update"`);
  }
  if (typeof apiVersion !== 'string') throw new ManagedFieldsError(`${where}.apiVersion must be a string`);
  if (typeof time !== 'string') throw new ManagedFieldsError(`${where}.time must be a string`);
  if (fieldsType !== 'FieldsV1') throw new ManagedFieldsError(`${where}.fieldsType must be "FieldsV1"`);
  if (subresource !== undefined && typeof subresource !== 'string')
    throw new ManagedFieldsError(`${where}.subresource must be a string`);
  let set: FieldSet;
  try {
    set = fieldsV1 === undefined ? new FieldSet() : FieldSet.fromFieldsV1(fieldsV1);
  } catch (e) {
    throw new ManagedFieldsError(`${where}.fieldsV1: ${(e as Error).message}`);
  }
  return { manager, operation, apiVersion, time, set, subresource: subresource || undefined };
}

/** Adds `m`, folding it into an existing manager with the same identity. */
export function addManager(list: Manager[], m: Manager): void {
  const existing = list.find((e) => sameIdentity(e, m));
  if (!existing) {
    list.push(m);
    return;
  }
  existing.set = existing.set.union(m.set);
  if (m.time >= existing.time) {
    existing.time = m.time;
    existing.apiVersion = m.apiVersion;
  }
}

/**
 * Managers with no fields disappear; the rest are sorted like the real server
 * does (appliers first, then by time, manager, apiVersion, subresource).
 */
export function encodeManagers(managers: readonly Manager[]): ManagedFieldsEntry[] {
  return managers
    .filter((m) => !m.set.isEmpty())
    .sort(compareManagers)
    .map((m) => ({
      manager: m.manager,
      operation: m.operation,
      apiVersion: m.apiVersion,
      time: m.time,
      fieldsType: 'FieldsV1' as const,
      fieldsV1: m.set.toFieldsV1(),
      ...(m.subresource ? { subresource: m.subresource } : {}),
    }));
}

function compareManagers(a: Manager, b: Manager): number {
  if (a.operation !== b.operation) return a.operation < b.operation ? -1 : 1;
  const ta = seconds(a.time);
  const tb = seconds(b.time);
  if (ta !== tb) return ta - tb;
  for (const [x, y] of [
    [a.manager, b.manager],
    [a.apiVersion, b.apiVersion],
    [a.subresource ?? '', b.subresource ?? ''],
  ] as const) {
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

function seconds(time: string): number {
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/** An entry as a plain JSON value, for storing it inside an object. */
export function entryToJson(e: ManagedFieldsEntry): JsonObject {
  const out: JsonObject = {
    manager: e.manager,
    operation: e.operation,
    apiVersion: e.apiVersion,
    time: e.time,
    fieldsType: e.fieldsType,
    fieldsV1: e.fieldsV1 as JsonObject,
  };
  if (e.subresource) out.subresource = e.subresource;
  return out;
}
