import { ApiError } from '../http/status.js';
import type { ObjectStore, WriteListener } from '../objects/object-store.js';
import { type JsonObject, type ResourceType, collectionPrefix, storageKey } from '../registry/types.js';
import { keepGoing } from '../../log/keep-going.js';
import { ApiServerSetupError } from '../errors.js';

interface Pending {
  key: string;
  /** The write this expiry belongs to; a later write of the event has its own. */
  revision: number;
}

/**
 * Expires core/v1 Events `ttl` after their last write, as kube-apiserver does by attaching each
 * written Event to an etcd lease of `--event-ttl`. Works on the storage keys of core/v1 Events, so
 * whatever else stores Events there (events.k8s.io/v1 shares them) expires alike.
 *
 * A timer wheel, not a scan: each write files its key in the slot of its expiry time, and each tick
 * takes only the slots that have come due, so a tick costs what expires (plus the entries that a
 * later write of the same Event made stale), never the number of Events kept.
 */
export class EventExpiry {
  private readonly slots = new Map<number, Pending[]>();
  private readonly prefix: string;
  /** Slots up to this one have been swept. */
  private swept: number;
  private timer: NodeJS.Timeout | undefined;
  readonly resolutionMs: number;

  constructor(
    private readonly objects: ObjectStore,
    private readonly events: ResourceType,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!(ttlMs > 0))
      throw new ApiServerSetupError('InvalidEventTtl', `event TTL must be a positive duration, got ${ttlMs} ms`);
    this.prefix = collectionPrefix(events, undefined);
    // Fine enough that an Event outlives its TTL by at most a tenth of it (at most a second).
    this.resolutionMs = Math.max(10, Math.min(1000, Math.floor(ttlMs / 10)));
    this.swept = this.slotOf(this.now()) - 1;
  }

  /** Files every Event in storage, each as of its last write (a restart must not renew them all). */
  loadAll(): void {
    for (const text of this.objects.list(this.events, undefined).items) {
      const obj = JSON.parse(text) as JsonObject;
      const meta = obj.metadata as JsonObject;
      const key = storageKey(this.events, String(meta.namespace), String(meta.name));
      this.schedule(key, Number(meta.resourceVersion), lastWrite(obj) ?? this.now());
    }
  }

  readonly onWrite: WriteListener = (_t, e) => {
    if (e.type === 'delete' || !e.key.startsWith(this.prefix)) return;
    this.schedule(e.key, e.revision, this.now());
  };

  start(): void {
    const tick = (): void => void keepGoing('event-expiry', this.objects.onFault, () => this.sweep());
    this.timer ??= setInterval(tick, this.resolutionMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Deletes the Events whose expiry has come (also called by the timer). */
  sweep(): void {
    const due = this.slotOf(this.now());
    for (let s = this.swept + 1; s <= due; s++) {
      const entries = this.slots.get(s);
      if (!entries) continue;
      this.slots.delete(s);
      for (const p of entries) keepGoing('event-expiry', this.objects.onFault, () => this.expire(p));
    }
    this.swept = due;
  }

  /** Entries filed and not yet swept (stale ones included): what the wheel holds. */
  get pending(): number {
    let n = 0;
    for (const entries of this.slots.values()) n += entries.length;
    return n;
  }

  private schedule(key: string, revision: number, writtenAt: number): void {
    // Already due (loaded after a long stop): the next sweep takes it.
    const slot = Math.max(this.slotOf(writtenAt + this.ttlMs), this.swept + 1);
    let entries = this.slots.get(slot);
    if (!entries) {
      entries = [];
      this.slots.set(slot, entries);
    }
    entries.push({ key, revision });
  }

  private expire(p: Pending): void {
    const [namespace, name] = p.key.slice(this.prefix.length).split('/');
    if (namespace === undefined || name === undefined) return;
    const current = this.objects.getStored(this.events, namespace, name);
    if (!current || current.modRevision !== p.revision) return;
    try {
      this.objects.delete(this.events, namespace, name, { preconditions: { resourceVersion: String(p.revision) } });
    } catch (e) {
      // Written or deleted in between: that write filed its own expiry.
      if (!(e instanceof ApiError)) throw e;
    }
  }

  private slotOf(ms: number): number {
    return Math.ceil(ms / this.resolutionMs);
  }
}

/** When an Event was last written, from what its writers stamp (managedFields, timestamps). */
function lastWrite(obj: JsonObject): number | undefined {
  const meta = obj.metadata as JsonObject;
  const times: unknown[] = [
    meta.creationTimestamp,
    obj.lastTimestamp,
    obj.eventTime,
    (obj.series as JsonObject | undefined)?.lastObservedTime,
  ];
  for (const mf of (meta.managedFields as JsonObject[] | undefined) ?? []) times.push(mf.time);
  let latest: number | undefined;
  for (const t of times) {
    const ms = typeof t === 'string' ? Date.parse(t) : NaN;
    if (!Number.isNaN(ms) && (latest === undefined || ms > latest)) latest = ms;
  }
  return latest;
}
