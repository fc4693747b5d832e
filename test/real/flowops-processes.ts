import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { metricsAddressOf, spawnFlowops, stopGracefully, type Proc } from '../distributed/processes.js';
import { waitFor } from '../helpers/wait.js';

export interface FlowOpsCluster {
  /** The `flowops run` replicas; one of them holds the Lease. */
  runs: Proc[];
  workers: Proc[];
  /** The run replica that logged "became leader" first. */
  leader: Proc;
  /** The last lines every process logged, for a failure message. */
  logs(): string;
  stop(): Promise<void>;
}

export interface FlowOpsOptions {
  kubeconfig: string;
  /** Each process gets its own --data folder in here; their logs are written here on stop. */
  dataDir: string;
  leaseNamespace: string;
  leaseName: string;
  /** `flowops run` replicas (default 1), as the chart's controller Deployment has 2. */
  runs?: number;
  /** Extra flags for `flowops run` (e.g. short lease timings). */
  runArgs?: string[];
  /** Extra flags for every process (e.g. --source-dir for Flows with relative chart paths). */
  commonArgs?: string[];
}

/**
 * FlowOps out of cluster as the chart runs it in: `flowops run` (one takes the chart's Lease) and
 * two `flowops worker`, all with the given kubeconfig and the run's Redis (REDIS_URL), on a queue
 * of their own so that test files sharing the Redis never see each other's jobs.
 */
export async function startFlowOps(opts: FlowOpsOptions): Promise<FlowOpsCluster> {
  const queue = `real-${randomUUID()}`;
  const common = [
    '--kubeconfig',
    opts.kubeconfig,
    '--metrics-listen',
    '127.0.0.1:0',
    '--queue',
    queue,
    '--redis-prefix',
    'flowops-test',
    ...(opts.commonArgs ?? []),
  ];
  const data = (name: string) => mkdtempSync(join(opts.dataDir, `${name}-`));
  const runs = Array.from({ length: opts.runs ?? 1 }, (_, i) => {
    const name = `run-${i + 1}`;
    return spawnFlowops(name, [
      'run',
      ...common,
      '--lease-namespace',
      opts.leaseNamespace,
      '--lease-name',
      opts.leaseName,
      '--data',
      data(name),
      ...(opts.runArgs ?? []),
    ]);
  });
  const workers = [1, 2].map((n) =>
    spawnFlowops(`worker-${n}`, ['worker', ...common, '--concurrency', '4', '--data', data(`worker-${n}`)]),
  );
  const all = [...runs, ...workers];
  const logs = () =>
    all
      .map(
        (p) =>
          `--- ${p.name} (exit ${p.child.exitCode ?? p.child.signalCode ?? 'running'}):\n${p.stderr().slice(-3000)}`,
      )
      .join('\n');
  try {
    await Promise.all(all.map(metricsAddressOf));
    const leader = await waitFor(() => runs.find((p) => p.stderr().includes('"msg":"became leader"')), {
      what: `a run replica taking Lease ${opts.leaseNamespace}/${opts.leaseName}\n${logs()}`,
      timeoutMs: 30_000,
    });
    return {
      runs,
      workers,
      leader,
      logs,
      stop: async () => {
        await Promise.all(all.map(stopGracefully));
        // Kept beside the control plane's own logs (FLOWOPS_KEEP_CONTROL_PLANE=1 keeps the folder).
        for (const p of all) writeFileSync(join(opts.dataDir, `${p.name}.log`), p.stderr());
      },
    };
  } catch (e) {
    for (const p of all) p.kill9();
    throw e;
  }
}
