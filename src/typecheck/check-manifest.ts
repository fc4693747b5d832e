// Checks a kubectl manifest template's objects against their kinds' schemas: unknown fields, wrong
// types (a literal, or a template value whose type is known), missing required fields, enums and
// patterns. A kind without a schema, a templated apiVersion or kind, or structure that is built
// from text (toYaml) is left alone: nothing is claimed about what cannot be known.

import { parseAllDocuments } from 'yaml';
import type { Node } from '../template/index.js';
import type { Findings } from './problems.js';
import type { SchemaRegistry } from './registry.js';
import {
  additional,
  child,
  kindOf,
  properties,
  requiredOf,
  type Schema,
  type SchemaKind,
  MAX_DEPTH,
} from './schema.js';
import { fastShape } from './fast-yaml.js';
import { skeletonOf, type Skeleton } from './skeleton.js';
import { didYouMean } from './suggest.js';
import type { Ty } from './types.js';
import {
  scalarAt,
  shapeOfDocuments,
  type ShapeDoc,
  type ShapeMap,
  type ShapeNode,
  type ShapeScalar,
} from './yaml-shape.js';

type ValueKind = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'object' | 'array' | 'unknown';

interface Ctx {
  skel: Skeleton;
  types: ReadonlyMap<number, Ty>;
  findings: Findings;
  kind: string;
}

const ONLY_PLACEHOLDER = /^__ftc_(\d+)__$/;
const TEMPLATED = /__ftc_/;

/** A manifest template's skeleton and its YAML documents, parsed once for every check that reads them. */
export interface ManifestShape {
  skel: Skeleton;
  docs: ShapeDoc[];
}

export function manifestShape(nodes: readonly Node[]): ManifestShape {
  const skel = skeletonOf(nodes);
  const fast = fastShape(skel.text);
  if (fast) return { skel, docs: fast };
  // Only whether a document has errors is read, never their text: no line positions kept for them.
  const docs = parseAllDocuments(skel.text, { version: '1.1', uniqueKeys: true, prettyErrors: false });
  return { skel, docs: Array.isArray(docs) ? shapeOfDocuments(docs) : [] };
}

function appliedKind(doc: ShapeDoc): { apiVersion: string; kind: string } | undefined {
  if (!doc.ok || doc.contents?.kind !== 'map') return undefined;
  const apiVersion = scalarAt(doc.contents, 'apiVersion');
  const kind = scalarAt(doc.contents, 'kind');
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || TEMPLATED.test(`${apiVersion}${kind}`))
    return undefined;
  return { apiVersion, kind };
}

export function checkManifest(
  shape: ManifestShape,
  types: ReadonlyMap<number, Ty>,
  registry: SchemaRegistry,
  findings: Findings,
): void {
  for (const doc of shape.docs) {
    const k = appliedKind(doc);
    const schema = k && registry.schemaOf(k.apiVersion, k.kind);
    if (!k || !schema || doc.contents?.kind !== 'map') continue;
    checkNode(doc.contents, schema, null, { skel: shape.skel, types, findings, kind: k.kind }, 0, doc.contents.at);
  }
}

/** The kinds a manifest template applies, for `.Children.<Kind>`. */
export function manifestKinds(shape: ManifestShape): Array<{ apiVersion: string; kind: string }> {
  return shape.docs.flatMap((d) => appliedKind(d) ?? []);
}

function at(ctx: Ctx, offset: number): number {
  return ctx.skel.sourceOffset(offset);
}

/**
 * Where a node is inside its object: a list from the node up to the root, written out only when a
 * problem is reported (a path string per node walked costs more than the rest of the walk).
 */
interface At {
  parent: At | null;
  /** A field name, or an item's index. */
  key: string | number;
}

function formatAt(path: At | null): string {
  if (!path) return '';
  const parent = formatAt(path.parent);
  if (typeof path.key === 'number') return `${parent}[${path.key}]`;
  return parent ? `${parent}.${path.key}` : path.key;
}

function where(ctx: Ctx, path: At | null): string {
  return path ? `${ctx.kind} ${formatAt(path)}` : ctx.kind;
}

function checkNode(
  node: ShapeNode | null,
  schema: Schema,
  path: At | null,
  ctx: Ctx,
  depth: number,
  keyOffset: number,
): void {
  if (!node || depth > MAX_DEPTH) return;
  const expected = kindOf(schema);
  if (expected === 'unknown') return;
  if (node.kind === 'map') {
    if (expected !== 'object') return mismatch(ctx, node.at, path, expected, 'object');
    return checkMap(node, schema, path, ctx, depth, keyOffset);
  }
  if (node.kind === 'seq') {
    if (expected !== 'array') return mismatch(ctx, node.at, path, expected, 'array');
    const items = child(schema, schema.node.items);
    if (!items) return;
    node.items.forEach((item, i) => {
      if (item && item.kind !== 'other') checkNode(item, items, { parent: path, key: i }, ctx, depth + 1, item.at);
    });
    return;
  }
  if (node.kind === 'scalar') checkScalar(node, schema, expected, path, ctx);
}

function checkMap(node: ShapeMap, schema: Schema, path: At | null, ctx: Ctx, depth: number, keyOffset: number): void {
  const props = properties(schema);
  const extra = additional(schema);
  const seen = new Set<string>();
  let open = false;
  for (const pair of node.pairs) {
    if (pair.key?.kind !== 'scalar') {
      open = true;
      continue;
    }
    const key = String(pair.key.value);
    const keyAt = pair.key.at;
    if (TEMPLATED.test(key)) {
      // A key made by a template, or structure inserted as text: any field may be set by it.
      open = true;
      continue;
    }
    seen.add(key);
    const sub: At = { parent: path, key };
    const value = pair.value;
    if (Object.hasOwn(props, key)) {
      const s = child(schema, props[key]);
      if (s) checkNode(value, s, sub, ctx, depth + 1, keyAt);
    } else if (extra === null) {
      if (path === null && key === 'status') continue;
      ctx.findings.error(at(ctx, keyAt), `${where(ctx, sub)}: unknown field${didYouMean(key, Object.keys(props))}`);
    } else if (extra !== 'any') {
      checkNode(value, extra, sub, ctx, depth + 1, keyAt);
    }
  }
  if (open || ctx.skel.partial) return;
  for (const name of requiredOf(schema)) {
    if (!seen.has(name))
      ctx.findings.error(at(ctx, keyOffset), `${where(ctx, { parent: path, key: name })}: required field is missing`);
  }
}

function literalKind(v: unknown): ValueKind {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'bigint') return 'integer';
  return 'unknown';
}

function fits(expected: SchemaKind, got: ValueKind): boolean {
  if (got === 'unknown' || got === 'null' || expected === 'unknown') return true;
  if (expected === 'number') return got === 'integer' || got === 'number';
  return expected === got;
}

const article = (k: string): string => (/^[aeiou]/.test(k) ? `an ${k}` : `a ${k}`);

function mismatch(ctx: Ctx, offset: number, path: At | null, expected: SchemaKind, got: ValueKind, detail = ''): void {
  const shownGot = got === 'object' ? 'a mapping' : got === 'array' ? 'a list' : article(got);
  const shownWant = expected === 'object' ? 'a mapping' : expected === 'array' ? 'a list' : article(expected);
  ctx.findings.error(at(ctx, offset), `${where(ctx, path)}: expected ${shownWant}, got ${shownGot}${detail}`);
}

function checkScalar(node: ShapeScalar, schema: Schema, expected: SchemaKind, path: At | null, ctx: Ctx): void {
  const offset = node.at;
  const source = node.source;
  const whole = node.plain ? ONLY_PLACEHOLDER.exec(source) : null;
  if (whole) {
    const slot = ctx.skel.slots[Number(whole[1])];
    if (!slot || slot.raw) return;
    const ty = ctx.types.get(slot.pos);
    const got: ValueKind = ty ? ty.kind : 'unknown';
    if (!fits(expected, got)) mismatch(ctx, offset, path, expected, got, ' from the template');
    return;
  }
  if (TEMPLATED.test(source)) {
    // Text around a template value: a string whatever the value is.
    for (const m of source.matchAll(/__ftc_(\d+)__/g)) {
      const slot = ctx.skel.slots[Number(m[1])];
      const ty = slot && !slot.raw ? ctx.types.get(slot.pos) : undefined;
      if (ty && (ty.kind === 'object' || ty.kind === 'array')) {
        ctx.findings.error(
          slot ? slot.pos : at(ctx, offset),
          `${where(ctx, path)}: prints ${ty.kind === 'object' ? 'a map' : 'a list'} as text inside a string`,
        );
      }
    }
    if (!fits(expected, 'string')) mismatch(ctx, offset, path, expected, 'string', ' (text around a template value)');
    return;
  }
  const value: unknown = node.value;
  const got = literalKind(value);
  if (!fits(expected, got)) return mismatch(ctx, offset, path, expected, got, ` (${JSON.stringify(value)})`);
  const allowed = schema.node.enum;
  if (Array.isArray(allowed) && got !== 'null' && !allowed.some((a) => a === value)) {
    ctx.findings.error(
      at(ctx, offset),
      `${where(ctx, path)}: expected one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}, ` +
        `got ${JSON.stringify(value)}`,
    );
    return;
  }
  const pattern = schema.node.pattern;
  if (typeof pattern === 'string' && typeof value === 'string') {
    const re = patternOf(pattern);
    if (re && !re.test(value))
      ctx.findings.error(
        at(ctx, offset),
        `${where(ctx, path)}: ${JSON.stringify(value)} does not match the pattern ${pattern}`,
      );
  }
}

/** Schemas' patterns compiled once: the same few come up in every manifest of a kind. */
const patterns = new Map<string, RegExp | null>();
const MAX_PATTERNS = 1000;

function patternOf(pattern: string): RegExp | undefined {
  let re = patterns.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(pattern, 'u');
    } catch {
      // A pattern JavaScript cannot read says nothing here.
      re = null;
    }
    if (patterns.size >= MAX_PATTERNS) patterns.clear();
    patterns.set(pattern, re);
  }
  return re ?? undefined;
}
