import type { JsonObject } from '../schema/types.js';
import { UnknownFieldError } from './errors.js';
import { objectMetaOf, timeOf } from './meta.js';
import { boolOf, int64Of, messageOf, stringOf, type Field } from './reader.js';
import type { ValueType } from './schema.js';

/** The leaf types of the protobuf tables: proto scalars and the apimachinery messages JSON writes as scalars. */

export const string: ValueType = {
  label: 'string',
  decode: (f, at) => stringOf(f, at || 'string'),
  zero: '',
  isEmpty: (v) => v === '',
  struct: false,
};

/** int32 and int64 (both two's complement varints; JSON numbers, exact up to 2^53). */
export const int: ValueType = {
  label: 'int',
  decode: (f, at) => int64Of(f, at || 'int'),
  zero: 0,
  isEmpty: (v) => v === 0,
  struct: false,
  packable: true,
};

export const bool: ValueType = {
  label: 'bool',
  decode: (f, at) => boolOf(f, at || 'bool'),
  zero: false,
  isEmpty: (v) => v === false,
  struct: false,
  packable: true,
};

/** intstr.IntOrString {1 type, 2 intVal, 3 strVal}: a JSON number or string; a struct, so never omitted. */
export const intOrString: ValueType = {
  label: 'IntOrString',
  decode(f, at) {
    let type = 0;
    let intVal = 0;
    let strVal = '';
    for (const e of messageOf(f, 'IntOrString')) {
      if (e.number === 1) type = int64Of(e, 'IntOrString');
      else if (e.number === 2) intVal = int64Of(e, 'IntOrString');
      else if (e.number === 3) strVal = stringOf(e, 'IntOrString');
      else unknownIn(e, 'IntOrString', at);
    }
    return type === 1 ? strVal : intVal;
  },
  zero: 0,
  isEmpty: () => false,
  struct: true,
};

/** resource.Quantity {1 string}: gogo writes the canonical form, which is also what JSON carries. */
export const quantity: ValueType = {
  label: 'Quantity',
  decode(f, at) {
    let s = '';
    for (const e of messageOf(f, 'Quantity')) {
      if (e.number === 1) s = stringOf(e, 'Quantity');
      else unknownIn(e, 'Quantity', at);
    }
    return s === '' ? '0' : s;
  },
  zero: '0',
  isEmpty: () => false,
  struct: true,
};

/**
 * metav1.Time: RFC 3339, or left out when zero. Go ≤ 1.33 clients write a zero Time as null, 1.34+
 * leave it out (omitzero); the wire cannot tell them apart, and null and absent mean the same.
 */
export const time: ValueType = {
  label: 'Time',
  decode: (f, at) => timeOf(f, at || 'Time'),
  zero: undefined,
  isEmpty: () => false,
  struct: true,
};

/** metav1.ObjectMeta, with meta.ts's rules (server-owned fields and managedFields are not kept). */
export const objectMeta: ValueType = {
  label: 'ObjectMeta',
  decode: (f) => objectMetaOf(f),
  zero: {} as JsonObject,
  isEmpty: () => false,
  struct: true,
};

/** Unknown fields of the small leaf messages follow the same rule as schema.ts's tables. */
function unknownIn(f: Field, label: string, at: string): void {
  if (f.value.wire === 2 && f.value.bytes.length === 0) return;
  throw new UnknownFieldError(f.number, f.value.wire, label, at);
}
