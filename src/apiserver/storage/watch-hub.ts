import type { StoreEvent, WatchHandle } from './types.js';

interface Subscriber {
  prefix: string;
  onEvent: (e: StoreEvent) => void;
  onClosed: (() => void) | undefined;
}

/** Fans each committed write out to the watches whose key prefix it falls under. */
export class WatchHub {
  private readonly subscribers = new Set<Subscriber>();

  subscribe(prefix: string, onEvent: (e: StoreEvent) => void, onClosed?: () => void): WatchHandle {
    const sub: Subscriber = { prefix, onEvent, onClosed };
    this.subscribers.add(sub);
    return { cancel: () => this.subscribers.delete(sub) };
  }

  publish(e: StoreEvent): void {
    for (const s of this.subscribers) {
      if (!e.key.startsWith(s.prefix)) continue;
      try {
        s.onEvent(e);
      } catch {
        // A failing watcher must not stop the others; it is dropped and its client re-watches.
        this.subscribers.delete(s);
      }
    }
  }

  /** Ends every watch (server shutdown): each subscriber is told so it can end its stream gracefully. */
  closeAll(): void {
    const subs = [...this.subscribers];
    this.subscribers.clear();
    for (const s of subs) s.onClosed?.();
  }

  get size(): number {
    return this.subscribers.size;
  }
}
