import { RESERVED_STATUS_FIELDS, STATUS_FIELD } from './flow.js';
import type { FieldProblem } from './problem.js';
import { duplicateNameProblems, isRaw, variantProblems } from './step-rules.js';
import { scriptProblems } from './script-positions.js';
import { checkTemplate, templateProblems } from './step-templates.js';

/** The step lists of a Flow; each is checked on its own, as the engine runs each on its own. */
const STEP_LISTS = ['reconcile', 'onDelete', 'onError'] as const;

/** Problems the zod schema cannot express, found on the raw object so they add to zod's report. */
export function semanticProblems(flow: unknown): FieldProblem[] {
  const spec = isRaw(flow) ? flow.spec : undefined;
  if (!isRaw(spec)) return [];
  const out: FieldProblem[] = [];
  for (const list of STEP_LISTS) {
    const holder = spec[list];
    const steps = isRaw(holder) ? holder.steps : undefined;
    if (Array.isArray(steps)) out.push(...stepListProblems(steps, ['spec', list, 'steps']));
  }
  if (isRaw(spec.status)) out.push(...statusProblems(spec.status, spec.reconcile));
  return out;
}

/**
 * `spec.status`: each key becomes a field under the watched object's .status, so it must be a
 * plain field name FlowOps does not write itself; each template is rendered after every reconcile
 * step, so it may read any of their outputs.
 */
function statusProblems(status: Record<string, unknown>, reconcile: unknown): FieldProblem[] {
  const steps = isRaw(reconcile) && Array.isArray(reconcile.steps) ? reconcile.steps : [];
  const all = new Set(steps.flatMap((s) => (isRaw(s) && typeof s.name === 'string' ? [s.name] : [])));
  const out: FieldProblem[] = [];
  for (const [key, value] of Object.entries(status)) {
    const path = ['spec', 'status', key];
    if (!STATUS_FIELD.test(key))
      out.push({ path, message: 'expected a field name: a letter, then letters, digits or "_"' });
    else if (RESERVED_STATUS_FIELDS.has(key))
      out.push({ path, message: `"${key}" is written by FlowOps itself; choose another name` });
    if (typeof value === 'string') out.push(...checkTemplate(value, path, { before: all, all, self: undefined }));
  }
  return out;
}

function stepListProblems(steps: readonly unknown[], at: readonly string[]): FieldProblem[] {
  const all = new Set(steps.flatMap((s) => (isRaw(s) && typeof s.name === 'string' ? [s.name] : [])));
  const before = new Set<string>();
  const out = duplicateNameProblems(steps, at);
  steps.forEach((step, i) => {
    if (!isRaw(step)) return;
    const self = typeof step.name === 'string' ? step.name : undefined;
    out.push(
      ...variantProblems(step, [...at, i]),
      ...templateProblems(step, [...at, i], { before: new Set(before), all, self }),
      ...scriptProblems(step, [...at, i]),
    );
    if (self !== undefined) before.add(self);
  });
  return out;
}
