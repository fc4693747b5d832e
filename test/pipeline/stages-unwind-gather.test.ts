import { describe, expect, it } from 'vitest';
import { brief, compile, modes, obj, target } from './helpers.js';

describe.each(modes)('@unwind / @demux (%s)', (mode) => {
  const run = (pipeline: unknown) => compile(pipeline, mode, { sources: ['view'] });
  const base = obj('view', 'default', 'name', { spec: { list: ['a', 'b', 'c'] } });

  it('runs the spec §9 worked example', () => {
    const p = run([{ '@unwind': '$.spec.list' }, { '@project': { metadata: { name: '$.spec.list' } } }]);
    expect(brief(p.process({ type: 'Added', object: base }))).toEqual(['Upserted a', 'Upserted b', 'Upserted c']);
    expect(brief(p.process({ type: 'Updated', object: { ...base, spec: { list: ['c', 'd'] } } }))).toEqual([
      'Deleted a',
      'Deleted b',
      'Upserted d',
    ]);
  });

  it('writes the element back and suffixes the name with its index', () => {
    const p = run({ '@demux': '$.spec.list' });
    const out = p.process({ type: 'Added', object: base });
    expect(out.map((e) => e.object)).toEqual(
      ['a', 'b', 'c'].map((x, i) => ({
        ...base,
        ...target,
        metadata: { name: `name-${i}`, namespace: 'default' },
        spec: { list: x },
      })),
    );
  });

  it('composes nested unwinds: name-0-1', () => {
    const p = run([{ '@unwind': '$.spec.m' }, { '@unwind': '$.spec.m' }]);
    const o = obj('view', 'ns', 'name', { spec: { m: [[1, 2], [3]] } });
    expect(brief(p.process({ type: 'Added', object: o }))).toEqual([
      'Upserted ns/name-0-0',
      'Upserted ns/name-0-1',
      'Upserted ns/name-1-0',
    ]);
  });

  it('emits nothing for a missing, null or empty list', () => {
    const p = run({ '@unwind': '$.spec.list' });
    expect(p.process({ type: 'Added', object: obj('view', 'ns', 'a') })).toEqual([]);
    expect(p.process({ type: 'Added', object: obj('view', 'ns', 'b', { spec: { list: null } }) })).toEqual([]);
    expect(p.process({ type: 'Added', object: obj('view', 'ns', 'c', { spec: { list: [] } }) })).toEqual([]);
  });

  it('fails on a non-list value', () => {
    const p = run([{ '@select': true }, { '@unwind': '$.spec.list' }]);
    expect(() => p.process({ type: 'Added', object: obj('view', 'ns', 'a', { spec: { list: 'x' } }) })).toThrow(
      /@unwind at pipeline\[1\]: \$\.spec\.list must be a list, got string "x"/,
    );
  });

  it('keeps the original text for a missing name (kept quirk)', () => {
    const p = run([{ '@unwind': '$.l' }, { '@project': { metadata: { name: '$.metadata.name' } } }]);
    expect(brief(p.process({ type: 'Added', object: { kind: 'view', l: [1] } }))).toEqual(['Upserted %!s(<nil>)-0']);
  });

  it('retracts exactly what an element produced when the source is deleted', () => {
    const p = run({ '@unwind': '$.spec.list' });
    p.process({ type: 'Added', object: base });
    expect(brief(p.process({ type: 'Deleted', object: base }))).toEqual([
      'Deleted default/name-0',
      'Deleted default/name-1',
      'Deleted default/name-2',
    ]);
    expect(p.outputs()).toEqual([]);
  });
});

describe.each(modes)('@gather / @mux (%s)', (mode) => {
  const run = (pipeline: unknown) => compile(pipeline, mode, { sources: ['view'] });
  const pod = (ns: string, name: string, extra: Record<string, unknown> = {}) =>
    obj('view', ns, name, { spec: { v: name }, ...extra });
  const byNamespace = [
    { '@gather': ['$.metadata.namespace', '$.metadata.name'] },
    { '@project': { metadata: { name: '$.metadata.namespace' }, names: '$.metadata.name' } },
  ];

  it('collects sorted values per group and updates the group on every change', () => {
    const p = run(byNamespace);
    expect(p.process({ type: 'Added', object: pod('ns1', 'b') })).toEqual([
      { type: 'Upserted', object: { ...target, metadata: { name: 'ns1' }, names: ['b'] } },
    ]);
    expect(p.process({ type: 'Added', object: pod('ns1', 'a') })[0]?.object.names).toEqual(['a', 'b']);
    expect(p.process({ type: 'Added', object: pod('ns2', 'c') })[0]?.object).toEqual({
      ...target,
      metadata: { name: 'ns2' },
      names: ['c'],
    });
    // A member leaving re-emits the group under its stable name with the shorter list.
    expect(p.process({ type: 'Deleted', object: pod('ns1', 'b') })).toEqual([
      { type: 'Upserted', object: { ...target, metadata: { name: 'ns1' }, names: ['a'] } },
    ]);
    // The last member leaving deletes the group, carrying the old content.
    expect(p.process({ type: 'Deleted', object: pod('ns1', 'a') })).toEqual([
      { type: 'Deleted', object: { ...target, metadata: { name: 'ns1' }, names: ['a'] } },
    ]);
    expect(p.outputs()).toEqual([{ ...target, metadata: { name: 'ns2' }, names: ['c'] }]);
  });

  it('skips members whose key or value is null', () => {
    const p = run([
      { '@mux': ['$.spec.group', '$.spec.val'] },
      { '@project': { metadata: { name: '$.spec.group' }, vals: '$.spec.val' } },
    ]);
    expect(p.process({ type: 'Added', object: obj('view', 'ns', 'a', { spec: { val: 1 } }) })).toEqual([]);
    expect(p.process({ type: 'Added', object: obj('view', 'ns', 'b', { spec: { group: 'g' } }) })).toEqual([]);
    expect(
      p.process({ type: 'Added', object: obj('view', 'ns', 'c', { spec: { group: 'g', val: 3 } }) })[0]?.object.vals,
    ).toEqual([3]);
  });

  it('sorts numbers numerically and puts strings before numbers in mixed lists', () => {
    const p = run([{ '@gather': ['g', '$.spec.v'] }, { '@project': { metadata: { name: 'all' }, vals: '$.spec.v' } }]);
    let last: unknown;
    for (const [name, v] of [
      ['a', 10],
      ['b', 9],
      ['c', 'x'],
      ['d', 9.5],
      ['e', 'a'],
      ['f', true],
    ] as const) {
      last = p.process({ type: 'Added', object: obj('view', 'ns', name, { spec: { v } }) })[0]?.object.vals;
    }
    expect(last).toEqual(['a', 'x', 9, 9.5, 10, true]);
  });

  it('takes non-collected fields from a deterministic member, whatever the arrival order (spec §8 item 11)', () => {
    const members = [pod('ns', 'm1', { extra: 1 }), pod('ns', 'm2', { extra: 2 }), pod('ns', 'm3', { extra: 3 })];
    const results = [members, [...members].reverse(), [members[1], members[2], members[0]]].map((order) => {
      const p = run([{ '@gather': ['$.metadata.namespace', '$.spec.v'] }]);
      for (const m of order) p.process({ type: 'Added', object: m as Record<string, unknown> });
      return p.outputs();
    });
    expect(results[1]).toEqual(results[0]);
    expect(results[2]).toEqual(results[0]);
    // Copying the root keeps the representative's name, so the output is keyed by it.
    expect(results[0]).toEqual([{ ...members[0], ...target, spec: { v: ['m1', 'm2', 'm3'] } }]);
  });

  it('moves a copy-root group to the next representative when the current one leaves', () => {
    const p = run([{ '@gather': ['$.metadata.namespace', '$.spec.v'] }]);
    p.process({ type: 'Added', object: pod('ns', 'm1') });
    p.process({ type: 'Added', object: pod('ns', 'm2') });
    expect(brief(p.process({ type: 'Deleted', object: pod('ns', 'm1') }))).toEqual(['Deleted ns/m1', 'Upserted ns/m2']);
  });

  it('counts a member once per multiplicity and removes one value per retraction', () => {
    const p = run([
      { '@project': { metadata: { name: '$.metadata.name' }, g: 'x', v: '$.spec.v' } },
      { '@gather': ['$.g', '$.v'] },
      { '@project': { metadata: { name: 'out' }, v: '$.v' } },
    ]);
    p.process({ type: 'Added', object: obj('view', 'ns', 'a', { spec: { v: 1 } }) });
    expect(p.process({ type: 'Added', object: obj('view', 'ns2', 'a', { spec: { v: 1 } }) })[0]?.object.v).toEqual([
      1, 1,
    ]);
    expect(p.process({ type: 'Deleted', object: obj('view', 'ns', 'a', { spec: { v: 1 } }) })[0]?.object.v).toEqual([
      1,
    ]);
  });

  it('fails when the value argument is not a literal path, once a group is emitted', () => {
    const p = run({ '@gather': ['$.metadata.namespace', { '@concat': ['x', 'y'] }] });
    expect(() => p.process({ type: 'Added', object: pod('ns', 'a') })).toThrow(
      /@gather at pipeline: the value argument must be a literal JSONPath string/,
    );
  });
});
