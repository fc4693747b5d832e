import type { FieldProblem } from './problem.js';
import { duplicateNameProblems, isRaw, variantProblems } from './step-rules.js';
import { templateProblems } from './step-templates.js';

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
  return out;
}

function stepListProblems(steps: readonly unknown[], at: readonly string[]): FieldProblem[] {
  const all = new Set(steps.flatMap((s) => (isRaw(s) && typeof s.name === 'string' ? [s.name] : [])));
  const before = new Set<string>();
  const out = duplicateNameProblems(steps, at);
  steps.forEach((step, i) => {
    if (!isRaw(step)) return;
    const self = typeof step.name === 'string' ? step.name : undefined;
    out.push(...variantProblems(step, [...at, i]), ...templateProblems(step, [...at, i], { before: new Set(before), all, self }));
    if (self !== undefined) before.add(self);
  });
  return out;
}
