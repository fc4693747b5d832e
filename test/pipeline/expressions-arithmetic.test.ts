import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/pipeline/index.js';
import { obj1 } from './fixtures.js';

const ev = (e: unknown, o: unknown = obj1): unknown => evaluate(e, o, { random: () => 0.999 });

describe('arithmetic', () => {
  it.each([
    [{ '@add': [1, 2] }, 3],
    [{ '@add': [1, 2.5] }, 3.5],
    [{ '@add': ['1', 2] }, 3],
    [{ '@sub': ['$.spec.a', 3] }, -2],
    [{ '@mul': [2, '$.spec.b.c'] }, 4],
    [{ '@mul': [1.5, 2] }, 3],
    [{ '@div': [7, 2] }, 3.5],
    [{ '@div': [1, 0] }, Infinity],
    [{ '@div': [-1, 0] }, -Infinity],
    [{ '@abs': -3 }, 3],
    [{ '@ceil': 1.2 }, 2],
    [{ '@floor': '1.7' }, 1],
    [{ '@sum': [1, 2, 3] }, 6],
    [{ '@sum': '$.spec.x' }, 15],
    [{ '@sum': ['$.spec.x'] }, 15],
    [{ '@sum': [1, 2.5] }, 3.5],
    [{ '@sum': [] }, 0],
    [{ '@min': [3, 1, 2] }, 1],
    [{ '@max': '$.spec.x' }, 5],
    [{ '@max': [1, 2.5] }, 2.5],
    [{ '@min': [] }, null],
    [{ '@max': [] }, null],
    [{ '@rnd': [0, 10] }, 9],
  ])('%j', (e, want) => {
    expect(ev(e)).toEqual(want);
  });

  it('gives NaN for 0/0 rather than an error', () => {
    expect(ev({ '@div': [0, 0] })).toBeNaN();
  });

  it('stays within [min, max) for @rnd', () => {
    expect(evaluate({ '@rnd': [5, 6] }, {}, { random: () => 0 })).toBe(5);
    expect(evaluate({ '@rnd': [5, 6] }, {}, { random: () => 0.9999 })).toBe(5);
  });

  it.each([
    [{ '@add': [1] }, /@add at expression: expected 2 arguments, got 1/],
    [{ '@add': [1, 'x'] }, /@add at expression: expected numeric arguments, got string "x"/],
    [{ '@div': ['$.nope', 1] }, /@div/],
    [{ '@abs': [1] }, /@abs at expression: expected a number, got list/],
    [{ '@sum': [1, true] }, /@sum/],
    [{ '@sum': 3 }, /@sum at expression: argument must be a list/],
    [{ '@rnd': [5, 5] }, /@rnd at expression: max \(5\) must be greater than min \(5\)/],
    [{ '@rnd': [1.5, 5] }, /expected two integers/],
  ])('%j fails', (e, want) => {
    expect(() => ev(e)).toThrow(want);
  });
});
