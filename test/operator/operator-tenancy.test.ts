import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/kube/client.js';
import { startControllers, type Controllers } from '../../src/runtime/controllers.js';
import { serviceAccountWithRole } from '../fixtures/tenant-rbac.js';
import { startAuthTestServer, type AuthTestServer } from '../helpers/apiserver.js';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.js';
import { waitFor } from '../helpers/wait.js';

// A Δ-controller Operator acts as the ServiceAccount it names (spec.serviceAccountName in
// spec.serviceAccountNamespace: an Operator is cluster-scoped), on the embedded server with RBAC
// on: what that ServiceAccount may write is written, the rest is the server's 403 in the
// Operator's status; with --default-service-account an Operator that names none does not run.

let ts: AuthTestServer;
let controllers: Controllers;
let kubectl: Kubectl;

beforeAll(async () => {
  ts = await startAuthTestServer();
  kubectl = kubectlFor(ts.kubeconfig, mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
  for (const ns of ['team-a', 'team-b']) await kubectl.ok(['create', 'namespace', ns]);
  await kubectl.ok(
    ['apply', '-f', '-'],
    serviceAccountWithRole(
      'team-a',
      'builder',
      '  - apiGroups: [""]\n    resources: [configmaps]\n    verbs: [get, list, watch, create, update, patch, delete]',
    ),
  );
  controllers = await startControllers({
    kube: KubeClient.fromKubeconfig(ts.kubeconfig),
    log: pino({ level: 'silent' }),
    installCrds: true,
    operators: true,
    tenancy: { defaultServiceAccount: 'builder', crossNamespaceRefs: true },
  });
});
afterAll(async () => {
  await controllers?.stop();
  await ts?.stop();
});

const operator = (name: string, namespace: string, identity: string) => `apiVersion: dcontroller.io/v1alpha1
kind: Operator
metadata: {name: ${name}}
spec:
${identity}  controllers:
    - name: seed
      sources: [{kind: Trigger, type: OneShot}]
      pipeline:
        "@project":
          metadata: {name: seeded-by-${name}, namespace: ${namespace}}
          data: {by: ${name}}
      target: {apiGroup: "", kind: ConfigMap}
`;
const AS_BUILDER = '  serviceAccountName: builder\n  serviceAccountNamespace: team-a\n';

type OperatorStatus = {
  controllers?: Array<{
    name: string;
    conditions: Array<{ type: string; status: string; message: string }>;
    lastErrors?: string[];
  }>;
};
const statusOf = async (name: string): Promise<OperatorStatus> =>
  JSON.parse((await kubectl.ok(['get', 'operator', name, '-o', 'jsonpath={.status}'])) || '{}') as OperatorStatus;
const configMap = async (namespace: string, name: string) =>
  (await kubectl(['get', 'configmap', name, '-n', namespace, '-o', 'name'])).code === 0;

describe('Operators act as their ServiceAccount', () => {
  it('writes what the ServiceAccount may write', async () => {
    await kubectl.ok(['apply', '-f', '-'], operator('allowed', 'team-a', AS_BUILDER));
    await waitFor(() => configMap('team-a', 'seeded-by-allowed'), { what: 'ConfigMap seeded-by-allowed in team-a' });
  });

  it("a write the ServiceAccount may not make is the server's 403 in the status, and nothing is written", async () => {
    await kubectl.ok(['apply', '-f', '-'], operator('elsewhere', 'team-b', AS_BUILDER));
    const status = await waitFor(
      async () => {
        const s = await statusOf('elsewhere');
        return s.controllers?.[0]?.lastErrors?.length ? s : undefined;
      },
      { what: 'the Operator elsewhere reporting its refused write' },
    );
    expect(status.controllers![0]!.lastErrors!.join('\n')).toContain(
      'User "system:serviceaccount:team-a:builder" cannot',
    );
    expect(status.controllers![0]!.lastErrors!.join('\n')).toContain('in the namespace "team-b"');
    expect(await configMap('team-b', 'seeded-by-elsewhere')).toBe(false);
  });

  it('with --default-service-account an Operator that names no ServiceAccount does not run', async () => {
    await kubectl.ok(['apply', '-f', '-'], operator('anonymous', 'team-a', ''));
    const status = await waitFor(
      async () => {
        const s = await statusOf('anonymous');
        return s.controllers?.[0]?.conditions.some((c) => c.status === 'False') ? s : undefined;
      },
      { what: 'the Operator anonymous not Ready' },
    );
    expect(status.controllers![0]!.lastErrors!.join('\n')).toContain(
      'spec.serviceAccountName and spec.serviceAccountNamespace are required',
    );
    expect(await configMap('team-a', 'seeded-by-anonymous')).toBe(false);
  });
});
