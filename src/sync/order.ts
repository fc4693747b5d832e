import type { KubeObject } from '../kube/index.js';

/**
 * Apply phases: CRDs and Namespaces before anything that needs them, Flows last so that the kinds
 * they watch and the objects they read exist when they start.
 */
export function phaseOf(obj: Pick<KubeObject, 'apiVersion' | 'kind'>): number {
  if (obj.kind === 'CustomResourceDefinition' && obj.apiVersion.startsWith('apiextensions.k8s.io/')) return 0;
  if (obj.kind === 'Namespace' && obj.apiVersion === 'v1') return 1;
  if (obj.kind === 'Flow' && obj.apiVersion.startsWith('flowops.io/')) return 3;
  return 2;
}

export function inPhases<T extends { object: Pick<KubeObject, 'apiVersion' | 'kind'> }>(items: readonly T[]): T[][] {
  const phases: T[][] = [[], [], [], []];
  for (const it of items) phases[phaseOf(it.object)]!.push(it);
  return phases.filter((p) => p.length > 0);
}
