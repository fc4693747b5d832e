import { Counter, type Registry } from 'prom-client';

const NAME = 'apiserver_terminated_watchers_total';

/**
 * kube-apiserver's counter of watches it closed because their client did not keep up, by
 * resource; registered once per registry (several servers in one test process may share one).
 */
export function terminatedWatchersCounter(registry: Registry | undefined): (resource: string) => void {
  if (!registry) return () => undefined;
  const existing = registry.getSingleMetric(NAME) as Counter<'resource'> | undefined;
  const counter =
    existing ??
    new Counter({
      name: NAME,
      help: 'Counter of watchers closed due to unresponsiveness broken by resource type.',
      labelNames: ['resource'],
      registers: [registry],
    });
  return (resource) => counter.inc({ resource });
}
