import { describe, expect, it } from 'vitest';
import { evaluate, ExpressionError, PipelineParseError } from '../../src/pipeline/index.js';
import { fixedNow, obj1 } from './fixtures.js';
import { yaml } from './helpers.js';

const ev = (e: unknown, o: unknown = obj1): unknown => evaluate(e, o, fixedNow);

describe('literals (spec §4.1)', () => {
  it.each([
    ['bool', true, true],
    ['int', 10, 10],
    ['float', 10.12, 10.12],
    ['string', 'a10', 'a10'],
    ['null parses as false', null, false],
    ['@now', '@now', '2025-01-02T03:04:05Z'],
  ])('%s', (_name, expr, want) => {
    expect(ev(expr)).toEqual(want);
  });

  it('rejects the empty string at parse time', () => {
    expect(() => ev({ '@eq': ['', 'a'] })).toThrow(PipelineParseError);
    expect(() => ev('')).toThrow(/@string at expression: the empty string is not a valid expression/);
  });

  it('reads a single-key @-map as an operator, with no escape', () => {
    expect(() => ev({ '@type': 'x' })).toThrow(/unknown op "@type"/);
    expect(ev({ '@type': 'x', other: 1 })).toEqual({ '@type': 'x', other: 1 });
  });
});

describe('$-strings and JSONPath (spec §4.2)', () => {
  it.each([
    ['$.spec.a', 1],
    ['$.spec.b.c', 2],
    ['$["spec"]["b"]["c"]', 2],
    ['$.spec.x[1]', 2],
    ['$.spec.nothing', null],
    ['$.metadata.namespace', 'default'],
    ['plain', 'plain'],
  ])('%s', (path, want) => {
    expect(ev(path)).toEqual(want);
  });

  it('treats "$." as the root', () => {
    expect(ev('$.')).toEqual(obj1);
  });

  it('fails on a malformed path, naming @string and the position', () => {
    expect(() => ev({ '@eq': ['$.spec[', 1] })).toThrow(/@string at expression\.@eq\[0\]: invalid JSONPath/);
  });

  it('refuses $$ outside an iterator', () => {
    expect(() => ev('$$.spec')).toThrow(/only bound inside @map/);
  });

  it('replaces a read value of "@now" too', () => {
    expect(ev('$.when', { when: '@now' })).toBe('2025-01-02T03:04:05Z');
  });
});

describe('literal maps (@dict)', () => {
  it('evaluates values and keeps plain keys verbatim', () => {
    expect(ev({ a: 1, b: { c: 'x' } })).toEqual({ a: 1, b: { c: 'x' } });
    expect(ev({ 'a.b': 1 })).toEqual({ 'a.b': 1 });
    expect(ev({ a: 1.1, b: { '@sum': [1, 2] }, c: { '@concat': ['ab', 'ba'] } })).toEqual({ a: 1.1, b: 3, c: 'abba' });
    expect(ev({ dummy: [1, 2, 3], x: { '@eq': ['a', 'b'] } })).toEqual({ dummy: [1, 2, 3], x: false });
    expect(ev({ 'another-dummy': [{ a: 1, b: 2.2 }, { x: [1, 2, 3] }] })).toEqual({
      'another-dummy': [{ a: 1, b: 2.2 }, { x: [1, 2, 3] }],
    });
    expect(ev({ a: 1, b: { c: { '@eq': [1, 1] } } })).toEqual({ a: 1, b: { c: true } });
  });

  it('uses $-keys as setters, relative to the map they are in', () => {
    expect(ev({ '$.y[3]': 12 })).toEqual({ y: [null, null, null, 12] });
    expect(ev({ '$.metadata.name': '$.metadata.name', '$.spec.b': '$.spec.b' })).toEqual({
      metadata: { name: 'name' },
      spec: { b: { c: 2 } },
    });
    expect(ev({ outer: { '$.inner.v': 1 } })).toEqual({ outer: { inner: { v: 1 } } });
  });

  it('copies a map with the "$." key', () => {
    expect(ev({ '$.': '$.spec.b' })).toEqual({ c: 2 });
    expect(() => ev({ '$.': '$.spec.a' })).toThrow(
      /@dict at expression\["\$\."\]: the "\$\." key copies a map, got int 1/,
    );
  });

  it('dereferences computed strings a second time (kept quirk)', () => {
    const o = { ...obj1, ref: '$.spec.a' };
    expect(ev({ v: '$.ref' }, o)).toEqual({ v: 1 });
    expect(ev({ v: { '@list': ['$.ref'] } }, o)).toEqual({ v: ['$.spec.a'] });
  });

  it('@string resolves a converted string as a path', () => {
    expect(ev({ '@string': '$.ref' }, { ref: '$.x', x: 7 })).toBe(7);
  });

  it('never modifies the input document', () => {
    const input = structuredClone(obj1);
    ev({ '$.': '$.', '$.spec.b.c': 99 }, input);
    expect(input).toEqual(obj1);
  });

  it('@dict of an expression must give a map', () => {
    expect(ev({ '@dict': '$.spec.b' })).toEqual({ c: 2 });
    expect(() => ev({ '@dict': '$.spec.a' })).toThrow(/@dict at expression: argument must be a map/);
  });
});

describe('constructors', () => {
  it.each([
    [{ '@bool': { '@eq': [10, 10] } }, true],
    [{ '@bool': { '@or': [false, true, true, false] } }, true],
    [{ '@int': '42' }, 42],
    [{ '@int': '$.spec.a' }, 1],
    [{ '@float': '1.5' }, 1.5],
    [{ '@float': 2 }, 2],
    [{ '@string': 12 }, '12'],
    [{ '@string': 1.5 }, '%!d(float64=1.5)'],
    [{ '@string': 1e21 + 0.5 }, '%!d(float64=1e+21)'],
    [{ '@string': '$.metadata.name' }, 'name'],
    [{ '@list': [1, 2, 3] }, [1, 2, 3]],
    [{ '@list': [{ '@eq': [10, 10] }, { '@and': [true, false] }] }, [true, false]],
    [{ '@list': '$.spec.x' }, [1, 2, 3, 4, 5]],
  ])('%j', (expr, want) => {
    expect(ev(expr)).toEqual(want);
  });

  it.each([
    [{ '@bool': 'true' }, /@bool at expression: argument must be a boolean, got string "true"/],
    [{ '@int': 1.5 }, /@int at expression: expected an integer, got float 1.5/],
    [{ '@int': '1.5' }, /@int/],
    [{ '@float': 'abc' }, /@float at expression: expected a number/],
    [{ '@string': true }, /@string at expression: expected a string or a number, got boolean/],
    [{ '@string': { a: 1 } }, /got map/],
    [{ '@list': '$.spec.a' }, /@list at expression: argument must be a list, got int 1/],
  ])('%j fails', (expr, want) => {
    expect(() => ev(expr)).toThrow(want);
  });

  it('applies the list-unpacking rule', () => {
    expect(ev([[1, 2], [3]])).toEqual([1, 2]);
    expect(ev(['$.spec.x', 9])).toEqual([1, 2, 3, 4, 5]);
    expect(ev([1, [2]])).toEqual([1, [2]]);
  });

  it('reports errors as ExpressionError with op and path data', () => {
    try {
      ev(yaml('"@and": [true, {"@lt": ["$.nope", 1]}]'));
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ExpressionError);
      const err = e as ExpressionError;
      expect(err.code).toBe('EvaluationFailed');
      expect(err.data).toMatchObject({ op: '@lt', path: 'expression.@and[1]' });
      expect(err.toJSON().name).toBe('ExpressionError');
    }
  });
});

describe('evaluate()', () => {
  it('returns values that do not share structure with the input', () => {
    const input = structuredClone(obj1);
    const got = ev('$.spec', input) as { b: { c: number } };
    got.b.c = 99;
    expect(input.spec.b.c).toBe(2);
  });
});
