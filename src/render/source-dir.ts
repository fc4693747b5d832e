// Where a rendered Flow's relative chart and kustomize paths resolve. Under `flowops up` and a
// FlowSource they resolve against the repository (source) root, e.g. `webapp-operator/chart` for
// repos-example/webapp-operator/flow.yaml. A render is given files, not a repository, so the root
// is the nearest folder above the Flow's file that holds every relative path the Flow names;
// `--source-dir` overrides the search.

import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { FlowSpec } from '../api/index.js';

function relativeTemplatePaths(spec: FlowSpec): string[] {
  const steps = [...(spec.reconcile?.steps ?? []), ...(spec.onDelete?.steps ?? []), ...(spec.onError?.steps ?? [])];
  const out: string[] = [];
  for (const step of steps) {
    if (step.type !== 'template') continue;
    // A chart from a repository ({repository, name, version}) reads no file of the source.
    const path = step.engine === 'helm' ? (typeof step.chart === 'string' ? step.chart : undefined) : step.path;
    // A chart reference such as oci://… or repo/chart that is not a folder is left to helm.
    if (path && !isAbsolute(path) && !path.includes('://') && !path.includes('{{')) out.push(path);
  }
  return out;
}

/** The folder to resolve the Flow's relative paths against; the Flow file's own folder when it names none. */
export function sourceDirOf(flowFile: string, spec: FlowSpec, override?: string): string {
  if (override) return resolve(override);
  const start = dirname(resolve(flowFile));
  const paths = relativeTemplatePaths(spec);
  if (!paths.length) return start;
  for (let dir = start; ; dir = dirname(dir)) {
    if (paths.every((p) => existsSync(join(dir, p)))) return dir;
    if (dirname(dir) === dir) return start;
  }
}
