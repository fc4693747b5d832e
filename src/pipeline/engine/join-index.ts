// Hash indexes for @join. The predicate's leading run of `@eq` conjuncts whose two sides are
// plain `$.<Kind>...` reads of two different sources is used to find join partners by key
// instead of by a nested loop. The full predicate is still evaluated on every candidate tuple, so
// the index only prunes tuples for which one of those @eq conjuncts is false.
//
// Pruning is exact because of how @eq evaluates `[a, b]`: null on either side gives false, and
// otherwise equality is equality of canonical JSON. The one subtlety is the list-unpacking rule:
// when the first side's value is a list the arguments become that list, so the result no longer
// depends on the partner. Such rows are kept in a "wild" bucket that every partner visits.
// (Consequence: a tuple the index prunes is never evaluated, so an error that a later conjunct
// would raise for it in a nested loop is not raised. Only a first-side list of length != 2 can
// raise inside the leading run.)

import { type Expr, evaluate, rootCtx, type EvalOptions } from '../expressions/index.js';
import { joinMatches } from '../stages/join.js';
import type { JoinSpec } from '../stages/spec.js';
import { canon, isNil, type Doc } from '../../util/json-value.js';
import type { ZSet } from './zset.js';

export const WILD: unique symbol = Symbol('wild');
export type JoinKey = string | null | typeof WILD;

interface Side {
  readonly kind: string;
  readonly expr: Expr;
}

export interface Equality {
  readonly id: number;
  /** The first @eq argument (subject to list unpacking). */
  readonly first: Side;
  readonly second: Side;
}

function sideOf(e: Expr, kinds: ReadonlySet<string>): Side | null {
  if (e.t !== 'str' || e.ref === undefined || !e.ref.ok || e.ref.subject) return null;
  const { path } = e.ref;
  const head = path.steps[0];
  if (path.root !== '$' || path.usesRoot || head === undefined || head.t !== 'child' || !kinds.has(head.name))
    return null;
  return { kind: head.name, expr: e };
}

function equalityOf(e: Expr, id: number, kinds: ReadonlySet<string>): Equality | null {
  if (e.t !== 'op' || e.op !== '@eq' || e.arg.t !== 'list' || e.arg.items.length !== 2) return null;
  const first = sideOf(e.arg.items[0] as Expr, kinds);
  const second = sideOf(e.arg.items[1] as Expr, kinds);
  if (first === null || second === null || first.kind === second.kind) return null;
  return { id, first, second };
}

/** The indexable equalities of a join predicate (possibly none: then it is a nested loop). */
export function analyzeJoin(join: JoinSpec, kinds: readonly string[]): Equality[] {
  const set = new Set(kinds);
  const e = join.expr;
  const conjuncts = e.t === 'op' && e.op === '@and' ? (e.arg.t === 'list' ? e.arg.items : [e.arg]) : [e];
  const out: Equality[] = [];
  for (const c of conjuncts) {
    const eq = equalityOf(c, out.length, set);
    if (eq === null) break;
    out.push(eq);
  }
  return out;
}

export interface JoinRow {
  readonly key: string;
  readonly doc: Doc;
  count: number;
  readonly keys: ReadonlyMap<number, JoinKey>;
}

function sideKey(side: Side, doc: Doc, first: boolean, opts: EvalOptions): JoinKey {
  const v = evaluate(side.expr, rootCtx({ [side.kind]: doc }, opts));
  if (isNil(v)) return null;
  if (first && Array.isArray(v)) return WILD;
  return canon(v);
}

/** One source's rows for the join, with a hash index per equality it takes part in. */
export class KindIndex {
  readonly rows = new Map<string, JoinRow>();
  private readonly byEq = new Map<number, { map: Map<string, Set<JoinRow>>; wild: Set<JoinRow> }>();

  constructor(
    readonly kind: string,
    private readonly equalities: readonly Equality[],
    private readonly opts: EvalOptions,
  ) {
    for (const eq of equalities) {
      if (eq.first.kind === kind || eq.second.kind === kind) this.byEq.set(eq.id, { map: new Map(), wild: new Set() });
    }
  }

  /** Evaluates this kind's side of every equality for a document. */
  keysOf(doc: Doc): Map<number, JoinKey> {
    const keys = new Map<number, JoinKey>();
    for (const eq of this.equalities) {
      if (eq.first.kind === this.kind) keys.set(eq.id, sideKey(eq.first, doc, true, this.opts));
      else if (eq.second.kind === this.kind) keys.set(eq.id, sideKey(eq.second, doc, false, this.opts));
    }
    return keys;
  }

  link(row: JoinRow): void {
    this.rows.set(row.key, row);
    for (const [id, k] of row.keys) {
      const ix = this.byEq.get(id);
      if (ix === undefined || k === null) continue;
      if (k === WILD) {
        ix.wild.add(row);
        continue;
      }
      let bucket = ix.map.get(k);
      if (bucket === undefined) ix.map.set(k, (bucket = new Set()));
      bucket.add(row);
    }
  }

  unlink(row: JoinRow): void {
    this.rows.delete(row.key);
    for (const [id, k] of row.keys) {
      const ix = this.byEq.get(id);
      if (ix === undefined || k === null) continue;
      if (k === WILD) {
        ix.wild.delete(row);
        continue;
      }
      const bucket = ix.map.get(k);
      bucket?.delete(row);
      if (bucket?.size === 0) ix.map.delete(k);
    }
  }

  /** Rows of this kind that can satisfy equality `id` given the bound partner's key. */
  candidates(id: number, partnerKey: JoinKey, thisIsFirst: boolean): Iterable<JoinRow> {
    const ix = this.byEq.get(id);
    if (ix === undefined) return this.rows.values();
    if (thisIsFirst) {
      const hits = typeof partnerKey === 'string' ? (ix.map.get(partnerKey) ?? []) : [];
      return ix.wild.size === 0 ? hits : [...hits, ...ix.wild];
    }
    if (partnerKey === WILD) return this.rows.values();
    return partnerKey === null ? [] : (ix.map.get(partnerKey) ?? []);
  }
}

interface Step {
  readonly kind: string;
  readonly via: { readonly eq: number; readonly from: string; readonly thisIsFirst: boolean } | null;
}

/** Binding order from `start`: follow equalities where possible, fall back to a full scan. */
export function planFrom(start: string, kinds: readonly string[], equalities: readonly Equality[]): Step[] {
  const bound = new Set([start]);
  const steps: Step[] = [];
  while (bound.size < kinds.length) {
    let step: Step | undefined;
    for (const eq of equalities) {
      if (bound.has(eq.first.kind) && !bound.has(eq.second.kind)) {
        step = { kind: eq.second.kind, via: { eq: eq.id, from: eq.first.kind, thisIsFirst: false } };
      } else if (bound.has(eq.second.kind) && !bound.has(eq.first.kind)) {
        step = { kind: eq.first.kind, via: { eq: eq.id, from: eq.second.kind, thisIsFirst: true } };
      }
      if (step !== undefined) break;
    }
    step ??= { kind: kinds.find((k) => !bound.has(k)) as string, via: null };
    bound.add(step.kind);
    steps.push(step);
  }
  return steps;
}

/** Shared context of one join evaluation. */
export interface JoinRun {
  readonly join: JoinSpec;
  readonly kinds: readonly string[];
  /** Kinds in canonical-JSON key order, to compose compound keys without re-serialising. */
  readonly sortedKinds: readonly string[];
  readonly indexes: ReadonlyMap<string, KindIndex>;
  readonly opts: EvalOptions;
}

type Partial = Map<string, JoinRow>;

function compound(run: JoinRun, bound: Partial): { key: string; doc: Doc } {
  const doc: Doc = {};
  for (const k of run.kinds) doc[k] = (bound.get(k) as JoinRow).doc;
  // The canonical JSON of the compound document, assembled from its parts' keys.
  const parts: string[] = ['{'];
  for (const k of run.sortedKinds)
    parts.push(parts.length === 1 ? '' : ',', JSON.stringify(k), ':', (bound.get(k) as JoinRow).key);
  parts.push('}');
  const key = parts.join('');
  return { key, doc };
}

/**
 * Adds to `out` every joined tuple made of one row from `rows` (all of kind `start`) and one row
 * of each other kind from the indexes, with multiplicity the product of the rows' counts.
 */
export function extendJoin(
  run: JoinRun,
  start: string,
  rows: Iterable<JoinRow>,
  steps: readonly Step[],
  out: ZSet,
): void {
  for (const row of rows) {
    let partials: Array<{ bound: Partial; count: number }> = [{ bound: new Map([[start, row]]), count: row.count }];
    for (const step of steps) {
      const index = run.indexes.get(step.kind) as KindIndex;
      const next: typeof partials = [];
      for (const p of partials) {
        const via = step.via;
        const cands =
          via === null
            ? index.rows.values()
            : index.candidates(via.eq, (p.bound.get(via.from) as JoinRow).keys.get(via.eq) ?? null, via.thisIsFirst);
        for (const r of cands) {
          if (r.count === 0) continue;
          next.push({ bound: new Map(p.bound).set(step.kind, r), count: p.count * r.count });
        }
      }
      partials = next;
      if (partials.length === 0) break;
    }
    for (const p of partials) {
      if (p.bound.size !== run.kinds.length) continue;
      const c = compound(run, p.bound);
      if (joinMatches(run.join, c.doc, run.opts)) out.add(c.key, c.doc, p.count);
    }
  }
}
