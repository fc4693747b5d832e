import { RECONCILE_REQUEST_ANNOTATION, FLOWSOURCE_API_VERSION, FLOWSOURCE_KIND } from '../../api/index.js';
import { Informer, type KubeObject } from '../../kube/index.js';
import { MemoryQueue } from '../../queue/memory-queue.js';
import type { WorkQueue } from '../../queue/index.js';
import { FlowSourceReconciler, type FlowSourceReconcilerDeps } from './reconciler.js';

export interface FlowSourceControllerOptions extends FlowSourceReconcilerDeps {
  /** Sources reconciled at once (each is serialised by its key). */
  concurrency?: number;
  queue?: WorkQueue;
}

const keyOf = (o: KubeObject): string => `${o.metadata.namespace ?? 'default'}/${o.metadata.name}`;

/**
 * Watches FlowSources and runs the poller: each source's reconcile asks to run again after its
 * interval (with jitter), a spec change or `trigger` (webhook, push) runs it at once. It is one
 * runnable — `start` / `stop` — so that with leader election only the leader starts it and a
 * source never has two pollers.
 */
export class FlowSourceController {
  /** LeaderRunnable's name (src/runtime/leader-work.ts). */
  readonly name = 'flowsources';
  readonly reconciler: FlowSourceReconciler;
  private readonly queue: WorkQueue;
  private informer: Informer | undefined;

  constructor(private readonly opts: FlowSourceControllerOptions) {
    this.reconciler = new FlowSourceReconciler(opts);
    this.queue =
      opts.queue ?? new MemoryQueue(opts.log.child({ part: 'flowsource-queue' }), { baseMs: 500, maxMs: 60_000 });
  }

  /** Starts watching and polling; `signal` (the leader's) is optional — `stop` ends it either way. */
  start(signal?: AbortSignal): void {
    signal?.addEventListener('abort', () => void this.stop(), { once: true });
    this.queue.start(
      async (key) => {
        const [namespace, name] = key.split('/') as [string, string];
        return this.reconciler.reconcile(namespace, name);
      },
      { concurrency: this.opts.concurrency ?? 4 },
    );
    this.informer = new Informer(
      this.opts.kube,
      { apiVersion: FLOWSOURCE_API_VERSION, kind: FLOWSOURCE_KIND, log: this.opts.log },
      {
        add: (o) => this.queue.add(keyOf(o)),
        // Status writes do not move the generation; only spec changes (a pin, a new URL) re-run at once.
        update: (o, old) => {
          const requested =
            o.metadata.annotations?.[RECONCILE_REQUEST_ANNOTATION] !==
            old.metadata.annotations?.[RECONCILE_REQUEST_ANNOTATION];
          if (
            requested ||
            o.metadata.generation !== old.metadata.generation ||
            (o.metadata.deletionTimestamp && !old.metadata.deletionTimestamp)
          )
            this.queue.add(keyOf(o));
        },
        delete: (o) => this.reconciler.forget(keyOf(o)),
      },
    );
    this.informer.start();
  }

  /** Fetch and sync this source now (a webhook or a push); unknown sources are a no-op. */
  trigger(namespace: string, name: string): void {
    this.queue.add(`${namespace}/${name}`);
  }

  /** The source as last seen by the watch (for the webhook receiver). */
  cached(namespace: string, name: string): KubeObject | undefined {
    return this.informer?.get(namespace, name);
  }

  async stop(): Promise<void> {
    await this.informer?.stop();
    await this.queue.stop();
  }
}
