import type { JsonObject } from '../schema/types.js';
import { mapEntry, nonEmpty, nonEmptyObject, objectMetaOf, OrderedObject } from './meta.js';
import { boolOf, messageOf, stringOf, type Field } from './reader.js';
import type { MessageType } from './schema.js';
import { APPS_V1 } from './api/apps-v1.js';
import { AUTH_V1 } from './api/auth-v1.js';
import { BATCH_V1 } from './api/batch-v1.js';
import { CORE_V1 } from './api/core-v1.js';
import { NETWORKING_V1 } from './api/networking-v1.js';
import { POLICY_V1 } from './api/policy-v1.js';
import { RBAC_V1 } from './api/rbac-v1.js';
import { SCHEDULING_V1 } from './api/scheduling-v1.js';

/**
 * Body decoders for the kinds kubectl's typed `create` subcommands send as protobuf. Namespace,
 * ConfigMap and Secret are written out below (and skip fields they do not know); the others are
 * tables under api/ (and refuse fields they do not know, see schema.ts).
 */
export type KindDecoder = (fields: Field[]) => JsonObject;

function stringMap(e: Field, what: string, into: JsonObject): void {
  const { key, value } = mapEntry(e, what);
  into[key] = value.toString('utf8');
}

/** map<string, bytes> fields are base64 strings in JSON, like Go's []byte. */
function bytesMap(e: Field, what: string, into: JsonObject): void {
  const { key, value } = mapEntry(e, what);
  into[key] = value.toString('base64');
}

const namespace: KindDecoder = (fields) => {
  const what = 'Namespace';
  const out = new OrderedObject();
  for (const f of fields) {
    if (f.number === 1) out.set(1, 'metadata', objectMetaOf(f));
    else if (f.number === 2) {
      const finalizers = messageOf(f, what).filter((e) => e.number === 1).map((e) => stringOf(e, what));
      const spec: JsonObject = {};
      if (finalizers.length) spec.finalizers = finalizers;
      out.set(2, 'spec', nonEmptyObject(spec));
    } else if (f.number === 3) {
      const status: JsonObject = {};
      for (const e of messageOf(f, what)) if (e.number === 1 && stringOf(e, what)) status.phase = stringOf(e, what);
      out.set(3, 'status', nonEmptyObject(status));
    }
  }
  return out.toJSON();
};

const configMap: KindDecoder = (fields) => {
  const what = 'ConfigMap';
  const out = new OrderedObject();
  const data: JsonObject = {};
  const binaryData: JsonObject = {};
  for (const f of fields) {
    if (f.number === 1) out.set(1, 'metadata', objectMetaOf(f));
    else if (f.number === 2) stringMap(f, what, data);
    else if (f.number === 3) bytesMap(f, what, binaryData);
    else if (f.number === 4) out.set(4, 'immutable', boolOf(f, what));
  }
  out.set(2, 'data', nonEmptyObject(data));
  out.set(3, 'binaryData', nonEmptyObject(binaryData));
  return out.toJSON();
};

const secret: KindDecoder = (fields) => {
  const what = 'Secret';
  const out = new OrderedObject();
  const data: JsonObject = {};
  const stringData: JsonObject = {};
  for (const f of fields) {
    if (f.number === 1) out.set(1, 'metadata', objectMetaOf(f));
    else if (f.number === 2) bytesMap(f, what, data);
    else if (f.number === 3) out.set(3, 'type', nonEmpty(stringOf(f, what)));
    else if (f.number === 4) stringMap(f, what, stringData);
    else if (f.number === 5) out.set(5, 'immutable', boolOf(f, what));
  }
  out.set(2, 'data', nonEmptyObject(data));
  out.set(4, 'stringData', nonEmptyObject(stringData));
  return out.toJSON();
};

/** Keyed by `apiVersion/kind` of the envelope's TypeMeta. */
export const KIND_DECODERS: Record<string, KindDecoder> = {
  'v1/Namespace': namespace,
  'v1/ConfigMap': configMap,
  'v1/Secret': secret,
  ...tables({ ...CORE_V1, ...APPS_V1, ...BATCH_V1, ...RBAC_V1, ...POLICY_V1, ...NETWORKING_V1, ...SCHEDULING_V1, ...AUTH_V1 }),
};

function tables(kinds: Record<string, MessageType>): Record<string, KindDecoder> {
  return Object.fromEntries(Object.entries(kinds).map(([key, m]) => [key, (fields: Field[]) => m.decodeFields(fields, '')]));
}

