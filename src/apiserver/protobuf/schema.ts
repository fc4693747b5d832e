import type { Writer } from 'protobufjs';
import type { JsonObject, JsonValue } from '../schema/types.js';
import { ProtobufDecodeError, ProtobufEncodeError } from './errors.js';
import { mapEntry } from './meta.js';
import { messageOf, packedVarints, type Field } from './reader.js';

/**
 * Table-driven decoding and encoding of k8s.io/api generated messages into the JSON Go's encoding/json would
 * write for the same Go struct, so that a protobuf body and the JSON body an older kubectl sends for
 * the same command store the same object. Each table row is [field number, JSON name, type]; rows
 * are listed in Go declaration order, which is the order of the keys in the output.
 *
 * How a field is written to JSON depends on its Go type and tag, which the wrappers below record:
 * - a scalar as is (`string`, `int`, `bool`): a non-pointer field tagged omitempty, left out when zero;
 * - `req(t)`: a non-pointer field without omitempty, always written, zero when absent;
 * - `ptr(t)`: a pointer, written when it is on the wire, zero or not (gogo writes nil pointers not at all);
 *   `nullPtr(t)`: a pointer without omitempty, null when it is not on the wire;
 * - a message as is: a non-pointer struct, which encoding/json always writes, `{}` when empty;
 * - `list(t)` / `nullList(t)`: a slice, left out when empty / written as null when empty (no omitempty);
 * - `map(t)`: map<string, t>, left out when empty;
 * - `inline(m)`: an embedded struct whose fields JSON writes into the enclosing object.
 *
 * The tables are built from the vendored generated.proto files and Go structs (descriptors.ts). A field
 * number a table does not list is skipped, as gogo's generated Unmarshal (and so kube-apiserver) skips it.
 */

export interface ValueType {
  readonly label: string;
  /** One occurrence on the wire; undefined when the value is one JSON leaves out (a zero metav1.Time). */
  decode(f: Field, at: string): JsonValue | undefined;
  /** What encoding/json writes for the Go zero value; undefined: nothing. */
  readonly zero: JsonValue | undefined;
  /** Whether omitempty leaves the value out; never for a Go struct, which encoding/json always writes. */
  isEmpty(v: JsonValue): boolean;
  /** A Go struct (a message, or IntOrString, Quantity, Time, ObjectMeta): a bare row means `req`. */
  readonly struct: boolean;
  /** Scalars a repeated field may pack into one length-delimited run of varints. */
  readonly packable?: boolean;
  /** The wire type it is written with: 0 varint, 1 fixed64, 2 length-delimited (the default). */
  readonly wire?: 0 | 1 | 2;
  /** Writes one occurrence as field `number` (its tag, then the value); `at` names it in errors. */
  encode(w: Writer, number: number, v: JsonValue, at: string): void;
}

type Presence =
  | 'omitempty'
  | 'required'
  | 'pointer'
  | 'nullPointer'
  | 'list'
  | 'nullList'
  | 'map'
  | 'nullMap'
  | 'inline';

interface Wrapped {
  readonly presence: Presence;
  readonly type: ValueType;
}

/** `goName`: the Go field's name, which gogo's errors name (`wrong wireType = 0 for field Verbs`). */
export type Row = readonly [number: number, json: string, type: ValueType | Wrapped, goName?: string];

interface FieldSpec {
  number: number;
  json: string;
  presence: Presence;
  type: ValueType;
  goName: string;
}

export const req = (type: ValueType): Wrapped => ({ presence: 'required', type });
export const ptr = (type: ValueType): Wrapped => ({ presence: 'pointer', type });
export const nullPtr = (type: ValueType): Wrapped => ({ presence: 'nullPointer', type });
export const list = (type: ValueType): Wrapped => ({ presence: 'list', type });
export const nullList = (type: ValueType): Wrapped => ({ presence: 'nullList', type });
export const map = (type: ValueType): Wrapped => ({ presence: 'map', type });
/** A map without omitempty: null when empty. */
export const nullMap = (type: ValueType): Wrapped => ({ presence: 'nullMap', type });
export const inline = (type: MessageType): Wrapped => ({ presence: 'inline', type });

function spec([number, json, t, goName = json]: Row): FieldSpec {
  if ('presence' in t) return { number, json, presence: t.presence, type: t.type, goName };
  // A bare struct is a non-pointer field: encoding/json writes it whatever omitempty says.
  return { number, json, presence: t.struct ? 'required' : 'omitempty', type: t, goName };
}

/**
 * How deep messages may nest in a body. Only a CRD's schema (JSONSchemaProps) can nest without end; each level
 * holds its path for error texts, which grow with the depth, so the bound is lower than JSON's 2,000 (http/nesting.ts)
 * to keep a hostile 3 MiB body's memory small.
 */
const MAX_DEPTH = 500;
let depth = 0;

export class MessageType implements ValueType {
  readonly struct = true;
  private specs?: FieldSpec[];
  private byNumber?: Map<number, FieldSpec>;
  private byNumberOrder?: FieldSpec[];

  /** `rows` is a thunk so that tables can refer to messages defined further down. */
  constructor(
    readonly label: string,
    private readonly rows: () => readonly Row[],
  ) {}

  private fields(): { specs: FieldSpec[]; byNumber: Map<number, FieldSpec> } {
    if (!this.specs || !this.byNumber) {
      this.specs = this.rows().map(spec);
      this.byNumber = new Map(this.specs.map((s) => [s.number, s]));
    }
    return { specs: this.specs, byNumber: this.byNumber };
  }

  /** Go's generated marshallers write fields in field-number order. */
  private wireOrder(): FieldSpec[] {
    this.byNumberOrder ??= [...this.fields().specs].sort((a, b) => a.number - b.number);
    return this.byNumberOrder;
  }

  encode(w: Writer, number: number, v: JsonValue, at: string): void {
    w.uint32((number << 3) | 2).fork();
    this.encodeFields(w, v, at);
    w.ldelim();
  }

  /**
   * The fields of `v` (this message's JSON form) onto `w`, without a tag or length of its own. Each field is given
   * only its own name as `at`; a failure is prefixed with the path on its way out, so the usual case builds no text.
   */
  encodeFields(w: Writer, v: JsonValue, at: string): void {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) {
      throw new ProtobufEncodeError(
        `${at || this.label}: expected an object for ${this.label}, got ${JSON.stringify(v)}`,
      );
    }
    try {
      for (const s of this.wireOrder()) {
        const value = s.presence === 'inline' ? v : v[s.json];
        if (value === undefined || value === null) continue;
        // An inline struct is its own message on the wire (Volume's volumeSource = 2), only JSON flattens it.
        if (s.presence === 'inline') s.type.encode(w, s.number, value, '');
        else if (s.presence === 'list' || s.presence === 'nullList') {
          if (!Array.isArray(value))
            throw new ProtobufEncodeError(`${s.json}: expected a list, got ${JSON.stringify(value)}`);
          for (const e of value) if (e !== null) s.type.encode(w, s.number, e, s.json);
        } else if (s.presence === 'map' || s.presence === 'nullMap') {
          if (typeof value !== 'object' || Array.isArray(value))
            throw new ProtobufEncodeError(`${s.json}: expected a map, got ${JSON.stringify(value)}`);
          // Go's marshallers sort map keys, which makes the bytes stable.
          for (const key of Object.keys(value).sort()) {
            const e = value[key];
            w.uint32((s.number << 3) | 2).fork();
            w.uint32(10).string(key);
            if (e !== null && e !== undefined) s.type.encode(w, 2, e, s.json);
            w.ldelim();
          }
        } else s.type.encode(w, s.number, value, s.json);
      }
    } catch (e) {
      if (!(e instanceof ProtobufEncodeError) || !at) throw e;
      throw new ProtobufEncodeError(`${at}.${e.message}`);
    }
  }

  get zero(): JsonObject {
    return this.decodeFields([], '');
  }

  /**
   * Adds to `v` (this message's JSON form), in place and at every depth, what encoding/json writes for a
   * field the object lacks: the zero of a non-pointer field without omitempty (`{}` for a struct, `0`,
   * `""`), and null for a nil pointer, slice or map without omitempty (a zero metav1.Time, which only
   * ObjectMeta's creationTimestamp leaves out by omitzero, is null too). Nothing is removed. A message
   * `inside` refuses is given as `{}` and not walked into (ObjectMeta, which the metadata rules own).
   */
  fillAbsent(v: JsonObject, inside: (t: MessageType) => boolean): void {
    for (const s of this.fields().specs) {
      const t = s.type instanceof MessageType && inside(s.type) ? s.type : undefined;
      if (s.presence === 'inline') {
        t?.fillAbsent(v, inside);
        continue;
      }
      const have = v[s.json];
      if (have === undefined) {
        if (s.presence === 'required') v[s.json] = absentZero(s.type, t, inside);
        else if (s.presence === 'nullPointer' || s.presence === 'nullList' || s.presence === 'nullMap')
          v[s.json] = null;
      } else if (t) {
        const nested =
          s.presence === 'list' || s.presence === 'nullList'
            ? Array.isArray(have)
              ? have
              : []
            : (s.presence === 'map' || s.presence === 'nullMap') && isObject(have)
              ? Object.values(have)
              : [have];
        for (const e of nested) if (isObject(e)) t.fillAbsent(e, inside);
      }
    }
  }

  isEmpty(): boolean {
    return false;
  }

  decode(f: Field, at: string): JsonObject {
    if (++depth > MAX_DEPTH) {
      depth = 0;
      const why =
        `messages nested deeper than ${MAX_DEPTH} levels at ${at} ` +
        "(this server's limit, as for JSON; kube-apiserver's decoder has none)";
      throw new ProtobufDecodeError(`invalid protobuf: ${why}`, `proto: ${why}`);
    }
    try {
      return this.decodeFields(messageOf(f, this.label), at);
    } finally {
      if (depth > 0) depth--;
    }
  }

  decodeFields(fields: Field[], at: string): JsonObject {
    const { specs, byNumber } = this.fields();
    const single = new Map<FieldSpec, JsonValue | undefined>();
    const lists = new Map<FieldSpec, JsonValue[]>();
    const maps = new Map<FieldSpec, JsonObject>();
    for (const f of fields) {
      const s = byNumber.get(f.number);
      // gogo's generated Unmarshal skips a field number it does not know (a newer API version's), as kube does.
      if (!s) continue;
      // Where the value sits in the JSON, for error messages; inline fields add no key.
      const here = s.json ? (at ? `${at}.${s.json}` : s.json) : at;
      const isList = s.presence === 'list' || s.presence === 'nullList';
      const wire = s.type.wire ?? 2;
      if (f.value.wire !== wire && !(isList && s.type.packable && f.value.wire === 2)) {
        const where = isList ? `${here}[${lists.get(s)?.length ?? 0}]` : here;
        throw new ProtobufDecodeError(
          `invalid protobuf in ${where || this.label}: field ${f.number} has wire type ${f.value.wire}, ` +
            `expected ${wire}`,
          `proto: wrong wireType = ${f.value.wire} for field ${s.goName}`,
        );
      }
      if (isList) {
        const into = lists.get(s) ?? [];
        lists.set(s, into);
        if (s.type.packable && f.value.wire === 2) into.push(...unpack(f, s.type, here));
        else into.push(s.type.decode(f, `${here}[${into.length}]`) ?? null);
      } else if (s.presence === 'map' || s.presence === 'nullMap') {
        const into = maps.get(s) ?? {};
        maps.set(s, into);
        const { key, value } = mapEntry(f, this.label);
        // Map values are always length-delimited here (string, bytes or a message); absent means empty.
        into[key] = s.type.decode({ number: 2, value: { wire: 2, bytes: value } }, `${here}[${key}]`) ?? null;
      } else {
        // Proto semantics: the last occurrence of a non-repeated field wins.
        single.set(s, s.type.decode(f, here));
      }
    }
    const out: JsonObject = {};
    for (const s of specs) {
      const v = single.get(s);
      switch (s.presence) {
        case 'omitempty':
          if (v !== undefined && !s.type.isEmpty(v)) out[s.json] = v;
          break;
        case 'required': {
          const w = single.has(s) ? v : s.type.zero;
          if (w !== undefined) out[s.json] = w;
          break;
        }
        case 'pointer':
          if (v !== undefined) out[s.json] = v;
          break;
        case 'nullPointer':
          out[s.json] = v ?? null;
          break;
        case 'list':
        case 'nullList': {
          const l = lists.get(s);
          if (l?.length) out[s.json] = l;
          else if (s.presence === 'nullList') out[s.json] = null;
          break;
        }
        case 'map':
        case 'nullMap': {
          const m = maps.get(s);
          if (m && Object.keys(m).length) out[s.json] = m;
          else if (s.presence === 'nullMap') out[s.json] = null;
          break;
        }
        case 'inline':
          Object.assign(out, single.has(s) ? v : s.type.zero);
          break;
      }
    }
    return out;
  }
}

function absentZero(type: ValueType, walked: MessageType | undefined, inside: (t: MessageType) => boolean): JsonValue {
  if (type instanceof MessageType) {
    const z: JsonObject = {};
    walked?.fillAbsent(z, inside);
    return z;
  }
  return type.zero === undefined ? null : structuredClone(type.zero);
}

const isObject = (v: JsonValue | undefined): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export const message = (label: string, rows: () => readonly Row[]): MessageType => new MessageType(label, rows);

function unpack(f: Field, type: ValueType, at: string): JsonValue[] {
  return packedVarints(f, type.label).map((g) => type.decode(g, at) ?? null);
}
