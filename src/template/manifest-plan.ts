// Parse cache for renderManifest (see manifest.ts for the placeholder scheme).
//
// When no toYaml/toJson output is spliced in, the rendered text is the author's structure plus
// placeholders, so two renders that produce the same text up to the nonce parse to the same tree.
// A Plan is that tree with each placeholder turned into a reference to "slot i" of the render, so
// later renders skip the YAML parser and only fill in values.
//
// A plan must give exactly what parsing would, so it is built from what the parser itself produced:
// the document is visited as renderManifest's own visit does, except that a whole PLAIN untagged
// scalar gets a TypedSlot marker instead of a value (only the AST knows PLAIN from quoted) and
// everything else keeps its placeholders; yaml's toJS then does aliases, merge keys and key
// stringification, and the resulting JS tree is compiled. Anything that would fail, or where toJS
// could treat a value differently from its placeholder, throws Unplannable: renderManifest then
// parses that text every time, so every error it reports still comes from its own path, except
// duplicate keys made by values, which instantiate checks in the order that path would.

import { isMap, isPair, isScalar, isSeq, type Document } from 'yaml';

export interface SlotValue {
  /** The typed value a whole plain scalar takes. */
  readonly value: unknown;
  /** The text used inside longer strings and keys. */
  readonly text: string;
}

/** Left in the AST, and so in toJS output, where a whole plain scalar takes a slot's typed value. */
class TypedSlot {
  constructor(readonly index: number) {}
}

/** lits[0] + text of slot ids[0] + lits[1] + ... */
interface Spliced {
  readonly kind: 'text';
  readonly lits: readonly string[];
  readonly ids: readonly number[];
}

interface Typed {
  readonly kind: 'typed';
  readonly index: number;
}

// `memo` >= 0 marks a collection toJS returned more than once (an alias): every render must hand
// out one shared instance there too, as parsing does, including the cycles aliases can build.
interface MapPlan {
  readonly kind: 'map';
  readonly keys: (string | Spliced)[];
  readonly values: PlanNode[];
  memo: number;
}

interface SeqPlan {
  readonly kind: 'seq';
  readonly items: PlanNode[];
  memo: number;
}

type Literal = string | number | boolean | bigint | null | undefined;
type PlanNode = Literal | Spliced | Typed | MapPlan | SeqPlan;

/** One step of the duplicate-key check, for maps whose keys contain values. */
interface KeyCheck {
  readonly map: number;
  readonly key: string | Spliced;
}

export interface Plan {
  /** One per document that had contents. */
  readonly docs: readonly PlanNode[];
  /** In the order renderManifest's visit makes them, so the same duplicate is reported first. */
  readonly checks: readonly KeyCheck[];
  readonly maps: number;
  readonly memos: number;
}

/** The shape is outside what a plan reproduces exactly; the caller parses every time instead. */
class Unplannable extends Error {}

const MERGE_KEY = '<<';

export class PlanBuilder {
  private readonly docs: PlanNode[] = [];
  private readonly checks: KeyCheck[] = [];
  private maps = 0;
  private memos = 0;
  private readonly split: RegExp;
  private readonly whole: RegExp;

  /** `marker` is the nonce-bearing prefix of every placeholder of this render. */
  constructor(private readonly marker: string) {
    this.split = new RegExp(`${marker}(\\d+)__`);
    this.whole = new RegExp(`^${marker}(\\d+)__$`);
  }

  /** Plans one parsed, error-free document with contents. */
  addDocument(doc: Document.Parsed, toJS: (doc: Document.Parsed) => unknown): void {
    const keys = { merge: false, spliced: false };
    this.visit(doc.contents, keys);
    // A merged-in key never meets the duplicate check and does not overwrite keys set before the
    // `<<`, so a key from a value could collide with it differently on another render.
    if (keys.merge && keys.spliced) throw new Unplannable();
    let js: unknown;
    try {
      js = toJS(doc);
    } catch {
      // Which error toJS meets first can depend on values (a key reading `<<` becomes a merge), so
      // only renderManifest's own path reports it.
      throw new Unplannable();
    }
    this.docs.push(this.compile(js, new Map()));
  }

  finish(): Plan {
    return { docs: this.docs, checks: this.checks, maps: this.maps, memos: this.memos };
  }

  private visit(node: unknown, keys: { merge: boolean; spliced: boolean }): void {
    if (isScalar(node)) {
      if (typeof node.value !== 'string' || node.type !== 'PLAIN' || node.tag) return;
      const m = this.whole.exec(node.value);
      if (m) node.value = new TypedSlot(Number(m[1]));
    } else if (isMap(node)) {
      const spliced = node.items.some(
        (p) => isScalar(p.key) && typeof p.key.value === 'string' && p.key.value.includes(this.marker),
      );
      const map = spliced ? this.maps++ : -1;
      keys.spliced ||= spliced;
      const seen = new Set<string>();
      for (const pair of node.items) {
        const k = pair.key;
        // A collection or alias key is stringified by toJS from its values (typed, quoted as
        // YAML would), which a placeholder cannot stand in for.
        if (!isScalar(k)) throw new Unplannable();
        if (typeof k.value === 'symbol' || k.value === MERGE_KEY) keys.merge = true;
        // toJS turns an object-valued key (a !!timestamp, say) into a key its String() may not match.
        if (spliced && typeof k.value === 'object' && k.value !== null) throw new Unplannable();
        const key = String(k.value);
        if (map >= 0) {
          this.checks.push({ map, key: this.splice(key) });
        } else {
          // Keys without values collide on every render, so the caller's path reports it.
          if (seen.has(key)) throw new Unplannable();
          seen.add(key);
        }
        this.visit(pair.value, keys);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) this.visit(item, keys);
    } else if (isPair(node)) {
      // !!pairs / !!omap items: toJS stringifies their keys from the typed value.
      throw new Unplannable();
    }
  }

  private splice(s: string): string | Spliced {
    if (!s.includes(this.marker)) return s;
    const parts = s.split(this.split);
    const lits: string[] = [];
    const ids: number[] = [];
    for (const [j, p] of parts.entries()) {
      if (j % 2 === 0) lits.push(p);
      else ids.push(Number(p));
    }
    return { kind: 'text', lits, ids };
  }

  private compile(v: unknown, seen: Map<object, MapPlan | SeqPlan>): PlanNode {
    if (typeof v === 'string') return this.splice(v);
    if (v === null || v === undefined || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint')
      return v;
    if (v instanceof TypedSlot) return { kind: 'typed', index: v.index };
    if (typeof v !== 'object') throw new Unplannable();
    const prior = seen.get(v);
    if (prior) {
      if (prior.memo < 0) prior.memo = this.memos++;
      return prior;
    }
    const proto = Object.getPrototypeOf(v) as unknown;
    if (proto === Array.prototype) {
      const seq: SeqPlan = { kind: 'seq', items: [], memo: -1 };
      seen.set(v, seq);
      for (const item of v as unknown[]) seq.items.push(this.compile(item, seen));
      return seq;
    }
    // Map (!!omap), Set (!!set), Buffer (!!binary), Date (!!timestamp): not worth reproducing.
    if (proto !== Object.prototype) throw new Unplannable();
    const map: MapPlan = { kind: 'map', keys: [], values: [], memo: -1 };
    seen.set(v, map);
    for (const [k, item] of Object.entries(v)) {
      map.keys.push(this.splice(k));
      map.values.push(this.compile(item, seen));
    }
    return map;
  }
}

function join(s: Spliced, slots: readonly SlotValue[]): string {
  let out = s.lits[0] as string;
  for (let j = 0; j < s.ids.length; j++)
    out += (slots[s.ids[j] as number] as SlotValue).text + (s.lits[j + 1] as string);
  return out;
}

/**
 * This render's documents from a plan, as fresh objects. Null when a key from a value reads `<<`,
 * which the parser may treat as a merge: the caller then parses this render.
 */
export function instantiate(
  plan: Plan,
  slots: readonly SlotValue[],
  duplicate: (key: string) => never,
): unknown[] | null {
  if (plan.checks.length > 0) {
    const seen: (Set<string> | undefined)[] = new Array(plan.maps);
    for (const check of plan.checks) {
      const key = typeof check.key === 'string' ? check.key : join(check.key, slots);
      if (key === MERGE_KEY && typeof check.key !== 'string') return null;
      const set = (seen[check.map] ??= new Set());
      if (set.has(key)) duplicate(key);
      set.add(key);
    }
  }
  const made: unknown[] = plan.memos > 0 ? new Array(plan.memos) : [];
  const build = (p: PlanNode): unknown => {
    if (typeof p !== 'object' || p === null) return p;
    switch (p.kind) {
      case 'text':
        return join(p, slots);
      case 'typed':
        return (slots[p.index] as SlotValue).value;
      case 'seq': {
        if (p.memo >= 0 && made[p.memo] !== undefined) return made[p.memo];
        const arr: unknown[] = [];
        if (p.memo >= 0) made[p.memo] = arr;
        for (const item of p.items) arr.push(build(item));
        return arr;
      }
      case 'map': {
        if (p.memo >= 0 && made[p.memo] !== undefined) return made[p.memo];
        const obj: Record<string, unknown> = {};
        if (p.memo >= 0) made[p.memo] = obj;
        for (let j = 0; j < p.keys.length; j++) {
          const k = p.keys[j] as string | Spliced;
          const key = typeof k === 'string' ? k : join(k, slots);
          const value = build(p.values[j]);
          // As yaml's toJS does: `__proto__` (or any inherited name) stays an own data property.
          if (key in obj)
            Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
          else obj[key] = value;
        }
        return obj;
      }
    }
  };
  const out: unknown[] = [];
  for (const doc of plan.docs) {
    const value = build(doc);
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}
