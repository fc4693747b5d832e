import { describe, expect, it } from 'vitest';
import { getAll, getFirst, parseJsonPath, setPath } from '../../src/jsonpath/index.js';

const doc = {
  metadata: { name: 'n', annotations: { 'dcontroller.io/x': 'y' } },
  spec: {
    a: 1,
    list: [
      { name: 'listener_1', port: 12 },
      { name: 'listener_2', port: 13 },
      { name: 'listener_3', port: 14 },
    ],
    x: [1, 2, 3, 4, 5],
  },
};

const get = (p: string): unknown => getFirst(parseJsonPath(p), doc);

describe('JSONPath reads', () => {
  it.each([
    ['$', doc],
    ['$.spec.a', 1],
    ['$["spec"]["a"]', 1],
    ["$['spec']['a']", 1],
    ['$.spec.x[1]', 2],
    ['$.spec.x[-1]', 5],
    ['$.spec.x[1:3]', 2],
    ['$.spec.x[*]', 1],
    ['$.spec.list[*].port', 12],
    ["$.spec.list[?(@.name == 'listener_2')].port", 13],
    ["$.spec.list[?(@.name in ['listener_3','nope'])].port", 14],
    ['$.spec.list[?(@.port > 12 && @.port < 14)].name', 'listener_2'],
    ['$.spec.list[?(!(@.port == 12))].name', 'listener_2'],
    ['$.spec.list[?(@.name =~ /_3$/)].port', 14],
    ['$..port', 12],
    ['$.metadata.annotations["dcontroller.io/x"]', 'y'],
    ['$.spec.missing', undefined],
    ['$.spec.a.deeper', undefined],
  ])('%s', (path, want) => {
    expect(get(path)).toEqual(want);
  });

  it('returns every match when asked, in document order', () => {
    expect(getAll(parseJsonPath('$.spec.x[0,2,4]'), doc)).toEqual([1, 3, 5]);
    expect(getAll(parseJsonPath('$.spec.x[::2]'), doc)).toEqual([1, 3, 5]);
    expect(getAll(parseJsonPath('$.spec.x[::-1]'), doc)).toEqual([5, 4, 3, 2, 1]);
  });

  it.each(['$.', '$.$$', '$[', "$['a", '$.a[?(@.x ==)]', 'spec.a'])('rejects malformed %s', (p) => {
    expect(() => parseJsonPath(p)).toThrow(/invalid JSONPath/);
  });
});

describe('JSONPath writes', () => {
  it('creates intermediate maps and pads new lists with nulls', () => {
    expect(setPath({}, parseJsonPath('$.a.b'), 1)).toEqual({ a: { b: 1 } });
    expect(setPath({}, parseJsonPath('$.y[3]'), 12)).toEqual({ y: [null, null, null, 12] });
  });

  it('never modifies its input', () => {
    const input = { spec: { a: { c: 1 } } };
    const out = setPath(input, parseJsonPath('$.spec.a.c'), 2);
    expect(out).toEqual({ spec: { a: { c: 2 } } });
    expect(input).toEqual({ spec: { a: { c: 1 } } });
  });

  it('writes through a filter into every match', () => {
    const out = setPath(doc, parseJsonPath("$.spec.list[?(@.name=='listener_2')].port"), 123) as typeof doc;
    expect(out.spec.list.map((l) => l.port)).toEqual([12, 123, 14]);
    expect(doc.spec.list[1]?.port).toBe(13);
  });

  it('refuses to write through a scalar', () => {
    expect(() => setPath({ spec: 1 }, parseJsonPath('$.spec.a'), 2)).toThrow(/cannot set field "a" inside int 1/);
  });
});

describe('the prototype is never a path', () => {
  it('reads only own keys and refuses to set __proto__', () => {
    expect(getAll(parseJsonPath('$.constructor'), {})).toEqual([]);
    expect(getFirst(parseJsonPath('$.a.toString'), { a: {} })).toBeUndefined();
    expect(() => setPath({}, parseJsonPath('$.__proto__.polluted'), 1)).toThrow(/cannot set field "__proto__"/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
