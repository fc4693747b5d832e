import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/pipeline/index.js';
import { obj1, obj2 } from './fixtures.js';
import { yaml } from './helpers.js';

const ev = (e: unknown, o: unknown = obj1): unknown => evaluate(e, o);

describe('@len, @range, @concat', () => {
  it.each([
    [{ '@len': [1, 2, 3] }, 3],
    [{ '@len': ['$.spec.x'] }, 5],
    [{ '@len': '$.spec.x' }, 5],
    [{ '@len': [] }, 0],
    [{ '@range': [0, 3] }, [0, 1, 2]],
    [{ '@range': [3, 3] }, []],
    [{ '@range': [4, 1] }, []],
    [{ '@concat': ['ab', 'ba'] }, 'abba'],
    [{ '@concat': ['$.metadata.name', ':', '$.spec.a'] }, 'name:1'],
    [{ '@concat': ['v', 1.5] }, 'v%!d(float64=1.5)'],
  ])('%j', (e, want) => {
    expect(ev(e)).toEqual(want);
  });

  it.each([
    [{ '@len': 'abc' }, /@len at expression: argument must be a list, got string "abc"/],
    [{ '@len': '$.spec.b' }, /got map/],
    [{ '@range': [1] }, /@range at expression: expected 2 arguments/],
    [{ '@range': [0, 'x'] }, /expected an integer/],
    [{ '@concat': ['a', true] }, /@concat at expression: expected a string or a number, got boolean/],
    [{ '@concat': ['a', '$.nope'] }, /got null/],
  ])('%j fails', (e, want) => {
    expect(() => ev(e)).toThrow(want);
  });
});

describe('iterators: @map, @filter, @any, @all, @none', () => {
  it.each([
    [{ '@filter': [{ '@eq': ['$$', 12] }, [12, 23]] }, [12]],
    [{ '@filter': [{ '@eq': ['$$.', 12] }, [12, 23]] }, [12]],
    [
      {
        '@filter': [
          { '@eq': ['$.metadata.namespace', '$$.metadata.namespace'] },
          [{ metadata: { namespace: 'default' } }, { metadata: { namespace: 'default2' } }, 12],
        ],
      },
      [{ metadata: { namespace: 'default' } }],
    ],
    [yaml('\'@filter\':\n  - \'@exists\': "$$"\n  - "$.spec.x"'), [1, 2, 3, 4, 5]],
    [{ '@map': [{ x: 1 }, [12, 23]] }, [{ x: 1 }, { x: 1 }]],
    [{ '@map': [{ '@lte': ['$$', 17] }, [12, 23]] }, [true, false]],
    [{ '@map': [{ '@mul': ['$$', 2] }, '$.spec.x'] }, [2, 4, 6, 8, 10]],
    [{ '@any': [{ '@gt': ['$$', 4] }, '$.spec.x'] }, true],
    [{ '@any': [{ '@gt': ['$$', 9] }, '$.spec.x'] }, false],
    [{ '@all': [{ '@gt': ['$$', 0] }, '$.spec.x'] }, true],
    [{ '@all': [{ '@gt': ['$$', 1] }, '$.spec.x'] }, false],
    [{ '@any': [true, []] }, false],
    [{ '@all': [false, []] }, true],
    // Kept from the original: @none always returns false.
    [{ '@none': [{ '@gt': ['$$', 9] }, '$.spec.x'] }, false],
  ])('%j', (e, want) => {
    expect(ev(e)).toEqual(want);
  });

  it('rebinds $$ in nested iterators', () => {
    expect(ev({ '@map': [{ '@map': [{ '@add': ['$$', 1] }, '$$'] }, '$.m'] }, { m: [[1, 2], [3]] })).toEqual([
      [2, 3],
      [4],
    ]);
  });

  it('unpacks literal list arguments (kept quirk)', () => {
    expect(ev({ '@len': [[[1, 2]], [[3]]] })).toBe(2);
  });

  it('keeps $ at the root while $$ moves', () => {
    expect(ev({ '@map': [{ '@concat': ['$.metadata.namespace', '/', '$$.name'] }, '$.spec'] }, obj2)).toEqual([
      'default2/name1',
      'default2/name2',
    ]);
  });

  it.each([
    [{ '@map': [1] }, /@map at expression: expected 2 arguments \[expression, list\], got 1/],
    [{ '@filter': [true, '$.nope'] }, /@filter at expression: the list argument must be a list, got null/],
    [{ '@filter': [true, [1], 3] }, /expected 2 arguments/],
    [{ '@filter': ['$$', [1]] }, /@filter at expression: the condition must be a boolean, got int 1/],
    [{ '@all': [1, [1]] }, /@all/],
    [{ '@none': ['$$', ['x']] }, /@none/],
  ])('%j fails', (e, want) => {
    expect(() => ev(e)).toThrow(want);
  });
});

describe('@hash', () => {
  it('matches the original vectors', () => {
    expect(ev({ '@hash': '$.spec' })).toBe('dorzm8');
    expect(ev({ '@hash': '$.spec' }, { spec: { ...obj1.spec, a: 2 } })).toBe('9pxacx');
  });

  it('hashes Go JSON (sorted keys, HTML escapes)', () => {
    expect(ev({ '@hash': { b: 1, a: 2 } })).toBe(ev({ '@hash': { a: 2, b: 1 } }));
    expect(ev({ '@hash': 'a<b' })).not.toBe(ev({ '@hash': 'a\\u003cb' }));
    expect(ev({ '@hash': 'x' })).toMatch(/^[0-9a-z]{6}$/);
  });

  it('fails on values JSON cannot encode', () => {
    expect(() => ev({ '@hash': { '@div': [0, 0] } })).toThrow(/@hash at expression: cannot encode/);
  });
});

describe('unknown operators', () => {
  it.each(['@ne', '@mod', '@lower', '@first', '@set', '@now', '@merge'])('%s is an evaluation error', (op) => {
    expect(() => ev({ [op]: [1, 2] })).toThrow(new RegExp(`${op} at expression: unknown op`));
  });

  it('is only raised when reached', () => {
    expect(ev({ '@cond': [false, { '@bogus': 1 }, 2] })).toBe(2);
  });
});
