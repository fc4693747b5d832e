// What this field manager last applied, per object, so that a run rendering the same object again
// sends nothing (a resync of settled objects writes nothing). Skipping is safe only if both hold:
// the rendered object is byte for byte what was last applied (so no field it used to set is gone,
// which an apply would remove), and the live object, as the child informer holds it, still carries
// every field it sets (so a field someone changed is put back). Anything else applies.

import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { objectId } from '../sync/inventory.js';
import type { KubeObject, ObjectRef } from '../kube/types.js';
import { refOf } from '../kube/types.js';

/** The live object of a child as a watch cache holds it; undefined when unknown (not cached, not watched). */
export type LiveChild = (ref: ObjectRef) => KubeObject | undefined;

const digest = (obj: KubeObject): string => createHash('sha1').update(JSON.stringify(obj)).digest('base64');

export class AppliedCache {
  private readonly applied = new LRUCache<string, string>({ max: 50_000 });
  /** The resourceVersion each apply answered with: the watch event it causes is this run's echo. */
  private readonly answered = new LRUCache<string, string>({ max: 50_000 });

  /**
   * The live object standing for an apply of `obj` that would change nothing, or undefined (apply).
   * `identity` is who applies (field manager and the impersonated account): another identity's
   * apply is its own.
   */
  unchanged(obj: KubeObject, identity: string, live: LiveChild): KubeObject | undefined {
    const key = keyOf(obj, identity);
    if (this.applied.get(key) !== digest(obj)) return undefined;
    const current = live(refOf(obj));
    return current && carries(current, obj) ? current : undefined;
  }

  remember(obj: KubeObject, identity: string, live: KubeObject): void {
    this.applied.set(keyOf(obj, identity), digest(obj));
    if (live.metadata.resourceVersion) this.answered.set(keyOf(live, ''), live.metadata.resourceVersion);
  }

  /**
   * The child as an apply of this process left it (its watch event echoes a write of ours, which
   * the run that made it already judged): no reason to run the owner again.
   */
  echoes(child: KubeObject): boolean {
    const rv = child.metadata.resourceVersion;
    return rv !== undefined && this.answered.get(keyOf(child, '')) === rv;
  }

  forget(obj: KubeObject, identity: string): void {
    this.applied.delete(keyOf(obj, identity));
  }
}

function keyOf(obj: KubeObject, identity: string): string {
  const id = objectId({ apiVersion: obj.apiVersion, kind: obj.kind, namespace: obj.metadata.namespace, name: obj.metadata.name ?? '' });
  return `${identity}\u001f${id}`;
}

/**
 * Whether `live` has every field `want` sets, with the same value: maps may hold more (defaults,
 * other managers' fields), lists must have as many items, each carrying its counterpart.
 */
export function carries(live: unknown, want: unknown): boolean {
  if (want === null || typeof want !== 'object') return live === want;
  if (Array.isArray(want)) {
    return Array.isArray(live) && live.length === want.length && want.every((w, i) => carries(live[i], w));
  }
  if (live === null || typeof live !== 'object' || Array.isArray(live)) return false;
  const l = live as Record<string, unknown>;
  return Object.entries(want as Record<string, unknown>).every(([k, w]) => carries(l[k], w));
}
