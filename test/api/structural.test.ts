import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { crdSchemaOf } from '../../src/api/crd.js';
import { toStructuralSchema } from '../../src/api/structural.js';

const structural = (schema: z.ZodType) =>
  toStructuralSchema(z.toJSONSchema(schema, { io: 'input', target: 'openapi-3.0' }));

describe('toStructuralSchema', () => {
  it('merges object branches: all properties, the discriminator as one enum, only common fields required', () => {
    const s = structural(
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('a'), shared: z.string(), onlyA: z.number().int() }).strict(),
        z.object({ kind: z.literal('b'), shared: z.string(), onlyB: z.boolean().optional() }).strict(),
      ]),
    );
    expect(s).toEqual({
      type: 'object',
      properties: {
        kind: { type: 'string', enum: ['a', 'b'] },
        shared: { type: 'string' },
        onlyA: { type: 'integer' },
        onlyB: { type: 'boolean' },
      },
      required: ['kind', 'shared'],
    });
  });

  it('keeps descriptions, joining those of a field that several branches document', () => {
    const s = structural(
      z.union([
        z.object({ out: z.string().describe('a: first.'), raw: z.unknown().describe('anything') }),
        z.object({ out: z.string().describe('b: second.') }),
      ]),
    );
    expect(s.properties).toEqual({
      out: { description: 'a: first. b: second.', type: 'string' },
      raw: { description: 'anything', 'x-kubernetes-preserve-unknown-fields': true },
    });
  });

  it('refuses branches that give one field two different types', () => {
    const clash = z.union([z.object({ x: z.string() }), z.object({ x: z.number() })]);
    expect(() => structural(clash)).toThrow(/two different schemas for one field/);
  });

  it('keeps unknown values and mixed-type unions as they are written, untyped', () => {
    expect(
      structural(z.object({ any: z.unknown(), either: z.union([z.string(), z.record(z.string(), z.unknown())]) })),
    ).toEqual({
      type: 'object',
      properties: {
        any: { 'x-kubernetes-preserve-unknown-fields': true },
        either: { 'x-kubernetes-preserve-unknown-fields': true },
      },
      required: ['any', 'either'],
    });
  });

  it('turns records into typed maps, passthrough objects into preserving ones, and drops additionalProperties: false', () => {
    expect(structural(z.record(z.string(), z.string()))).toEqual({
      type: 'object',
      additionalProperties: { type: 'string' },
    });
    expect(structural(z.object({ a: z.string() }).passthrough())).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      'x-kubernetes-preserve-unknown-fields': true,
    });
    expect(structural(z.object({ a: z.string() }).strict())).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
    });
  });

  it('drops refinements and the safe-integer bounds zod writes, keeps real bounds, and prefers a format over its regex', () => {
    expect(
      structural(
        z
          .number()
          .int()
          .min(1)
          .max(5)
          .refine((n) => n !== 3),
      ),
    ).toEqual({ type: 'integer', minimum: 1, maximum: 5 });
    expect(structural(z.number().int())).toEqual({ type: 'integer' });
    expect(structural(z.number().gt(0))).toEqual({ type: 'number', minimum: 0, exclusiveMinimum: true });
    expect(structural(z.iso.datetime())).toEqual({ type: 'string', format: 'date-time' });
    expect(structural(z.string().regex(/^a+$/))).toEqual({ type: 'string', pattern: '^a+$' });
  });

  it('passes Kubernetes extensions set with .meta() through', () => {
    const list = z
      .array(z.object({ type: z.string() }))
      .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] });
    expect(structural(list)).toMatchObject({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['type'],
    });
  });

  it('fails on constructs a structural schema cannot hold rather than dropping them', () => {
    expect(() => structural(z.object({ n: z.never() }))).toThrow(/"not" at \.n/);
    expect(() => toStructuralSchema({ $ref: '#/$defs/x' })).toThrow(/"\$ref"/);
    expect(() => toStructuralSchema({ type: 'object', patternProperties: { '^x-': { type: 'string' } } })).toThrow(
      /"patternProperties"/,
    );
  });

  it('writes the server-owned top-level fields the way controller-gen does', () => {
    const s = crdSchemaOf(
      z.object({
        apiVersion: z.literal('x/v1'),
        kind: z.literal('X'),
        metadata: z.object({ name: z.string() }),
        spec: z.object({}),
      }),
      'An X.',
    );
    expect(s.properties!.metadata).toEqual({ type: 'object' });
    expect(s.properties!.kind!.type).toBe('string');
    expect(s.required).toEqual(['spec']);
    expect(s.description).toBe('An X.');
  });
});
