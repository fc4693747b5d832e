import type { Logger } from '../log/index.js';
import { requeueAfterOf } from '../reconcile/index.js';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffOptions, type ReconcileHandler, type WorkQueue } from './types.js';

/**
 * client-go's workqueue in process: `dirty` holds keys that need a run, `processing` keys being run.
 * A key added while processing stays dirty and is queued again when its run ends.
 */
export class MemoryQueue implements WorkQueue {
  private readonly queue: string[] = [];
  private readonly dirty = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private handler: ReconcileHandler | undefined;
  private running = 0;
  private concurrency = 1;
  private stopped = false;
  private idle: Array<() => void> = [];
  private drained: Array<() => void> = [];

  constructor(
    private readonly log: Logger,
    private readonly backoff: BackoffOptions = DEFAULT_BACKOFF,
  ) {}

  add(key: string): void {
    if (this.stopped || this.dirty.has(key)) return;
    this.dirty.add(key);
    if (!this.processing.has(key)) this.queue.push(key);
    this.pump();
  }

  addAfter(key: string, delayMs: number): void {
    if (this.stopped) return;
    if (delayMs <= 0) return this.add(key);
    const existing = this.timers.get(key);
    if (existing) clearTimeout(existing);
    const t = setTimeout(() => {
      this.timers.delete(key);
      this.add(key);
    }, delayMs);
    t.unref();
    this.timers.set(key, t);
  }

  /**
   * client-go's Forget: the key's failures are cleared and a retry it waits for is cancelled, so
   * its next run starts from the first backoff step (a newer version of its work replaced the failed one).
   */
  forget(key: string): void {
    this.failures.delete(key);
    const t = this.timers.get(key);
    if (t) clearTimeout(t);
    this.timers.delete(key);
  }

  /** Resolves once no key waits or runs; keys waiting out a backoff or a requeueAfter do not count. */
  whenDrained(): Promise<void> {
    if (this.isDrained()) return Promise.resolve();
    return new Promise<void>((r) => this.drained.push(r));
  }

  start(handler: ReconcileHandler, opts: { concurrency: number }): void {
    this.handler = handler;
    this.concurrency = Math.max(1, opts.concurrency);
    this.pump();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.queue.length = 0;
    if (this.running) await new Promise<void>((r) => this.idle.push(r));
    this.notifyDrained();
  }

  depth(): number {
    return this.queue.length + this.processing.size;
  }

  private pump(): void {
    while (this.handler && !this.stopped && this.running < this.concurrency && this.queue.length) {
      const key = this.queue.shift()!;
      this.dirty.delete(key);
      this.processing.add(key);
      this.running++;
      void this.runOne(key);
    }
  }

  private async runOne(key: string): Promise<void> {
    try {
      const result = await this.handler!(key);
      if (result?.kind === 'error') return this.retry(key, result);
      this.failures.delete(key);
      // Retrying cannot help a stalled key; the next change to it brings it back.
      if (result?.kind === 'stalled') {
        this.log.debug({ key, code: result.code, err: result.message }, 'reconcile stalled; not retried');
        return;
      }
      const after = requeueAfterOf(result);
      if (after) this.addAfter(key, after);
    } catch (err) {
      this.retry(key, err);
    } finally {
      this.processing.delete(key);
      this.running--;
      if (this.dirty.has(key) && !this.stopped) this.queue.push(key);
      if (this.running === 0 && this.stopped) for (const r of this.idle.splice(0)) r();
      this.pump();
      this.notifyDrained();
    }
  }

  private isDrained(): boolean {
    return this.running === 0 && (this.stopped || this.queue.length === 0);
  }

  private notifyDrained(): void {
    if (this.drained.length && this.isDrained()) for (const r of this.drained.splice(0)) r();
  }

  /** An error result or a thrown error: the key's next run waits its backoff. */
  private retry(key: string, err: unknown): void {
    const n = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, n);
    const delay = backoffDelay(n, this.backoff);
    this.log.debug({ err, key, attempt: n, delayMs: delay }, 'reconcile failed; requeued with backoff');
    this.addAfter(key, delay);
  }
}
