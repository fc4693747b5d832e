import type { ServerResponse } from 'node:http';

/** How much unsent watch output the server holds for clients that read slower than it writes. */
export interface WatchMemoryLimits {
  /** One watch whose unsent output passes this is dropped (its client re-lists or re-watches). */
  perWatchBytes: number;
  /** All watches together: past this, the ones holding the most are dropped first until under it. */
  totalBytes: number;
}

export const DEFAULT_WATCH_MEMORY: WatchMemoryLimits = { perWatchBytes: 8 * 1024 * 1024, totalBytes: 64 * 1024 * 1024 };

/** One open watch response as the budget sees it. */
export interface BudgetedWatch {
  readonly res: ServerResponse;
  /** The resource it watches (`configmaps`, `deployments.apps`), for the dropped-watchers metric. */
  readonly resource: string;
  /** Ends the watch at once: cancels its subscription and destroys its socket, freeing what it buffered. */
  drop(): void;
}

/**
 * Bounds the memory watch responses pin. Node keeps everything written to a response whose client
 * does not read; a stalled client once held 32–44 MB each and the process grew without limit. A
 * dropped watch's socket is destroyed, not ended: ending would keep the unsent bytes until they
 * were sent, which for a stalled client is never.
 */
export class WatchBudget {
  /** Each watch with what it held when last looked at. */
  private readonly watches = new Map<BudgetedWatch, number>();
  /**
   * The sum of those: an upper bound of what all hold (buffers only shrink between looks, and a
   * write that grows one past its socket's high-water mark is always looked at), so the exact
   * sum, which costs a pass over every watch, is taken only when this passes the limit.
   */
  private held = 0;

  constructor(
    private readonly limits: WatchMemoryLimits,
    private readonly onDropped: (resource: string) => void = () => undefined,
  ) {}

  /** Registers a watch; the returned function unregisters it. */
  add(w: BudgetedWatch): () => void {
    this.watches.set(w, 0);
    const drained = (): void => {
      this.note(w, 0);
    };
    w.res.on('drain', drained);
    return () => {
      w.res.off('drain', drained);
      this.forget(w);
    };
  }

  /**
   * Called after a write to `w` left output waiting (write() returned false): the only moment
   * the totals can have grown, so a watch that keeps up costs nothing here.
   */
  check(w: BudgetedWatch): void {
    if (!this.watches.has(w)) return;
    if (w.res.writableLength > this.limits.perWatchBytes) {
      this.drop(w);
      return;
    }
    this.note(w, w.res.writableLength);
    if (this.held <= this.limits.totalBytes) return;
    let total = 0;
    for (const x of this.watches.keys()) total += this.note(x, x.res.writableLength);
    if (total <= this.limits.totalBytes) return;
    const slowestFirst = [...this.watches.keys()].sort((a, b) => b.res.writableLength - a.res.writableLength);
    for (const x of slowestFirst) {
      if (total <= this.limits.totalBytes) break;
      total -= x.res.writableLength;
      this.drop(x);
    }
  }

  get size(): number {
    return this.watches.size;
  }

  private note(w: BudgetedWatch, bytes: number): number {
    const before = this.watches.get(w);
    if (before === undefined) return 0;
    this.held += bytes - before;
    this.watches.set(w, bytes);
    return bytes;
  }

  private forget(w: BudgetedWatch): boolean {
    const before = this.watches.get(w);
    if (before === undefined) return false;
    this.held -= before;
    this.watches.delete(w);
    return true;
  }

  private drop(w: BudgetedWatch): void {
    if (!this.forget(w)) return;
    this.onDropped(w.resource);
    w.drop();
  }
}
