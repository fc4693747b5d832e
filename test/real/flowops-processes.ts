import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { metricsAddressOf, spawnFlowops, stopGracefully, type Proc } from '../distributed/processes.js';
import { waitFor } from '../helpers/wait.js';

export interface FlowOpsCluster {
  leader: Proc;
  workers: Proc[];
  /** The last lines every process logged, for a failure message. */
  logs(): string;
  stop(): Promise<void>;
}

/**
 * FlowOps out of cluster as the chart runs it in: one `flowops run` (it takes the chart's Lease)
 * and two `flowops worker`, all with the given kubeconfig and the run's Redis (REDIS_URL), on a
 * queue of their own so that test files sharing the Redis never see each other's jobs.
 */
export async function startFlowOps(opts: { kubeconfig: string; dataDir: string; leaseNamespace: string; leaseName: string }): Promise<FlowOpsCluster> {
  const queue = `real-${randomUUID()}`;
  const common = ['--kubeconfig', opts.kubeconfig, '--metrics-listen', '127.0.0.1:0', '--queue', queue, '--redis-prefix', 'flowops-test'];
  const data = (name: string) => mkdtempSync(join(opts.dataDir, `${name}-`));
  const leader = spawnFlowops('run', ['run', ...common, '--lease-namespace', opts.leaseNamespace, '--lease-name', opts.leaseName, '--data', data('run')]);
  const workers = [1, 2].map((n) => spawnFlowops(`worker-${n}`, ['worker', ...common, '--concurrency', '4', '--data', data(`worker-${n}`)]));
  const all = [leader, ...workers];
  const logs = () => all.map((p) => `--- ${p.name} (exit ${p.child.exitCode ?? p.child.signalCode ?? 'running'}):\n${p.stderr().slice(-3000)}`).join('\n');
  const cluster = {
    leader,
    workers,
    logs,
    stop: async () => {
      await Promise.all(all.map(stopGracefully));
      // Kept beside the control plane's own logs (FLOWOPS_KEEP_CONTROL_PLANE=1 keeps the folder).
      for (const p of all) writeFileSync(join(opts.dataDir, `${p.name}.log`), p.stderr());
    },
  };
  try {
    await Promise.all(all.map(metricsAddressOf));
    await waitFor(() => leader.stderr().includes('"msg":"became leader"'), { what: `the leader taking Lease ${opts.leaseNamespace}/${opts.leaseName}\n${logs()}`, timeoutMs: 30_000 });
  } catch (e) {
    for (const p of all) p.kill9();
    throw e;
  }
  return cluster;
}
