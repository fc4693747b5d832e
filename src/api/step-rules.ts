import type { FieldPath, FieldProblem } from './problem.js';

/**
 * Rules on one step list that the zod schema cannot state: fields required only for some actions
 * or engines, and step names that must be unique (outputs are addressed by name). The input is
 * raw YAML data, so every read checks its shape; wrong shapes are zod's to report.
 */

export type Raw = Record<string, unknown>;

export function isRaw(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const present = (step: Raw, field: string): boolean =>
  step[field] !== undefined && step[field] !== null && step[field] !== '';

/** For each step type with variants: the field that picks the variant, and what each variant needs. */
const NEEDS: Record<string, { by: string; rules: Record<string, string[]> }> = {
  kubectl: {
    by: 'action',
    rules: { apply: ['manifests'], patch: ['target', 'patch'], get: ['target'], wait: ['target', 'condition'] },
  },
  template: { by: 'engine', rules: { helm: ['chart'], kustomize: ['path'] } },
};

export function variantProblems(step: Raw, at: FieldPath): FieldProblem[] {
  const need = typeof step.type === 'string' ? NEEDS[step.type] : undefined;
  const variant = need ? step[need.by] : undefined;
  if (!need || typeof variant !== 'string') return [];
  if (step.type === 'kubectl' && variant === 'delete' && !present(step, 'manifests') && !present(step, 'target')) {
    return [{ path: [...at, 'manifests'], message: 'required for action "delete" unless target is set' }];
  }
  return (need.rules[variant] ?? [])
    .filter((field) => !present(step, field))
    .map((field) => ({ path: [...at, field], message: `required for ${need.by} "${variant}"` }));
}

export function duplicateNameProblems(steps: readonly unknown[], at: FieldPath): FieldProblem[] {
  const first = new Map<string, number>();
  const out: FieldProblem[] = [];
  steps.forEach((step, i) => {
    if (!isRaw(step) || typeof step.name !== 'string') return;
    const earlier = first.get(step.name);
    if (earlier === undefined) first.set(step.name, i);
    else out.push({ path: [...at, i, 'name'], message: `duplicate step name "${step.name}" (also steps[${earlier}])` });
  });
  return out;
}
