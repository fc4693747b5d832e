import { describe, expect, it } from 'vitest';
import { formatInvalidMessage, validateObject } from '../../src/apiserver/schema/index.js';
import type { FieldCause, JsonSchemaProps, JsonValue } from '../../src/apiserver/schema/index.js';

/** A Widget CRD's root schema with `spec` described by `spec`. */
const root = (spec: JsonSchemaProps, extra: JsonSchemaProps = {}): JsonSchemaProps => ({
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    spec,
    ...extra.properties,
  },
  ...(extra.required ? { required: extra.required } : {}),
});
const widget = (spec: JsonValue): JsonValue => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w1' },
  spec,
});
const check = (specSchema: JsonSchemaProps, spec: JsonValue): FieldCause[] =>
  validateObject(widget(spec), root(specSchema));
const size = (s: JsonSchemaProps): JsonSchemaProps => ({ type: 'object', properties: { size: s } });
const one = (reason: FieldCause['reason'], field: string, message: string): FieldCause[] => [
  { reason, field, message },
];

describe('validateObject: type', () => {
  it('reports the research example verbatim', () => {
    const causes = check(size({ type: 'integer' }), { size: 'big' });
    expect(causes).toEqual(
      one(
        'FieldValueTypeInvalid',
        'spec.size',
        'Invalid value: "string": spec.size in body must be of type integer: "string"',
      ),
    );
    expect(formatInvalidMessage('Widget.example.com', 'w1', causes)).toBe(
      'Widget.example.com "w1" is invalid: spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"',
    );
  });

  it.each([
    ['integer', 3, null],
    ['integer', -7, null],
    ['integer', 1.5, 'number'],
    ['number', 3, null],
    ['number', 3.25, null],
    ['number', '3', 'string'],
    ['string', '', null],
    ['string', 5, 'integer'],
    ['string', 5.5, 'number'],
    ['string', false, 'boolean'],
    ['boolean', true, null],
    ['boolean', 'true', 'string'],
    ['object', {}, null],
    ['object', [], 'array'],
    ['array', [], null],
    ['array', {}, 'object'],
    ['integer', null, 'null'],
  ])('%s accepts %j? (type seen: %s)', (type, value, seen) => {
    const causes = check(size({ type }), { size: value });
    if (seen === null) expect(causes).toEqual([]);
    else
      expect(causes).toEqual(
        one(
          'FieldValueTypeInvalid',
          'spec.size',
          `Invalid value: "${seen}": spec.size in body must be of type ${type}: "${seen}"`,
        ),
      );
  });

  it('accepts null only when nullable', () => {
    expect(check(size({ type: 'string', nullable: true }), { size: null })).toEqual([]);
    expect(check(size({ type: 'string' }), { size: null })).toEqual(
      one(
        'FieldValueTypeInvalid',
        'spec.size',
        'Invalid value: "null": spec.size in body must be of type string: "null"',
      ),
    );
  });

  it('x-kubernetes-int-or-string takes integers and strings only', () => {
    const s = size({ 'x-kubernetes-int-or-string': true });
    expect(check(s, { size: 8080 })).toEqual([]);
    expect(check(s, { size: '50%' })).toEqual([]);
    expect(check(s, { size: true })).toEqual(
      one(
        'FieldValueTypeInvalid',
        'spec.size',
        'Invalid value: "boolean": spec.size in body must be of type integer,string: "boolean"',
      ),
    );
    expect(check(s, { size: 1.5 })).toEqual(
      one(
        'FieldValueTypeInvalid',
        'spec.size',
        'Invalid value: "number": spec.size in body must be of type integer,string: "number"',
      ),
    );
  });

  it('names the root <nil>, as a nil field.Path prints', () => {
    expect(validateObject('x', { type: 'object' })).toEqual(
      one('FieldValueTypeInvalid', '<nil>', 'Invalid value: "string":  in body must be of type object: "string"'),
    );
  });

  it('does not check a node without a type', () => {
    expect(check(size({ 'x-kubernetes-preserve-unknown-fields': true }), { size: { anything: [1, 'two'] } })).toEqual(
      [],
    );
  });
});

describe('validateObject: required', () => {
  it('reports missing properties at every depth', () => {
    const schema = root(
      {
        type: 'object',
        required: ['size', 'name'],
        properties: { size: { type: 'integer' }, name: { type: 'string' } },
      },
      { required: ['spec'] },
    );
    expect(validateObject(widget({ size: 1 }), schema)).toEqual(
      one('FieldValueRequired', 'spec.name', 'Required value'),
    );
    const noSpec = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' } };
    expect(validateObject(noSpec, schema)).toEqual(one('FieldValueRequired', 'spec', 'Required value'));
  });

  it('counts an explicit null as present', () => {
    expect(
      check({ type: 'object', required: ['a'], properties: { a: { type: 'string', nullable: true } } }, { a: null }),
    ).toEqual([]);
  });

  it('uses [i] for items', () => {
    const s: JsonSchemaProps = {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
        },
      },
    };
    expect(check(s, { items: [{ name: 'a' }, { name: 'b' }, {}] })).toEqual(
      one('FieldValueRequired', 'spec.items[2].name', 'Required value'),
    );
  });
});

describe('validateObject: enum', () => {
  it('lists the supported values', () => {
    expect(check(size({ type: 'string', enum: ['small', 'large'] }), { size: 'huge' })).toEqual(
      one('FieldValueNotSupported', 'spec.size', 'Unsupported value: "huge": supported values: "small", "large"'),
    );
    expect(check(size({ type: 'string', enum: ['small', 'large'] }), { size: 'small' })).toEqual([]);
  });

  it('quotes non-string enum values as JSON', () => {
    expect(check(size({ type: 'integer', enum: [1, 2] }), { size: 3 })).toEqual(
      one('FieldValueNotSupported', 'spec.size', 'Unsupported value: 3: supported values: "1", "2"'),
    );
    expect(check(size({ enum: [{ a: 1 }, true] }), { size: { a: 2 } })).toEqual(
      one('FieldValueNotSupported', 'spec.size', 'Unsupported value: {"a":2}: supported values: "{\\"a\\":1}", "true"'),
    );
    expect(check(size({ enum: [{ a: 1 }] }), { size: { a: 1 } })).toEqual([]);
  });

  it('never lets null satisfy an enum, as kube-openapi does', () => {
    expect(check(size({ type: 'string', nullable: true, enum: ['a'] }), { size: null })).toEqual(
      one('FieldValueNotSupported', 'spec.size', 'Unsupported value: null: supported values: "a"'),
    );
  });

  it('reports the empty string like any other value', () => {
    expect(check(size({ type: 'string', enum: ['APIKey', 'AWSCredentials'] }), { size: '' })).toEqual(
      one('FieldValueNotSupported', 'spec.size', 'Unsupported value: "": supported values: "APIKey", "AWSCredentials"'),
    );
  });
});

describe('validateObject: strings', () => {
  it('pattern', () => {
    expect(check(size({ type: 'string', pattern: '^[a-z]+$' }), { size: 'ABC' })).toEqual(
      one('FieldValueInvalid', 'spec.size', 'Invalid value: "ABC": spec.size in body should match \'^[a-z]+$\''),
    );
    expect(check(size({ type: 'string', pattern: '^[a-z]+$' }), { size: 'abc' })).toEqual([]);
    expect(check(size({ type: 'string', pattern: '[0-9]' }), { size: 'a1b' })).toEqual([]);
  });

  it('minLength', () => {
    expect(check(size({ type: 'string', minLength: 3 }), { size: 'ab' })).toEqual(
      one('FieldValueInvalid', 'spec.size', 'Invalid value: "ab": spec.size in body should be at least 3 chars long'),
    );
    expect(check(size({ type: 'string', minLength: 1 }), { size: '' })).toEqual(
      one('FieldValueInvalid', 'spec.size', 'Invalid value: "": spec.size in body should be at least 1 chars long'),
    );
  });

  it('maxLength leaves the value out', () => {
    expect(check(size({ type: 'string', maxLength: 5 }), { size: 'toolongname' })).toEqual(
      one('FieldValueTooLong', 'spec.size', 'Too long: may not be more than 5 bytes'),
    );
    expect(check(size({ type: 'string', maxLength: 1 }), { size: 'ab' })).toEqual(
      one('FieldValueTooLong', 'spec.size', 'Too long: may not be more than 1 byte'),
    );
  });

  it('counts runes, not UTF-16 units or bytes', () => {
    expect(check(size({ type: 'string', maxLength: 3 }), { size: 'é🎉ü' })).toEqual([]);
    expect(check(size({ type: 'string', minLength: 2 }), { size: '🎉' })).toHaveLength(1);
  });

  it('stops at the first string failure', () => {
    expect(check(size({ type: 'string', maxLength: 2, pattern: '^[0-9]+$' }), { size: 'abc' })).toEqual(
      one('FieldValueTooLong', 'spec.size', 'Too long: may not be more than 2 bytes'),
    );
  });

  it('escapes values as Go %q does', () => {
    expect(check(size({ type: 'string', pattern: '^x$' }), { size: 'a\tb"c\u0001' })).toEqual(
      one('FieldValueInvalid', 'spec.size', 'Invalid value: "a\\tb\\"c\\x01": spec.size in body should match \'^x$\''),
    );
  });
});

describe('validateObject: formats', () => {
  it.each([
    ['date-time', '2024-05-01T10:00:00Z', true],
    ['date-time', '2024-05-01T10:00:00.123+02:00', true],
    ['date-time', '2024-02-30T10:00:00Z', false],
    ['date-time', 'yesterday', false],
    ['date', '2024-05-01', true],
    ['date', '2024-13-01', false],
    ['byte', 'aGVsbG8=', true],
    ['byte', 'not base64!', false],
    ['uuid', '123e4567-e89b-12d3-a456-426614174000', true],
    ['uuid', 'nope', false],
    ['ipv4', '10.0.0.1', true],
    ['ipv4', '10.0.0.256', false],
    ['ipv6', '::1', true],
    ['cidr', '10.0.0.0/8', true],
    ['cidr', '10.0.0.0/33', false],
    ['hostname', 'example.com', true],
    ['hostname', 'bad_host!', false],
    ['email', 'a@example.com', true],
    ['mac', '01:23:45:67:89:ab', true],
    ['duration', '1h30m', true],
    ['duration', 'soon', false],
    ['uri', 'https://example.com/x', true],
    ['uri', 'not a uri', false],
    ['k8s-short-name', 'my-name', true],
    ['k8s-short-name', 'My_Name', false],
  ])('%s %j -> %s', (format, value, ok) => {
    const causes = check(size({ type: 'string', format }), { size: value });
    if (ok) expect(causes).toEqual([]);
    else
      expect(causes).toEqual(
        one(
          'FieldValueTypeInvalid',
          'spec.size',
          `Invalid value: "${value}": spec.size in body must be of type ${format}: "${value}"`,
        ),
      );
  });

  it('ignores the formats kube-apiserver strips (int32, int64, float, double, unknown)', () => {
    expect(check(size({ type: 'integer', format: 'int32' }), { size: 2 ** 40 })).toEqual([]);
    expect(check(size({ type: 'number', format: 'double' }), { size: 1.5 })).toEqual([]);
    expect(check(size({ type: 'string', format: 'my-own-format' }), { size: '!!' })).toEqual([]);
    expect(check(size({ type: 'string', format: 'constructor' }), { size: 'x' })).toEqual([]);
  });
});

describe('validateObject: numbers', () => {
  it.each([
    [{ maximum: 10 }, 11, 'Invalid value: 11: spec.size in body should be less than or equal to 10'],
    [{ maximum: 10 }, 10, null],
    [{ maximum: 10, exclusiveMaximum: true }, 10, 'Invalid value: 10: spec.size in body should be less than 10'],
    [{ maximum: 10, exclusiveMaximum: true }, 9, null],
    [{ minimum: 1 }, 0, 'Invalid value: 0: spec.size in body should be greater than or equal to 1'],
    [{ minimum: 1 }, 1, null],
    [{ minimum: 1, exclusiveMinimum: true }, 1, 'Invalid value: 1: spec.size in body should be greater than 1'],
    [{ minimum: -5 }, -6, 'Invalid value: -6: spec.size in body should be greater than or equal to -5'],
    [{ multipleOf: 5 }, 7, 'Invalid value: 7: spec.size in body should be a multiple of 5'],
    [{ multipleOf: 5 }, 10, null],
  ])('integer %j with %d', (bounds, value, message) => {
    const causes = check(size({ type: 'integer', ...bounds }), { size: value });
    expect(causes).toEqual(message === null ? [] : one('FieldValueInvalid', 'spec.size', message));
  });

  it('prints float values and bounds with Go %v', () => {
    expect(check(size({ type: 'number', maximum: 10 }), { size: 10.5 })).toEqual(
      one(
        'FieldValueInvalid',
        'spec.size',
        'Invalid value: 10.5: spec.size in body should be less than or equal to 10',
      ),
    );
    expect(check(size({ type: 'number', maximum: 1e6 }), { size: 1500000.5 })).toEqual(
      one(
        'FieldValueInvalid',
        'spec.size',
        'Invalid value: 1.5000005e+06: spec.size in body should be less than or equal to 1e+06',
      ),
    );
    expect(check(size({ type: 'number', minimum: 0.5 }), { size: 0.25 })).toEqual(
      one(
        'FieldValueInvalid',
        'spec.size',
        'Invalid value: 0.25: spec.size in body should be greater than or equal to 0.5',
      ),
    );
    expect(check(size({ type: 'number', multipleOf: 0.5 }), { size: 0.75 })).toEqual(
      one('FieldValueInvalid', 'spec.size', 'Invalid value: 0.75: spec.size in body should be a multiple of 0.5'),
    );
  });

  it('prints large integers in full', () => {
    expect(check(size({ type: 'integer', maximum: 1e6 }), { size: 2000000 })).toEqual(
      one(
        'FieldValueInvalid',
        'spec.size',
        'Invalid value: 2000000: spec.size in body should be less than or equal to 1000000',
      ),
    );
  });

  it('reports multipleOf, minimum and maximum together in that order', () => {
    expect(check(size({ type: 'integer', multipleOf: 2, maximum: 4 }), { size: 5 }).map((c) => c.message)).toEqual([
      'Invalid value: 5: spec.size in body should be a multiple of 2',
      'Invalid value: 5: spec.size in body should be less than or equal to 4',
    ]);
  });
});

describe('validateObject: arrays and objects', () => {
  const list = (s: JsonSchemaProps): JsonSchemaProps => ({
    type: 'object',
    properties: { tags: { type: 'array', items: { type: 'string' }, ...s } },
  });

  it('minItems / maxItems', () => {
    expect(check(list({ minItems: 2 }), { tags: ['a'] })).toEqual(
      one('FieldValueInvalid', 'spec.tags', 'Invalid value: 1: spec.tags in body should have at least 2 items'),
    );
    expect(check(list({ maxItems: 2 }), { tags: ['a', 'b', 'c'] })).toEqual(
      one('FieldValueTooMany', 'spec.tags', 'Too many: 3: must have at most 2 items'),
    );
    expect(check(list({ maxItems: 1 }), { tags: ['a', 'b'] })).toEqual(
      one('FieldValueTooMany', 'spec.tags', 'Too many: 2: must have at most 1 item'),
    );
    expect(check(list({ minItems: 1, maxItems: 2 }), { tags: ['a'] })).toEqual([]);
  });

  it('uniqueItems', () => {
    expect(check(list({ uniqueItems: true }), { tags: ['a', 'b', 'a'] })).toEqual(
      one('FieldValueInvalid', 'spec.tags', 'Invalid value: "": spec.tags in body shouldn\'t contain duplicates'),
    );
    expect(check(list({ uniqueItems: true }), { tags: ['a', 'b'] })).toEqual([]);
  });

  it('validates items before the list itself', () => {
    expect(check(list({ maxItems: 1 }), { tags: ['a', 2] }).map((c) => c.field)).toEqual(['spec.tags[1]', 'spec.tags']);
  });

  it('minProperties / maxProperties', () => {
    const m = (s: JsonSchemaProps): JsonSchemaProps => ({
      type: 'object',
      properties: { m: { type: 'object', additionalProperties: { type: 'string' }, ...s } },
    });
    expect(check(m({ minProperties: 2 }), { m: { a: 'x' } })).toEqual(
      one('FieldValueInvalid', 'spec.m', 'Invalid value: 1: spec.m in body should have at least 2 properties'),
    );
    expect(check(m({ maxProperties: 1 }), { m: { a: 'x', b: 'y' } })).toEqual(
      one('FieldValueTooMany', 'spec.m', 'Too many: 2: must have at most 1 item'),
    );
  });

  it('validates additionalProperties values under path.key', () => {
    const s: JsonSchemaProps = {
      type: 'object',
      properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } },
    };
    expect(check(s, { labels: { ok: 'x', bad: 5 } })).toEqual(
      one(
        'FieldValueTypeInvalid',
        'spec.labels.bad',
        'Invalid value: "integer": spec.labels.bad in body must be of type string: "integer"',
      ),
    );
  });

  it('rejects extra keys under additionalProperties: false', () => {
    const s: JsonSchemaProps = {
      type: 'object',
      properties: { o: { type: 'object', additionalProperties: false, properties: { a: { type: 'string' } } } },
    };
    expect(check(s, { o: { a: 'x', b: 'y' } })).toEqual(
      one('FieldValueInvalid', 'spec.o', 'Invalid value: "b": spec.o.b in body is a forbidden property'),
    );
  });

  it('leaves unknown fields alone (pruning handles them)', () => {
    expect(check(size({ type: 'integer' }), { size: 1, extra: 'x' })).toEqual([]);
  });

  it('collects several causes in schema order', () => {
    const s: JsonSchemaProps = {
      type: 'object',
      required: ['replicas'],
      properties: {
        image: { type: 'string' },
        port: { type: 'integer', maximum: 65535 },
        mode: { type: 'string', enum: ['a', 'b'] },
        replicas: { type: 'integer' },
      },
    };
    const causes = check(s, { mode: 'c', port: 70000, image: 3 });
    expect(causes).toEqual([
      {
        reason: 'FieldValueTypeInvalid',
        field: 'spec.image',
        message: 'Invalid value: "integer": spec.image in body must be of type string: "integer"',
      },
      {
        reason: 'FieldValueInvalid',
        field: 'spec.port',
        message: 'Invalid value: 70000: spec.port in body should be less than or equal to 65535',
      },
      {
        reason: 'FieldValueNotSupported',
        field: 'spec.mode',
        message: 'Unsupported value: "c": supported values: "a", "b"',
      },
      { reason: 'FieldValueRequired', field: 'spec.replicas', message: 'Required value' },
    ]);
    expect(formatInvalidMessage('Widget.example.com', 'w1', causes)).toBe(
      'Widget.example.com "w1" is invalid: [spec.image: Invalid value: "integer": spec.image in body must be of type string: "integer", ' +
        'spec.port: Invalid value: 70000: spec.port in body should be less than or equal to 65535, ' +
        'spec.mode: Unsupported value: "c": supported values: "a", "b", spec.replicas: Required value]',
    );
  });
});

describe('validateObject: anyOf / oneOf / allOf / not', () => {
  const composite = (message: string): FieldCause => ({
    reason: 'FieldValueInvalid',
    field: '<nil>',
    message: `Invalid value: "": ${message}`,
  });

  it('anyOf: reports the composite error and the closest branch', () => {
    const s: JsonSchemaProps = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      anyOf: [{ required: ['a'] }, { required: ['b'] }],
    };
    expect(check(s, { a: 'x' })).toEqual([]);
    expect(check(s, {})).toEqual([
      composite('"spec" must validate at least one schema (anyOf)'),
      { reason: 'FieldValueRequired', field: 'spec.a', message: 'Required value' },
    ]);
  });

  it('oneOf: none or several valid', () => {
    const s: JsonSchemaProps = {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      oneOf: [{ required: ['a'] }, { required: ['b'] }],
    };
    expect(check(s, { a: 'x' })).toEqual([]);
    expect(check(s, { a: 'x', b: 'y' })).toEqual([
      composite('"spec" must validate one and only one schema (oneOf). Found 2 valid alternatives'),
    ]);
    expect(check(s, {})).toEqual([
      composite('"spec" must validate one and only one schema (oneOf). Found none valid'),
      { reason: 'FieldValueRequired', field: 'spec.a', message: 'Required value' },
    ]);
  });

  it('allOf: every branch error, then the composite', () => {
    const s: JsonSchemaProps = {
      type: 'object',
      properties: { n: { type: 'integer', allOf: [{ minimum: 1 }, { maximum: 5 }] } },
    };
    expect(check(s, { n: 3 })).toEqual([]);
    expect(check(s, { n: 9 })).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.n',
        message: 'Invalid value: 9: spec.n in body should be less than or equal to 5',
      },
      composite('"spec.n" must validate all the schemas (allOf)'),
    ]);
  });

  it('not', () => {
    const s: JsonSchemaProps = { type: 'object', properties: { n: { type: 'string', not: { enum: ['forbidden'] } } } };
    expect(check(s, { n: 'ok' })).toEqual([]);
    expect(check(s, { n: 'forbidden' })).toEqual([composite('"spec.n" must not validate the schema (not)')]);
  });

  it('int-or-string with its anyOf pattern', () => {
    const s = size({ 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] });
    expect(check(s, { size: 3 })).toEqual([]);
    expect(check(s, { size: '3' })).toEqual([]);
    expect(check(s, { size: true }).map((c) => c.field)).toEqual(['spec.size', '<nil>', 'spec.size']);
  });
});

describe('validateObject: list types and embedded resources', () => {
  it('x-kubernetes-list-type: set reports the first repeat of each value', () => {
    const s: JsonSchemaProps = {
      type: 'object',
      properties: { tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } } },
    };
    expect(check(s, { tags: ['a', 'b', 'a', 'b', 'a'] })).toEqual([
      { reason: 'FieldValueDuplicate', field: 'spec.tags[2]', message: 'Duplicate value: "a"' },
      { reason: 'FieldValueDuplicate', field: 'spec.tags[3]', message: 'Duplicate value: "b"' },
    ]);
    expect(check(s, { tags: ['a', 'b'] })).toEqual([]);
  });

  it('x-kubernetes-list-type: map compares the key fields', () => {
    const item: JsonSchemaProps = {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string' }, port: { type: 'integer' } },
    };
    const s: JsonSchemaProps = {
      type: 'object',
      properties: {
        ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: item },
      },
    };
    expect(
      check(s, {
        ports: [
          { name: 'http', port: 80 },
          { name: 'http', port: 8080 },
        ],
      }),
    ).toEqual(one('FieldValueDuplicate', 'spec.ports[1]', 'Duplicate value: {"name":"http"}'));
    const two: JsonSchemaProps = {
      type: 'object',
      properties: {
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['port', 'protocol'],
          items: { type: 'object', properties: { port: { type: 'integer' }, protocol: { type: 'string' } } },
        },
      },
    };
    expect(
      check(two, {
        ports: [
          { port: 53, protocol: 'UDP' },
          { port: 53, protocol: 'TCP' },
        ],
      }),
    ).toEqual([]);
    expect(
      check(two, {
        ports: [
          { protocol: 'UDP', port: 53 },
          { port: 53, protocol: 'UDP' },
        ],
      }),
    ).toEqual(one('FieldValueDuplicate', 'spec.ports[1]', 'Duplicate value: {"port":53,"protocol":"UDP"}'));
  });

  it('embedded resources need apiVersion and kind', () => {
    const s: JsonSchemaProps = {
      type: 'object',
      properties: {
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
      },
    };
    expect(check(s, { template: { apiVersion: 'v1', kind: 'Pod' } })).toEqual([]);
    expect(check(s, { template: { apiVersion: '', metadata: {} } })).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.template.apiVersion',
        message: 'Invalid value: "": must not be empty',
      },
      { reason: 'FieldValueRequired', field: 'spec.template.kind', message: 'Required value: must not be empty' },
    ]);
  });
});

describe('validateObject: options and odd schemas', () => {
  it('validates status whether or not there is a status subresource', () => {
    const schema = root(
      { type: 'object' },
      { properties: { status: { type: 'object', properties: { ready: { type: 'boolean' } } } } },
    );
    const obj = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, status: { ready: 'yes' } };
    const want = one(
      'FieldValueTypeInvalid',
      'status.ready',
      'Invalid value: "string": status.ready in body must be of type boolean: "string"',
    );
    expect(validateObject(obj, schema, { statusSubresource: true })).toEqual(want);
    expect(validateObject(obj, schema)).toEqual(want);
  });

  it('survives malformed schema parts', () => {
    const bad = {
      type: 'object',
      properties: 'nope',
      required: 'x',
      items: 5,
      enum: 'a',
      anyOf: {},
    } as unknown as JsonSchemaProps;
    expect(validateObject({ a: 1 }, bad)).toEqual([]);
  });

  it('ignores properties named like Object.prototype members', () => {
    expect(
      check(
        { type: 'object', properties: { a: { type: 'string' } } },
        JSON.parse('{"constructor": 1, "__proto__": {"x": 1}}') as JsonValue,
      ),
    ).toEqual([]);
  });
});

describe('formatInvalidMessage', () => {
  const c = (field: string, message: string): FieldCause => ({ reason: 'FieldValueInvalid', field, message });

  it('has no suffix without causes', () => {
    expect(formatInvalidMessage('Widget.example.com', 'w1', [])).toBe('Widget.example.com "w1" is invalid');
  });

  it('inlines one cause and brackets several', () => {
    expect(formatInvalidMessage('ConfigMap', 'c', [c('data', 'bad')])).toBe('ConfigMap "c" is invalid: data: bad');
    expect(formatInvalidMessage('ConfigMap', 'c', [c('a', 'x'), c('b', 'y')])).toBe(
      'ConfigMap "c" is invalid: [a: x, b: y]',
    );
  });

  it('drops repeated texts like ErrorList.ToAggregate', () => {
    expect(formatInvalidMessage('K.g', 'n', [c('a', 'x'), c('a', 'x')])).toBe('K.g "n" is invalid: a: x');
    expect(formatInvalidMessage('K.g', 'n', [c('a', 'x'), c('b', 'y'), c('a', 'x')])).toBe(
      'K.g "n" is invalid: [a: x, b: y]',
    );
  });

  it('quotes the name like Go %q', () => {
    expect(formatInvalidMessage('K.g', 'we"ird', [])).toBe('K.g "we\\"ird" is invalid');
  });
});
