import { ManagedFieldsError } from './errors.js';
import { isJsonObject, isPrimitive, type JsonObject, type JsonValue } from '../strategic/json.js';

// A path element is kept as its FieldsV1 token, which is already a canonical
// string: `f:<field>`, `k:<json of the key fields>`, `v:<json value>`, `i:<index>`.
export type Token = string;
export type FieldPath = readonly Token[];

export const fieldToken = (name: string): Token => `f:${name}`;
export const valueToken = (v: JsonValue): Token => `v:${JSON.stringify(v)}`;
export const indexToken = (i: number): Token => `i:${i}`;

/** Key fields are sorted by name, as structured-merge-diff does. */
export function keyToken(fields: Readonly<Record<string, JsonValue>>): Token {
  const sorted: JsonObject = {};
  for (const name of Object.keys(fields).sort()) sorted[name] = fields[name]!;
  return `k:${JSON.stringify(sorted)}`;
}

const RANK: Readonly<Record<string, number>> = { f: 0, k: 1, v: 2, i: 3 };

/** structured-merge-diff's order: field names, then keys, then values, then indexes. */
export function compareTokens(a: Token, b: Token): number {
  const ra = RANK[a[0]!] ?? 4;
  const rb = RANK[b[0]!] ?? 4;
  if (ra !== rb) return ra - rb;
  if (a[0] === 'i') return Number(a.slice(2)) - Number(b.slice(2));
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `.spec.containers[name="nginx"].image`, the form conflict messages use. */
export function pathToString(path: FieldPath): string {
  return path.map(tokenToString).join('');
}

function tokenToString(token: Token): string {
  const body = token.slice(2);
  switch (token[0]) {
    case 'f':
      return `.${body}`;
    case 'k': {
      const fields = JSON.parse(body) as JsonObject;
      return `[${Object.keys(fields)
        .map((k) => `${k}=${JSON.stringify(fields[k])}`)
        .join(',')}]`;
    }
    case 'v':
      return `[=${body}]`;
    default:
      return `[${body}]`;
  }
}

/**
 * A set of field paths stored as a trie, like fieldpath.Set: `members` are the
 * paths ending at this level, `children` hold longer paths. A path can be both
 * a member and a prefix, which FieldsV1 writes as `".": {}`.
 */
export class FieldSet {
  private readonly members = new Set<Token>();
  private readonly children = new Map<Token, FieldSet>();

  insert(path: FieldPath): void {
    if (path.length === 0) return;
    let node: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) node = node.childOrCreate(path[i]!);
    node.members.add(path[path.length - 1]!);
  }

  has(path: FieldPath): boolean {
    if (path.length === 0) return false;
    let node: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1 && node; i++) node = node.children.get(path[i]!);
    return node?.members.has(path[path.length - 1]!) ?? false;
  }

  hasMember(token: Token): boolean {
    return this.members.has(token);
  }

  child(token: Token): FieldSet | undefined {
    return this.children.get(token);
  }

  /** Owns the element itself or anything inside it. */
  touches(token: Token): boolean {
    return this.members.has(token) || !(this.children.get(token)?.isEmpty() ?? true);
  }

  tokens(): Token[] {
    return [...new Set([...this.members, ...this.children.keys()])].sort(compareTokens);
  }

  isEmpty(): boolean {
    if (this.members.size > 0) return false;
    for (const c of this.children.values()) if (!c.isEmpty()) return false;
    return true;
  }

  equals(other: FieldSet): boolean {
    return this.difference(other).isEmpty() && other.difference(this).isEmpty();
  }

  union(other: FieldSet): FieldSet {
    return this.combine(other, (a, b) => a || b);
  }

  intersection(other: FieldSet): FieldSet {
    return this.combine(other, (a, b) => a && b);
  }

  difference(other: FieldSet): FieldSet {
    return this.combine(other, (a, b) => a && !b);
  }

  private combine(other: FieldSet, keep: (inThis: boolean, inOther: boolean) => boolean): FieldSet {
    const out = new FieldSet();
    for (const t of new Set([...this.members, ...other.members])) {
      if (keep(this.members.has(t), other.members.has(t))) out.members.add(t);
    }
    for (const t of new Set([...this.children.keys(), ...other.children.keys()])) {
      const merged = (this.children.get(t) ?? EMPTY).combine(other.children.get(t) ?? EMPTY, keep);
      if (!merged.isEmpty()) out.children.set(t, merged);
    }
    return out;
  }

  /** Member paths: this level's members first, then each child's, in token order. */
  paths(prefix: FieldPath = []): Token[][] {
    const out: Token[][] = [...this.members].sort(compareTokens).map((t) => [...prefix, t]);
    for (const t of [...this.children.keys()].sort(compareTokens))
      out.push(...this.children.get(t)!.paths([...prefix, t]));
    return out;
  }

  toFieldsV1(): JsonObject {
    const out: JsonObject = {};
    for (const t of this.tokens()) {
      const child = this.children.get(t);
      const inner = child && !child.isEmpty() ? child.toFieldsV1() : {};
      out[t] = this.members.has(t) && Object.keys(inner).length > 0 ? { '.': {}, ...inner } : inner;
    }
    return out;
  }

  static fromFieldsV1(raw: unknown): FieldSet {
    const set = new FieldSet();
    set.load(raw, []);
    return set;
  }

  private load(raw: unknown, at: FieldPath): void {
    if (!isJsonObject(raw)) throw new ManagedFieldsError(`fieldsV1 at ${describePath(at)} must be an object`);
    for (const [token, inner] of Object.entries(raw)) {
      if (token === '.') {
        if (!isJsonObject(inner) || Object.keys(inner).length > 0)
          throw new ManagedFieldsError(`"." in fieldsV1 must be {}`);
        if (at.length === 0) throw new ManagedFieldsError('"." is not allowed at the root of fieldsV1');
        continue;
      }
      validateToken(token, at);
      const path = [...at, token];
      if (!isJsonObject(inner)) throw new ManagedFieldsError(`fieldsV1 at ${describePath(path)} must be an object`);
      const keys = Object.keys(inner);
      if (keys.length === 0 || keys.includes('.')) this.insert(path);
      if (keys.length > 0) this.load(inner, path);
    }
  }

  private childOrCreate(token: Token): FieldSet {
    let c = this.children.get(token);
    if (!c) {
      c = new FieldSet();
      this.children.set(token, c);
    }
    return c;
  }
}

const EMPTY = new FieldSet();

function describePath(path: FieldPath): string {
  return path.length === 0 ? 'the root' : JSON.stringify(path.join(''));
}

function validateToken(token: Token, at: FieldPath): void {
  const kind = token.slice(0, 2);
  const body = token.slice(2);
  let ok = false;
  if (kind === 'f:') ok = body.length > 0;
  else if (kind === 'i:') ok = /^\d+$/.test(body);
  else if (kind === 'k:' || kind === 'v:') {
    try {
      const parsed: unknown = JSON.parse(body);
      ok = kind === 'k:' ? isJsonObject(parsed) && Object.values(parsed).every(isPrimitive) : isPrimitive(parsed);
    } catch {
      ok = false;
    }
  }
  if (!ok) throw new ManagedFieldsError(`invalid fieldsV1 key ${JSON.stringify(token)} at ${describePath(at)}`);
}
