import { describe, expect, it } from 'vitest';
import { compilePipeline, EventError, ExpressionError } from '../../src/pipeline/index.js';
import { brief, compile, modes, obj, target } from './helpers.js';

const nameOnly = {
  '@project': { metadata: { name: '$.metadata.name', namespace: '$.metadata.namespace' }, spec: '$.spec' },
};

describe.each(modes)('source caches (spec §3.2 step 1, %s)', (mode) => {
  const run = (pipeline: unknown = nameOnly, sources = ['view']) => compile(pipeline, mode, { sources });
  const v = (name: string, spec: unknown = 1, extra: Record<string, unknown> = {}) =>
    obj('view', 'ns', name, { spec, ...extra });

  it('ignores an update that changes nothing, uid included', () => {
    const p = run();
    p.process({ type: 'Added', object: v('a') });
    expect(p.process({ type: 'Updated', object: v('a') })).toEqual([]);
    expect(p.process({ type: 'Replaced', object: v('a', 1, { metadata: { uid: 'u2' } }) })).toEqual([]);
  });

  it('treats an update of an unseen object as an add, and a repeated add as an update', () => {
    const p = run();
    expect(brief(p.process({ type: 'Upserted', object: v('a') }))).toEqual(['Upserted ns/a']);
    expect(p.process({ type: 'Added', object: v('a') })).toEqual([]);
    expect(p.process({ type: 'Added', object: v('a', 2) })).toEqual([
      { type: 'Upserted', object: { ...target, metadata: { name: 'a', namespace: 'ns' }, spec: 2 } },
    ]);
    expect(brief(p.process({ type: 'Deleted', object: v('a', 2) }))).toEqual(['Deleted ns/a']);
    expect(p.outputs()).toEqual([]);
  });

  it('retracts the cached object on delete, whatever the event carries', () => {
    const p = run({ '@gather': ['$.metadata.namespace', '$.spec'] });
    p.process({ type: 'Added', object: v('a', 1) });
    p.process({ type: 'Added', object: v('b', 2) });
    const out = p.process({ type: 'Deleted', object: v('a', 99) });
    expect(out.map((e) => [e.type, e.object.spec])).toEqual([
      ['Deleted', [1, 2]],
      ['Upserted', [2]],
    ]);
  });

  it('rejects a delete of an unseen object, an unknown kind and an unknown type', () => {
    const p = run();
    expect(() => p.process({ type: 'Deleted', object: v('nope') })).toThrow(EventError);
    expect(() => p.process({ type: 'Deleted', object: v('nope') })).toThrow(
      /event at view ns\/nope: delete for a nonexistent object/,
    );
    expect(() => p.process({ type: 'Added', object: obj('Other', 'ns', 'a') })).toThrow(
      /"Other" is not a source kind of this pipeline \(view\)/,
    );
    expect(() => p.process({ type: 'Bogus' as 'Added', object: v('a') })).toThrow(/unknown event type "Bogus"/);
  });

  it('base64-decodes Secret data before the pipeline sees it', () => {
    const p = run(nameOnly, ['Secret']);
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's', namespace: 'ns' },
      data: { a: 'aGVsbG8=', b: 'not base64!' },
    };
    const q = compile({ '@project': { metadata: '$.metadata', data: '$.data' } }, mode, { sources: ['Secret'] });
    expect(q.process({ type: 'Added', object: secret })[0]?.object.data).toEqual({ a: 'hello', b: 'not base64!' });
    expect(p.process({ type: 'Added', object: secret })).toHaveLength(1);
  });

  it('never shares objects with the caller', () => {
    const p = run({ '@project': { metadata: '$.metadata', spec: '$.spec' } });
    const input = v('a', { list: [1] });
    const out = p.process({ type: 'Added', object: input });
    (input.spec as { list: number[] }).list.push(2);
    (out[0]?.object.spec as { list: number[] }).list.push(3);
    expect(p.outputs()[0]?.spec).toEqual({ list: [1] });
    expect(p.process({ type: 'Updated', object: v('a', { list: [1] }) })).toEqual([]);
  });
});

describe.each(modes)('output reconciliation (spec §3.2 steps 4-5, §3.8, %s)', (mode) => {
  const fixedName = { '@project': { metadata: { name: 'same' }, from: '$.metadata.name' } };
  const run = (pipeline: unknown) => compile(pipeline, mode, { sources: ['view'] });

  it('emits all Deleted before all Upserted', () => {
    const p = run({ '@project': { metadata: { name: '$.spec' } } });
    p.process({ type: 'Added', object: obj('view', 'ns', 'a', { spec: 'x' }) });
    p.process({ type: 'Added', object: obj('view', 'ns', 'b', { spec: 'y' }) });
    const out = p.processBatch([
      { type: 'Updated', object: obj('view', 'ns', 'b', { spec: 'z' }) },
      { type: 'Updated', object: obj('view', 'ns', 'a', { spec: 'w' }) },
    ]);
    expect(brief(out)).toEqual(['Deleted x', 'Deleted y', 'Upserted w', 'Upserted z']);
  });

  it('keeps an object alive while another row still produces its name (spec §8 item 14)', () => {
    const p = run(fixedName);
    expect(brief(p.process({ type: 'Added', object: obj('view', 'ns', 'a') }))).toEqual(['Upserted same']);
    // Last add wins.
    expect(p.process({ type: 'Added', object: obj('view', 'ns', 'b') })[0]?.object.from).toBe('b');
    // Retracting the emitted row re-emits the survivor instead of deleting the object.
    expect(p.process({ type: 'Deleted', object: obj('view', 'ns', 'b') })).toEqual([
      { type: 'Upserted', object: { ...target, metadata: { name: 'same' }, from: 'a' } },
    ]);
    p.process({ type: 'Added', object: obj('view', 'ns', 'c') });
    // Retracting a row that is not the emitted one changes nothing.
    expect(p.process({ type: 'Deleted', object: obj('view', 'ns', 'a') })).toEqual([]);
    expect(p.process({ type: 'Deleted', object: obj('view', 'ns', 'c') })).toEqual([
      { type: 'Deleted', object: { ...target, metadata: { name: 'same' }, from: 'c' } },
    ]);
    expect(p.outputs()).toEqual([]);
  });

  it('adds up identical outputs and emits nothing when one of them goes', () => {
    const p = run({ '@project': { metadata: { name: 'same' } } });
    p.process({ type: 'Added', object: obj('view', 'ns', 'a') });
    p.process({ type: 'Added', object: obj('view', 'ns', 'b') });
    expect(p.process({ type: 'Deleted', object: obj('view', 'ns', 'a') })).toEqual([]);
    expect(brief(p.process({ type: 'Deleted', object: obj('view', 'ns', 'b') }))).toEqual(['Deleted same']);
  });

  it('emits nothing for a name that appears and disappears within one batch', () => {
    const p = run({ '@project': { metadata: { name: '$.metadata.name' } } });
    expect(
      p.processBatch([
        { type: 'Added', object: obj('view', 'ns', 'a') },
        { type: 'Deleted', object: obj('view', 'ns', 'a') },
      ]),
    ).toEqual([]);
  });
});

describe.each(modes)('atomic events (%s)', (mode) => {
  const pipeline = [
    { '@select': { '@gt': ['$.spec.n', 0] } },
    { '@project': { metadata: { name: '$.metadata.name' }, n: '$.spec.n' } },
  ];

  it('leaves every cache and operator unchanged when an event fails', () => {
    const p = compile(pipeline, mode, { sources: ['view'] });
    p.process({ type: 'Added', object: obj('view', 'ns', 'a', { spec: { n: 1 } }) });
    expect(() => p.process({ type: 'Updated', object: obj('view', 'ns', 'a', { spec: { n: 'bad' } }) })).toThrow(
      ExpressionError,
    );
    expect(p.outputs()).toEqual([{ ...target, metadata: { name: 'a' }, n: 1 }]);
    // The failed update never happened: the next update retracts the original content.
    expect(p.process({ type: 'Updated', object: obj('view', 'ns', 'a', { spec: { n: 2 } }) })).toEqual([
      { type: 'Upserted', object: { ...target, metadata: { name: 'a' }, n: 2 } },
    ]);
  });

  it('applies none of a batch when one event in it fails', () => {
    const p = compile(pipeline, mode, { sources: ['view'] });
    expect(() =>
      p.processBatch([
        { type: 'Added', object: obj('view', 'ns', 'a', { spec: { n: 1 } }) },
        { type: 'Deleted', object: obj('view', 'ns', 'ghost') },
      ]),
    ).toThrow(EventError);
    expect(p.outputs()).toEqual([]);
    expect(brief(p.process({ type: 'Added', object: obj('view', 'ns', 'a', { spec: { n: 1 } }) }))).toEqual([
      'Upserted a',
    ]);
  });
});

describe.each(modes)('source filters (spec §8 item 10, %s)', (mode) => {
  const filters = { Pod: { namespace: 'default', labelSelector: { matchLabels: { app: 'web' } } } };
  const run = () => compile({ '@project': { metadata: '$.metadata' } }, mode, { sources: ['Pod'], filters });
  const pod = (app: string, ns = 'default') => obj('Pod', ns, 'p', { metadata: { labels: { app } } });

  it('drops the contribution of an object that leaves the selection', () => {
    const p = run();
    expect(brief(p.process({ type: 'Added', object: pod('web') }))).toEqual(['Upserted default/p']);
    expect(brief(p.process({ type: 'Updated', object: pod('db') }))).toEqual(['Deleted default/p']);
    expect(brief(p.process({ type: 'Updated', object: pod('web') }))).toEqual(['Upserted default/p']);
  });

  it('ignores objects outside the selection, deletes included', () => {
    const p = run();
    expect(p.process({ type: 'Added', object: pod('web', 'other') })).toEqual([]);
    expect(p.process({ type: 'Deleted', object: pod('db') })).toEqual([]);
    expect(() => p.process({ type: 'Deleted', object: pod('web') })).toThrow(/delete for a nonexistent object/);
  });
});

describe('retractions replay what insertions produced', () => {
  it('deletes an object projected with a timestamp after the clock moved', () => {
    let t = Date.parse('2025-01-01T00:00:00Z');
    const p = compilePipeline(
      { '@project': { metadata: { name: '$.metadata.name' }, at: '@now' } },
      { sources: ['view'], target, now: () => new Date(t) },
    );
    expect(p.process({ type: 'Added', object: obj('view', 'ns', 'a') })[0]?.object.at).toBe('2025-01-01T00:00:00Z');
    t += 60_000;
    expect(p.process({ type: 'Deleted', object: obj('view', 'ns', 'a') })).toEqual([
      { type: 'Deleted', object: { ...target, metadata: { name: 'a' }, at: '2025-01-01T00:00:00Z' } },
    ]);
    expect(p.outputs()).toEqual([]);
  });
});
