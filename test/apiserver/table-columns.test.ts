import { describe, expect, it } from 'vitest';
import { BUILTIN_TYPES } from '../../src/apiserver/registry/builtins.js';
import { builtinColumns } from '../../src/apiserver/table/builtin-columns.js';

describe('built-in table columns', () => {
  // Create-only kinds (bindings, the reviews) are never listed, so they have no table.
  const listed = BUILTIN_TYPES.filter((t) => !t.verbs || t.verbs.includes('list'));
  it.each(listed.map((t) => [`${t.group}/${t.kind}`, t] as const))(
    "%s has kube-apiserver's column definitions and a cell for each",
    (_key, t) => {
      const columns = builtinColumns(t.group, t.kind);
      expect(columns, 'run scripts/gen-table-columns.ts when a kind is added').toBeDefined();
      expect(columns!.some((c) => c.format === 'name')).toBe(true);
    },
  );
});
