// One commit previewed against the live cluster, nothing applied: the sync's own planner validates
// it as a unit (file:line:column, the template type check included), then `flowops diff`'s
// server-side dry run says what would be created, changed (which fields) and pruned.

import type { FlowSourceSpec, FlowSourceStatus } from '../api/flowsource.js';
import type { ValidationError } from '../api/validation-error.js';
import { sourcePathPrefix } from '../controller/flowsource/reconciler.js';
import { definitionsFromCommit } from '../diff/definition-files.js';
import { previewSync, type Preview } from '../diff/preview.js';
import type { KubeClient } from '../kube/client.js';
import type { KubeObject } from '../kube/types.js';
import { planCommit, type DesiredObject } from '../sync/plan.js';
import { listServerCrds } from '../sync/server-crds.js';
import { MASKED } from '../diff/secret-mask.js';

export interface CommitPreviewResult {
  errors: ValidationError[];
  warnings: ValidationError[];
  diff?: Preview;
  dryRunError?: string;
}

export interface PreviewCommitOptions {
  kube: KubeClient;
  source: KubeObject;
  spec: FlowSourceSpec;
  /** A Git repository that holds `sha`. */
  gitDir: string;
  sha: string;
}

/** Every value of the commit's Secrets, plain and base64, so an API server message cannot repeat one. */
function secretValues(items: readonly DesiredObject[]): string[] {
  const out: string[] = [];
  for (const { object } of items) {
    if (object.apiVersion !== 'v1' || object.kind !== 'Secret') continue;
    const all = object as KubeObject & { data?: Record<string, unknown>; stringData?: Record<string, unknown> };
    for (const v of Object.values(all.data ?? {}))
      if (typeof v === 'string') out.push(v, Buffer.from(v, 'base64').toString('utf8'));
    for (const v of Object.values(all.stringData ?? {})) if (typeof v === 'string') out.push(v);
  }
  return out.filter((v) => v.length >= 3).sort((a, b) => b.length - a.length);
}

export async function previewCommit(opts: PreviewCommitOptions): Promise<CommitPreviewResult> {
  const key = `${opts.source.metadata.namespace ?? 'default'}/${opts.source.metadata.name}`;
  const status = (opts.source.status ?? {}) as FlowSourceStatus;
  const defs = definitionsFromCommit(opts.gitDir, opts.sha, sourcePathPrefix(opts.spec));
  try {
    const plan = planCommit({
      files: defs.files,
      removed: [],
      full: true,
      inventory: status.inventory ?? [],
      defaultNamespace: opts.source.metadata.namespace ?? 'default',
      serverCrds: await listServerCrds(opts.kube),
    });
    if (!plan.ok) return { errors: plan.errors, warnings: [] };
    try {
      const diff = await previewSync({
        kube: opts.kube,
        source: key,
        revision: status.lastAppliedRevision ?? 'preview',
        items: plan.apply,
        inventory: status.inventory ?? [],
        origin: `commit ${opts.sha.slice(0, 12)}`,
      });
      return { errors: [], warnings: plan.warnings, diff };
    } catch (e) {
      let message = e instanceof Error ? e.message : String(e);
      for (const v of secretValues(plan.apply)) message = message.replaceAll(v, MASKED);
      return { errors: [], warnings: plan.warnings, dryRunError: message };
    }
  } finally {
    defs.cleanup();
  }
}
