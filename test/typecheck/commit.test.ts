import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attempted, flowNames, flowSource, gitopsEnvironment, ready } from '../gitops/fixtures.js';
import { CRDS, expectedFindings, INVALID } from './corpus.js';

describe('a Git commit with a template type error (a real Git server, the embedded API server)', () => {
  const { env, git } = gitopsEnvironment();

  it('is rejected whole with file:line:column in the FlowSource status; a warning alone does not reject', async () => {
    const repo = git().repo('typed');
    const bad = join(INVALID, 'manifest-literal-type.yaml');
    const sha = await repo.commit({
      'ops/crds.yaml': readFileSync(CRDS, 'utf8'),
      'ops/store.yaml': readFileSync(bad, 'utf8'),
      'ops/fine.yaml': readFileSync(join(INVALID, 'maybe-absent.yaml'), 'utf8'),
    });
    await env().kube.create(flowSource('typed', repo.url, { path: 'ops' }));
    const s = await attempted(env().kube, 'typed', sha);
    expect(ready(s)).toMatchObject({ status: 'False', reason: 'ValidationFailed' });
    expect(ready(s)!.message).toContain(`ops/store.yaml:${expectedFindings(bad)[0]}`);
    // Nothing of the commit applied: not even the Flow that only had a warning.
    expect(await flowNames(env().kube)).toEqual([]);

    const fixed = await repo.commit({ 'ops/store.yaml': null });
    env().controllers.sources!.trigger('default', 'typed');
    const s2 = await attempted(env().kube, 'typed', fixed);
    expect(ready(s2)).toMatchObject({ status: 'True', reason: 'Applied' });
    expect(await flowNames(env().kube)).toEqual(['maybe-absent']);
  });
});

/** A Flow watching the corpus' Store whose ConfigMap reads `.Resource.spec.<field>`. */
function storeFlow(field: string): string {
  return `apiVersion: flowops.io/v1
kind: Flow
metadata: { name: store-config }
spec:
  watch: { apiVersion: example.com/v1, kind: Store }
  reconcile:
    steps:
      - name: config
        type: kubectl
        action: apply
        manifests: |
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: {{ .Resource.metadata.name }}
          data:
            value: "{{ .Resource.spec.${field} }}"
`;
}

describe("an incremental sync type-checks against the server's CRDs (a real Git server, the embedded server)", () => {
  const { env, git } = gitopsEnvironment();

  it("rejects a commit touching only a Flow with a field the server's CRD lacks; the commit's CRD wins", async () => {
    const repo = git().repo('server-crds');
    const crds = readFileSync(CRDS, 'utf8');
    const first = await repo.commit({ 'ops/crds.yaml': crds, 'ops/store.yaml': storeFlow('replicas') });
    await env().kube.create(flowSource('server-crds', repo.url, { path: 'ops' }));
    expect(ready(await attempted(env().kube, 'server-crds', first))).toMatchObject({ reason: 'Applied' });

    // Only the Flow changes: the diff holds no CRD, the Store schema comes from the server.
    const typo = await repo.commit({ 'ops/store.yaml': storeFlow('replica') });
    env().controllers.sources!.trigger('default', 'server-crds');
    const s = await attempted(env().kube, 'server-crds', typo);
    expect(ready(s)).toMatchObject({ status: 'False', reason: 'ValidationFailed' });
    expect(ready(s)!.message).toContain(
      'ops/store.yaml:17:24: spec.reconcile.steps[0].manifests: unknown field "spec.replica" in Store; ' +
        'did you mean "replicas"?',
    );
    expect(s.lastAppliedRevision).toContain(first);

    // A field the server's CRD lacks, added by the commit's own CRD: the commit's schema is the one checked.
    const replicas = 'replicas: { type: integer, default: 1 }';
    const widened = crds.replace(replicas, `${replicas}\n                tier: { type: string }`);
    expect(widened).not.toEqual(crds);
    const both = await repo.commit({ 'ops/crds.yaml': widened, 'ops/store.yaml': storeFlow('tier') });
    env().controllers.sources!.trigger('default', 'server-crds');
    const applied = await attempted(env().kube, 'server-crds', both);
    expect(ready(applied)).toMatchObject({ status: 'True', reason: 'Applied' });
  });
});
