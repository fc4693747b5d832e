import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeClient } from '../../src/kube/client.js';
import type { OperatorManager } from '../../src/operator/operator-manager.js';
import { startOperators } from '../../src/operator/runtime.js';
import { generateKeys } from '../../src/viewapi/keys.js';
import { viewKubeconfig } from '../../src/viewapi/kubeconfig.js';
import { startViewApiServer, type ViewApiServer } from '../../src/viewapi/server.js';
import { issueToken } from '../../src/viewapi/tokens.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.js';
import { waitFor } from '../helpers/wait.js';

// "A real cluster": the embedded server stands in for it; views must go to the view API server.
let cluster: TestServer;
let view: ViewApiServer;
let operators: OperatorManager;
let kubectl: Kubectl;
let viewKubectl: Kubectl;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'viewapi-cluster-'));
  cluster = await startTestServer();
  const keys = await generateKeys(join(dir, 'keys'), ['127.0.0.1']);
  view = await startViewApiServer({ dataDir: join(dir, 'views'), port: 0, tls: keys });
  const kube = KubeClient.fromKubeconfig(cluster.kubeconfig);
  operators = await startOperators({
    kube,
    log: pino({ level: 'silent' }),
    installCrd: true,
    views: await view.backend(),
  });
  kubectl = kubectlFor(cluster.kubeconfig, mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
  const token = await issueToken(readFileSync(keys.keyFile, 'utf8'), {
    username: 'viewer',
    namespaces: ['*'],
    rules: [{ verbs: ['get', 'list', 'watch'], apiGroups: ['*.view.dcontroller.io'], resources: ['*'] }],
  });
  writeFileSync(
    join(dir, 'view-kubeconfig'),
    viewKubeconfig({ server: view.url, user: 'viewer', token, caPem: readFileSync(keys.certFile, 'utf8') }),
  );
  viewKubectl = kubectlFor(join(dir, 'view-kubeconfig'), mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
});
afterAll(async () => {
  await operators?.stop();
  await view?.close();
  await cluster?.stop();
});

describe('views on the view API server (real-cluster mode)', () => {
  it('keeps view objects out of the cluster and serves them to kubectl with a token', async () => {
    await kubectl.ok(
      ['apply', '-f', '-'],
      `apiVersion: dcontroller.io/v1alpha1
kind: Operator
metadata: {name: chain}
spec:
  controllers:
    - name: pod-to-view
      sources: [{apiGroup: "", kind: Pod, namespace: default}]
      pipeline: {"@project": {metadata: {name: "$.metadata.name", namespace: "$.metadata.namespace"}, spec: {image: "$.spec.containers[0].image"}}}
      target: {kind: PodInfo}
    - name: view-to-configmap
      sources: [{kind: PodInfo}]
      pipeline: {"@project": {metadata: {name: "$.metadata.name", namespace: "$.metadata.namespace"}, data: {image: "$.spec.image"}}}
      target: {apiGroup: "", kind: ConfigMap}
`,
    );
    await kubectl.ok(['run', 'web', '--image=nginx:1']);
    await waitFor(
      async () => (await kubectl(['get', 'configmap', 'web', '-o', 'jsonpath={.data.image}'])).stdout === 'nginx:1',
      { what: 'configmap from the view' },
    );
    expect(
      await viewKubectl.ok(['get', 'podinfo.chain.view.dcontroller.io', 'web', '-o', 'jsonpath={.spec.image}']),
    ).toBe('nginx:1');
    expect(await kubectl.ok(['get', 'crd', '-o', 'name'])).not.toContain('view.dcontroller.io');
  });
});
