import { Counter, Gauge, type Registry } from 'prom-client';

export interface NotifyMetrics {
  /** result: sent, failed (gave up after every retry), retried (one failed attempt). */
  deliveries: Counter<'namespace' | 'provider' | 'type' | 'result'>;
  /** 1 while the provider's last delivery succeeded, 0 after a failed one. */
  providerReady: Gauge<'namespace' | 'provider' | 'type'>;
  /** Events dropped because a provider's queue was full (it has been failing for long). */
  dropped: Counter<'namespace' | 'provider'>;
}

const byRegistry = new WeakMap<Registry, NotifyMetrics>();

/** The notification metrics in a registry, registered once however many notifiers share it. */
export function notifyMetrics(registry: Registry): NotifyMetrics {
  let m = byRegistry.get(registry);
  if (!m) {
    const registers = [registry];
    m = {
      deliveries: new Counter({
        name: 'flowops_notification_deliveries_total',
        help: 'Notification and commit status deliveries by provider and result (sent, retried, failed).',
        labelNames: ['namespace', 'provider', 'type', 'result'],
        registers,
      }),
      providerReady: new Gauge({
        name: 'flowops_notification_provider_ready',
        help: "1 while the provider's last delivery succeeded, else 0.",
        labelNames: ['namespace', 'provider', 'type'],
        registers,
      }),
      dropped: new Counter({
        name: 'flowops_notification_dropped_total',
        help: "Notifications dropped because a failing provider's queue was full.",
        labelNames: ['namespace', 'provider'],
        registers,
      }),
    };
    byRegistry.set(registry, m);
  }
  return m;
}
