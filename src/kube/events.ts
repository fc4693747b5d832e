import { LRUCache } from 'lru-cache';
import { type KubeClient, isNotFound } from './client.js';
import { KubeApiError } from './rest.js';
import type { KubeObject } from './types.js';

/** client-go's EventCorrelator: the same Event within ten minutes is counted, not created again. */
const SERIES_WINDOW_MS = 10 * 60_000;
/** client-go's maxLruCacheEntries. */
const MAX_SERIES = 4096;

interface Series {
  name: string;
  namespace: string;
  count: number;
  /** This series' writes, in order: a bump never overtakes the create it bumps. */
  writing: Promise<void>;
}

type EventType = 'Normal' | 'Warning';

const timestamp = (): string => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

/**
 * Writes core/v1 Events the way client-go's recorder does (its EventCorrelator's EventLogger): the
 * same type, reason and message for the same object within ten minutes bump the existing Event's
 * count and lastTimestamp instead of creating another. The series are kept in a bounded LRU cache;
 * one that fell out of it, expired or whose Event is gone starts a new Event.
 */
export class EventRecorder {
  private readonly series = new LRUCache<string, Series>({ max: MAX_SERIES, ttl: SERIES_WINDOW_MS });

  constructor(
    private readonly kube: KubeClient,
    private readonly component: string,
  ) {}

  record(obj: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): Promise<void> {
    const text = message.slice(0, 1024);
    const m = obj.metadata;
    const key = `${m.uid ?? ''}|${obj.kind}|${m.namespace ?? ''}|${m.name ?? ''}|${type}|${reason}|${text}`;
    const prev = this.series.get(key);
    if (prev) {
      // Counted now, written in turn: bumps that pile up while one is in flight send the latest count.
      prev.count++;
      this.series.set(key, prev);
      prev.writing = prev.writing.catch(() => undefined).then(() => this.bump(key, prev, obj, type, reason, text));
      return prev.writing;
    }
    const namespace = obj.metadata.namespace ?? 'default';
    const s: Series = { name: eventName(obj), namespace, count: 1, writing: Promise.resolve() };
    this.series.set(key, s);
    s.writing = this.create(key, s, obj, type, reason, text);
    return s.writing;
  }

  private async bump(
    key: string,
    s: Series,
    obj: KubeObject,
    type: EventType,
    reason: string,
    text: string,
  ): Promise<void> {
    try {
      const ref = { apiVersion: 'v1', kind: 'Event', name: s.name, namespace: s.namespace };
      await this.kube.sendPatch(ref, { count: s.count, lastTimestamp: timestamp() }, 'merge');
    } catch (err) {
      if (!isNotFound(err)) return swallow(err);
      // Expired or deleted meanwhile: a new series.
      s.name = eventName(obj);
      s.count = 1;
      await this.create(key, s, obj, type, reason, text);
    }
  }

  private async create(
    key: string,
    s: Series,
    obj: KubeObject,
    type: EventType,
    reason: string,
    text: string,
  ): Promise<void> {
    const now = timestamp();
    try {
      await this.kube.sendCreate({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: s.name, namespace: s.namespace },
        involvedObject: {
          apiVersion: obj.apiVersion,
          kind: obj.kind,
          name: obj.metadata.name,
          namespace: obj.metadata.namespace,
          uid: obj.metadata.uid,
          resourceVersion: obj.metadata.resourceVersion,
        },
        type,
        reason,
        message: text,
        source: { component: this.component },
        reportingComponent: this.component,
        firstTimestamp: now,
        lastTimestamp: now,
        // Bumps counted while the create was in flight are in it already.
        count: s.count,
      });
    } catch (err) {
      // Not written: the next one of the series creates it again.
      if (this.series.get(key) === s) this.series.delete(key);
      swallow(err);
    }
  }
}

/** `<object>.<hex time><random>`, as client-go names Events. */
const eventName = (obj: KubeObject): string =>
  `${obj.metadata.name}.${Date.now().toString(16)}${Math.floor(Math.random() * 0xfff).toString(16)}`;

/** Events are best effort, as in client-go: a failed write never fails a reconcile. */
function swallow(err: unknown): void {
  if (!(err instanceof KubeApiError)) throw err;
}
