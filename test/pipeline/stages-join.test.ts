import { describe, expect, it } from 'vitest';
import { OutputError } from '../../src/pipeline/index.js';
import { brief, compile, obj, target, yaml, type Mode } from './helpers.js';

const configs: Array<[string, Mode, boolean]> = [
  ['incremental, indexed', 'incremental', true],
  ['incremental, nested loop', 'incremental', false],
  ['recompute, indexed', 'recompute', true],
  ['recompute, nested loop', 'recompute', false],
];

const pod = (name: string, app: string, ns = 'default') =>
  obj('Pod', ns, name, { metadata: { labels: { app } }, spec: { node: `node-${name}` } });
const svc = (name: string, app: string, ns = 'default') =>
  obj('Service', ns, name, { spec: { selector: { app }, type: 'ClusterIP' } });

const podService = yaml(`
- '@join':
    '@and':
      - '@eq': ["$.Pod.metadata.labels.app", "$.Service.spec.selector.app"]
      - '@eq': ["$.Pod.metadata.namespace", "$.Service.metadata.namespace"]
- '@project':
    metadata:
      name: {'@concat': ["$.Service.metadata.name", "--", "$.Pod.metadata.name"]}
      namespace: "$.Pod.metadata.namespace"
    spec:
      node: "$.Pod.spec.node"
      type: "$.Service.spec.type"
`);

describe.each(configs)('@join (%s)', (_name, mode, joinIndex) => {
  const run = (pipeline: unknown, sources = ['Pod', 'Service']) => compile(pipeline, mode, { sources, joinIndex });

  it('joins the current states of all sources', () => {
    const p = run(podService);
    expect(p.process({ type: 'Added', object: pod('p1', 'web') })).toEqual([]);
    expect(p.process({ type: 'Added', object: svc('s1', 'web') })).toEqual([
      {
        type: 'Upserted',
        object: {
          ...target,
          metadata: { name: 's1--p1', namespace: 'default' },
          spec: { node: 'node-p1', type: 'ClusterIP' },
        },
      },
    ]);
    expect(brief(p.process({ type: 'Added', object: pod('p2', 'web') }))).toEqual(['Upserted default/s1--p2']);
    expect(brief(p.process({ type: 'Added', object: pod('p3', 'db') }))).toEqual([]);
    expect(brief(p.process({ type: 'Added', object: pod('p4', 'web', 'other') }))).toEqual([]);
    expect(brief(p.process({ type: 'Added', object: svc('s2', 'web') }))).toEqual([
      'Upserted default/s2--p1',
      'Upserted default/s2--p2',
    ]);
  });

  it('retracts every row of a deleted object, carrying the old content (join-delete)', () => {
    const p = run(podService);
    p.processBatch([
      { type: 'Added', object: pod('p1', 'web') },
      { type: 'Added', object: pod('p2', 'web') },
      { type: 'Added', object: svc('s1', 'web') },
    ]);
    const out = p.process({ type: 'Deleted', object: svc('s1', 'web') });
    expect(brief(out)).toEqual(['Deleted default/s1--p1', 'Deleted default/s1--p2']);
    expect(out[0]?.object.spec).toEqual({ node: 'node-p1', type: 'ClusterIP' });
    expect(p.outputs()).toEqual([]);
  });

  it('moves a row when a relabel changes its partner (join-relabel-moves-row)', () => {
    const p = run(podService);
    p.processBatch([
      { type: 'Added', object: svc('web', 'web') },
      { type: 'Added', object: svc('db', 'db') },
      { type: 'Added', object: pod('p1', 'web') },
    ]);
    expect(brief(p.process({ type: 'Updated', object: pod('p1', 'db') }))).toEqual([
      'Deleted default/web--p1',
      'Upserted default/db--p1',
    ]);
  });

  it('updates a row in place when its name stays', () => {
    const p = run(podService);
    p.processBatch([
      { type: 'Added', object: svc('s', 'web') },
      { type: 'Added', object: pod('p', 'web') },
    ]);
    const changed = { ...svc('s', 'web'), spec: { selector: { app: 'web' }, type: 'NodePort' } };
    expect(p.process({ type: 'Updated', object: changed })).toEqual([
      {
        type: 'Upserted',
        object: {
          ...target,
          metadata: { name: 's--p', namespace: 'default' },
          spec: { node: 'node-p', type: 'NodePort' },
        },
      },
    ]);
  });

  it('reads a reference to a non-source kind as null: @eq is false, not an error', () => {
    const p = run([
      { '@join': { '@eq': ['$.rs.metadata.name', '$.Pod.metadata.name'] } },
      { '@project': { metadata: { name: 'x' } } },
    ]);
    p.process({ type: 'Added', object: svc('s', 'web') });
    expect(p.process({ type: 'Added', object: pod('p', 'web') })).toEqual([]);
  });

  it('supports other predicates through the nested loop', () => {
    const p = run([
      { '@join': { '@and': [{ '@lt': ['$.Pod.spec.rank', '$.Service.spec.rank'] }] } },
      { '@project': { metadata: { name: { '@concat': ['$.Service.metadata.name', '--', '$.Pod.metadata.name'] } } } },
    ]);
    const ranked = <T extends Record<string, unknown>>(o: T, rank: number): T => ({ ...o, spec: { rank } });
    p.processBatch([
      { type: 'Added', object: ranked(pod('p', 'a'), 1) },
      { type: 'Added', object: ranked(pod('pp', 'a'), 2) },
    ]);
    expect(brief(p.process({ type: 'Added', object: ranked(svc('s3', 'x'), 3) }))).toEqual([
      'Upserted s3--p',
      'Upserted s3--pp',
    ]);
    expect(brief(p.process({ type: 'Added', object: ranked(svc('s2', 'x'), 2) }))).toEqual(['Upserted s2--p']);
  });

  it('joins three sources, keyed by kind', () => {
    const p = run(
      yaml(`
- '@join':
    '@and':
      - '@eq': ["$.Pod.metadata.labels.app", "$.Service.spec.selector.app"]
      - '@eq': ["$.Pod.spec.node", "$.Node.metadata.name"]
- '@project':
    metadata:
      name: {'@concat': ["$.Service.metadata.name", "-", "$.Pod.metadata.name", "-", "$.Node.metadata.name"]}
`),
      ['Pod', 'Service', 'Node'],
    );
    p.processBatch([
      { type: 'Added', object: pod('p1', 'web') },
      { type: 'Added', object: svc('s', 'web') },
    ]);
    expect(brief(p.process({ type: 'Added', object: obj('Node', undefined, 'node-p1') }))).toEqual([
      'Upserted s-p1-node-p1',
    ]);
    expect(brief(p.process({ type: 'Added', object: obj('Node', undefined, 'node-other') }))).toEqual([]);
    expect(brief(p.process({ type: 'Deleted', object: pod('p1', 'web') }))).toEqual(['Deleted s-p1-node-p1']);
  });

  it('handles the list-unpacking rule on a list-valued first @eq side', () => {
    // "$.Pod.spec.pair" is a list, so @eq compares its two elements, whatever the partner.
    const p = run([
      { '@join': { '@eq': ['$.Pod.spec.pair', '$.Service.metadata.name'] } },
      { '@project': { metadata: { name: '$.Service.metadata.name' } } },
    ]);
    p.process({ type: 'Added', object: obj('Pod', 'ns', 'p', { spec: { pair: [1, 1] } }) });
    expect(brief(p.process({ type: 'Added', object: svc('s', 'x') }))).toEqual(['Upserted s']);
  });

  it('fails on a non-boolean predicate, and when the compound document reaches the output', () => {
    const bad = run([{ '@join': '$.Pod.metadata.name' }]);
    bad.process({ type: 'Added', object: svc('s', 'x') });
    expect(() => bad.process({ type: 'Added', object: pod('p', 'x') })).toThrow(
      /@join at pipeline\[0\]: the join condition must be a boolean, got string "p"/,
    );
    const bare = run([{ '@join': true }]);
    bare.process({ type: 'Added', object: svc('s', 'x') });
    expect(() => bare.process({ type: 'Added', object: pod('p', 'x') })).toThrow(OutputError);
  });

  it('builds the compound document from every source', () => {
    const p = run([
      { '@join': true },
      {
        '@project': [
          { metadata: { name: 'all' } },
          { kinds: { '@len': [{ '@map': ['$$', ['$.Pod', '$.Service']] }] } },
          { both: '$.' },
        ],
      },
    ]);
    p.process({ type: 'Added', object: pod('p', 'x') });
    const out = p.process({ type: 'Added', object: svc('s', 'x') });
    expect(out[0]?.object.both).toEqual({ Pod: pod('p', 'x'), Service: svc('s', 'x') });
  });
});
