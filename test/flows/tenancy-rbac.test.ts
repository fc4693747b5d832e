import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/kube/client.js';
import { startControllers, type Controllers } from '../../src/runtime/controllers.js';
import { WIDGET_CRD } from '../fixtures/widgets.js';
import { startAuthTestServer, type AuthTestServer } from '../helpers/apiserver.js';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.js';
import { waitFor } from '../helpers/wait.js';
import { serviceAccountWithRole } from '../fixtures/tenant-rbac.js';

// Two tenants on the embedded server with RBAC on: a Flow in team-a acts as its ServiceAccount,
// which may write only ConfigMaps in team-a. What it may do it does; anything else (team-b, a
// ClusterRole, a Secret) is a terminal step failure with the server's 403 message, and nothing is
// written. `kubectl auth can-i --as` the ServiceAccount answers the same.

const SA = 'system:serviceaccount:team-a:builder';
let ts: AuthTestServer;
let controllers: Controllers;
let kubectl: Kubectl;
/** Writes that reached the server for paths in team-b, Secrets or ClusterRoles (counted as they arrive). */
const attempts: string[] = [];

const TEAM_A = serviceAccountWithRole(
  'team-a',
  'builder',
  `  - apiGroups: [""]
    resources: [configmaps]
    verbs: [get, list, watch, create, update, patch, delete]
  - apiGroups: [example.com]
    resources: [widgets, widgets/status, widgets/finalizers]
    verbs: [get, list, watch, update, patch]`,
);

beforeAll(async () => {
  ts = await startAuthTestServer();
  ts.server.addRoute((req) => {
    if (req.method !== 'GET' && /\/namespaces\/team-b\/|\/secrets|\/clusterroles/.test(req.url ?? ''))
      attempts.push(`${req.method} ${req.url}`);
    return false;
  });
  kubectl = kubectlFor(ts.kubeconfig, mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
  await kubectl.ok(['apply', '-f', '-'], WIDGET_CRD);
  for (const ns of ['team-a', 'team-b']) await kubectl.ok(['create', 'namespace', ns]);
  await kubectl.ok(['apply', '-f', '-'], TEAM_A);
  // FlowOps itself runs as the admin; a Flow without serviceAccountName acts as `builder` (--default-service-account).
  controllers = await startControllers({
    kube: KubeClient.fromKubeconfig(ts.kubeconfig),
    log: pino({ level: 'silent' }),
    installCrds: true,
    tenancy: { defaultServiceAccount: 'builder', crossNamespaceRefs: true },
  });
});
afterAll(async () => {
  await controllers?.stop();
  await ts?.stop();
});

const flow = (name: string, serviceAccount: boolean, manifest: string) => `apiVersion: flowops.io/v1
kind: Flow
metadata: { name: ${name}, namespace: team-a }
spec:
  watch: { apiVersion: example.com/v1, kind: Widget, labelSelector: { matchLabels: { flow: ${name} } } }
${serviceAccount ? '  serviceAccountName: builder\n' : ''}  reconcile:
    steps:
      - name: write
        type: kubectl
        action: apply
        manifests: |
${manifest.replace(/^/gm, '          ')}
`;
const configMap = (namespace: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: "{{ .Resource.metadata.name }}-config", namespace: ${namespace} }\ndata: { from: flow }`;
const widget = (name: string, flowName: string) =>
  JSON.stringify({
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name, namespace: 'team-a', labels: { flow: flowName } },
    spec: { size: 1 },
  });

type Condition = { type: string; status: string; reason?: string; message?: string };
async function conditions(name: string): Promise<Condition[]> {
  return (JSON.parse(await kubectl.ok(['get', 'widget', name, '-n', 'team-a', '-o', 'json'])).status?.conditions ??
    []) as Condition[];
}
const stalled = (name: string) =>
  waitFor(async () => (await conditions(name)).find((c) => c.type === 'Stalled' && c.status === 'True'), {
    what: `${name} Stalled=True`,
    timeoutMs: 30_000,
  });
async function canI(args: string[]): Promise<boolean> {
  return (await kubectl(['auth', 'can-i', ...args, `--as=${SA}`])).stdout.trim() === 'yes';
}
/** A barrier, not a sleep: a Flow that succeeds was reconciled after everything started before it. */
let barriers = 0;
async function reconciledSince(): Promise<void> {
  const name = `barrier-${++barriers}`;
  await kubectl.ok(['apply', '-f', '-'], widget(name, 'allowed'));
  await waitFor(async () => (await kubectl(['get', 'configmap', `${name}-config`, '-n', 'team-a'])).code === 0, {
    what: `${name} reconciled`,
    timeoutMs: 30_000,
  });
}

describe("a Flow is held to its ServiceAccount's RBAC on the embedded server", () => {
  it('writes what the ServiceAccount may write', async () => {
    await kubectl.ok(['apply', '-f', '-'], flow('allowed', true, configMap('team-a')));
    await kubectl.ok(['apply', '-f', '-'], widget('w1', 'allowed'));
    const cm = await waitFor(
      async () => {
        const r = await kubectl(['get', 'configmap', 'w1-config', '-n', 'team-a', '-o', 'json']);
        return r.code === 0 ? JSON.parse(r.stdout) : undefined;
      },
      { what: 'w1-config', timeoutMs: 30_000 },
    );
    expect(cm.data).toEqual({ from: 'flow' });
    await waitFor(async () => (await conditions('w1')).find((c) => c.type === 'Ready' && c.status === 'True'), {
      what: 'w1 Ready=True',
      timeoutMs: 30_000,
    });
    expect(await canI(['patch', 'configmaps', '-n', 'team-a'])).toBe(true);
  });

  const refused: Array<[string, boolean, string, string, string[]]> = [
    [
      'another namespace',
      true,
      configMap('team-b'),
      `cannot patch resource "configmaps" in API group "" in the namespace "team-b"`,
      ['patch', 'configmaps', '-n', 'team-b'],
    ],
    [
      'a ClusterRole',
      true,
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: { name: "{{ .Resource.metadata.name }}-role" }\nrules: []',
      `cannot patch resource "clusterroles" in API group "rbac.authorization.k8s.io" at the cluster scope`,
      ['patch', 'clusterroles'],
    ],
    [
      'a Secret',
      true,
      'apiVersion: v1\nkind: Secret\nmetadata: { name: "{{ .Resource.metadata.name }}-secret", namespace: team-a }\nstringData: { a: b }',
      `cannot patch resource "secrets" in API group "" in the namespace "team-a"`,
      ['patch', 'secrets', '-n', 'team-a'],
    ],
    [
      'another namespace, without serviceAccountName (--default-service-account)',
      false,
      configMap('team-b'),
      `cannot patch resource "configmaps" in API group "" in the namespace "team-b"`,
      ['patch', 'configmaps', '-n', 'team-b'],
    ],
  ];
  let n = 0;
  for (const [what, withSa, manifest, message, canIArgs] of refused) {
    it(`fails with the 403, terminally and once, when its template points at ${what}`, async () => {
      const name = `refused-${++n}`;
      const before = attempts.length;
      await kubectl.ok(['apply', '-f', '-'], flow(name, withSa, manifest));
      await kubectl.ok(['apply', '-f', '-'], widget(`r${n}`, name));
      const cond = await stalled(`r${n}`);
      expect(cond.message).toContain(`is forbidden: User "${SA}" ${message}`);
      const ready = (await conditions(`r${n}`)).find((c) => c.type === 'Ready');
      expect(ready?.status).toBe('False');
      // One attempt, not a retry storm: later reconciles of others pass without another try.
      await reconciledSince();
      expect(attempts.slice(before)).toHaveLength(1);
      // And the engine agrees with what kubectl auth can-i says for the ServiceAccount.
      expect(await canI(canIArgs)).toBe(false);
    });
  }

  it('created nothing it was refused', async () => {
    expect((await kubectl(['get', 'configmap', 'r1-config', '-n', 'team-b'])).code).not.toBe(0);
    expect((await kubectl(['get', 'clusterrole', 'r2-role'])).code).not.toBe(0);
    expect((await kubectl(['get', 'secret', 'r3-secret', '-n', 'team-a'])).code).not.toBe(0);
    expect((await kubectl(['get', 'configmap', 'r4-config', '-n', 'team-b'])).code).not.toBe(0);
  });
});
