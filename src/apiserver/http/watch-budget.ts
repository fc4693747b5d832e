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
  private readonly watches = new Set<BudgetedWatch>();

  constructor(
    private readonly limits: WatchMemoryLimits,
    private readonly onDropped: (resource: string) => void = () => undefined,
  ) {}

  /** Registers a watch; the returned function unregisters it. */
  add(w: BudgetedWatch): () => void {
    this.watches.add(w);
    return () => this.watches.delete(w);
  }

  /**
   * Called after a write to `w` left output waiting (write() returned false): the only moment
   * the totals can have grown, so a watch that keeps up costs nothing here.
   */
  check(w: BudgetedWatch): void {
    if (w.res.writableLength > this.limits.perWatchBytes) {
      this.drop(w);
      return;
    }
    let total = 0;
    for (const x of this.watches) total += x.res.writableLength;
    if (total <= this.limits.totalBytes) return;
    const slowestFirst = [...this.watches].sort((a, b) => b.res.writableLength - a.res.writableLength);
    for (const x of slowestFirst) {
      if (total <= this.limits.totalBytes) break;
      total -= x.res.writableLength;
      this.drop(x);
    }
  }

  get size(): number {
    return this.watches.size;
  }

  private drop(w: BudgetedWatch): void {
    if (!this.watches.delete(w)) return;
    this.onDropped(w.resource);
    w.drop();
  }
}
