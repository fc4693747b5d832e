import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/pipeline/index.js';
import { obj1 } from './fixtures.js';

const ev = (e: unknown, o: unknown = obj1): unknown => evaluate(e, o);
// "$.$$" is a malformed path: evaluating it fails, so it proves a branch was skipped.
const poison = '$.$$';

describe('@and / @or', () => {
  it.each([
    [{ '@and': [{ '@eq': [10, 10] }, { '@lt': [1, 2] }] }, true],
    [{ '@and': [true, { '@eq': [10, 11] }, poison] }, false],
    [{ '@or': [false, { '@eq': [10, 10] }, poison] }, true],
    [{ '@and': [] }, true],
    [{ '@or': [] }, false],
    [{ '@and': true }, true],
    [{ '@or': false }, false],
  ])('%j', (e, want) => {
    expect(ev(e)).toBe(want);
  });

  it('requires boolean items', () => {
    expect(() => ev({ '@and': [true, 1] })).toThrow(/@and at expression: argument 1 must be a boolean, got int 1/);
    expect(() => ev({ '@or': ['$.nope'] })).toThrow(/@or at expression: argument 0 must be a boolean, got null/);
  });

  it('blames the failing inner operator', () => {
    expect(() => ev({ '@and': [true, { '@or': [false, poison] }] })).toThrow(
      /@string at expression\.@and\[1\]\.@or\[1\]: invalid JSONPath/,
    );
  });
});

describe('@not, @isnil, @exists, @has, @noop, @definedOr', () => {
  it.each([
    [{ '@not': false }, true],
    [{ '@isnil': 1 }, false],
    [{ '@isnil': '$.nope' }, true],
    [{ '@isnil': null }, false], // null parses as false
    [{ '@exists': '$.metadata.annotations.ann' }, false],
    [{ '@exists': '$.spec.a' }, true],
    [{ '@has': 'plain string' }, true],
    [{ '@noop': poison }, null],
    [{ '@definedOr': [1, 2] }, 1],
    [{ '@definedOr': ['$.dummy', 2] }, 2],
    [{ '@definedOr': ['$.metadata.namespace', 2] }, 'default'],
    [{ '@definedOr': ['$.dummy', '$.metadata.namespace'] }, 'default'],
    [{ '@definedOr': [1, poison] }, 1],
  ])('%j', (e, want) => {
    expect(ev(e)).toEqual(want);
  });

  it('fails on a non-boolean @not and a wrong @definedOr arity', () => {
    expect(() => ev({ '@not': 'x' })).toThrow(/@not at expression: argument must be a boolean/);
    expect(() => ev({ '@definedOr': [1] })).toThrow(/@definedOr at expression: expected 2 arguments, got 1/);
  });
});

describe('@cond', () => {
  it.each([
    [{ '@cond': [true, 1, 2] }, 1],
    [{ '@cond': [false, 1, 2] }, 2],
    [{ '@cond': [false, 1] }, null],
    [{ '@cond': [{ '@eq': ['$.spec.a', 1] }, '$.spec.b.c', poison] }, 2],
    [{ '@cond': [{ '@eq': ['$.spec.a', 'x'] }, poison, '$.spec.b.c'] }, 2],
    [
      {
        '@cond': [
          { '@eq': ['$.spec.a', 2] },
          poison,
          { '@cond': [{ '@eq': ['$.metadata.name', 'name'] }, '$.spec.a', poison] },
        ],
      },
      1,
    ],
    [{ '@cond': [true, { '@noop': null }] }, null],
  ])('%j', (e, want) => {
    expect(ev(e)).toEqual(want);
  });

  it('fails on a non-boolean condition or a wrong arity', () => {
    expect(() => ev({ '@cond': ['$.spec.a', 1] })).toThrow(
      /@cond at expression: the condition must be a boolean, got int 1/,
    );
    expect(() => ev({ '@cond': [true] })).toThrow(/expected 2 \(if\/then\) or 3/);
    expect(() => ev({ '@cond': [true, 1, 2, 3] })).toThrow(/@cond/);
  });
});

describe('@switch', () => {
  it('takes the first true case and evaluates only its action', () => {
    expect(
      ev({
        '@switch': [
          [false, poison],
          [{ '@eq': ['$.spec.a', 1] }, 'one'],
          [true, poison],
        ],
      }),
    ).toBe('one');
    expect(ev({ '@switch': [[false, 1]] })).toBeNull();
  });

  it.each([
    [{ '@switch': [] }, /non-empty list/],
    [{ '@switch': [[true, 1, 2]] }, /case 0 must be a \[condition, action\] pair/],
    [{ '@switch': [[1, 'x']] }, /the condition of case 0 must be a boolean/],
  ])('%j fails', (e, want) => {
    expect(() => ev(e)).toThrow(want);
  });
});
