import { type NotifyEvent, objectName } from './event.js';

export interface GroupKey {
  /** namespace/name of the Alert. */
  alert: string;
  revision?: string;
}

/** What a closed group hands over: the first events (at most KEPT) and the counts of all. */
export interface Group {
  key: GroupKey;
  events: NotifyEvent[];
  total: number;
  errors: number;
}

interface OpenGroup extends Group {
  opened: number;
  timer: NodeJS.Timeout;
}

/** Events kept per group; the rest are counted (a message lists far fewer). */
const KEPT = 1000;
/** A group that keeps receiving events closes at the latest this many windows after it opened. */
const MAX_WINDOWS = 6;

/**
 * Holds an Alert's events, one group per commit (events without a commit form a group of their
 * own), until no new one came for the grouping window, or MAX_WINDOWS windows after the first: a
 * storm that FlowOps' workers record over half a minute is still one message. An event the Alert
 * already let through within its suppression window is dropped. A flush hands over the whole group
 * once; nothing here waits on a delivery.
 */
export class Grouper {
  private readonly groups = new Map<string, OpenGroup>();
  /** When each (alert, object, reason, message) was last let through. */
  private readonly lastSent = new Map<string, number>();

  constructor(private readonly flush: (group: Group) => void) {}

  add(key: GroupKey, e: NotifyEvent, windowMs: number, suppressMs: number): void {
    const now = Date.now();
    const repeat = `${key.alert}|${objectName(e)}|${e.reason}|${e.revision ?? ''}|${e.message}`;
    const last = this.lastSent.get(repeat);
    if (last !== undefined && now - last < suppressMs) return;
    this.lastSent.set(repeat, now);
    if (this.lastSent.size > 50_000) this.forgetOlderThan(now - suppressMs);
    const id = `${key.alert}|${key.revision ?? ''}`;
    const error = e.severity === 'error' ? 1 : 0;
    const group = this.groups.get(id);
    if (!group) {
      const timer = this.closeIn(id, windowMs);
      this.groups.set(id, { key, events: [e], total: 1, errors: error, opened: now, timer });
      return;
    }
    if (group.events.length < KEPT) group.events.push(e);
    group.total++;
    group.errors += error;
    clearTimeout(group.timer);
    group.timer = this.closeIn(id, Math.max(0, Math.min(windowMs, group.opened + MAX_WINDOWS * windowMs - now)));
  }

  private closeIn(id: string, ms: number): NodeJS.Timeout {
    const timer = setTimeout(() => this.flushGroup(id), ms);
    timer.unref();
    return timer;
  }

  /** The reasons of the events held for a commit, over all Alerts (tests wait on it before flushing). */
  held(revision: string | undefined): string[] {
    return [...this.groups.values()]
      .filter((g) => g.key.revision === revision)
      .flatMap((g) => g.events.map((e) => `${e.involved.kind}:${e.reason}`));
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
    this.flush({ key: group.key, events: group.events, total: group.total, errors: group.errors });
  }

  private forgetOlderThan(t: number): void {
    for (const [k, at] of this.lastSent) if (at < t) this.lastSent.delete(k);
  }
}
