import { isAbsolute } from 'node:path';
import type { FlowSpec, Step } from '../api/index.js';

/**
 * Whether a Flow reads files of its Git source: a template step whose chart or kustomization path
 * is relative. Only those Flows make a worker fetch the commit they came from.
 */
export function readsSourceFiles(spec: FlowSpec): boolean {
  const lists = [spec.reconcile?.steps, spec.onDelete?.steps, spec.onError?.steps];
  return lists.some((steps) => (steps ?? []).some(relativeTemplatePath));
}

function relativeTemplatePath(step: Step): boolean {
  if (step.type !== 'template') return false;
  // A chart from a repository ({repository, name, version}) reads no file of the source.
  const path = step.engine === 'helm' ? (typeof step.chart === 'string' ? step.chart : undefined) : step.path;
  return path !== undefined && !isAbsolute(path);
}
