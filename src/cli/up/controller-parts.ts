// The controller side of `flowops up`, started the same way on whichever thread runs it: the
// workload simulator, the Flow and FlowSource controllers with their queue, the Operator
// meta-controller, the notifier and the preview poller, under a manager of their own (stopped in
// the reverse order, as before the split). The controllers thread (worker.ts) runs it by default;
// --controllers-in-process runs it on the main thread, for debugging and the bench's baseline.
import { resolve } from 'node:path';
import type { Logger } from '../../log/index.js';
import type { ControllersConfig, ScrapedMetrics } from './protocol.js';

export interface ControllerParts {
  trigger(namespace: string, name: string): void;
  previewTrigger(namespace: string, name: string): void;
  /** This thread's metrics, the queue depth refreshed first. */
  scrape(): Promise<ScrapedMetrics>;
  /** Sets the queue depth gauge (the in-process layout scrapes the shared registry itself). */
  refreshQueueDepth(): void;
  stop(): Promise<void>;
}

export async function startControllerParts(config: ControllersConfig, log: Logger): Promise<ControllerParts> {
  const [{ KubeClient }, { startControllers }, { processMetrics }, { scriptSandbox }, { Manager, stopOnly }] =
    await Promise.all([
      import('../../kube/client.js'),
      import('../../runtime/controllers.js'),
      import('../../metrics/registry.js'),
      import('../../executors/script-sandbox.js'),
      import('../../manager/index.js'),
    ]);
  const kube = KubeClient.fromKubeconfig(config.kubeconfig);
  // The sandbox is module state: each thread that runs script steps configures its own.
  scriptSandbox.configure({ memoryLimitBytes: config.scripts.memoryLimitBytes, isolate: config.scripts.isolate });
  for (const path of config.scripts.hide) scriptSandbox.hide(path);
  const metrics = processMetrics();
  const manager = new Manager(log);
  const { simulator: sim, notify, previews: pr } = config;
  // Beside the controllers, as a cluster's kubelet and kube-controller-manager run beside its API server.
  if (sim) {
    const { startSimulator } = await import('../../simulator/simulator.js');
    const rootCa = sim.rootCa ? { rootCa: sim.rootCa } : {};
    const simulator = await startSimulator({
      kube,
      log,
      podStartMs: sim.podStartMs,
      kubeletOnly: sim.kubeletOnly,
      ...rootCa,
    });
    await manager.add(stopOnly('simulator', () => simulator.stop()));
  }
  const controllers = await startControllers({
    kube,
    log,
    metrics,
    tenancy: config.tenancy,
    installCrds: config.installCrds,
    operators: config.installCrds,
    sourceDir: resolve(config.sourceDir),
    ...(config.concurrency ? { concurrency: config.concurrency } : {}),
    ...(config.sources ? { sources: config.sources } : {}),
  });
  await manager.add(stopOnly('controllers', () => controllers.stop()));
  if (notify) {
    // Providers and Alerts: it reads the controllers' Events and status, never waits on them.
    const { Notifier } = await import('../../notify/index.js');
    const notifyLog = log.child({ part: 'notify' });
    const notifier = new Notifier({ kube, log: notifyLog, registry: metrics.registry, viewUrl: notify.viewUrl });
    await manager.add({ name: 'notify', start: () => notifier.start(), stop: () => notifier.stop() });
  }
  let previewTrigger: (namespace: string, name: string) => void = () => undefined;
  if (pr) {
    // Pull-request previews for the FlowSources with spec.previews: dry runs only, nothing applied.
    const { PreviewPoller } = await import('../../preview/index.js');
    const previewLog = log.child({ part: 'previews' });
    const previews = new PreviewPoller({ kube, log: previewLog, dataDir: pr.dataDir, viewUrl: pr.viewUrl });
    await manager.add({ name: 'previews', start: () => previews.start(), stop: () => previews.stop() });
    previewTrigger = (ns, n) => previews.trigger(ns, n);
  }
  await manager.start();
  const refreshQueueDepth = (): void => metrics.queueDepth.set(controllers.queue.depth());
  return {
    trigger: (ns, n) => controllers.sources?.trigger(ns, n),
    previewTrigger,
    refreshQueueDepth,
    scrape: async () => {
      refreshQueueDepth();
      return metrics.registry.getMetricsAsJSON();
    },
    stop: () => manager.stop(),
  };
}
