import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/kube/types.js';
import { ControllerHealth, shortenError } from '../../src/operator/health.js';
import { compilePredicate } from '../../src/operator/predicates.js';
import { WriteQueue } from '../../src/operator/write-queue.js';
import type { OutputEvent } from '../../src/pipeline/index.js';
import { authorize, matchPattern } from '../../src/viewapi/authorize.js';
import { waitFor } from '../helpers/wait.js';

const obj = (meta: Partial<KubeObject['metadata']>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', ...meta },
});

describe('source predicates (spec §1.3)', () => {
  const old = obj({ generation: 1, resourceVersion: '1', labels: { a: '1' }, annotations: { x: '1' } });
  it('evaluates the basic predicates and And / Or / Not', () => {
    expect(compilePredicate('GenerationChanged')(old, obj({ ...old.metadata, generation: 2 }))).toBe(true);
    expect(compilePredicate('GenerationChanged')(old, obj({ ...old.metadata, resourceVersion: '2' }))).toBe(false);
    expect(compilePredicate('LabelChanged')(old, obj({ ...old.metadata, labels: { a: '2' } }))).toBe(true);
    expect(compilePredicate('AnnotationChanged')(old, obj({ ...old.metadata, annotations: {} }))).toBe(true);
    const p = compilePredicate({
      Or: ['GenerationChanged', { And: ['ResourceVersionChanged', { Not: ['LabelChanged'] }] }],
    });
    expect(p(old, obj({ ...old.metadata, resourceVersion: '2' }))).toBe(true);
    expect(p(old, obj({ ...old.metadata, resourceVersion: '2', labels: {} }))).toBe(false);
  });
  it('rejects the doc-bug spellings and malformed trees', () => {
    expect(() => compilePredicate('LabelsChanged')).toThrow(/unknown predicate "LabelsChanged"/);
    expect(() => compilePredicate({ and: ['GenerationChanged'] })).toThrow(/unknown boolean predicate "and"/);
    expect(() => compilePredicate({ Not: ['GenerationChanged', 'LabelChanged'] })).toThrow(/exactly one/);
    expect(() => compilePredicate({ And: [], Or: [] })).toThrow(/exactly one key/);
  });
});

describe('controller status (spec §1.5)', () => {
  it('shortens long errors to 119 + [...] + 120 characters and keeps the last 10', () => {
    const long = 'a'.repeat(119) + 'b'.repeat(100) + 'c'.repeat(120);
    expect(shortenError(long)).toBe(`${'a'.repeat(119)}[...]${'c'.repeat(120)}`);
    expect(shortenError('x'.repeat(245))).toHaveLength(245);
    const h = new ControllerHealth('c');
    for (let i = 0; i < 12; i++) h.addRuntime(new Error(`e${i}`));
    expect(h.status(3)).toMatchObject({
      name: 'c',
      lastErrors: ['e2', 'e3', 'e4', 'e5', 'e6', 'e7', 'e8', 'e9', 'e10', 'e11'],
    });
    expect(h.status(3).conditions[0]).toMatchObject({
      status: 'Unknown',
      reason: 'ReconciliationFailed',
      observedGeneration: 3,
    });
  });
});

describe('view API authorization (spec §6)', () => {
  it('matches * / pre* / *suf / pre*suf patterns', () => {
    expect(matchPattern('*.view.dcontroller.io', 'a.view.dcontroller.io')).toBe(true);
    expect(matchPattern('pod*', 'podinfo')).toBe(true);
    expect(matchPattern('p*o', 'podinfo')).toBe(true);
    expect(matchPattern('p*x', 'podinfo')).toBe(false);
  });
  it('applies namespaces, rules and resourceNames as the original', () => {
    const rule = { verbs: ['get', 'list'], apiGroups: ['*'], resources: ['podinfo'], resourceNames: ['one'] };
    const a = { apiGroup: 'x.view.dcontroller.io', resource: 'podinfo' };
    expect(
      authorize({ username: 'u', namespaces: [], rules: [] }, { ...a, verb: 'delete', namespace: 'any' }),
    ).toBeUndefined();
    expect(authorize({ username: 'u', namespaces: ['a'], rules: [] }, { ...a, verb: 'get', namespace: 'b' })).toMatch(
      /namespace b/,
    );
    expect(authorize({ username: 'u', namespaces: ['a'], rules: [] }, { ...a, verb: 'list' })).toMatch(/cluster-wide/);
    expect(authorize({ username: 'u', namespaces: ['*'], rules: [] }, { ...a, verb: 'watch' })).toBeUndefined();
    expect(
      authorize({ username: 'u', namespaces: [], rules: [rule] }, { ...a, verb: 'get', namespace: 'n', name: 'two' }),
    ).toMatch(/no rule/);
    expect(
      authorize({ username: 'u', namespaces: [], rules: [rule] }, { ...a, verb: 'get', namespace: 'n', name: 'one' }),
    ).toBeUndefined();
    expect(
      authorize({ username: 'u', namespaces: [], rules: [rule] }, { ...a, verb: 'list', namespace: 'n' }),
    ).toBeUndefined();
    expect(
      authorize({ username: 'u', namespaces: [], rules: [rule] }, { ...a, verb: 'create', namespace: 'n' }),
    ).toMatch(/no rule/);
  });
});

describe('the target write queue', () => {
  const ev = (type: OutputEvent['type'], name: string, v: number): OutputEvent => ({
    type,
    object: { metadata: { name, namespace: 'n' }, v },
  });
  it('coalesces pending writes per key and retries a failed write unless superseded', async () => {
    const written: string[] = [];
    let failOnce = true;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const q = new WriteQueue({
      backoffMs: 1,
      write: async (e) => {
        if (e.object.v === 0) await gate;
        if (e.object.v === 3 && failOnce) {
          failOnce = false;
          throw new Error('boom');
        }
        written.push(`${e.type}:${(e.object.metadata as { name: string }).name}:${String(e.object.v)}`);
      },
      onError: () => undefined,
    });
    q.push(ev('Upserted', 'a', 0));
    q.push(ev('Upserted', 'b', 1));
    q.push(ev('Deleted', 'b', 2));
    q.push(ev('Upserted', 'c', 3));
    release();
    await waitFor(() => written.length === 3, { what: 'the retried write' });
    expect(written).toEqual(['Upserted:a:0', 'Deleted:b:2', 'Upserted:c:3']);
    await q.stop();
  });
});
