// Source caches and input deltas (spec §3.2 step 1). Each source kind has a cache keyed by
// namespace/name; an event becomes a ±1 delta against it.
//
// Two deliberate differences from the original, both so that the circuit's state is always a
// function of these caches (the recompute path computes from them):
//  * an `Added` for a key already cached acts like an update (the original counted it twice);
//  * a `Deleted` retracts the cached object, not the event's copy (they can differ).

import { EventError } from '../errors.js';
import { matchSelector } from '../expressions/index.js';
import { canon, deepClone, isMap, type Doc, copyMap } from '../../util/json-value.js';
import { inputEventTypes, type InputEvent, type SourceFilter } from './events.js';
import { decodeSecret } from './preprocess.js';
import { txDelete, txSet, type Txn } from './txn.js';
import { ZSet, type Entry } from './zset.js';

interface Cached {
  readonly key: string;
  readonly doc: Doc;
}

function objectKey(doc: Doc): string {
  const meta = isMap(doc.metadata) ? doc.metadata : {};
  const ns = typeof meta.namespace === 'string' ? meta.namespace : '';
  const name = typeof meta.name === 'string' ? meta.name : '';
  // Joined rather than concatenated: a flat string is cheaper as a long-lived map key.
  return ns === '' ? name : [ns, name].join('/');
}

function withoutUid(doc: Doc): Doc {
  if (!isMap(doc.metadata) || doc.metadata.uid === undefined) return doc;
  const { uid: _uid, ...metadata } = doc.metadata;
  return copyMap(doc, { metadata });
}

function uidOf(doc: Doc): unknown {
  return isMap(doc.metadata) ? doc.metadata.uid : undefined;
}

/** Deep equality that ignores metadata.uid, given the canonical keys already computed. */
function sameObject(a: Cached, b: Cached): boolean {
  if (a.key === b.key) return true;
  // Different keys with equal uids means different content: no need to compare again.
  if (uidOf(a.doc) === uidOf(b.doc)) return false;
  return canon(withoutUid(a.doc)) === canon(withoutUid(b.doc));
}

function passes(filter: SourceFilter | undefined, doc: Doc): boolean {
  if (filter === undefined) return true;
  const meta = isMap(doc.metadata) ? doc.metadata : {};
  if (filter.namespace !== undefined && meta.namespace !== filter.namespace) return false;
  if (filter.labelSelector === undefined) return true;
  const labels = isMap(meta.labels) ? meta.labels : {};
  return matchSelector(filter.labelSelector, labels, { op: 'labelSelector', path: 'filters' });
}

export class Sources {
  private readonly caches = new Map<string, Map<string, Cached>>();

  constructor(
    readonly kinds: readonly string[],
    private readonly filters: Readonly<Record<string, SourceFilter>> = {},
  ) {
    for (const k of kinds) this.caches.set(k, new Map());
  }

  /** Applies a batch of events to the caches and returns the input delta per kind. */
  apply(events: readonly InputEvent[], txn: Txn): Map<string, ZSet> {
    const deltas = new Map<string, ZSet>();
    for (const event of events) this.applyOne(event, txn, deltas);
    return deltas;
  }

  /** Current contents of one source, each with multiplicity 1. */
  *contents(kind: string): Iterable<Entry> {
    for (const c of this.caches.get(kind)?.values() ?? []) yield { key: c.key, doc: c.doc, count: 1 };
  }

  size(kind: string): number {
    return this.caches.get(kind)?.size ?? 0;
  }

  private applyOne(event: InputEvent, txn: Txn, deltas: Map<string, ZSet>): void {
    const { type, object } = event;
    if (!inputEventTypes.has(type)) throw new EventError('event', 'type', `unknown event type ${JSON.stringify(type)}`);
    if (!isMap(object)) throw new EventError('event', 'object', 'the event object must be a map');
    const kind = object.kind;
    const cache = typeof kind === 'string' ? this.caches.get(kind) : undefined;
    if (cache === undefined || typeof kind !== 'string') {
      throw new EventError(
        'event',
        'object.kind',
        `${JSON.stringify(kind)} is not a source kind of this pipeline (${this.kinds.join(', ')})`,
      );
    }
    const doc = decodeSecret(deepClone(object));
    const id = objectKey(doc);
    const old = cache.get(id);
    let delta = deltas.get(kind);
    if (delta === undefined) deltas.set(kind, (delta = new ZSet()));
    const selected = passes(this.filters[kind], doc);
    if (type === 'Deleted' || !selected) {
      if (old === undefined) {
        // Objects outside the filters were never seen, so their deletes are not errors.
        if (type === 'Deleted' && selected)
          throw new EventError('event', `${kind} ${id}`, 'delete for a nonexistent object');
        return;
      }
      delta.add(old.key, old.doc, -1);
      txDelete(txn, cache, id);
      return;
    }
    const next: Cached = { key: canon(doc), doc };
    if (old !== undefined && sameObject(old, next)) return;
    if (old !== undefined) delta.add(old.key, old.doc, -1);
    delta.add(next.key, next.doc, 1);
    txSet(txn, cache, id, next);
  }
}
