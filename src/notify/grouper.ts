import type { NotifyEvent } from './event.js';
import { objectName } from './event.js';

export interface GroupKey {
  /** namespace/name of the Alert. */
  alert: string;
  revision?: string;
}

interface Group {
  key: GroupKey;
  events: NotifyEvent[];
  timer: NodeJS.Timeout;
}

/**
 * Holds an Alert's events for its grouping window, one group per commit (events without a commit
 * form a group of their own), and drops an event the Alert already sent within its suppression
 * window. A flush hands over the whole group once; nothing here waits on a delivery.
 */
export class Grouper {
  private readonly groups = new Map<string, Group>();
  /** When each (alert, object, reason, message) was last let through. */
  private readonly lastSent = new Map<string, number>();

  constructor(private readonly flush: (key: GroupKey, events: NotifyEvent[]) => void) {}

  add(key: GroupKey, e: NotifyEvent, windowMs: number, suppressMs: number): void {
    const now = Date.now();
    const repeat = `${key.alert}|${objectName(e)}|${e.reason}|${e.revision ?? ''}|${e.message}`;
    const last = this.lastSent.get(repeat);
    if (last !== undefined && now - last < suppressMs) return;
    this.lastSent.set(repeat, now);
    if (this.lastSent.size > 50_000) this.forgetOlderThan(now - suppressMs);
    const id = `${key.alert}|${key.revision ?? ''}`;
    const group = this.groups.get(id);
    if (group) {
      group.events.push(e);
      return;
    }
    const timer = setTimeout(() => this.flushGroup(id), windowMs);
    timer.unref();
    this.groups.set(id, { key, events: [e], timer });
  }

  /** The reasons of the events held for a commit, over all Alerts (tests wait on it before flushing). */
  held(revision: string | undefined): string[] {
    return [...this.groups.values()].filter((g) => g.key.revision === revision).flatMap((g) => g.events.map((e) => `${e.involved.kind}:${e.reason}`));
  }

  /** Sends every open group now (on shutdown, so nothing collected is lost). */
  flushAll(): void {
    for (const id of [...this.groups.keys()]) this.flushGroup(id);
  }

  private flushGroup(id: string): void {
    const group = this.groups.get(id);
    if (!group) return;
    clearTimeout(group.timer);
    this.groups.delete(id);
    this.flush(group.key, group.events);
  }

  private forgetOlderThan(t: number): void {
    for (const [k, at] of this.lastSent) if (at < t) this.lastSent.delete(k);
  }
}
