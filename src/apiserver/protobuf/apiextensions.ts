import type { JsonValue } from '../schema/types.js';
import { ProtobufEncodeError } from './errors.js';
import { bool, string } from './scalars.js';
import { boolOf, messageOf } from './reader.js';
import type { ValueType } from './schema.js';

/**
 * apiextensions.k8s.io/v1's unions, whose Go types marshal to JSON as one of their fields
 * (k8s.io/apiextensions-apiserver pkg/apis/apiextensions/v1 marshal.go): JSONSchemaPropsOrArray is a schema or a
 * list of schemas, JSONSchemaPropsOrBool a schema or a boolean, JSONSchemaPropsOrStringArray a schema or a list
 * of strings. `props` is JSONSchemaProps's own type, which these recurse into.
 */

const LEN = 2;

function expectObjectOr(v: JsonValue, at: string, what: string, other: (v: JsonValue) => boolean): void {
  if ((v !== null && typeof v === 'object' && !Array.isArray(v)) || other(v)) return;
  throw new ProtobufEncodeError(`${at || what}: expected a schema or ${what}, got ${JSON.stringify(v)}`);
}

/** {1 schema, 2 repeated jSONSchemas}: the list when it has items, else the schema, else null. */
export function schemaOrArray(props: ValueType): ValueType {
  return {
    label: 'JSONSchemaPropsOrArray',
    decode(f, at) {
      let schema: JsonValue | undefined;
      const list: JsonValue[] = [];
      for (const e of messageOf(f, 'JSONSchemaPropsOrArray')) {
        if (e.number === 1) schema = props.decode(e, at) ?? null;
        else if (e.number === 2) list.push(props.decode(e, `${at}[${list.length}]`) ?? null);
      }
      return list.length ? list : (schema ?? null);
    },
    zero: null,
    isEmpty: (v) => v === null,
    struct: true,
    encode(w, n, v, at) {
      expectObjectOr(v, at, 'a list of schemas', Array.isArray);
      w.uint32(((n << 3) | LEN) >>> 0).fork();
      if (Array.isArray(v)) for (const e of v) props.encode(w, 2, e, at);
      else props.encode(w, 1, v, at);
      w.ldelim();
    },
  };
}

/** {1 allows, 2 schema}: the schema when there is one (allows is then true), else the boolean. */
export function schemaOrBool(props: ValueType): ValueType {
  return {
    label: 'JSONSchemaPropsOrBool',
    decode(f, at) {
      let allows = false;
      let schema: JsonValue | undefined;
      for (const e of messageOf(f, 'JSONSchemaPropsOrBool')) {
        if (e.number === 1) allows = boolOf(e, 'JSONSchemaPropsOrBool');
        else if (e.number === 2) schema = props.decode(e, at) ?? null;
      }
      return schema ?? allows;
    },
    zero: false,
    isEmpty: () => false,
    struct: true,
    encode(w, n, v, at) {
      expectObjectOr(v, at, 'a boolean', (x) => typeof x === 'boolean');
      w.uint32(((n << 3) | LEN) >>> 0).fork();
      if (typeof v === 'boolean') bool.encode(w, 1, v, at);
      else {
        bool.encode(w, 1, true, at);
        props.encode(w, 2, v, at);
      }
      w.ldelim();
    },
  };
}

/** {1 schema, 2 repeated property}: the strings when there are any, else the schema, else null. */
export function schemaOrStringArray(props: ValueType): ValueType {
  return {
    label: 'JSONSchemaPropsOrStringArray',
    decode(f, at) {
      let schema: JsonValue | undefined;
      const strings: JsonValue[] = [];
      for (const e of messageOf(f, 'JSONSchemaPropsOrStringArray')) {
        if (e.number === 1) schema = props.decode(e, at) ?? null;
        else if (e.number === 2) strings.push(string.decode(e, at) ?? '');
      }
      return strings.length ? strings : (schema ?? null);
    },
    zero: null,
    isEmpty: (v) => v === null,
    struct: true,
    encode(w, n, v, at) {
      expectObjectOr(v, at, 'a list of strings', Array.isArray);
      w.uint32(((n << 3) | LEN) >>> 0).fork();
      if (Array.isArray(v)) for (const e of v) string.encode(w, 2, e, at);
      else props.encode(w, 1, v, at);
      w.ldelim();
    },
  };
}
