import type { KubeObject } from '../kube/index.js';
import { OperatorError } from './errors.js';

/** Decides whether an update passes a source's predicate (controller-runtime's update predicates). */
export type UpdatePredicate = (old: KubeObject, obj: KubeObject) => boolean;

const BASIC: Record<string, UpdatePredicate> = {
  GenerationChanged: (o, n) => o.metadata.generation !== n.metadata.generation,
  ResourceVersionChanged: (o, n) => o.metadata.resourceVersion !== n.metadata.resourceVersion,
  LabelChanged: (o, n) => !sameMap(o.metadata.labels, n.metadata.labels),
  AnnotationChanged: (o, n) => !sameMap(o.metadata.annotations, n.metadata.annotations),
};

/**
 * Compiles the predicate grammar of spec §1.3. Only the exact spellings the original code accepts
 * are valid (And/Or/Not, LabelChanged); anything else is an error, so a typo fails loudly.
 * Like controller-runtime's, these predicates filter updates only: creates and deletes pass.
 */
export function compilePredicate(p: unknown, path = 'predicate'): UpdatePredicate {
  if (typeof p === 'string') {
    const basic = BASIC[p];
    if (!basic)
      throw new OperatorError(
        'InvalidPredicate',
        `${path}: unknown predicate ${JSON.stringify(p)} (expected ${Object.keys(BASIC).join(', ')}, And, Or or Not)`,
      );
    return basic;
  }
  if (!p || typeof p !== 'object' || Array.isArray(p))
    throw new OperatorError('InvalidPredicate', `${path}: expected a predicate name or a map with And, Or or Not`);
  const keys = Object.keys(p);
  if (keys.length !== 1)
    throw new OperatorError(
      'InvalidPredicate',
      `${path}: a boolean predicate must have exactly one key, got ${keys.length}`,
    );
  const op = keys[0]!;
  const args = (p as Record<string, unknown>)[op];
  if (!Array.isArray(args)) throw new OperatorError('InvalidPredicate', `${path}.${op}: expected a list of predicates`);
  const parts = args.map((a, i) => compilePredicate(a, `${path}.${op}[${i}]`));
  switch (op) {
    case 'And':
      return (o, n) => parts.every((f) => f(o, n));
    case 'Or':
      return (o, n) => parts.some((f) => f(o, n));
    case 'Not':
      if (parts.length !== 1) throw new OperatorError('InvalidPredicate', `${path}.Not: takes exactly one predicate`);
      return (o, n) => !parts[0]!(o, n);
    default:
      throw new OperatorError(
        'InvalidPredicate',
        `${path}: unknown boolean predicate ${JSON.stringify(op)} (expected And, Or or Not)`,
      );
  }
}

function sameMap(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ka = Object.keys(a ?? {});
  const kb = Object.keys(b ?? {});
  return ka.length === kb.length && ka.every((k) => a?.[k] === b?.[k]);
}
