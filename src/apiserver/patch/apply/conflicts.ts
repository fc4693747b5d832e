import { ApplyConflictError, type ApplyConflict } from './errors.js';
import { pathToString, type FieldSet } from './fieldpath.js';
import { describeManager, managerSortKey, type Manager } from './managed-fields.js';

/**
 * Throws when `changed` touches fields other managers own. `allowed` fields
 * (kubectl's last-applied set) are taken over silently instead.
 */
export function assertNoConflicts(others: readonly Manager[], changed: FieldSet, allowed: FieldSet | undefined): void {
  const blocking = others
    .map((m) => {
      const fields = m.set.intersection(changed);
      return { manager: m, fields: allowed ? fields.difference(allowed) : fields };
    })
    .filter((c) => !c.fields.isEmpty());
  if (blocking.length > 0) throw conflictError(blocking);
}

/**
 * Builds the error with the real server's wording (getConflictMessage in
 * k8s.io/apiserver fieldmanager): one conflict on a single line, several grouped
 * per manager, managers sorted by their identifier.
 */
function conflictError(found: ReadonlyArray<{ manager: Manager; fields: FieldSet }>): ApplyConflictError {
  const groups = [...found].sort((a, b) => {
    const ka = managerSortKey(a.manager);
    const kb = managerSortKey(b.manager);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
  const conflicts: ApplyConflict[] = [];
  const lines: string[] = [];
  for (const { manager, fields } of groups) {
    const who = describeManager(manager);
    lines.push(`conflicts with ${who}:`);
    for (const path of fields.paths()) {
      const field = pathToString(path);
      conflicts.push({ manager: manager.manager, field, message: `conflict with ${who}` });
      lines.push(`- ${field}`);
    }
  }
  const message =
    conflicts.length === 1
      ? `Apply failed with 1 conflict: ${conflicts[0]!.message}: ${conflicts[0]!.field}`
      : `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  return new ApplyConflictError(message, conflicts);
}
