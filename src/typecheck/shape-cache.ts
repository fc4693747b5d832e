// Manifest templates' shapes (skeleton and its parsed YAML) kept by the template's text across
// checks: a FlowSource's drift check validates its last applied commit again every interval, and
// the webhook, `flowops diff` and the preview see the same Flows again, so most manifests a check
// reads were parsed by an earlier one. Parsing the skeleton is the largest part of the type
// check's cost. Shapes are only read after they are made, so one can serve every check.
import { LRUCache } from 'lru-cache';
import type { Node } from '../template/ast.js';
import { manifestShape, type ManifestShape } from './check-manifest.js';

/** By the templates' total length (a shape takes some ten times its text): a few thousand manifests. */
const MAX_CHARS = 4 * 1024 * 1024;

const shapes = new LRUCache<string, ManifestShape>({
  maxSize: MAX_CHARS,
  sizeCalculation: (_shape, text) => Math.max(1, text.length),
});

/** The shape of the manifest template `text`, parsed as `nodes`. */
export function cachedManifestShape(text: string, nodes: readonly Node[]): ManifestShape {
  let shape = shapes.get(text);
  if (!shape) {
    shape = manifestShape(nodes);
    // A template longer than the whole cache is parsed each time rather than evicting everything.
    if (text.length < MAX_CHARS / 8) shapes.set(text, shape);
  }
  return shape;
}
