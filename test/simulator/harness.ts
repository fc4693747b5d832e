import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { KubeClient } from '../../src/kube/client.js';
import type { KubeObject } from '../../src/kube/types.js';
import { startSimulator, type Simulator } from '../../src/simulator/simulator.js';
import { startTestServer, type TestServer } from '../helpers/apiserver.js';
import { kubectlFor, type Kubectl } from '../helpers/kubectl.js';

export interface SimulatedCluster {
  server: TestServer;
  kube: KubeClient;
  kubectl: Kubectl;
  simulator: Simulator;
  /** `kubectl get <args> -o json`, parsed. */
  getJson<T = KubeObject>(...args: string[]): Promise<T>;
  stop(): Promise<void>;
}

/** The embedded API server plus the workload simulator talking HTTP to it, and a real kubectl. */
export async function startSimulatedCluster(
  opts: { podStartMs?: number; rootCa?: string } = {},
): Promise<SimulatedCluster> {
  const server = await startTestServer();
  const kube = KubeClient.fromKubeconfig(server.kubeconfig);
  const log = pino({ level: process.env.FLOWOPS_TEST_LOG ?? 'silent' });
  const simulator = await startSimulator({
    kube,
    log,
    podStartMs: opts.podStartMs ?? 50,
    ...(opts.rootCa ? { rootCa: opts.rootCa } : {}),
  });
  const kubectl = kubectlFor(server.kubeconfig, mkdtempSync(join(tmpdir(), 'kubectl-cache-')));
  const cluster: SimulatedCluster = {
    server,
    kube,
    kubectl,
    simulator,
    getJson: async <T>(...args: string[]) => JSON.parse(await kubectl.ok(['get', ...args, '-o', 'json'])) as T,
    stop: async () => {
      // The one running now: a test may have replaced it (a restart).
      await cluster.simulator.stop();
      await server.stop();
    },
  };
  return cluster;
}

export interface PodJson {
  metadata: {
    name: string;
    labels?: Record<string, string>;
    ownerReferences?: Array<{ kind: string; name: string; controller?: boolean }>;
  };
  status?: {
    phase?: string;
    podIP?: string;
    conditions?: Array<{ type: string; status: string }>;
    containerStatuses?: Array<Record<string, unknown>>;
  };
}

export const isReady = (p: PodJson): boolean =>
  p.status?.phase === 'Running' && p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
