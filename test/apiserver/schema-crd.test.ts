import { describe, expect, it } from 'vitest';
import { validateCrdSchema } from '../../src/apiserver/schema/index.js';
import type { FieldCause } from '../../src/apiserver/schema/index.js';

const TYPES = '"array", "boolean", "integer", "number", "object", "string"';
const spec = (s: unknown): unknown => ({ type: 'object', properties: { spec: s } });
const c = (reason: FieldCause['reason'], field: string, message: string): FieldCause => ({ reason, field, message });

describe('validateCrdSchema', () => {
  it('accepts a typical structural schema', () => {
    expect(
      validateCrdSchema({
        type: 'object',
        properties: {
          spec: {
            type: 'object',
            required: ['size'],
            properties: {
              size: { type: 'integer', minimum: 0, default: 1 },
              mode: { type: 'string', enum: ['a', 'b'], pattern: '^[a-z]$' },
              port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
              tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
              labels: { type: 'object', additionalProperties: { type: 'string' } },
              raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
              anything: { 'x-kubernetes-preserve-unknown-fields': true },
              template: {
                type: 'object',
                'x-kubernetes-embedded-resource': true,
                'x-kubernetes-preserve-unknown-fields': true,
              },
              ranged: { type: 'integer', allOf: [{ minimum: 1 }, { maximum: 3 }] },
            },
          },
          status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      }),
    ).toEqual([]);
  });

  it('requires an object type at the root', () => {
    expect(validateCrdSchema({ properties: {} })).toEqual([
      c('FieldValueRequired', 'type', 'Required value: must not be empty at the root'),
    ]);
    expect(validateCrdSchema({ type: 'string' })).toEqual([
      c('FieldValueInvalid', 'type', 'Invalid value: "string": must be object at the root'),
    ]);
  });

  it('rejects a schema that is not an object', () => {
    expect(validateCrdSchema('nope')).toEqual([c('FieldValueInvalid', '', 'Invalid value: "nope": must be an object')]);
    expect(validateCrdSchema(undefined)).toEqual([
      c('FieldValueInvalid', '', 'Invalid value: null: must be an object'),
    ]);
  });

  it('rejects unknown types with the supported list', () => {
    expect(validateCrdSchema(spec({ type: 'Any' }))).toEqual([
      c('FieldValueNotSupported', 'properties[spec].type', `Unsupported value: "Any": supported values: ${TYPES}`),
    ]);
    expect(validateCrdSchema(spec({ type: 7 }))).toEqual([
      c('FieldValueNotSupported', 'properties[spec].type', `Unsupported value: 7: supported values: ${TYPES}`),
    ]);
  });

  it('requires types below the root, naming the position', () => {
    expect(validateCrdSchema(spec({ properties: {} }))).toEqual([
      c('FieldValueRequired', 'properties[spec].type', 'Required value: must not be empty for specified object fields'),
    ]);
    expect(validateCrdSchema(spec({ type: 'array', items: {} }))).toEqual([
      c(
        'FieldValueRequired',
        'properties[spec].items.type',
        'Required value: must not be empty for specified array items',
      ),
    ]);
  });

  it('requires items for arrays, as one schema', () => {
    expect(validateCrdSchema(spec({ type: 'array' }))).toEqual([
      c('FieldValueRequired', 'properties[spec].items', 'Required value: must be specified'),
    ]);
    expect(validateCrdSchema(spec({ type: 'array', items: [{ type: 'string' }] }))).toEqual([
      c('FieldValueForbidden', 'properties[spec].items', 'Forbidden: items must be a schema object and not an array'),
    ]);
  });

  it('checks properties is a map of schemas', () => {
    expect(validateCrdSchema({ type: 'object', properties: [] })).toEqual([
      c('FieldValueInvalid', 'properties', 'Invalid value: []: must be an object'),
    ]);
    expect(validateCrdSchema(spec('x'))).toEqual([
      c('FieldValueInvalid', 'properties[spec]', 'Invalid value: "x": must be an object'),
    ]);
  });

  it('restricts additionalProperties', () => {
    expect(validateCrdSchema({ type: 'object', additionalProperties: { type: 'string' } })).toEqual([
      c('FieldValueForbidden', 'additionalProperties', 'Forbidden: must not be used at the root'),
    ]);
    expect(validateCrdSchema(spec({ type: 'object', additionalProperties: false }))).toEqual([
      c(
        'FieldValueForbidden',
        'properties[spec].additionalProperties',
        'Forbidden: additionalProperties cannot be set to false',
      ),
    ]);
    expect(
      validateCrdSchema(
        spec({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } }),
      ),
    ).toEqual([
      c(
        'FieldValueForbidden',
        'properties[spec].additionalProperties',
        'Forbidden: additionalProperties and properties are mutual exclusive',
      ),
    ]);
    expect(validateCrdSchema(spec({ type: 'object', additionalProperties: { type: 'wat' } }))).toEqual([
      c(
        'FieldValueNotSupported',
        'properties[spec].additionalProperties.type',
        `Unsupported value: "wat": supported values: ${TYPES}`,
      ),
    ]);
  });

  it('checks the Kubernetes extensions', () => {
    expect(validateCrdSchema(spec({ type: 'object', 'x-kubernetes-preserve-unknown-fields': false }))).toEqual([
      c(
        'FieldValueInvalid',
        'properties[spec].x-kubernetes-preserve-unknown-fields',
        'Invalid value: false: must be true or undefined',
      ),
    ]);
    expect(
      validateCrdSchema(
        spec({ type: 'string', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true }),
      ),
    ).toEqual([
      c(
        'FieldValueInvalid',
        'properties[spec].type',
        'Invalid value: "string": must be object if x-kubernetes-embedded-resource is true',
      ),
    ]);
    expect(validateCrdSchema(spec({ type: 'object', 'x-kubernetes-embedded-resource': true }))).toEqual([
      c(
        'FieldValueRequired',
        'properties[spec].properties',
        'Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      ),
    ]);
    expect(
      validateCrdSchema(spec({ 'x-kubernetes-int-or-string': true, 'x-kubernetes-preserve-unknown-fields': true })),
    ).toEqual([
      c(
        'FieldValueInvalid',
        'properties[spec].x-kubernetes-preserve-unknown-fields',
        'Invalid value: true: must be false if x-kubernetes-int-or-string is true',
      ),
    ]);
  });

  it('forbids uniqueItems and broken patterns', () => {
    expect(validateCrdSchema(spec({ type: 'array', items: { type: 'string' }, uniqueItems: true }))).toEqual([
      c(
        'FieldValueForbidden',
        'properties[spec].uniqueItems',
        'Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      ),
    ]);
    const [cause] = validateCrdSchema(spec({ type: 'string', pattern: '([a-z' }));
    expect(cause?.field).toBe('properties[spec].pattern');
    expect(cause?.message).toMatch(/^Invalid value: "\(\[a-z": must be a valid regular expression, but isn't: /);
  });

  it('checks required and enum shapes', () => {
    expect(validateCrdSchema(spec({ type: 'object', required: 'a' }))).toEqual([
      c('FieldValueInvalid', 'properties[spec].required', 'Invalid value: "a": must be a list of strings'),
    ]);
    expect(validateCrdSchema(spec({ type: 'string', enum: 'a' }))).toEqual([
      c('FieldValueInvalid', 'properties[spec].enum', 'Invalid value: "a": must be a list'),
    ]);
  });

  it('keeps types out of anyOf/allOf/oneOf/not, except the int-or-string pattern', () => {
    expect(validateCrdSchema(spec({ type: 'object', anyOf: [{ type: 'string' }] }))).toEqual([
      c('FieldValueForbidden', 'properties[spec].anyOf[0].type', 'Forbidden: must be empty to be structural'),
    ]);
    expect(validateCrdSchema(spec({ type: 'string', not: { type: 'string' } }))).toEqual([
      c('FieldValueForbidden', 'properties[spec].not.type', 'Forbidden: must be empty to be structural'),
    ]);
    expect(
      validateCrdSchema(
        spec({
          'x-kubernetes-int-or-string': true,
          allOf: [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, { pattern: '^x' }],
        }),
      ),
    ).toEqual([]);
  });

  it('sorts causes by their text, as ValidateStructural does', () => {
    const causes = validateCrdSchema({
      type: 'object',
      properties: { z: { type: 'bogus' }, a: {}, m: { type: 'array' } },
    });
    expect(causes.map((x) => x.field)).toEqual(['properties[a].type', 'properties[m].items', 'properties[z].type']);
  });
});
