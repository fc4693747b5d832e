import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/pipeline/index.js';
import { obj1 } from './fixtures.js';

const ev = (e: unknown, o: unknown = obj1): unknown => evaluate(e, o);

describe('@eq and @in', () => {
  it.each([
    [{ '@eq': [10, 10] }, true],
    [{ '@eq': ['a', 'b'] }, false],
    [{ '@eq': ['1', 1] }, false],
    [{ '@eq': ['$.spec.b', { c: 2 }] }, true],
    [{ '@eq': ['$.spec.missing', true] }, false], // missing field: not an error
    [{ '@eq': ['$.nope', '$.nope2'] }, false], // null == null is false
    [{ '@eq': ['$.x', null] }, false], // null parses as false
    [{ '@eq': ['$.f', null] }, true],
    [{ '@eq': [{ '@len': ['$.spec.x'] }, 5] }, true],
    [{ '@in': [1, [1, 2, 3]] }, true],
    [{ '@in': [4, [1, 2, 3]] }, false],
    [{ '@in': ['a', [1, 2, 3]] }, false],
    [{ '@in': ['nginx', ['apache', 'nginx', 'nginx']] }, true],
    [{ '@in': [{ a: 1 }, [{ a: 1 }]] }, true],
  ])('%j', (e, want) => {
    expect(ev(e, { ...obj1, f: false })).toBe(want);
  });

  it('unpacks a list-valued first argument (kept quirk)', () => {
    expect(ev({ '@eq': ['$.pair', 'ignored'] }, { pair: [3, 3] })).toBe(true);
    expect(() => ev({ '@eq': ['$.spec.x', 'x'] })).toThrow(/@eq at expression: expected 2 arguments, got 5/);
  });

  it('fails on wrong shapes', () => {
    expect(() => ev({ '@eq': 10 })).toThrow(/@eq at expression: argument must be a list/);
    expect(() => ev({ '@in': [1, 2] })).toThrow(/@in at expression: the second argument must be a list/);
  });
});

describe('@lt, @lte, @gt, @gte', () => {
  it.each([
    [{ '@lt': [1, 2] }, true],
    [{ '@lt': ['$.spec.a', '$.spec.b.c'] }, true],
    [{ '@lte': [2, 2] }, true],
    [{ '@gt': [2.5, 2] }, true],
    [{ '@gte': ['10', '9'] }, true], // integer strings compare as integers
    [{ '@lt': ['1.5', 2] }, true],
    [{ '@lt': [1, 1.5] }, true],
  ])('%j', (e, want) => {
    expect(ev(e)).toBe(want);
  });

  it.each([
    [{ '@lt': ['$.spec.missing', 1] }, /@lt at expression: expected numeric arguments, got null/],
    [{ '@gt': ['a', 1] }, /expected numeric arguments, got string "a"/],
    [{ '@gte': [1] }, /expected 2 arguments, got 1/],
    [{ '@lte': [true, 1] }, /got boolean/],
  ])('%j fails', (e, want) => {
    expect(() => ev(e)).toThrow(want);
  });
});

describe('@selector', () => {
  const withLabels = (labels: Record<string, unknown>): unknown => ({
    ...obj1,
    metadata: { ...obj1.metadata, labels },
  });

  it.each([
    [{ '@selector': [{ matchLabels: { app: 'nginx' } }, { app: 'nginx' }] }, {}, true],
    [{ '@selector': [{ app: 'nginx' }, { app: 'nginx' }] }, {}, true],
    [{ '@selector': [{ app: 'nginx' }, '$.metadata.labels'] }, { app: 'nginx' }, true],
    [{ '@selector': [{ app: 'nginx' }, '$.metadata.labels'] }, { app: 'apache' }, false],
    [{ '@selector': [{ matchLabels: { app: 'nginx' } }, '$.metadata.labels'] }, { app: 'apache' }, false],
    [
      {
        '@selector': [
          { matchExpressions: [{ key: 'app', operator: 'In', values: ['nginx', 'httpd'] }] },
          '$.metadata.labels',
        ],
      },
      { app: 'nginx' },
      true,
    ],
    [
      {
        '@selector': [
          { matchExpressions: [{ key: 'app', operator: 'In', values: ['nginx', 'httpd'] }] },
          '$.metadata.labels',
        ],
      },
      { app: 'apache' },
      false,
    ],
    [
      {
        '@selector': [
          { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['nginx'] }] },
          '$.metadata.labels',
        ],
      },
      {},
      true,
    ],
    [
      { '@selector': [{ matchExpressions: [{ key: 'v', operator: 'DoesNotExist' }] }, '$.metadata.labels'] },
      { v: 'x' },
      false,
    ],
    [{ '@selector': [{ matchLabels: { n: '1' } }, '$.metadata.labels'] }, { n: 1 }, true], // values are stringified
    [{ '@selector': [{}, '$.metadata.labels'] }, { a: 'b' }, true],
    [{ '@selector': ['$.nope', '$.metadata.labels'] }, { a: 'b' }, false],
    [{ '@selector': [{ a: 'b' }, '$.metadata.nolabels'] }, {}, false],
  ])('%j on %j', (e, labels, want) => {
    expect(ev(e, withLabels(labels))).toBe(want);
  });

  it('matches the original multi-requirement example', () => {
    const sel = {
      '@selector': [
        {
          matchLabels: { app: 'nginx' },
          matchExpressions: [
            { key: 'env', operator: 'In', values: ['production', 'staging'] },
            { key: 'version', operator: 'Exists' },
          ],
        },
        '$.metadata.labels',
      ],
    };
    expect(ev(sel, withLabels({ app: 'nginx', env: 'production', version: 'v2' }))).toBe(true);
    expect(ev(sel, withLabels({ app: 'apache', env: 'production', version: 'v2' }))).toBe(false);
    expect(ev(sel, withLabels({ app: 'nginx' }))).toBe(false);
    expect(ev(sel, withLabels({ app: 'nginx', env: 'staging', version: 'v3' }))).toBe(true);
  });

  it.each([
    [{ '@selector': ['x', {}] }, /@selector at expression: invalid label selector: expected a map, got string/],
    [{ '@selector': [{}, 'x'] }, /invalid label set/],
    [
      { '@selector': [{ matchExpressions: [{ key: 'a', operator: 'Equals', values: ['x'] }] }, {}] },
      /unknown operator "Equals"/,
    ],
    [
      { '@selector': [{ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }, {}] },
      /needs a non-empty values list/,
    ],
    [{ '@selector': [{}] }, /expected 2 arguments/],
  ])('%j fails', (e, want) => {
    expect(() => ev(e)).toThrow(want);
  });
});
