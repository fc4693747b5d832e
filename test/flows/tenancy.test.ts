import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/kube/client.js';
import { writeKubeconfig } from '../../src/kube/kubeconfig.js';
import { startControllers, type Controllers } from '../../src/runtime/controllers.js';
import { WIDGET_CRD } from '../fixtures/widgets.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.js';
import { startRecordingProxy, type RecordedRequest, type RecordingProxy } from '../helpers/recording-proxy.js';
import { waitFor } from '../helpers/wait.js';

// A Flow acts with its own ServiceAccount: FlowOps' calls for it carry kube-apiserver's
// impersonation headers (the real server's RBAC then decides; test/real shows a 403), and with
// --no-cross-namespace-refs a Flow stays in its own namespace. Requests are read off the wire.

let ts: TestServer;
let proxy: RecordingProxy;
let controllers: Controllers;
let kubectl: Kubectl;

beforeAll(async () => {
  ts = await startTestServer();
  proxy = await startRecordingProxy(ts.server.url);
  const dir = mkdtempSync(join(tmpdir(), 'flowops-tenancy-'));
  writeKubeconfig(join(dir, 'kubeconfig'), proxy.url);
  const kube = KubeClient.fromKubeconfig(join(dir, 'kubeconfig'));
  controllers = await startControllers({
    kube,
    log: pino({ level: 'silent' }),
    installCrds: true,
    tenancy: { defaultServiceAccount: 'tenant', crossNamespaceRefs: false },
  });
  kubectl = kubectlFor(ts.kubeconfig, mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
  await kubectl.ok(['apply', '-f', '-'], WIDGET_CRD);
  for (const ns of ['team-a', 'team-b']) await kubectl.ok(['create', 'namespace', ns]);
});
afterAll(async () => {
  await controllers?.stop();
  await proxy?.close();
  await ts?.stop();
});

const flow = (
  name: string,
  extra: string,
  manifestNamespace = '{{ .Resource.metadata.namespace }}',
) => `apiVersion: flowops.io/v1
kind: Flow
metadata: { name: ${name}, namespace: team-a }
spec:
  watch: { apiVersion: example.com/v1, kind: Widget, labelSelector: { matchLabels: { flow: ${name} } } }
${extra}  reconcile:
    steps:
      - name: config
        type: kubectl
        action: apply
        manifests: |
          apiVersion: v1
          kind: ConfigMap
          metadata: { name: "{{ .Resource.metadata.name }}-config", namespace: "${manifestNamespace}" }
`;
const widget = (name: string, flowName: string, namespace = 'team-a') =>
  JSON.stringify({
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name, namespace, labels: { flow: flowName } },
    spec: { size: 1 },
  });

/** The impersonation headers of a recorded request: user and groups. */
function identity(r: RecordedRequest): { user?: string; groups: string[] } {
  const h = r.rawHeaders;
  const values = (name: string) => h.flatMap((v, i) => (i % 2 === 0 && v.toLowerCase() === name ? [h[i + 1]!] : []));
  const user = values('impersonate-user')[0];
  return { ...(user ? { user } : {}), groups: values('impersonate-group') };
}

const writesTo = (path: RegExp) => proxy.requests.filter((r) => path.test(r.path));

describe('a Flow acts with its ServiceAccount', () => {
  it('sends every write for a Flow with serviceAccountName as that ServiceAccount', async () => {
    await kubectl.ok(['apply', '-f', '-'], flow('with-sa', '  serviceAccountName: builder\n'));
    await kubectl.ok(['apply', '-f', '-'], widget('w1', 'with-sa'));
    await waitFor(
      () =>
        writesTo(/\/namespaces\/team-a\/configmaps\/w1-config/).length &&
        writesTo(/\/namespaces\/team-a\/widgets\/w1\/status/).length,
      { what: 'the child applied and the status written' },
    );
    // No groups: kube-apiserver gives an impersonated ServiceAccount its groups itself.
    const expected = { user: 'system:serviceaccount:team-a:builder', groups: [] };
    for (const r of [...writesTo(/\/configmaps\/w1-config/), ...writesTo(/\/widgets\/w1(\/status)?(\?|$)/)])
      expect(identity(r), `${r.method} ${r.path}`).toEqual(expected);
  });

  it('impersonates --default-service-account for a Flow without serviceAccountName', async () => {
    await kubectl.ok(['apply', '-f', '-'], flow('without-sa', ''));
    await kubectl.ok(['apply', '-f', '-'], widget('w2', 'without-sa'));
    const apply = await waitFor(() => writesTo(/\/namespaces\/team-a\/configmaps\/w2-config/)[0], {
      what: 'the child applied',
    });
    expect(identity(apply).user).toBe('system:serviceaccount:team-a:tenant');
  });

  it('refuses a write into another namespace with a clear, terminal error', async () => {
    await kubectl.ok(['apply', '-f', '-'], flow('reach-out', '', 'team-b'));
    await kubectl.ok(['apply', '-f', '-'], widget('w3', 'reach-out'));
    const stalled = await waitFor(
      async () => {
        const w = JSON.parse(await kubectl.ok(['get', 'widget', 'w3', '-n', 'team-a', '-o', 'json']));
        return (w.status?.conditions ?? []).find(
          (c: { type: string; status: string }) => c.type === 'Stalled' && c.status === 'True',
        );
      },
      { what: 'Stalled=True' },
    );
    expect(stalled.reason).toBe('CrossNamespaceRef');
    expect(stalled.message).toContain(
      'config.manifests: document 1 (ConfigMap/w3-config) is in namespace team-b; with --no-cross-namespace-refs a Flow writes only in its own namespace (team-a)',
    );
    expect(writesTo(/\/namespaces\/team-b\//)).toEqual([]);
  });

  it('refuses to watch another namespace, and watches only its own without one', async () => {
    await kubectl.ok(
      ['apply', '-f', '-'],
      flow('watch-out', '').replace('labelSelector: { matchLabels: { flow: watch-out } }', 'namespace: team-b'),
    );
    const cond = await waitFor(
      async () => {
        const f = JSON.parse(await kubectl.ok(['get', 'flow', 'watch-out', '-n', 'team-a', '-o', 'json']));
        return (f.status?.conditions ?? []).find(
          (c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'False',
        );
      },
      { what: 'the Flow Ready=False' },
    );
    expect(cond.reason).toBe('InvalidSpec');
    expect(cond.message).toContain(
      'spec.watch.namespace: "team-b" is another namespace; this FlowOps runs with --no-cross-namespace-refs',
    );
    // A Widget of the same label in another namespace is not the team-a Flow's to reconcile.
    await kubectl.ok(['apply', '-f', '-'], widget('w4', 'with-sa', 'team-b'));
    await kubectl.ok(['apply', '-f', '-'], widget('w5', 'with-sa'));
    await waitFor(() => writesTo(/\/namespaces\/team-a\/configmaps\/w5-config/).length, { what: 'w5 reconciled' });
    expect(writesTo(/w4/)).toEqual([]);
  });
});

describe("a script step talks to the cluster as its Flow, never with FlowOps' credentials", () => {
  it('gets a kubeconfig of its own for the run (the identity proxy), impersonating the ServiceAccount, revoked afterwards', async () => {
    const { KUBECTL } = await import('../helpers/kubectl.js');
    await kubectl.ok(
      ['apply', '-f', '-'],
      `apiVersion: flowops.io/v1
kind: Flow
metadata: { name: scripted, namespace: team-a }
spec:
  watch: { apiVersion: example.com/v1, kind: Widget, labelSelector: { matchLabels: { flow: scripted } } }
  serviceAccountName: builder
  reconcile:
    steps:
      - name: kubectl-in-script
        type: script
        env: { KUBECTL: "${KUBECTL}" }
        script: |
          echo "create=$("$KUBECTL" create configmap "$RESOURCE_NAME-from-script" -n team-a 2>&1 | tr -d '\\n"')" >> "$FLOWOPS_OUTPUTS"
          echo "kubeconfig=$KUBECONFIG" >> "$FLOWOPS_OUTPUTS"
          echo "server=$("$KUBECTL" config view --minify -o jsonpath='{.clusters[0].cluster.server}')" >> "$FLOWOPS_OUTPUTS"
          echo "redis=\${REDIS_URL:-unset}" >> "$FLOWOPS_OUTPUTS"
      - name: record
        type: kubectl
        action: apply
        manifests: |
          apiVersion: v1
          kind: ConfigMap
          metadata: { name: "{{ .Resource.metadata.name }}-seen", namespace: team-a }
          data:
            kubeconfig: "{{ .Steps.kubectl-in-script.Outputs.kubeconfig }}"
            server: "{{ .Steps.kubectl-in-script.Outputs.server }}"
            redis: "{{ .Steps.kubectl-in-script.Outputs.redis }}"
            create: "{{ .Steps.kubectl-in-script.Outputs.create }}"
`,
    );
    await kubectl.ok(['apply', '-f', '-'], widget('s1', 'scripted'));
    const seen = await waitFor(
      async () => {
        const r = await kubectl(['get', 'configmap', 's1-seen', '-n', 'team-a', '-o', 'json']);
        return r.code === 0 ? (JSON.parse(r.stdout) as { data: Record<string, string> }).data : undefined;
      },
      { what: 'the script ran', timeoutMs: 30_000 },
    );
    // The ConfigMap the script's kubectl created went out as the Flow's ServiceAccount.
    const create = writesTo(/\/namespaces\/team-a\/configmaps(\?|$)/).find(
      (r) => r.method === 'POST' && r.body.toString().includes('s1-from-script'),
    );
    expect(seen.create).toBe('configmap/s1-from-script created');
    expect(create && identity(create).user).toBe('system:serviceaccount:team-a:builder');
    expect(seen.server).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{43}$/);
    expect(seen.server?.startsWith(proxy.url)).toBe(false);
    expect(seen.kubeconfig).not.toBe(process.env.KUBECONFIG ?? '');
    expect(seen.redis).toBe('unset');
    // The run's token ends with the run.
    const after = await fetch(`${seen.server}/api/v1/namespaces/team-a/configmaps`);
    expect(after.status).toBe(401);
  });
});
