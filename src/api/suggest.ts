import { crdSchemaOf } from './crd.js';
import { flowSchema } from './flow.js';
import type { FieldPath } from './problem.js';
import type { StructuralSchema } from './structural.js';

/**
 * "Did you mean" for unknown fields. The candidates come from the flattened CRD schema, which
 * holds every field any step type has: a `manifest:` typo is worth a hint even though zod only
 * says the key is not allowed.
 */

let schema: StructuralSchema | undefined;

function schemaAt(path: FieldPath): StructuralSchema | undefined {
  schema ??= crdSchemaOf(flowSchema, '');
  let node: StructuralSchema | undefined = schema;
  for (const seg of path)
    node = typeof seg === 'number' ? node?.items : (node?.properties?.[seg] ?? node?.additionalProperties);
  return node;
}

/** Edit distance, capped: only near misses are suggested. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(
        row[j]! + 1,
        row[j - 1]! + 1,
        prev + (a[i - 1]!.toLowerCase() === b[j - 1]!.toLowerCase() ? 0 : 1),
      );
      prev = row[j]!;
      row[j] = next;
    }
  }
  return row[b.length]!;
}

/** The known field of the object at `parent` closest to `key`, if it is a plausible typo. */
export function suggestField(parent: FieldPath, key: string): string | undefined {
  const known = Object.keys(schemaAt(parent)?.properties ?? {});
  let best: string | undefined;
  let bestDistance = Math.min(2, Math.floor(key.length / 3)) + 1;
  for (const name of known) {
    const d = distance(key, name);
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return best;
}
