import type { JsonObject, JsonValue } from '../registry/types.js';
import { BUILTIN_CELLS } from './builtin-cells.js';
import { GROUP_CELLS } from './group-cells.js';
import DEFINITIONS from './builtin-column-definitions.json' with { type: 'json' };

export interface Column {
  name: string;
  type: string;
  format: string;
  priority: number;
  description: string;
  cell(obj: JsonObject): JsonValue;
}

interface Definition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

const nameCell = (o: JsonObject): JsonValue => String((o.metadata as JsonObject | undefined)?.name ?? '');

/**
 * A built-in kind's columns: kube-apiserver's definitions (scripts/gen-table-columns.ts wrote
 * them from a real server) with the cells of builtin-cells.ts; undefined for a kind not served.
 */
export function builtinColumns(group: string, kind: string): Column[] | undefined {
  const key = `${group}/${kind}`;
  const defs = (DEFINITIONS as Record<string, Definition[]>)[key];
  if (!defs) return undefined;
  const cells = BUILTIN_CELLS[key] ?? GROUP_CELLS[key] ?? {};
  return defs.map((d) => {
    const cell = cells[d.name] ?? (d.format === 'name' ? nameCell : undefined);
    // Invariant: every generated column has a cell (test/apiserver/table-columns.test.ts reads them all).
    if (!cell) throw new Error(`table column "${d.name}" of ${key} has no cell in builtin-cells.ts`);
    return { ...d, cell };
  });
}

/** The Name column as kube-apiserver defines it, for custom resources. */
export function nameColumn(): Column {
  const def = (DEFINITIONS as Record<string, Definition[]>)['/ConfigMap']!.find((d) => d.format === 'name')!;
  return { ...def, cell: nameCell };
}
