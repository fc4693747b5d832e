import { describe, expect, it } from 'vitest';
import {
  applyDefaults,
  findUnknownFields,
  pruneUnknownFields,
  validateObject,
} from '../../src/apiserver/schema/index.js';
import type { JsonObject, JsonSchemaProps } from '../../src/apiserver/schema/index.js';

const schema: JsonSchemaProps = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        size: { type: 'integer' },
        port: { 'x-kubernetes-int-or-string': true },
        items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        nested: { type: 'object', additionalProperties: { type: 'object', properties: { x: { type: 'integer' } } } },
        free: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { known: { type: 'object', properties: { a: { type: 'string' } } } },
        },
        anyMap: { type: 'object', additionalProperties: true },
        opaque: { type: 'object' },
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { spec: { type: 'object', properties: { image: { type: 'string' } } } },
        },
        maybe: { type: 'string', nullable: true },
        never: { type: 'string' },
        defaulted: { type: 'string', default: 'd' },
      },
    },
    status: { type: 'object', properties: { ready: { type: 'boolean' } } },
  },
};

const cr = (spec: JsonObject, extra: JsonObject = {}): JsonObject => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w1', namespace: 'default', labels: { a: 'b' } },
  spec,
  ...extra,
});

describe('pruneUnknownFields / findUnknownFields', () => {
  it('drops unknown fields and reports them sorted, as Strict does', () => {
    const obj = cr({ size: 1, foo: 'x', bar: { deep: 1 } }, { extra: true });
    expect(findUnknownFields(obj, schema)).toEqual(['extra', 'spec.bar', 'spec.foo']);
    expect(pruneUnknownFields(obj, schema)).toEqual(cr({ size: 1 }));
  });

  it('never touches root apiVersion, kind or known metadata', () => {
    const obj = cr({});
    expect(findUnknownFields(obj, schema)).toEqual([]);
    expect(pruneUnknownFields(obj, schema)).toEqual(obj);
  });

  it('drops unknown ObjectMeta fields, as the apiserver coerces metadata', () => {
    const obj = cr(
      {},
      {
        metadata: {
          name: 'w1',
          bogus: 1,
          ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u', extra: 1 }],
        },
      },
    );
    expect(findUnknownFields(obj, schema)).toEqual(['metadata.bogus', 'metadata.ownerReferences[0].extra']);
    expect(pruneUnknownFields(obj, schema).metadata).toEqual({
      name: 'w1',
      ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'u' }],
    });
  });

  it('indexes array items with [i]', () => {
    const obj = cr({ items: [{ name: 'a' }, { name: 'b', oops: 1 }] });
    expect(findUnknownFields(obj, schema)).toEqual(['spec.items[1].oops']);
    expect(pruneUnknownFields(obj, schema).spec).toEqual({ items: [{ name: 'a' }, { name: 'b' }] });
  });

  it('keeps additionalProperties keys and prunes inside their values', () => {
    const obj = cr({ labels: { any: 'thing' }, nested: { k1: { x: 1, y: 2 } } });
    expect(findUnknownFields(obj, schema)).toEqual(['spec.nested.k1.y']);
    expect(pruneUnknownFields(obj, schema).spec).toEqual({ labels: { any: 'thing' }, nested: { k1: { x: 1 } } });
  });

  it('keeps everything under additionalProperties: true', () => {
    const obj = cr({ anyMap: { a: { b: [1, { c: 2 }] } } });
    expect(findUnknownFields(obj, schema)).toEqual([]);
    expect(pruneUnknownFields(obj, schema)).toEqual(obj);
  });

  it('honours x-kubernetes-preserve-unknown-fields but still prunes specified children', () => {
    const obj = cr({ free: { whatever: { x: 1 }, known: { a: 'x', b: 'y' } } });
    expect(findUnknownFields(obj, schema)).toEqual(['spec.free.known.b']);
    expect(pruneUnknownFields(obj, schema).spec).toEqual({ free: { whatever: { x: 1 }, known: { a: 'x' } } });
  });

  it('empties an object schema without properties', () => {
    const obj = cr({ opaque: { a: 1, b: { c: 2 } } });
    expect(findUnknownFields(obj, schema)).toEqual(['spec.opaque.a', 'spec.opaque.b']);
    expect(pruneUnknownFields(obj, schema).spec).toEqual({ opaque: {} });
  });

  it('keeps apiVersion, kind and metadata of embedded resources', () => {
    const obj = cr({
      template: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { labels: { x: 'y' }, junk: 1 },
        spec: { image: 'nginx', junk: 2 },
        junk: 3,
      },
    });
    expect(findUnknownFields(obj, schema)).toEqual([
      'spec.template.junk',
      'spec.template.metadata.junk',
      'spec.template.spec.junk',
    ]);
    expect(pruneUnknownFields(obj, schema).spec).toEqual({
      template: { apiVersion: 'v1', kind: 'Pod', metadata: { labels: { x: 'y' } }, spec: { image: 'nginx' } },
    });
  });

  it('leaves int-or-string scalars alone', () => {
    expect(pruneUnknownFields(cr({ port: 'http' }), schema).spec).toEqual({ port: 'http' });
    expect(pruneUnknownFields(cr({ port: 80 }), schema).spec).toEqual({ port: 80 });
  });

  it('drops non-nullable nulls without a default, keeps the others', () => {
    const pruned = pruneUnknownFields(cr({ maybe: null, never: null, defaulted: null }), schema);
    expect(pruned.spec).toEqual({ maybe: null, defaulted: null });
    expect(findUnknownFields(cr({ never: null }), schema)).toEqual([]);
  });

  it('does not mutate its input', () => {
    const obj = cr({ foo: 1 });
    const before = structuredClone(obj);
    pruneUnknownFields(obj, schema);
    findUnknownFields(obj, schema);
    expect(obj).toEqual(before);
  });

  it('keeps everything when the root preserves unknown fields', () => {
    const obj = cr({ a: 1 }, { top: { x: 1 } });
    expect(findUnknownFields(obj, { type: 'object', 'x-kubernetes-preserve-unknown-fields': true })).toEqual([]);
  });

  it('returns nothing for a non-object', () => {
    expect(findUnknownFields('x', schema)).toEqual([]);
    expect(findUnknownFields(null, schema)).toEqual([]);
  });
});

describe('applyDefaults', () => {
  const d: JsonSchemaProps = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          replicas: { type: 'integer', default: 1 },
          mode: { type: 'string', default: 'auto' },
          nullableWithDefault: { type: 'string', nullable: true, default: 'x' },
          strategy: {
            type: 'object',
            default: {},
            properties: {
              type: { type: 'string', default: 'RollingUpdate' },
              maxSurge: { 'x-kubernetes-int-or-string': true, default: '25%' },
            },
          },
          noDefault: { type: 'object', properties: { inner: { type: 'string', default: 'never-created' } } },
          ports: {
            type: 'array',
            items: {
              type: 'object',
              default: { port: 80 },
              properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' } },
            },
          },
          env: { type: 'object', additionalProperties: { type: 'string', default: 'unset' } },
        },
      },
    },
  };
  const obj = (spec: JsonObject): JsonObject => ({
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w' },
    spec,
  });

  it('fills missing fields, recursing into what it just defaulted', () => {
    expect(applyDefaults(obj({}), d).spec).toEqual({
      replicas: 1,
      mode: 'auto',
      nullableWithDefault: 'x',
      strategy: { type: 'RollingUpdate', maxSurge: '25%' },
    });
  });

  it('keeps values that are set', () => {
    expect(applyDefaults(obj({ replicas: 3, mode: 'manual', strategy: { type: 'Recreate' } }), d).spec).toMatchObject({
      replicas: 3,
      mode: 'manual',
      strategy: { type: 'Recreate', maxSurge: '25%' },
    });
  });

  it('replaces non-nullable nulls but keeps nullable ones', () => {
    expect(applyDefaults(obj({ replicas: null, nullableWithDefault: null }), d).spec).toMatchObject({
      replicas: 1,
      nullableWithDefault: null,
    });
  });

  it('never creates a parent that is missing', () => {
    expect(applyDefaults(obj({}), d).spec).not.toHaveProperty('noDefault');
    expect(applyDefaults({ apiVersion: 'v', kind: 'k', metadata: {} }, d)).toEqual({
      apiVersion: 'v',
      kind: 'k',
      metadata: {},
    });
    expect(applyDefaults(obj({ noDefault: {} }), d).spec).toMatchObject({ noDefault: { inner: 'never-created' } });
  });

  it('defaults array items and null items', () => {
    expect(applyDefaults(obj({ ports: [{ port: 443 }, null] }), d).spec).toMatchObject({
      ports: [
        { port: 443, protocol: 'TCP' },
        { port: 80, protocol: 'TCP' },
      ],
    });
  });

  it('defaults null additionalProperties values', () => {
    expect(applyDefaults(obj({ env: { A: 'a', B: null } }), d).spec).toMatchObject({ env: { A: 'a', B: 'unset' } });
  });

  it('copies default values, leaving the schema and the input untouched', () => {
    const input = obj({});
    const a = applyDefaults(input, d);
    (a.spec as JsonObject).strategy = 'mutated';
    const b = applyDefaults(input, d);
    expect((b.spec as JsonObject).strategy).toEqual({ type: 'RollingUpdate', maxSurge: '25%' });
    expect(input.spec).toEqual({});
  });

  it('gives a valid object when run after pruning, as the apiserver orders it', () => {
    const pruned = pruneUnknownFields(obj({ replicas: null, junk: 1 }), d);
    const defaulted = applyDefaults(pruned, d);
    expect(validateObject(defaulted, d)).toEqual([]);
    expect(defaulted.spec).toMatchObject({ replicas: 1 });
  });
});
