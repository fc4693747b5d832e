import type { JsonObject, JsonValue } from '../../registry/types.js';
import type { ProtoWriter } from './proto-writer.js';
import { ApiError } from '../status.js';

// Field numbers from gnostic-models openapiv2/OpenAPIv2.proto (message Schema and its helpers).
const S = {
  ref: 1,
  format: 2,
  title: 3,
  description: 4,
  default: 5,
  multipleOf: 6,
  maximum: 7,
  exclusiveMaximum: 8,
  minimum: 9,
  exclusiveMinimum: 10,
  maxLength: 11,
  minLength: 12,
  pattern: 13,
  maxItems: 14,
  minItems: 15,
  uniqueItems: 16,
  maxProperties: 17,
  minProperties: 18,
  required: 19,
  enum: 20,
  additionalProperties: 21,
  type: 22,
  items: 23,
  allOf: 24,
  properties: 25,
  discriminator: 26,
  readOnly: 27,
  example: 30,
  vendorExtension: 31,
} as const;
const NamedSchema = { name: 1, value: 2 } as const;
const AdditionalPropertiesItem = { schema: 1, boolean: 2 } as const;
const NamedAny = { name: 1, value: 2 } as const;
const AnyYaml = 2;

const STRINGS = ['format', 'title', 'description', 'pattern', 'discriminator'] as const;
const DOUBLES = ['multipleOf', 'maximum', 'minimum'] as const;
const INTS = ['maxLength', 'minLength', 'maxItems', 'minItems', 'maxProperties', 'minProperties'] as const;
const BOOLS = ['exclusiveMaximum', 'exclusiveMinimum', 'uniqueItems', 'readOnly'] as const;

/** Writes `definitions`' entries (Document.definitions → Definitions.additional_properties). */
export function writeNamedSchemas(w: ProtoWriter, field: number, schemas: JsonObject): void {
  for (const [name, schema] of Object.entries(schemas)) {
    w.message(field, (ns) =>
      ns.string(NamedSchema.name, name).message(NamedSchema.value, (s) => writeSchema(s, asObject(schema))),
    );
  }
}

/** A JSON Schema object as gnostic's `openapi_v2.Schema`; `x-` keys become vendor extensions. */
export function writeSchema(w: ProtoWriter, s: JsonObject): void {
  if (typeof s.$ref === 'string') w.string(S.ref, s.$ref);
  for (const k of STRINGS) if (typeof s[k] === 'string') w.string(S[k], s[k]);
  if (s.default !== undefined) w.message(S.default, (a) => a.string(AnyYaml, yaml(s.default!)));
  for (const k of DOUBLES) if (typeof s[k] === 'number') w.double(S[k], s[k]);
  for (const k of INTS) if (typeof s[k] === 'number') w.int64(S[k], s[k]);
  for (const k of BOOLS) if (s[k] === true) w.bool(S[k], true);
  if (Array.isArray(s.required))
    w.strings(
      S.required,
      s.required.filter((r): r is string => typeof r === 'string'),
    );
  if (Array.isArray(s.enum)) for (const v of s.enum) w.message(S.enum, (a) => a.string(AnyYaml, yaml(v)));
  const extra = s.additionalProperties;
  if (typeof extra === 'boolean')
    w.message(S.additionalProperties, (a) => a.boolPresent(AdditionalPropertiesItem.boolean, extra));
  else if (extra !== undefined)
    w.message(S.additionalProperties, (a) =>
      a.message(AdditionalPropertiesItem.schema, (x) => writeSchema(x, asObject(extra))),
    );
  if (s.type !== undefined)
    w.message(S.type, (t) => t.strings(1, (Array.isArray(s.type) ? s.type : [s.type]).map(String)));
  if (s.items !== undefined)
    w.message(S.items, (it) => {
      for (const item of Array.isArray(s.items) ? s.items : [s.items!])
        it.message(1, (x) => writeSchema(x, asObject(item)));
    });
  if (Array.isArray(s.allOf)) for (const sub of s.allOf) w.message(S.allOf, (x) => writeSchema(x, asObject(sub)));
  if (s.properties !== undefined) w.message(S.properties, (p) => writeNamedSchemas(p, 1, asObject(s.properties!)));
  if (s.example !== undefined) w.message(S.example, (a) => a.string(AnyYaml, yaml(s.example!)));
  for (const [k, v] of Object.entries(s)) {
    if (k.startsWith('x-'))
      w.message(S.vendorExtension, (na) =>
        na.string(NamedAny.name, k).message(NamedAny.value, (a) => a.string(AnyYaml, yaml(v))),
      );
  }
}

/** gnostic keeps `Any` values as YAML text; JSON is YAML, so the value's JSON is what is written. */
const yaml = (v: JsonValue): string => `${JSON.stringify(v)}\n`;

function asObject(v: JsonValue): JsonObject {
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v;
  throw new ApiError(500, 'InternalError', `OpenAPI v2: a schema must be an object, got ${JSON.stringify(v)}`);
}
