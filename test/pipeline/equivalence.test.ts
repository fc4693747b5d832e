// Incremental vs full recompute on random event sequences (seeded, deterministic). The recompute
// engine with nested-loop joins is the reference: it shares no state handling with the
// incremental operators.

import { describe, expect, it } from 'vitest';
import {
  compilePipeline,
  PipelineError,
  type CompiledPipeline,
  type InputEvent,
  type OutputEvent,
} from '../../src/pipeline/index.js';
import { pick, prng, target, yaml } from './helpers.js';

interface Scenario {
  readonly sources: string[];
  readonly pipeline: unknown;
}

const scenarios: Record<string, Scenario> = {
  select: { sources: ['View'], pipeline: { '@select': { '@gt': ['$.spec.n', 2] } } },
  'project (map, renaming)': {
    sources: ['View'],
    pipeline: {
      '@project': {
        metadata: { name: { '@concat': ['$.metadata.name', '-', '$.spec.n'] }, namespace: '$.metadata.namespace' },
        spec: { n2: { '@mul': ['$.spec.n', 2] }, tags: '$.spec.list' },
      },
    },
  },
  'project (list form)': {
    sources: ['View'],
    pipeline: {
      '@project': [
        { '$.': '$.' },
        { '$.metadata.name': { '@concat': ['p-', '$.metadata.name'] } },
        { '$.spec.extra': '$.spec.group' },
      ],
    },
  },
  'project (colliding names)': {
    sources: ['View'],
    pipeline: { '@project': { metadata: { name: { '@concat': ['g-', '$.spec.n'] } }, from: '$.metadata.name' } },
  },
  unwind: {
    sources: ['View'],
    pipeline: [
      { '@unwind': '$.spec.list' },
      { '@project': { metadata: { name: '$.metadata.name', namespace: '$.metadata.namespace' }, v: '$.spec.list' } },
    ],
  },
  'gather (projected)': {
    sources: ['View'],
    pipeline: [
      { '@gather': ['$.spec.group', '$.spec.n'] },
      { '@project': { metadata: { name: '$.spec.group' }, values: '$.spec.n' } },
    ],
  },
  'gather (copy root)': { sources: ['View'], pipeline: [{ '@mux': ['$.metadata.namespace', '$.spec.n'] }] },
  'select → unwind → project → gather → project': {
    sources: ['View'],
    pipeline: yaml(`
- '@select': {'@lt': ["$.spec.n", 5]}
- '@unwind': $.spec.list
- '@project':
    metadata: {name: $.metadata.name, namespace: $.metadata.namespace}
    item: $.spec.list
    group: $.spec.group
- '@gather': [$.item, $.metadata.name]
- '@project':
    metadata: {name: {'@concat': ["item-", $.item]}}
    members: $.metadata.name
`),
  },
  'join (equality)': {
    sources: ['Pod', 'Svc'],
    pipeline: yaml(`
- '@join':
    '@and':
      - '@eq': [$.Pod.spec.group, $.Svc.spec.group]
      - '@eq': [$.Svc.metadata.namespace, $.Pod.metadata.namespace]
      - '@lte': [$.Pod.spec.n, 4]
- '@project':
    metadata:
      name: {'@concat': [$.Svc.metadata.name, "--", $.Pod.metadata.name]}
      namespace: $.Pod.metadata.namespace
    n: $.Pod.spec.n
`),
  },
  'join (non-equi) then gather': {
    sources: ['Pod', 'Svc'],
    pipeline: yaml(`
- '@join': {'@lt': [$.Pod.spec.n, $.Svc.spec.n]}
- '@project':
    metadata: {name: {'@concat': [$.Svc.metadata.name, "--", $.Pod.metadata.name]}}
    svc: $.Svc.metadata.name
    pod: $.Pod.metadata.name
- '@gather': [$.svc, $.pod]
`),
  },
  'join (three sources)': {
    sources: ['Pod', 'Svc', 'Node'],
    pipeline: yaml(`
- '@join':
    '@and':
      - '@eq': [$.Pod.spec.group, $.Svc.spec.group]
      - '@eq': [$.Node.spec.n, $.Pod.spec.n]
- '@project':
    metadata: {name: {'@concat': [$.Svc.metadata.name, "-", $.Pod.metadata.name, "-", $.Node.metadata.name]}}
`),
  },
  'join (list-valued key)': {
    sources: ['Pod', 'Svc'],
    pipeline: yaml(`
- '@join': {'@eq': [$.Pod.spec.pair, $.Svc.spec.group]}
- '@project':
    metadata: {name: {'@concat': [$.Svc.metadata.name, "--", $.Pod.metadata.name]}}
`),
  },
};

function randomObject(rnd: () => number, kind: string, ns: string, name: string): Record<string, unknown> {
  const n = rnd() < 0.05 ? 'bad' : Math.floor(rnd() * 7);
  const list = Array.from({ length: Math.floor(rnd() * 4) }, () => pick(rnd, ['x', 'y', 'z', 1, 2]));
  const group = pick(rnd, ['g1', 'g2', 'g3', null]);
  const pair =
    rnd() < 0.3
      ? pick(rnd, [
          ['g1', 'g1'],
          ['g1', 'g2'],
        ])
      : group;
  return { apiVersion: 'v1', kind, metadata: { namespace: ns, name }, spec: { n, list, group, pair } };
}

type Outcome = OutputEvent[] | { error: string };

function apply(p: CompiledPipeline, batch: InputEvent[]): Outcome {
  try {
    return batch.length === 1 ? p.process(batch[0] as InputEvent) : p.processBatch(batch);
  } catch (e) {
    // When several documents fail, engines may meet a different one first: compare the kind.
    return { error: e instanceof PipelineError ? `${e.code} ${e.op}` : String(e) };
  }
}

/** A random batch, applied to `live` (a model of the source caches) by the caller on success. */
function randomBatch(rnd: () => number, kinds: string[], live: Map<string, Record<string, unknown>>): InputEvent[] {
  const size = rnd() < 0.15 ? 2 + Math.floor(rnd() * 3) : 1;
  const batch: InputEvent[] = [];
  for (let i = 0; i < size; i++) {
    const kind = pick(rnd, kinds);
    const ns = pick(rnd, ['a', 'b']);
    const name = `${kind.toLowerCase()}${Math.floor(rnd() * 6)}`;
    const id = `${kind}/${ns}/${name}`;
    const r = rnd();
    if (live.has(id) && r < 0.3) {
      batch.push({ type: 'Deleted', object: live.get(id) as object });
      live.delete(id);
    } else if (!live.has(id) && r < 0.02) {
      batch.push({ type: 'Deleted', object: randomObject(rnd, kind, ns, name) }); // an error path
    } else {
      const o = randomObject(rnd, kind, ns, name);
      batch.push({ type: pick(rnd, ['Added', 'Updated', 'Upserted', 'Replaced'] as const), object: o });
      live.set(id, o);
    }
  }
  return batch;
}

const engines = [
  ['incremental (indexed)', { mode: 'incremental', joinIndex: true }],
  ['incremental (nested loop)', { mode: 'incremental', joinIndex: false }],
  ['recompute (indexed)', { mode: 'recompute', joinIndex: true }],
] as const;

describe.each(Object.entries(scenarios))('incremental ≡ recompute: %s', (_name, scenario) => {
  it.each([1, 2, 3])('seed %i', (seed) => {
    const rnd = prng(seed * 7919);
    const make = (o: { mode: 'incremental' | 'recompute'; joinIndex: boolean }) =>
      compilePipeline(scenario.pipeline, { sources: scenario.sources, target, ...o });
    const reference = make({ mode: 'recompute', joinIndex: false });
    const others = engines.map(([label, o]) => [label, make(o)] as const);
    let live = new Map<string, Record<string, unknown>>();
    let emitted = 0;
    let errors = 0;
    for (let step = 0; step < 250; step++) {
      const next = new Map(live);
      const batch = randomBatch(rnd, scenario.sources, next);
      const want = apply(reference, batch);
      // A failed batch changes nothing, so the model only moves on success.
      if ('error' in want) errors++;
      else {
        emitted += want.length;
        live = next;
      }
      for (const [label, p] of others) expect(apply(p, batch), `${label}, step ${step}`).toEqual(want);
    }
    for (const [label, p] of others) expect(p.outputs(), label).toEqual(reference.outputs());
    expect(emitted).toBeGreaterThan(0);
    expect(errors).toBeLessThan(250);
  });
});
