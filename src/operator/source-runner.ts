import { parseDuration } from '../api/duration.js';
import type { KubeClient, KubeObject } from '../kube/index.js';
import { Informer } from '../kube/informer.js';
import type { Logger } from '../log/index.js';
import type { InputEvent } from '../pipeline/index.js';
import { compilePredicate, type UpdatePredicate } from './predicates.js';
import { preprocess } from './preprocess.js';
import { sourceType, type ResolvedResource, type SourceSpec } from './types.js';

export interface SourceHandlers {
  event(e: InputEvent): void;
  /** A Periodic source fired: resync the state of the world (spec §3.10). */
  resync(): void;
  error(err: unknown): void;
  /** The source has delivered the state of the world once (a Watcher's first list; others at once). */
  synced(): void;
}

const DEFAULT_PERIOD_MS = 5 * 60_000;

/**
 * One source of a controller: a Watcher (an informer; namespace on the server side, predicates on
 * updates), a OneShot (one synthetic trigger object), or a Periodic (a ticker that resyncs, and
 * never enters the pipeline).
 */
export class SourceRunner {
  private informer: Informer | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly predicate: UpdatePredicate | undefined;

  constructor(
    private readonly client: KubeClient,
    private readonly spec: SourceSpec,
    private readonly resource: ResolvedResource,
    private readonly log: Logger,
  ) {
    this.predicate = spec.predicate !== undefined ? compilePredicate(spec.predicate) : undefined;
  }

  /** Whether the source's kind is a pipeline input (Periodic sources are not). */
  get isInput(): boolean {
    return sourceType(this.spec) !== 'Periodic';
  }

  start(h: SourceHandlers): void {
    const type = sourceType(this.spec);
    if (type === 'OneShot') {
      const trigger: KubeObject = {
        apiVersion: this.resource.apiVersion,
        kind: this.resource.kind,
        metadata: { name: 'one-shot-trigger', labels: { 'dcontroller.io/last-triggered': new Date().toString() } },
      };
      h.event({ type: 'Added', object: trigger });
      h.synced();
      return;
    }
    if (type === 'Periodic') {
      const period = this.period();
      this.timer = setInterval(() => h.resync(), period);
      this.timer.unref();
      h.synced();
      return;
    }
    const isView = this.resource.isView;
    this.informer = new Informer(
      this.client,
      {
        apiVersion: this.resource.apiVersion,
        kind: this.resource.kind,
        ...(this.spec.namespace ? { namespace: this.spec.namespace } : {}),
        log: this.log,
      },
      {
        add: (obj) => h.event({ type: 'Added', object: preprocess(obj, isView) }),
        update: (obj, old) => {
          if (this.predicate && !this.predicate(old, obj)) return;
          h.event({ type: 'Updated', object: preprocess(obj, isView) });
        },
        delete: (obj) => h.event({ type: 'Deleted', object: preprocess(obj, isView) }),
        error: (err) => h.error(err),
        synced: () => h.synced(),
      },
    );
    this.informer.start();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.informer?.stop();
  }

  private period(): number {
    const p = this.spec.parameters?.period;
    if (typeof p !== 'string') return DEFAULT_PERIOD_MS;
    try {
      return parseDuration(p);
    } catch {
      // The original ignores a period that fails to parse (spec §1.3).
      return DEFAULT_PERIOD_MS;
    }
  }
}
