import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WIDGET_CRD } from '../fixtures/widgets.js';
import { flowYaml } from '../gitops/fixtures.js';
import { FLOWOPS_BIN, ROOT } from '../helpers/cli.js';
import { startGitServer, type GitServer, type TestRepo } from '../helpers/git-server.js';
import { waitFor } from '../helpers/wait.js';
import { refusedRequests } from './audit.js';
import { describeReal, realControlPlane, type RealControlPlane } from './control-plane.js';
import { startFlowOps, type FlowOpsCluster } from './flowops-processes.js';
import { getJson, helmIn, type Json } from './kube-json.js';
import { serviceAccountKubeconfig } from './service-account.js';

// The GitOps path on the real kube-apiserver, FlowOps installed by the chart and running as its
// ServiceAccount: a FlowSource on a local `git http-backend` brings a CRD, a Flow and an object of
// the CRD's kind in one commit (the real server serves a new CRD only once it is Established), a
// bad commit is rejected whole, a removed file is pruned, and a pinned commit rolls back.

const NS = 'flowops-git';
const RELEASE = 'flowops-git';
const SA = `system:serviceaccount:${NS}:${RELEASE}`;
const WIDGET =
  'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w1\n  namespace: default\nspec:\n  size: 1\n';
const run = promisify(execFile);
const controlPlane = realControlPlane();

describeReal('GitOps on the real server: FlowSource, provenance, rejection, prune, rollback', () => {
  let cp: RealControlPlane;
  let flowops: FlowOpsCluster | undefined;
  let git: GitServer | undefined;
  let repo: TestRepo;
  const shas: string[] = [];
  beforeAll(async () => {
    cp = controlPlane();
    git = await startGitServer();
    repo = git.repo('flows');
    shas.push(
      await repo.commit({ 'crd.yaml': WIDGET_CRD, 'flow.yaml': flowYaml('greeter', 'v1'), 'widget.yaml': WIDGET }),
    );
    const r = await helmIn(cp, ['install', RELEASE, join(ROOT, 'charts/flowops'), '-n', NS, '--create-namespace']);
    expect(r.code, r.stderr).toBe(0);
    await cp.kubectl.ok([
      'wait',
      '--for=condition=Established',
      'crd/flowsources.flowops.io',
      'crd/flows.flowops.io',
      '--timeout=60s',
    ]);
    const kubeconfig = await serviceAccountKubeconfig(cp, NS, RELEASE);
    flowops = await startFlowOps({
      kubeconfig,
      dataDir: mkdtempSync(join(cp.dir, 'flowops-data-')),
      leaseNamespace: NS,
      leaseName: `${RELEASE}-leader`,
    });
  });
  afterAll(async () => {
    await flowops?.stop();
    await git?.stop();
  });

  const logs = () => flowops!.logs();
  const source = () => getJson(cp, ['get', 'flowsource', 'flows', '-n', 'default']);
  const flow = () => getJson(cp, ['get', 'flow', 'greeter', '-n', 'default']);
  const widget = () => getJson(cp, ['get', 'widget', 'w1', '-n', 'default']);
  const revisionOf = (o: Json | undefined) => o?.metadata.annotations?.['flowops.io/revision'] as string | undefined;
  const flowAt = (sha: string) =>
    waitFor(async () => (revisionOf(await flow()) === `main@sha1:${sha}` ? flow() : undefined), {
      what: `Flow greeter at ${sha}\n${logs()}`,
      timeoutMs: 30_000,
    });

  it('one commit with a CRD, a Flow and a Widget is applied with provenance; the Flow reconciles the Widget', async () => {
    const flowSource = {
      apiVersion: 'flowops.io/v1',
      kind: 'FlowSource',
      metadata: { name: 'flows', namespace: 'default' },
      spec: { url: repo.url, ref: { branch: 'main' }, interval: '1s' },
    };
    await cp.kubectl.ok(['apply', '-f', '-'], JSON.stringify(flowSource));
    const f = await flowAt(shas[0]!);
    expect(f.metadata.annotations).toMatchObject({
      'flowops.io/source': 'default/flows',
      'flowops.io/path': 'flow.yaml',
    });
    const w = await waitFor(widget, { what: `Widget w1 from Git\n${logs()}`, timeoutMs: 30_000 });
    expect(revisionOf(w)).toBe(`main@sha1:${shas[0]}`);
    const cm = await waitFor(() => getJson(cp, ['get', 'configmap', 'w1-v1', '-n', 'default']), {
      what: `ConfigMap w1-v1\n${logs()}`,
      timeoutMs: 30_000,
    });
    expect(cm.metadata.ownerReferences[0]).toMatchObject({ kind: 'Widget', name: 'w1', uid: w.metadata.uid });
    await waitFor(
      async () => (await source())?.status?.conditions?.find((c: Json) => c.type === 'Ready')?.status === 'True',
      { what: `FlowSource Ready\n${logs()}` },
    );
  });

  it('a commit with an invalid Flow is rejected whole: the previous commit stays live, Ready=False names the file', async () => {
    shas.push(
      await repo.commit({
        'flow.yaml': flowYaml('greeter', 'v2').replace('kind: Widget', 'kind: 42'),
        'widget.yaml': WIDGET.replace('size: 1', 'size: 2'),
      }),
    );
    const ready = await waitFor(
      async () => {
        const c = (await source())?.status?.conditions?.find((x: Json) => x.type === 'Ready');
        return c?.status === 'False' ? c : undefined;
      },
      { what: `FlowSource Ready=False for the bad commit\n${logs()}`, timeoutMs: 30_000 },
    );
    expect(ready.message).toContain('flow.yaml');
    expect(revisionOf(await flow())).toBe(`main@sha1:${shas[0]}`);
    expect((await widget())!.spec.size).toBe(1);
  });

  it('a fixing commit moves the Flow on; removing a file prunes its object', async () => {
    shas.push(await repo.commit({ 'flow.yaml': flowYaml('greeter', 'v2') }));
    await flowAt(shas[2]!);
    await waitFor(() => getJson(cp, ['get', 'configmap', 'w1-v2', '-n', 'default']), {
      what: `ConfigMap w1-v2 after the Flow changed\n${logs()}`,
      timeoutMs: 30_000,
    });
    shas.push(await repo.commit({ 'widget.yaml': null }));
    await waitFor(async () => !(await widget()), { what: `Widget w1 pruned\n${logs()}`, timeoutMs: 30_000 });
  });

  it('flowops rollback --to the first commit brings the Widget back and pins the source', async () => {
    const out = await run(
      process.execPath,
      [FLOWOPS_BIN, 'rollback', 'default/flows', '--to', shas[0]!, '--wait', '--kubeconfig', cp.kubeconfig],
      { cwd: ROOT, timeout: 90_000 },
    );
    expect(out.stdout).toContain(shas[0]!.slice(0, 8));
    await flowAt(shas[0]!);
    await waitFor(widget, { what: `Widget w1 back after the rollback\n${logs()}`, timeoutMs: 30_000 });
    expect((await source())!.spec.ref.commit).toBe(shas[0]);
  });

  it('the real server refused FlowOps nothing (audit log: no 400/401/403/415/422)', () => {
    expect(refusedRequests(cp, SA)).toEqual([]);
  });
});
