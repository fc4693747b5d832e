// Output conversion and reconciliation (spec §3.2 steps 4-5).
//
// The original reconciles each batch on its own and ignores multiplicities, so when several
// distinct rows map to one output name, retracting any of them deletes the object although the
// others still exist (spec §8 item 14). Here every name keeps the multiset of contents currently
// producing it: the object is deleted only when the last one goes, and when the emitted content
// goes while others remain, the most recently added survivor is emitted instead.

import { OutputError } from '../errors.js';
import { deepClone, isMap, show, type Doc } from '../../util/json-value.js';
import type { OutputEvent } from './events.js';
import { txDelete, txSet, type Txn } from './txn.js';
import type { Entry, ZSet } from './zset.js';

export interface TargetKind {
  readonly apiVersion: string;
  readonly kind: string;
}

interface Content {
  readonly doc: Doc;
  readonly count: number;
  /** Batch in which the content last became live: "most recently added" ordering. */
  readonly seq: number;
}

/**
 * The contents producing one output name, and what was emitted for it. A name almost always has
 * a single content, so that one is kept inline and a Map is made only for more (a Map per row
 * costs more memory than everything else in it).
 */
class Row {
  private soleKey: string | null = null;
  private sole: Content | null = null;
  private more: Map<string, Content> | null = null;
  emittedKey: string | null = null;
  emittedDoc: Doc | null = null;

  get size(): number {
    return (this.sole === null ? 0 : 1) + (this.more?.size ?? 0);
  }

  get(key: string): Content | undefined {
    return key === this.soleKey ? (this.sole ?? undefined) : this.more?.get(key);
  }

  *entries(): Iterable<[string, Content]> {
    if (this.sole !== null) yield [this.soleKey as string, this.sole];
    if (this.more !== null) yield* this.more;
  }

  /** Sets (content) or removes (null) the entry for `key`, recording the undo. */
  put(key: string, content: Content | null, txn: Txn): void {
    if (key === this.soleKey || (this.sole === null && content !== null && !this.more?.has(key))) {
      const [k, c] = [this.soleKey, this.sole];
      txn.record(() => {
        this.soleKey = k;
        this.sole = c;
      });
      this.soleKey = content === null ? null : key;
      this.sole = content;
      return;
    }
    this.more ??= new Map();
    if (content === null) txDelete(txn, this.more, key);
    else txSet(txn, this.more, key, content);
  }

  setEmitted(key: string | null, doc: Doc | null, txn: Txn): void {
    const [k, d] = [this.emittedKey, this.emittedDoc];
    txn.record(() => {
      this.emittedKey = k;
      this.emittedDoc = d;
    });
    this.emittedKey = key;
    this.emittedDoc = doc;
  }
}

/** Checks a pipeline result's metadata and returns its namespace/name key. */
export function outputId(doc: Doc): string {
  const meta = doc.metadata;
  if (!isMap(meta)) throw new OutputError('output', 'metadata', `a pipeline result needs a metadata map: ${show(doc)}`);
  const { name, namespace } = meta;
  if (typeof name !== 'string' || name === '') {
    throw new OutputError('output', 'metadata.name', `a pipeline result needs a non-empty string name: ${show(doc)}`);
  }
  if (namespace !== undefined && typeof namespace !== 'string') {
    throw new OutputError('output', 'metadata.namespace', `the namespace must be a string: ${show(doc)}`);
  }
  return namespace ? [namespace, name].join('/') : name;
}

/** A fresh copy of a (checked) result with the target GVK forced and an empty namespace dropped. */
export function toTargetObject(doc: Doc, target: TargetKind): Doc {
  const obj = deepClone(doc);
  obj.apiVersion = target.apiVersion;
  obj.kind = target.kind;
  const metadata = obj.metadata as Doc;
  if (metadata.namespace === '') delete metadata.namespace;
  return obj;
}

const byId = <T>(a: [string, T], b: [string, T]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

export class TargetStore {
  private readonly rows = new Map<string, Row>();
  private batch = 0;

  constructor(private readonly target: TargetKind) {}

  /** The objects the target should hold now (the pipeline's private target cache). */
  outputs(): Doc[] {
    const out: Doc[] = [];
    for (const [, row] of [...this.rows].sort(byId)) {
      if (row.emittedDoc !== null) out.push(toTargetObject(row.emittedDoc, this.target));
    }
    return out;
  }

  reconcile(delta: ZSet, txn: Txn): OutputEvent[] {
    const batch = ++this.batch;
    txn.record(() => (this.batch = batch - 1));
    const added = new Map<string, Set<string>>();
    for (const entry of delta) this.count(entry, batch, txn, added);
    const deleted: Array<[string, Doc]> = [];
    const upserted: Array<[string, Doc]> = [];
    for (const [id, adds] of added) this.settle(id, adds, txn, deleted, upserted);
    const out: OutputEvent[] = [];
    for (const [, doc] of deleted.sort(byId)) out.push({ type: 'Deleted', object: toTargetObject(doc, this.target) });
    for (const [, doc] of upserted.sort(byId)) out.push({ type: 'Upserted', object: toTargetObject(doc, this.target) });
    return out;
  }

  private count(entry: Entry, batch: number, txn: Txn, added: Map<string, Set<string>>): void {
    const id = outputId(entry.doc);
    let row = this.rows.get(id);
    if (row === undefined) {
      row = new Row();
      txSet(txn, this.rows, id, row);
    }
    const prev = row.get(entry.key);
    const before = prev?.count ?? 0;
    const after = before + entry.count;
    const seq = before <= 0 && after > 0 ? batch : (prev?.seq ?? batch);
    row.put(entry.key, after === 0 ? null : { doc: entry.doc, count: after, seq }, txn);
    let adds = added.get(id);
    if (adds === undefined) added.set(id, (adds = new Set()));
    if (entry.count > 0) adds.add(entry.key);
  }

  private choose(row: Row, adds: Set<string>): string | undefined {
    // "Last add wins" as in the original, made order-independent by taking the largest key;
    // then the emitted content while it lives; then the most recently added survivor.
    let fresh: string | undefined;
    let recent: [string, Content] | undefined;
    for (const [k, c] of row.entries()) {
      if (c.count <= 0) continue;
      if (adds.has(k) && (fresh === undefined || k > fresh)) fresh = k;
      if (recent === undefined || c.seq > recent[1].seq || (c.seq === recent[1].seq && k > recent[0])) recent = [k, c];
    }
    if (fresh !== undefined) return fresh;
    const emitted = row.emittedKey;
    if (emitted !== null && (row.get(emitted)?.count ?? 0) > 0) return emitted;
    return recent?.[0];
  }

  private settle(
    id: string,
    adds: Set<string>,
    txn: Txn,
    deleted: Array<[string, Doc]>,
    upserted: Array<[string, Doc]>,
  ): void {
    const row = this.rows.get(id) as Row;
    const want = this.choose(row, adds);
    if (want === undefined) {
      if (row.emittedDoc !== null) deleted.push([id, row.emittedDoc]);
      row.setEmitted(null, null, txn);
      if (row.size === 0) txDelete(txn, this.rows, id);
      return;
    }
    if (adds.has(want) || row.emittedKey !== want) {
      const doc = (row.get(want) as Content).doc;
      upserted.push([id, doc]);
      row.setEmitted(want, doc, txn);
    }
  }
}
