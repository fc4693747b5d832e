import { describe, expect, it } from 'vitest';
import { compilePipeline, PipelineParseError } from '../../src/pipeline/index.js';
import { target, yaml } from './helpers.js';

const build = (pipeline: unknown, sources = ['view']): unknown => compilePipeline(pipeline, { sources, target });

describe('pipeline parsing (spec §3.1, §4.5)', () => {
  it.each([
    ['a single stage map', { '@select': true }],
    ['a list of stages', [{ '@select': true }, { '@project': { metadata: '$.metadata' } }]],
    ['no pipeline', undefined],
    ['an empty list', []],
    ['aliases', [{ '@demux': '$.spec.l' }, { '@mux': ['$.metadata.namespace', '$.spec.l'] }]],
    ['a leading @join', [{ '@join': true }, { '@project': { metadata: { name: 'x' } } }]],
    [
      'the README example',
      yaml(`
"@project":
  metadata:
    name: "$.metadata.name"
    namespace: "$.metadata.namespace"
    annotations:
      "dcontroller.io/container-num":
        '@string':
          '@len': ["$.spec.containers"]`),
    ],
  ])('accepts %s', (_name, p) => {
    expect(() => build(p)).not.toThrow();
  });

  it.each([
    ['an unknown stage', [{ '@dummmy': 1 }], /@dummmy at pipeline\[0\]: unknown pipeline op "@dummmy"/],
    ['a legacy @aggregate', { '@join': true, '@aggregate': [] }, /exactly one key, got 2/],
    [
      'a stage with two keys',
      [{ '@select': true, '@project': {} }],
      /pipeline at pipeline\[0\]: a stage must have exactly one key/,
    ],
    ['a stage that is not a map', ['@select'], /a stage must be a map/],
    [
      'a later @join',
      [{ '@select': true }, { '@join': true }],
      /@join at pipeline\[1\]: @join may only be the first stage/,
    ],
    [
      'a non-literal @unwind',
      [{ '@unwind': { '@concat': ['$.', 'a'] } }],
      /@unwind at pipeline\[0\]: the argument must be a literal JSONPath string/,
    ],
    [
      'a @gather that is not a 2-list',
      [{ '@gather': ['$.a'] }],
      /@gather at pipeline\[0\]: the argument must be a \[key, valuePath\] list/,
    ],
    [
      'an empty string literal',
      [{ '@project': { metadata: { name: '' } } }],
      /@string at pipeline\[0\]\.@project\.metadata\.name: the empty string/,
    ],
    ['a scalar pipeline', 'x', /expected a stage or a list of stages/],
  ])('rejects %s', (_name, p, want) => {
    expect(() => build(p)).toThrow(PipelineParseError);
    expect(() => build(p)).toThrow(want);
  });

  it('requires @join with several sources', () => {
    expect(() => build([{ '@project': {} }], ['A', 'B'])).toThrow(
      /multiple base resources must specify @join as the first operation/,
    );
    expect(() => build(undefined, ['A', 'B'])).toThrow(/must specify @join/);
    expect(() => build([{ '@join': true }], ['A', 'B'])).not.toThrow();
  });

  it('collapses duplicate source kinds', () => {
    const p = compilePipeline(undefined, { sources: ['view', 'view'], target });
    expect(p.sources).toEqual(['view']);
  });

  it('rejects an invalid filter selector up front', () => {
    expect(() =>
      compilePipeline(undefined, {
        sources: ['view'],
        target,
        filters: { view: { labelSelector: { matchExpressions: [{ key: 'a', operator: 'Nope' }] } } },
      }),
    ).toThrow(PipelineParseError);
  });
});
