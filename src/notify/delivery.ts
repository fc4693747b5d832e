import { nowRfc3339, setCondition } from '../kube/conditions.js';
import type { KubeClient, Condition, KubeObject } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { backoffDelay, type BackoffOptions } from '../queue/types.js';
import { NotifyError } from './errors.js';
import { send, type OutgoingRequest } from './http-send.js';
import type { ResolvedProvider } from './message.js';
import type { NotifyMetrics } from './metrics.js';
import { resolveProvider } from './resolve-provider.js';

export interface DeliveryOptions {
  kube: KubeClient;
  log: Logger;
  metrics: NotifyMetrics;
  /** The Provider as the informer has it now (undefined: deleted). */
  providerObject: (namespace: string, name: string) => KubeObject | undefined;
  /** Between attempts (default 1 s doubling to 1 min). */
  backoff?: BackoffOptions;
  /** Attempts per notification (default 6). */
  attempts?: number;
  /** Notifications waiting per provider before the oldest are dropped (default 1000). */
  maxQueued?: number;
}

/** What to send, built once the Provider and its Secret are read (undefined: this provider sends nothing for it). */
export type Build = (p: ResolvedProvider) => OutgoingRequest | undefined;

interface Lane {
  queue: Array<{ what: string; build: Build }>;
  running: boolean;
}

/**
 * Sends to each Provider in order, one at a time, retrying with the project's backoff; a failing
 * Provider only ever holds up its own queue. Each outcome is said on the Provider's Ready
 * condition (reason = the error code) and in the metrics; tokens and addresses are never logged.
 */
export class Delivery {
  private readonly lanes = new Map<string, Lane>();
  /** The Ready condition last written per provider, so an unchanged outcome is not written again. */
  private readonly written = new Map<string, string>();
  private readonly failures = new Map<string, number>();
  private stopped = false;

  constructor(private readonly opts: DeliveryOptions) {}

  enqueue(namespace: string, provider: string, what: string, build: Build): void {
    const id = `${namespace}/${provider}`;
    let lane = this.lanes.get(id);
    if (!lane) {
      lane = { queue: [], running: false };
      this.lanes.set(id, lane);
    }
    lane.queue.push({ what, build });
    const max = this.opts.maxQueued ?? 1000;
    if (lane.queue.length > max) {
      lane.queue.splice(0, lane.queue.length - max);
      this.opts.metrics.dropped.inc({ namespace, provider });
    }
    if (!lane.running) void this.drain(namespace, provider, lane);
  }

  /** Stops retrying; what is queued is dropped. */
  stop(): void {
    this.stopped = true;
  }

  /** Nothing queued or in flight (tests and the bench wait on it). */
  idle(): boolean {
    return [...this.lanes.values()].every((l) => !l.running && l.queue.length === 0);
  }

  private async drain(namespace: string, provider: string, lane: Lane): Promise<void> {
    lane.running = true;
    try {
      while (!this.stopped) {
        const item = lane.queue.shift();
        if (!item) break;
        await this.deliver(namespace, provider, item.what, item.build);
      }
    } finally {
      lane.running = false;
    }
  }

  private async deliver(namespace: string, name: string, what: string, build: Build): Promise<void> {
    const attempts = this.opts.attempts ?? 6;
    const log = this.opts.log.child({ provider: `${namespace}/${name}`, what });
    for (let attempt = 1; attempt <= attempts && !this.stopped; attempt++) {
      const obj = this.opts.providerObject(namespace, name);
      if (!obj) return void log.debug('provider gone; notification dropped');
      if ((obj.spec as { suspend?: boolean } | undefined)?.suspend) return;
      const type = String((obj.spec as { type?: unknown } | undefined)?.type ?? 'unknown');
      try {
        const { provider, connection } = await resolveProvider(this.opts.kube, obj);
        const req = build(provider);
        if (!req) return;
        await send(`${namespace}/${name}`, req, connection);
        this.opts.metrics.deliveries.inc({ namespace, provider: name, type, result: 'sent' });
        this.opts.metrics.providerReady.set({ namespace, provider: name, type }, 1);
        this.failures.set(`${namespace}/${name}`, 0);
        await this.writeReady(obj, true, 'Succeeded', `delivered ${what}`);
        return;
      } catch (err) {
        if (!(err instanceof NotifyError)) throw err;
        const last = attempt === attempts || err.code === 'InvalidProvider';
        this.opts.metrics.deliveries.inc({ namespace, provider: name, type, result: last ? 'failed' : 'retried' });
        this.opts.metrics.providerReady.set({ namespace, provider: name, type }, 0);
        const message = last
          ? `${err.message}; gave up on ${what} after ${attempt} attempt(s)`
          : `${err.message}; retrying ${what} (attempt ${attempt}/${attempts})`;
        log.warn(
          { code: err.code, statusCode: err.statusCode, attempt },
          last ? 'notification failed' : 'notification failed; retrying',
        );
        if (last) this.failures.set(`${namespace}/${name}`, (this.failures.get(`${namespace}/${name}`) ?? 0) + 1);
        await this.writeReady(obj, false, err.code, message);
        if (last) return;
        await pause(backoffDelay(attempt, this.opts.backoff ?? { baseMs: 1000, maxMs: 60_000 }), () => this.stopped);
      }
    }
  }

  /**
   * A Provider's spec or Secret checked when it appears or changes, before anything is sent: a
   * missing Secret or address is said at once. A valid one is Ready=True only until a delivery says otherwise.
   */
  async check(obj: KubeObject): Promise<void> {
    const ready = ((obj.status ?? {}) as { conditions?: Condition[] }).conditions?.find((c) => c.type === 'Ready');
    try {
      await resolveProvider(this.opts.kube, obj);
      if (
        !ready ||
        ready.observedGeneration !== obj.metadata.generation ||
        ready.reason === 'InvalidProvider' ||
        ready.reason === 'SecretNotFound'
      ) {
        await this.writeReady(obj, true, 'Validated', 'the spec and its Secrets are valid; nothing sent yet');
      }
    } catch (err) {
      if (!(err instanceof NotifyError)) throw err;
      await this.writeReady(obj, false, err.code, err.message);
    }
  }

  /** Ready on the Provider's status, written only when it changes (a success after a success writes nothing). */
  private async writeReady(obj: KubeObject, ready: boolean, reason: string, message: string): Promise<void> {
    const id = `${obj.metadata.namespace}/${obj.metadata.name}`;
    const mark = `${ready}|${reason}|${ready ? '' : message}`;
    if (this.written.get(id) === mark) return;
    this.written.set(id, mark);
    const prev = ((obj.status ?? {}) as { conditions?: Condition[] }).conditions;
    const generation = obj.metadata.generation ?? 0;
    const conditions = setCondition(prev, {
      type: 'Ready',
      status: ready ? 'True' : 'False',
      reason,
      message: message.slice(0, 1024),
      observedGeneration: generation,
    });
    const status = {
      observedGeneration: generation,
      conditions,
      failures: this.failures.get(id) ?? 0,
      ...(ready ? { lastSent: nowRfc3339() } : {}),
    };
    try {
      await this.opts.kube.sendPatch(
        {
          apiVersion: obj.apiVersion,
          kind: obj.kind,
          namespace: obj.metadata.namespace,
          name: obj.metadata.name ?? '',
        },
        { status },
        'merge',
        { subresource: 'status', fieldManager: 'flowops-notify' },
      );
    } catch (err) {
      this.written.delete(id);
      this.opts.log.debug({ err, provider: id }, "could not write the Provider's status");
    }
  }
}

async function pause(ms: number, stopped: () => boolean): Promise<void> {
  const until = Date.now() + ms;
  while (!stopped() && Date.now() < until) await new Promise((r) => setTimeout(r, Math.min(200, until - Date.now())));
}
