import { describe, expect, it } from 'vitest';
import { ExpressionError, OutputError } from '../../src/pipeline/index.js';
import { brief, compile, modes, obj, target, yaml } from './helpers.js';

// The two view objects of the original's aggregation tests.
const o1 = obj('view', 'default', 'name', { spec: { a: 1, b: { c: 2 } }, c: 'c' });
const o2 = obj('view', 'default', 'name2', { spec: { a: 2, b: { c: 3 } }, d: 'd' });

describe.each(modes)('@select (%s)', (mode) => {
  const run = (pipeline: unknown) => compile(pipeline, mode, { sources: ['view'] });

  it('passes matching objects through with the target GVK', () => {
    const p = run({ '@select': { '@eq': ['$.metadata.name', 'name'] } });
    expect(p.process({ type: 'Upserted', object: o1 })).toEqual([{ type: 'Upserted', object: { ...o1, ...target } }]);
    expect(p.process({ type: 'Upserted', object: o2 })).toEqual([]);
  });

  it('drops everything for a false condition, keeps everything for an inverted one', () => {
    expect(run({ '@select': { '@eq': ['$.spec.b.c', 1] } }).process({ type: 'Added', object: o1 })).toEqual([]);
    const p = run({ '@select': { '@not': { '@eq': ['$.spec.b.c', 1] } } });
    expect(brief(p.process({ type: 'Added', object: o1 }))).toEqual(['Upserted default/name']);
    expect(brief(p.process({ type: 'Added', object: o2 }))).toEqual(['Upserted default/name2']);
  });

  it('does not fail on @eq of a missing field', () => {
    expect(run({ '@select': { '@eq': ['$.spec.x', true] } }).process({ type: 'Added', object: o1 })).toEqual([]);
  });

  it('fails on a non-boolean condition, naming the stage', () => {
    const p = run([{ '@project': { metadata: '$.metadata' } }, { '@select': '$.spec.x' }]);
    expect(() => p.process({ type: 'Added', object: o1 })).toThrow(ExpressionError);
    expect(() => p.process({ type: 'Added', object: o1 })).toThrow(
      /@select at pipeline\[1\]: the condition must be a boolean, got null/,
    );
  });

  it('follows an object in and out of the selection (pipe-native-select-lifecycle)', () => {
    const p = run({ '@select': { '@eq': ['$.spec.b', 1] } });
    const v = (b: number) => obj('view', 'test-ns', 'test-name', { spec: { b } });
    expect(brief(p.process({ type: 'Upserted', object: v(1) }))).toEqual(['Upserted test-ns/test-name']);
    const out = p.process({ type: 'Upserted', object: v(2) });
    expect(out).toEqual([{ type: 'Deleted', object: { ...v(1), ...target } }]);
    expect(brief(p.process({ type: 'Upserted', object: v(1) }))).toEqual(['Upserted test-ns/test-name']);
    expect(brief(p.process({ type: 'Deleted', object: v(1) }))).toEqual(['Deleted test-ns/test-name']);
  });
});

describe.each(modes)('@project (%s)', (mode) => {
  const run = (pipeline: unknown) => compile(pipeline, mode, { sources: ['view'] });
  const first = (pipeline: unknown, o = o1) => run(pipeline).process({ type: 'Added', object: o });

  it('builds only what it names', () => {
    expect(first({ '@project': { metadata: { name: '$.metadata.name' } } })).toEqual([
      { type: 'Upserted', object: { ...target, metadata: { name: 'name' } } },
    ]);
    expect(first({ '@project': { metadata: '$.metadata' } })[0]?.object).toEqual({
      ...target,
      metadata: { name: 'name', namespace: 'default' },
    });
  });

  it('renames: Deleted(old name) then Upserted(new name)', () => {
    const p = run(
      yaml(`
'@project':
  metadata:
    name:
      '@concat': [$.metadata.name, ':', $.c]
    namespace: $.metadata.namespace`),
    );
    expect(brief(p.process({ type: 'Added', object: o1 }))).toEqual(['Upserted default/name:c']);
    expect(brief(p.process({ type: 'Updated', object: { ...o1, c: 'd' } }))).toEqual([
      'Deleted default/name:c',
      'Upserted default/name:d',
    ]);
  });

  it('merges the list form left to right, each fragment reading the input', () => {
    expect(
      first(
        yaml(`
'@project':
  - metadata: {name: name, namespace: default}
  - spec: 123`),
      )[0]?.object,
    ).toEqual({ ...target, metadata: { name: 'name', namespace: 'default' }, spec: 123 });
    expect(
      first(
        yaml(`
'@project':
  - $.metadata.name: $.metadata.name
  - $.metadata.namespace: default
  - $.spec.a: 123
  - $.spec.b: $.spec.b`),
      )[0]?.object,
    ).toEqual({ ...target, metadata: { name: 'name', namespace: 'default' }, spec: { a: 123, b: { c: 2 } } });
    expect(
      first(
        yaml(`
'@project':
  - {metadata: {name: name2}}
  - $.metadata.namespace: default2
  - $.spec.a: $.spec.b`),
      )[0]?.object,
    ).toEqual({ ...target, metadata: { name: 'name2', namespace: 'default2' }, spec: { a: { c: 2 } } });
  });

  it('copies everything then overrides with the list-form idiom', () => {
    const out = first({ '@project': [{ '$.': '$.' }, { '$.metadata.name': 'x' }, { list: [1] }, { list: [2] }] }, {
      ...o1,
      list: [0],
    } as Record<string, unknown>);
    expect(out[0]?.object).toEqual({
      ...o1,
      ...target,
      list: [0, 1, 2],
      metadata: { name: 'x', namespace: 'default' },
    });
  });

  it('collapses adds that yield the same object name', () => {
    const p = run({ '@project': { '$.metadata.name': 'fixed' } });
    expect(p.process({ type: 'Upserted', object: o1 })).toEqual([
      { type: 'Upserted', object: { ...target, metadata: { name: 'fixed' } } },
    ]);
    expect(p.process({ type: 'Upserted', object: o2 })).toEqual([
      { type: 'Upserted', object: { ...target, metadata: { name: 'fixed' } } },
    ]);
  });

  it('fails without a name (output conversion)', () => {
    expect(() => first({ '@project': { spec: '$.spec' } })).toThrow(OutputError);
    expect(() => first({ '@project': { spec: '$.spec' } })).toThrow(
      /output at metadata: a pipeline result needs a metadata map/,
    );
    expect(() => first({ '@project': { x: '$.spec.x' } })).toThrow(OutputError);
    expect(() => first({ '@project': { metadata: { name: 5 } } })).toThrow(/output at metadata\.name/);
    expect(() => first({ '@project': { metadata: { name: 'a', namespace: 5 } } })).toThrow(
      /output at metadata\.namespace/,
    );
  });

  it('drops an empty namespace and rejects a null one', () => {
    expect(first({ '@project': { metadata: { name: 'a', namespace: { '@concat': [] } } } })[0]?.object).toEqual({
      ...target,
      metadata: { name: 'a' },
    });
    expect(() => first({ '@project': { metadata: { name: 'a', namespace: '$.nope' } } })).toThrow(
      /output at metadata\.namespace/,
    );
  });

  it('fails when the projection is not a map', () => {
    expect(() => first({ '@project': '$.spec.a' })).toThrow(
      /@project at pipeline: the projection must produce a map, got int 1/,
    );
  });

  it('implements the README container-count example', () => {
    const p = run(
      yaml(`
"@project":
  metadata:
    name: "$.metadata.name"
    namespace: "$.metadata.namespace"
    annotations:
      "dcontroller.io/container-num":
        '@string':
          '@len': ["$.spec.containers"]`),
    );
    const pod = obj('view', 'default', 'my-pod', {
      spec: { containers: [{ name: 'c1' }, { name: 'c2' }, { name: 'c3' }] },
    });
    expect(p.process({ type: 'Added', object: pod })[0]?.object).toEqual({
      ...target,
      metadata: { name: 'my-pod', namespace: 'default', annotations: { 'dcontroller.io/container-num': '3' } },
    });
  });

  it('passes objects through unchanged without a pipeline', () => {
    const p = run(undefined);
    expect(p.process({ type: 'Added', object: o1 })).toEqual([{ type: 'Upserted', object: { ...o1, ...target } }]);
    expect(p.process({ type: 'Deleted', object: o1 })).toEqual([{ type: 'Deleted', object: { ...o1, ...target } }]);
  });
});
