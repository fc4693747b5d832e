import type { OutputEvent } from '../pipeline/index.js';
import { exponentialBackoff } from '../util/backoff.js';

export interface WriteQueueOptions {
  write(event: OutputEvent): Promise<void>;
  onError(err: unknown, event: OutputEvent): void;
  /** First retry delay; doubles up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
}

/**
 * Serialises a controller's target writes. Pending writes coalesce per target key, so a burst of
 * events for one object ends in one write of its latest state, and a failed write is retried with
 * backoff unless a newer output for the same key replaced it meanwhile.
 */
export class WriteQueue {
  private readonly pending = new Map<string, OutputEvent>();
  private readonly attempts = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly opts: WriteQueueOptions) {}

  push(event: OutputEvent): void {
    if (this.stopped) return;
    const key = keyOf(event);
    // A Deleted then Upserted for one key in one batch: the later event is the state to reach.
    this.pending.delete(key);
    this.pending.set(key, event);
    this.attempts.delete(key);
    this.kick();
  }

  /** Resolves when nothing is pending or in flight (tests, CLI dry runs). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.pending.clear();
    await this.running;
  }

  private kick(): void {
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
      if (this.pending.size && !this.stopped) this.kick();
    });
  }

  private async drain(): Promise<void> {
    while (!this.stopped && this.pending.size) {
      const [key, event] = this.pending.entries().next().value as [string, OutputEvent];
      this.pending.delete(key);
      try {
        await this.opts.write(event);
        this.attempts.delete(key);
      } catch (err) {
        if (this.stopped) return;
        this.opts.onError(err, event);
        this.retryLater(key, event);
      }
    }
  }

  private retryLater(key: string, event: OutputEvent): void {
    const n = (this.attempts.get(key) ?? 0) + 1;
    this.attempts.set(key, n);
    const delay = exponentialBackoff(n, {
      baseMs: this.opts.backoffMs ?? 200,
      maxMs: this.opts.maxBackoffMs ?? 30_000,
    });
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      // A newer output for the key supersedes the failed one.
      if (this.stopped || this.pending.has(key) || this.attempts.get(key) !== n) return;
      this.pending.set(key, event);
      this.kick();
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }
}

function keyOf(e: OutputEvent): string {
  const meta = (e.object.metadata ?? {}) as { namespace?: string; name?: string };
  return `${meta.namespace ?? ''}/${meta.name ?? ''}`;
}
