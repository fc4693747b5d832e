// A fast path for the block YAML that manifest skeletons are written in: mappings and sequences by
// indentation, one-line plain and quoted scalars, one-line flow collections, full-line comments and
// `---`. It gives the same shape as the `yaml` library (YAML 1.1, unique keys) or declines, and the
// caller parses with the library: anything it does not fully understand (anchors, tags, block or
// multi-line scalars, escapes, comments after a value, odd indentation, a duplicate key) declines.
// fast-yaml.test.ts checks it against the library on generated documents.

import { isScalar, Schema } from 'yaml';
import type { ShapeDoc, ShapeMap, ShapeNode, ShapePair, ShapeScalar, ShapeSeq } from './yaml-shape.js';

/** Thrown inside the parser only: the text is left to the `yaml` library. */
class Declined extends Error {}

const decline = (): never => {
  throw new Declined('declined');
};

interface Line {
  indent: number;
  /** Offset of the first non-space character. */
  start: number;
  /** Offset after the last non-space character. */
  end: number;
  /** Offset of the line's end, after any trailing spaces: where the library puts an empty value. */
  rawEnd: number;
}

/** Characters the fast path never reads its way through (tabs, CR, BOM, controls, odd line breaks). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters the fast path must refuse
const UNSUPPORTED_CHARS = /[\u0000-\u0009\u000b-\u001f\u007f\u0085\u2028\u2029\ufeff]/;
/** A plain scalar may not start with these (YAML indicators). */
const INDICATOR_START = new Set([...',[]{}#&*!|>\'"%@`']);
/** …nor with these followed by a space or the end. */
const INDICATOR_IF_SPACED = new Set(['-', '?', ':']);
const MAX_KEY = 1000;

// The tags the library resolves a plain scalar with under `version: '1.1'`, tried in its order.
const SCALAR_TAGS = new Schema({ schema: 'yaml-1.1' }).tags.flatMap((t) =>
  !t.collection && t.default === true && t.test ? [{ test: t.test, resolve: t.resolve }] : [],
);
const RESOLVE_OPTIONS = { intAsBigInt: false } as const;

/** Resolved primitives by their text: manifests repeat the same keys and values (a Date is not kept). */
const resolved = new Map<string, string | number | boolean | null>();
const MAX_RESOLVED = 10_000;

function resolvePlain(source: string): unknown {
  const hit = resolved.get(source);
  if (hit !== undefined) return hit;
  const value = resolveByTags(source);
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    if (resolved.size >= MAX_RESOLVED) resolved.clear();
    resolved.set(source, value);
  }
  return value;
}

function resolveByTags(source: string): unknown {
  for (const tag of SCALAR_TAGS) {
    if (!tag.test.test(source)) continue;
    let failed = false;
    const value = tag.resolve(source, () => (failed = true), RESOLVE_OPTIONS);
    if (failed) decline();
    return isScalar(value) ? value.value : value;
  }
  return source;
}

function plainScalar(source: string, at: number): ShapeScalar {
  const first = source[0];
  if (first === undefined || INDICATOR_START.has(first)) decline();
  if (first !== undefined && INDICATOR_IF_SPACED.has(first) && (source.length === 1 || source[1] === ' ')) decline();
  if (source.includes('#') || source.includes(': ') || source.endsWith(':') || source.endsWith(' ')) decline();
  return { kind: 'scalar', at, value: resolvePlain(source), source, plain: true };
}

function quoted(source: string, at: number): ShapeScalar {
  return { kind: 'scalar', at, value: source, source, plain: false };
}

/** A quoted scalar starting at `s` and closing before `e`, on one line, without escapes. */
function quotedAt(t: string, s: number, e: number): { scalar: ShapeScalar; end: number } {
  const q = t[s];
  let out = '';
  for (let i = s + 1; i < e; i++) {
    const c = t[i];
    if (c === '\\' && q === '"') decline();
    if (c !== q) {
      out += c;
      continue;
    }
    if (q === "'" && t[i + 1] === "'") {
      out += "'";
      i++;
      continue;
    }
    return { scalar: quoted(out, s), end: i + 1 };
  }
  return decline();
}

class FastParser {
  private lines: Line[] = [];

  constructor(private readonly text: string) {}

  /** One document's lines (no blank or comment lines). */
  document(lines: Line[]): ShapeDoc {
    this.lines = lines;
    const first = lines[0];
    if (!first) return decline();
    const [node, next] = this.node(0, -1);
    if (next !== lines.length) decline();
    return { ok: true, contents: node };
  }

  private isSeqItem(l: Line): boolean {
    return this.text[l.start] === '-' && (l.start + 1 === l.end || this.text[l.start + 1] === ' ');
  }

  /** The key and the offset after its `:` when line `l` is a mapping entry, else undefined. */
  private keyOf(l: Line): { key: ShapeScalar; after: number } | undefined {
    const t = this.text;
    const ch = t[l.start];
    if (ch === '{' || ch === '[') return undefined;
    if (ch === '"' || ch === "'") {
      const q = quotedAt(this.text, l.start, l.end);
      if (t[q.end] !== ':') return undefined;
      if (q.end + 1 !== l.end && t[q.end + 1] !== ' ') decline();
      return { key: q.scalar, after: q.end + 1 };
    }
    let colon = t.indexOf(': ', l.start);
    if (colon < 0 || colon >= l.end) colon = t[l.end - 1] === ':' ? l.end - 1 : -1;
    if (colon < 0) return undefined;
    const source = t.slice(l.start, colon);
    if (source.length > MAX_KEY) decline();
    return { key: plainScalar(source, l.start), after: colon + 1 };
  }

  /** The value written on one line from `s` to `e`. */
  private inline(s: number, e: number): ShapeNode {
    const t = this.text;
    const ch = t[s];
    if (ch === '"' || ch === "'") {
      const q = quotedAt(this.text, s, e);
      if (q.end !== e) decline();
      return q.scalar;
    }
    if (ch === '{' || ch === '[') {
      const flow = new FlowReader(t, s, e);
      const node = flow.node();
      if (flow.pos !== e) decline();
      return node;
    }
    return plainScalar(t.slice(s, e), s);
  }

  private indentAt(i: number): number {
    return this.lines[i]?.indent ?? -1;
  }

  /** The block node starting at line `i`, inside a parent indented `parent`: [node, next line]. */
  private node(i: number, parent: number): [ShapeNode, number] {
    const l = this.lines[i];
    if (!l) return decline();
    if (this.isSeqItem(l)) return this.seq(i, l.indent);
    if (this.keyOf(l)) return this.map(i, l.indent);
    const node = this.inline(l.start, l.end);
    // A following line indented deeper would continue a multi-line scalar.
    if (this.indentAt(i + 1) > parent) decline();
    return [node, i + 1];
  }

  private map(i: number, indent: number): [ShapeMap, number] {
    const first = this.lines[i];
    const map: ShapeMap = { kind: 'map', at: first ? first.start : 0, pairs: [] };
    const seen = new Set<string>();
    while (i < this.lines.length) {
      const l = this.lines[i];
      if (!l || l.indent < indent) break;
      if (l.indent > indent) decline();
      const entry = this.keyOf(l) ?? decline();
      const name = String(entry.key.value);
      if (seen.has(name) || name === '<<') decline();
      seen.add(name);
      let at = entry.after;
      while (at < l.end && this.text[at] === ' ') at++;
      const pair: ShapePair = { key: entry.key, value: null };
      if (at < l.end) {
        pair.value = this.inline(at, l.end);
        i++;
        if (this.indentAt(i) > indent) decline();
      } else {
        i++;
        const next = this.lines[i];
        if (next && next.indent > indent) [pair.value, i] = this.node(i, indent);
        else if (next && next.indent === indent && this.isSeqItem(next)) [pair.value, i] = this.seq(i, indent);
        else pair.value = { kind: 'scalar', at: l.rawEnd, value: null, source: '', plain: true };
      }
      map.pairs.push(pair);
    }
    return [map, i];
  }

  private seq(i: number, indent: number): [ShapeSeq, number] {
    const first = this.lines[i];
    const seq: ShapeSeq = { kind: 'seq', at: first ? first.start : 0, items: [] };
    while (i < this.lines.length) {
      const l = this.lines[i];
      if (!l || l.indent !== indent || !this.isSeqItem(l)) break;
      let at = l.start + 1;
      while (at < l.end && this.text[at] === ' ') at++;
      if (at >= l.end) {
        i++;
        if (this.indentAt(i) > indent) {
          const [item, next] = this.node(i, indent);
          seq.items.push(item);
          i = next;
        } else seq.items.push({ kind: 'scalar', at: l.rawEnd, value: null, source: '', plain: true });
        continue;
      }
      // The item's content as a line of its own, indented where it starts (a compact mapping).
      const inner: Line = { indent: indent + (at - l.start), start: at, end: l.end, rawEnd: l.rawEnd };
      if (this.isSeqItem(inner)) decline();
      if (this.keyOf(inner)) {
        const saved = this.lines[i];
        this.lines[i] = inner;
        const [item, next] = this.map(i, inner.indent);
        if (saved) this.lines[i] = saved;
        seq.items.push(item);
        i = next;
        continue;
      }
      seq.items.push(this.inline(at, l.end));
      i++;
      if (this.indentAt(i) > indent) decline();
    }
    return [seq, i];
  }
}

/** A flow collection written on one line: `{ a: b, c: "d" }`, `[1, 2]`, nested. */
class FlowReader {
  constructor(
    private readonly text: string,
    public pos: number,
    private readonly end: number,
  ) {}

  private spaces(): void {
    while (this.pos < this.end && this.text[this.pos] === ' ') this.pos++;
  }

  private expect(c: string): void {
    if (this.text[this.pos] !== c) decline();
    this.pos++;
  }

  node(): ShapeNode {
    this.spaces();
    const t = this.text;
    const s = this.pos;
    const ch = t[s];
    if (ch === '{') return this.map();
    if (ch === '[') return this.seq();
    if (ch === '"' || ch === "'") {
      const q = quotedAt(t, s, this.end);
      this.pos = q.end;
      return q.scalar;
    }
    let e = s;
    while (e < this.end && !',[]{}:'.includes(t[e] ?? ',')) e++;
    if (t[e] === '[' || t[e] === '{') decline();
    this.pos = e;
    let last = e;
    while (last > s && t[last - 1] === ' ') last--;
    return plainScalar(t.slice(s, last), s);
  }

  private map(): ShapeMap {
    const map: ShapeMap = { kind: 'map', at: this.pos, pairs: [] };
    const seen = new Set<string>();
    this.pos++;
    this.spaces();
    if (this.text[this.pos] === '}') {
      this.pos++;
      return map;
    }
    for (;;) {
      const key = this.node();
      if (key.kind !== 'scalar') return decline();
      const name = String(key.value);
      if (seen.has(name) || name === '<<') decline();
      seen.add(name);
      this.expect(':');
      this.expect(' ');
      const value = this.node();
      map.pairs.push({ key, value });
      this.spaces();
      if (this.text[this.pos] === '}') {
        this.pos++;
        return map;
      }
      this.expect(',');
      this.spaces();
      if (this.text[this.pos] === '}') decline();
    }
  }

  private seq(): ShapeSeq {
    const seq: ShapeSeq = { kind: 'seq', at: this.pos, items: [] };
    this.pos++;
    this.spaces();
    if (this.text[this.pos] === ']') {
      this.pos++;
      return seq;
    }
    for (;;) {
      seq.items.push(this.node());
      this.spaces();
      if (this.text[this.pos] === ']') {
        this.pos++;
        return seq;
      }
      this.expect(',');
      this.spaces();
      if (this.text[this.pos] === ']') decline();
    }
  }
}

/** The text's lines split into documents at `---`; blank and full-line comment lines left out. */
function documentsOf(text: string): Line[][] {
  const docs: Line[][] = [];
  let current: Line[] = [];
  let separators = 0;
  for (let begin = 0; begin <= text.length; ) {
    let to = text.indexOf('\n', begin);
    if (to < 0) to = text.length;
    let start = begin;
    while (start < to && text[start] === ' ') start++;
    let end = to;
    while (end > start && text[end - 1] === ' ') end--;
    const indent = start - begin;
    begin = to + 1;
    if (start === end || text[start] === '#') continue;
    if (indent === 0 && text.startsWith('---', start)) {
      if (end - start !== 3) decline();
      // A `---` first starts the first document; an empty document anywhere else is the library's.
      if (current.length) docs.push(current);
      else if (docs.length > 0 || separators > 0) decline();
      current = [];
      separators++;
      continue;
    }
    if (indent === 0 && text.startsWith('...', start)) decline();
    current.push({ indent, start, end, rawEnd: to });
  }
  if (current.length) docs.push(current);
  else if (docs.length > 0 || separators > 0) decline();
  return docs;
}

/** The documents of `text` as the `yaml` library would parse them, or null to have it parse them. */
export function fastShape(text: string): ShapeDoc[] | null {
  if (UNSUPPORTED_CHARS.test(text)) return null;
  try {
    const docs = documentsOf(text);
    if (docs.length === 0) return null;
    const parser = new FastParser(text);
    return docs.map((lines) => parser.document(lines));
  } catch (err) {
    if (err instanceof Declined) return null;
    throw err;
  }
}
