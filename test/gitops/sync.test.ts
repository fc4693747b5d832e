import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { KubeObject } from '../../src/kube/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFlowOps, type FlowOpsEnv } from '../helpers/flowops.js';
import { startGitServer, type GitServer, type TestRepo } from '../helpers/git-server.js';
import { attempted, flowNames, flowSource, flowYaml, ready, sourceStatus } from './fixtures.js';
import { WIDGET_CRD } from '../fixtures/widgets.js';
import { waitFor } from '../helpers/wait.js';

describe('FlowSource: per-commit sync with provenance and prune', () => {
  let env: FlowOpsEnv;
  let gitServer: GitServer;
  let repo: TestRepo;
  const sync = (): void => env.controllers.sources!.trigger('default', 'flows');

  beforeAll(async () => {
    env = await startFlowOps({ sources: { dataDir: mkdtempSync(join(tmpdir(), 'flowops-sources-')) } });
    gitServer = await startGitServer();
    repo = gitServer.repo('flows');
  });
  afterAll(async () => {
    await env?.stop();
    await gitServer?.stop();
  });

  it('applies the first commit with provenance on every object', async () => {
    const sha = await repo.commit({
      'flows/a.yaml': flowYaml('alpha'),
      'flows/b.yaml': flowYaml('beta'),
      'README.md': '# flows\n',
    });
    await env.kube.create(flowSource('flows', repo.url, { path: 'flows' }));
    const s = await attempted(env.kube, 'flows', sha);
    expect(ready(s)).toMatchObject({ status: 'True', reason: 'Applied' });
    expect(s.lastAppliedRevision).toBe(`main@sha1:${sha}`);
    expect(await flowNames(env.kube)).toEqual(['alpha', 'beta']);
    const alpha = await env.kube.get({
      apiVersion: 'flowops.io/v1',
      kind: 'Flow',
      name: 'alpha',
      namespace: 'default',
    });
    expect(alpha!.metadata.annotations).toMatchObject({
      'flowops.io/source': 'default/flows',
      'flowops.io/revision': `main@sha1:${sha}`,
      'flowops.io/path': 'flows/a.yaml',
    });
    expect(s.inventory!.map((e) => `${e.kind}/${e.name}@${e.path}`)).toEqual([
      'Flow/alpha@flows/a.yaml',
      'Flow/beta@flows/b.yaml',
    ]);
    const managers = (alpha!.metadata.managedFields as Array<{ manager: string }>).map((m) => m.manager);
    expect(managers).toContain('flowops');
  });

  it('adds, changes and removes Flows across commits', async () => {
    const sha2 = await repo.commit({ 'flows/c.yaml': flowYaml('gamma'), 'flows/a.yaml': flowYaml('alpha', 'v2') });
    sync();
    await attempted(env.kube, 'flows', sha2);
    expect(await flowNames(env.kube)).toEqual(['alpha', 'beta', 'gamma']);
    const alpha = await env.kube.get({
      apiVersion: 'flowops.io/v1',
      kind: 'Flow',
      name: 'alpha',
      namespace: 'default',
    });
    expect(JSON.stringify(alpha!.spec)).toContain('-v2');
    expect(alpha!.metadata.annotations!['flowops.io/revision']).toBe(`main@sha1:${sha2}`);
    // Unchanged files are not re-applied: beta keeps the revision that applied it.
    const beta = await env.kube.get({ apiVersion: 'flowops.io/v1', kind: 'Flow', name: 'beta', namespace: 'default' });
    expect(beta!.metadata.annotations!['flowops.io/revision']).not.toBe(`main@sha1:${sha2}`);

    const sha3 = await repo.commit({ 'flows/b.yaml': null });
    sync();
    const s = await attempted(env.kube, 'flows', sha3);
    expect(await flowNames(env.kube)).toEqual(['alpha', 'gamma']);
    expect(s.inventory!.map((e) => e.name)).toEqual(['alpha', 'gamma']);
    expect(s.history!.slice(0, 3).map((h) => h.outcome)).toEqual(['Applied', 'Applied', 'Applied']);
  });

  it('never prunes what is not in its inventory', async () => {
    await env.kube.create({
      ...(parse(flowYaml('by-hand')) as KubeObject),
      metadata: { name: 'by-hand', namespace: 'default' },
    });
    const sha = await repo.commit({ 'flows/c.yaml': null });
    sync();
    await attempted(env.kube, 'flows', sha);
    expect(await flowNames(env.kube)).toEqual(['alpha', 'by-hand']);
  });

  it('rejects a bad commit as a unit and applies the next good one', async () => {
    const before = await sourceStatus(env.kube, 'flows');
    const bad = await repo.commit({
      'flows/d.yaml': flowYaml('delta'),
      'flows/broken.yaml': flowYaml('broken').replace('type: kubectl', 'type: kubectll'),
      'flows/a.yaml': flowYaml('alpha', 'v3'),
    });
    sync();
    const s = await attempted(env.kube, 'flows', bad);
    expect(ready(s)).toMatchObject({ status: 'False', reason: 'ValidationFailed' });
    expect(ready(s)!.message).toMatch(/flows\/broken\.yaml:\d+: spec\.reconcile\.steps\[0\]\.type: /);
    expect(s.lastAppliedRevision).toBe(before.lastAppliedRevision);
    expect(s.history![0]).toMatchObject({ outcome: 'Rejected' });
    // Nothing of the bad commit: no delta, alpha still at v2.
    expect(await flowNames(env.kube)).toEqual(['alpha', 'by-hand']);
    const alpha = await env.kube.get({
      apiVersion: 'flowops.io/v1',
      kind: 'Flow',
      name: 'alpha',
      namespace: 'default',
    });
    expect(JSON.stringify(alpha!.spec)).toContain('-v2');

    const good = await repo.commit({ 'flows/broken.yaml': null });
    sync();
    const s2 = await attempted(env.kube, 'flows', good);
    expect(ready(s2)).toMatchObject({ status: 'True' });
    expect(await flowNames(env.kube)).toEqual(['alpha', 'by-hand', 'delta']);
    const alpha3 = await env.kube.get({
      apiVersion: 'flowops.io/v1',
      kind: 'Flow',
      name: 'alpha',
      namespace: 'default',
    });
    expect(JSON.stringify(alpha3!.spec)).toContain('-v3');
  });

  it('rejects a file that does not parse, naming its line', async () => {
    const bad = await repo.commit({
      'flows/e.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n data: [\n',
    });
    sync();
    const s = await attempted(env.kube, 'flows', bad);
    expect(ready(s)!.message).toMatch(/flows\/e\.yaml:\d+: invalid YAML/);
    await repo.commit({ 'flows/e.yaml': null });
  });

  it('rejects a commit whose script lets an object value reach bash arithmetic unchecked, whole, with file:line', async () => {
    const before = await flowNames(env.kube);
    const tainted = (count: string): string => `apiVersion: flowops.io/v1
kind: Flow
metadata:
  name: tainted
spec:
  watch:
    apiVersion: example.com/v1
    kind: Gadget
  reconcile:
    steps:
      - name: count
        type: script
        script: |
          #!/bin/bash
          ${count}
          if (( N > 0 )); then echo up; fi
      - name: report
        type: script
        script: |
          #!/bin/bash
          eval "$STEP_COUNT_STDOUT"
`;
    // Through a command substitution FlowOps cannot check the value before the script runs.
    const bad = await repo.commit({
      'flows/tainted.yaml': tainted('N=$(echo "{{ index .Resource.spec.tags 0 }}")'),
      'flows/epsilon.yaml': flowYaml('epsilon'),
    });
    sync();
    const s = await attempted(env.kube, 'flows', bad);
    expect(ready(s)).toMatchObject({ status: 'False', reason: 'ValidationFailed' });
    expect(ready(s)!.message).toMatch(
      /flows\/tainted\.yaml:16: spec\.reconcile\.steps\[0\]\.script: N reaches bash arithmetic, which evaluates a variable's content/,
    );
    expect(ready(s)!.message).toMatch(
      /flows\/tainted\.yaml:21: spec\.reconcile\.steps\[1\]\.script: a variable expansion that carries a value from an object \(STEP_COUNT_STDOUT/,
    );
    expect(s.history![0]).toMatchObject({ outcome: 'Rejected' });
    expect(await flowNames(env.kube)).toEqual(before);

    // A direct copy passes validation: the value is required to be an integer when the step runs.
    const good = await repo.commit({
      'flows/tainted.yaml': tainted('N="{{ index .Resource.spec.tags 0 }}"').replace(
        'eval "$STEP_COUNT_STDOUT"',
        'echo "$STEP_COUNT_STDOUT"',
      ),
    });
    sync();
    const s2 = await attempted(env.kube, 'flows', good);
    expect(ready(s2)).toMatchObject({ status: 'True' });
    expect(await flowNames(env.kube)).toEqual([...before, 'epsilon', 'tainted'].sort());

    // The applied Flow runs: an object whose value would run a command fails the step before the
    // script starts (nothing runs); one with an integer runs.
    const marks = mkdtempSync(join(tmpdir(), 'tainted-'));
    chmodSync(marks, 0o1777);
    const marker = join(marks, 'pwned');
    await env.kubectl.ok(
      ['apply', '-f', '-'],
      WIDGET_CRD.replaceAll('widgets', 'gadgets')
        .replaceAll('widget', 'gadget')
        .replace('Widget', 'Gadget')
        .replace('[wd]', '[gd]'),
    );
    const gadget = (name: string, tag: string): string =>
      JSON.stringify({
        apiVersion: 'example.com/v1',
        kind: 'Gadget',
        metadata: { name, namespace: 'default' },
        spec: { size: 1, tags: [tag] },
      });
    const condition = async (name: string): Promise<{ status: string; message?: string } | undefined> => {
      const g = await env.kube.get({ apiVersion: 'example.com/v1', kind: 'Gadget', name, namespace: 'default' });
      return (
        g?.status as { conditions?: { type: string; status: string; message?: string }[] } | undefined
      )?.conditions?.find((c) => c.type === 'Ready');
    };
    await waitFor(
      async () => (await env.kubectl(['apply', '-f', '-'], gadget('evil', `a[$(touch ${marker})]`))).code === 0,
      { what: 'the Gadget CRD served' },
    );
    await env.kubectl.ok(['apply', '-f', '-'], gadget('fine', '3'));
    const evil = await waitFor(
      async () => ((await condition('evil'))?.status === 'False' ? condition('evil') : undefined),
      { what: 'evil Ready=False' },
    );
    expect(evil!.message).toContain(
      'count.script: line 3, column 4: N ← {{ index .Resource.spec.tags 0 }} reaches bash arithmetic',
    );
    expect(evil!.message).toContain('the template value must be an integer, got "a[$(touch');
    await waitFor(async () => (await condition('fine'))?.status === 'True', { what: 'fine Ready=True' });
    expect(existsSync(marker)).toBe(false);
  });
});
