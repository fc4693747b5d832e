// The parts of a parsed YAML document the manifest check reads: collections, scalars with their
// resolved value and where they start. Made either by the fast path (fast-yaml.ts) or from the
// `yaml` library's documents, so the check reads one shape whichever parsed the text.

import { isMap, isNode, isScalar, isSeq, type Document } from 'yaml';

export interface ShapeScalar {
  kind: 'scalar';
  /** Offset of the scalar's first character (its quote when quoted). */
  at: number;
  /** As the YAML 1.1 schema resolves it. */
  value: unknown;
  /** The scalar's text, unquoted. */
  source: string;
  plain: boolean;
}

export interface ShapePair {
  key: ShapeNode | null;
  value: ShapeNode | null;
}

export interface ShapeMap {
  kind: 'map';
  at: number;
  pairs: ShapePair[];
}

export interface ShapeSeq {
  kind: 'seq';
  at: number;
  items: Array<ShapeNode | null>;
}

/** An alias or anything else that is none of the above: the check claims nothing about it. */
export interface ShapeOther {
  kind: 'other';
  at: number;
}

export type ShapeNode = ShapeScalar | ShapeMap | ShapeSeq | ShapeOther;

export interface ShapeDoc {
  /** The document parsed without an error: only those are checked. */
  ok: boolean;
  contents: ShapeNode | null;
}

/** The scalar value of `key` in a mapping (what `YAMLMap.get` gives), or undefined. */
export function scalarAt(map: ShapeMap, key: string): unknown {
  const pair = map.pairs.find((p) => p.key?.kind === 'scalar' && p.key.value === key);
  return pair?.value?.kind === 'scalar' ? pair.value.value : undefined;
}

function fromNode(node: unknown): ShapeNode | null {
  if (node === null || node === undefined) return null;
  if (isMap(node))
    return {
      kind: 'map',
      at: node.range?.[0] ?? 0,
      pairs: node.items.map((p) => ({ key: fromNode(p.key), value: fromNode(p.value) })),
    };
  if (isSeq(node)) return { kind: 'seq', at: node.range?.[0] ?? 0, items: node.items.map(fromNode) };
  if (isScalar(node)) {
    const source = typeof node.source === 'string' ? node.source : String(node.value ?? '');
    return { kind: 'scalar', at: node.range?.[0] ?? 0, value: node.value, source, plain: node.type === 'PLAIN' };
  }
  return { kind: 'other', at: isNode(node) ? (node.range?.[0] ?? 0) : 0 };
}

/** The shape of documents the `yaml` library parsed. */
export function shapeOfDocuments(docs: readonly Document[]): ShapeDoc[] {
  return docs.map((d) => ({ ok: d.errors.length === 0, contents: fromNode(d.contents) }));
}
