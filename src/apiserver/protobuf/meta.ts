import type { JsonObject, JsonValue } from '../schema/types.js';
import { ProtobufDecodeError } from './errors.js';
import { boolOf, bytesOf, int64Of, messageOf, stringOf, type Field } from './reader.js';

/**
 * metav1 messages (k8s.io/apimachinery generated.proto) turned into the JSON a client would have
 * sent: zero values that gogo-protobuf writes explicitly are dropped, as `omitempty` drops them.
 */

/** Go's zero time.Time as Unix seconds: what a zero metav1.Time becomes if it is encoded anyway. */
const GO_ZERO_TIME = -62135596800;

/** Collects keys by field number so the JSON comes out in declaration order whatever the wire order. */
export class OrderedObject {
  private readonly entries = new Map<number, [string, JsonValue]>();

  set(number: number, key: string, value: JsonValue | undefined): void {
    if (value === undefined) this.entries.delete(number);
    else this.entries.set(number, [key, value]);
  }

  toJSON(): JsonObject {
    const out: JsonObject = {};
    for (const n of [...this.entries.keys()].sort((a, b) => a - b)) {
      const [k, v] = this.entries.get(n)!;
      out[k] = v;
    }
    return out;
  }
}

export const nonEmpty = (s: string): string | undefined => (s === '' ? undefined : s);
export const nonEmptyList = <T extends JsonValue>(l: T[]): T[] | undefined => (l.length ? l : undefined);
export const nonEmptyObject = (o: JsonObject): JsonObject | undefined => (Object.keys(o).length ? o : undefined);

/** A map<string, V> entry: {1 key, 2 value}; either may be missing when empty. */
export function mapEntry(f: Field, what: string): { key: string; value: Buffer } {
  let key = '';
  let value: Buffer = Buffer.alloc(0);
  for (const e of messageOf(f, what)) {
    if (e.number === 1) key = stringOf(e, what);
    else if (e.number === 2) value = bytesOf(e, what);
  }
  return { key, value };
}

/** metav1.Time {1 seconds, 2 nanos} as RFC 3339 in UTC with whole seconds, or undefined when zero. */
export function timeOf(f: Field, what: string): string | undefined {
  let seconds = 0;
  let nanos = 0;
  for (const e of messageOf(f, what)) {
    if (e.number === 1) seconds = int64Of(e, what);
    else if (e.number === 2) nanos = int64Of(e, what);
  }
  if ((seconds === 0 && nanos === 0) || seconds === GO_ZERO_TIME) return undefined;
  const date = new Date(seconds * 1000);
  if (Number.isNaN(date.getTime())) throw new ProtobufDecodeError(`invalid protobuf in ${what}: time ${seconds}s is out of range`);
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function ownerReferenceOf(f: Field): JsonObject {
  const what = 'OwnerReference';
  const ref = { apiVersion: '', kind: '', name: '', uid: '' } as JsonObject;
  for (const e of messageOf(f, what)) {
    if (e.number === 1) ref.kind = stringOf(e, what);
    else if (e.number === 3) ref.name = stringOf(e, what);
    else if (e.number === 4) ref.uid = stringOf(e, what);
    else if (e.number === 5) ref.apiVersion = stringOf(e, what);
    else if (e.number === 6) ref.controller = boolOf(e, what);
    else if (e.number === 7) ref.blockOwnerDeletion = boolOf(e, what);
  }
  return ref;
}

const STRING_FIELDS: Record<number, string> = { 1: 'name', 2: 'generateName', 3: 'namespace', 4: 'selfLink', 5: 'uid', 6: 'resourceVersion' };

export function objectMetaOf(f: Field): JsonObject {
  const what = 'ObjectMeta';
  const meta = new OrderedObject();
  const labels: JsonObject = {};
  const annotations: JsonObject = {};
  const owners: JsonObject[] = [];
  const finalizers: string[] = [];
  for (const e of messageOf(f, what)) {
    const stringKey = STRING_FIELDS[e.number];
    if (stringKey) meta.set(e.number, stringKey, nonEmpty(stringOf(e, what)));
    else if (e.number === 7) meta.set(7, 'generation', int64Of(e, what) || undefined);
    else if (e.number === 8) meta.set(8, 'creationTimestamp', timeOf(e, what));
    else if (e.number === 9) meta.set(9, 'deletionTimestamp', timeOf(e, what));
    // *int64 in Go: present means set, even to 0.
    else if (e.number === 10) meta.set(10, 'deletionGracePeriodSeconds', int64Of(e, what));
    else if (e.number === 11 || e.number === 12) {
      const { key, value } = mapEntry(e, what);
      (e.number === 11 ? labels : annotations)[key] = value.toString('utf8');
    } else if (e.number === 13) owners.push(ownerReferenceOf(e));
    else if (e.number === 14) finalizers.push(stringOf(e, what));
    // 17 managedFields and anything newer: not needed to create an object.
  }
  meta.set(11, 'labels', nonEmptyObject(labels));
  meta.set(12, 'annotations', nonEmptyObject(annotations));
  meta.set(13, 'ownerReferences', nonEmptyList(owners));
  meta.set(14, 'finalizers', nonEmptyList(finalizers));
  return meta.toJSON();
}
