import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { KubeClient } from '../../src/kube/client.js';
import { startControllers, type Controllers, type ControllersOptions } from '../../src/runtime/controllers.js';
import type { ApiServerOptions } from '../../src/apiserver/index.js';
import { startTestServer, type TestServer } from './apiserver.js';
import { kubectlFor, type Kubectl } from './kubectl.js';

export interface FlowOpsEnv {
  ts: TestServer;
  kube: KubeClient;
  kubectl: Kubectl;
  controllers: Controllers;
  stop(): Promise<void>;
}

/** The embedded API server plus the Flow controllers and an in-process worker, as `flowops up` runs them. */
export async function startFlowOps(
  opts: Partial<ControllersOptions> = {},
  server: Partial<ApiServerOptions> = {},
): Promise<FlowOpsEnv> {
  const ts = await startTestServer(server);
  const kube = KubeClient.fromKubeconfig(ts.kubeconfig);
  const log = pino({ level: process.env.FLOWOPS_TEST_LOG ?? 'silent' });
  const controllers = await startControllers({ kube, log, installCrds: true, ...opts });
  const kubectl = kubectlFor(ts.kubeconfig, mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
  return {
    ts,
    kube,
    kubectl,
    controllers,
    stop: async () => {
      await controllers.stop();
      await ts.stop();
    },
  };
}
