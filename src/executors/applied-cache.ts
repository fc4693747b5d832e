// What this field manager last applied, per object, so that a run rendering the same object again
// sends nothing (a resync of settled objects writes nothing). Skipping is safe only if both hold:
// the rendered object is byte for byte what was last applied (so no field it used to set is gone,
// which an apply would remove), and the live object, as the child informer holds it, still carries
// every field it sets (so a field someone changed is put back). Anything else applies.

import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { objectId } from '../sync/inventory.js';
import type { KubeObject, ObjectRef } from '../kube/index.js';
import { refOf } from '../kube/types.js';

/** The live object of a child as a watch cache holds it; undefined when unknown (not cached, not watched). */
export type LiveChild = (ref: ObjectRef) => KubeObject | undefined;

const digest = (obj: KubeObject): string => createHash('sha1').update(JSON.stringify(obj)).digest('base64');

export class AppliedCache {
  private readonly applied = new LRUCache<string, string>({ max: 50_000 });
  /** The resourceVersion each apply answered with: the watch event it causes is this run's echo. */
  private readonly answers = new LRUCache<string, string>({ max: 50_000 });
  /** Applies sent and not answered yet, with the latest watch event of the object meanwhile. */
  private readonly inFlight = new Map<string, { held?: { child: KubeObject; release: () => void } }>();

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

  remember(obj: KubeObject, identity: string): void {
    this.applied.set(keyOf(obj, identity), digest(obj));
  }

  /** An apply of `obj` is about to be sent: its watch event may come before its answer. */
  sending(obj: KubeObject): void {
    const key = keyOf(obj, '');
    if (!this.inFlight.has(key)) this.inFlight.set(key, {});
  }

  /**
   * The apply's answer (undefined: it failed). An event held meanwhile is let through unless it
   * was this apply's echo or older than it (the run saw what the apply answered).
   */
  answered(obj: KubeObject, live: KubeObject | undefined): void {
    const key = keyOf(obj, '');
    const flight = this.inFlight.get(key);
    this.inFlight.delete(key);
    const rv = live?.metadata.resourceVersion;
    if (rv) this.answers.set(key, rv);
    const held = flight?.held;
    if (held && !(rv !== undefined && notNewer(held.child.metadata.resourceVersion, rv))) held.release();
  }

  /**
   * Whether a child's watch event is taken care of: the echo of an apply of this process (the
   * run that made it judged the answer), or held until the apply in flight answers, `release`d
   * then if it was not that apply's echo. False: the owner must run.
   */
  echoes(child: KubeObject, release: () => void): boolean {
    const key = keyOf(child, '');
    const rv = child.metadata.resourceVersion;
    const flight = this.inFlight.get(key);
    if (flight) {
      flight.held = { child, release };
      return true;
    }
    return rv !== undefined && this.answers.get(key) === rv;
  }

  forget(obj: KubeObject, identity: string): void {
    this.applied.delete(keyOf(obj, identity));
  }
}

/** `rv` is not after `than`; resourceVersions that are not integers are never compared (false). */
function notNewer(rv: string | undefined, than: string): boolean {
  if (rv === undefined || !/^\d+$/.test(rv) || !/^\d+$/.test(than)) return false;
  return BigInt(rv) <= BigInt(than);
}

function keyOf(obj: KubeObject, identity: string): string {
  const id = objectId({
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    namespace: obj.metadata.namespace,
    name: obj.metadata.name ?? '',
  });
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
