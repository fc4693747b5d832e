import type { KubeClient } from './client.js';
import { KubeApiError } from './rest.js';
import type { KubeObject } from './types.js';

const SERIES_WINDOW_MS = 10 * 60_000;

interface Seen {
  name: string;
  namespace: string;
  count: number;
  at: number;
}

/**
 * Writes core/v1 Events the way client-go's recorder does: the same reason and message for the same
 * object within ten minutes bump the existing Event's count instead of creating another.
 */
export class EventRecorder {
  private readonly seen = new Map<string, Seen>();

  constructor(
    private readonly kube: KubeClient,
    private readonly component: string,
  ) {}

  async record(obj: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string): Promise<void> {
    const namespace = obj.metadata.namespace ?? 'default';
    const key = `${obj.metadata.uid}|${type}|${reason}|${message}`;
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const prev = this.seen.get(key);
    try {
      if (prev && Date.now() - prev.at < SERIES_WINDOW_MS) {
        prev.count++;
        prev.at = Date.now();
        await this.kube.sendPatch({ apiVersion: 'v1', kind: 'Event', name: prev.name, namespace: prev.namespace }, { count: prev.count, lastTimestamp: now }, 'merge');
        return;
      }
      const name = `${obj.metadata.name}.${Date.now().toString(16)}${Math.floor(Math.random() * 0xfff).toString(16)}`;
      await this.kube.sendCreate({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace },
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
        message: message.slice(0, 1024),
        source: { component: this.component },
        reportingComponent: this.component,
        firstTimestamp: now,
        lastTimestamp: now,
        count: 1,
      });
      this.seen.set(key, { name, namespace, count: 1, at: Date.now() });
      if (this.seen.size > 5000) this.seen.delete(this.seen.keys().next().value!);
    } catch (err) {
      // Events are best effort, as in client-go: a failed write never fails a reconcile.
      if (!(err instanceof KubeApiError)) throw err;
    }
  }
}
