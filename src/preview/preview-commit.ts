// One commit previewed against the live cluster, nothing applied: the sync's own planner validates
// it as a unit (file:line:column, the template type check included), then `flowops diff`'s
// server-side dry run says what would be created, changed (which fields) and pruned.

import type { FlowSourceSpec, FlowSourceStatus, ValidationError } from '../api/index.js';
import { decryptionKeys, sourcePathPrefix } from '../controller/index.js';
import { definitionsFromCommit, previewSync, type Preview } from '../diff/index.js';
import type { KubeClient, KubeObject } from '../kube/index.js';
import { decryptFiles, planCommit, listServerCrds } from '../sync/index.js';
import { renderChangedFlows, type RenderedChildren } from './render-children.js';
import { redactValues, secretValues } from './secret-values.js';

export interface CommitPreviewResult {
  errors: ValidationError[];
  warnings: ValidationError[];
  diff?: Preview;
  dryRunError?: string;
  /** What the changed Flows would create for their watched objects (scripts stubbed). */
  rendered?: RenderedChildren;
}

export interface PreviewCommitOptions {
  kube: KubeClient;
  source: KubeObject;
  spec: FlowSourceSpec;
  /** A Git repository that holds `sha`. */
  gitDir: string;
  sha: string;
}

export async function previewCommit(opts: PreviewCommitOptions): Promise<CommitPreviewResult> {
  const key = `${opts.source.metadata.namespace ?? 'default'}/${opts.source.metadata.name}`;
  const status = (opts.source.status ?? {}) as FlowSourceStatus;
  const defs = definitionsFromCommit(opts.gitDir, opts.sha, sourcePathPrefix(opts.spec));
  try {
    // SOPS files are decrypted in memory as the sync does; their values are then masked like any Secret's.
    const keys = await decryptionKeys(opts.kube, opts.source.metadata.namespace ?? 'default', opts.spec);
    const decrypted = await decryptFiles(defs.files, keys);
    if (!decrypted.ok) return { errors: decrypted.errors, warnings: [] };
    const plan = planCommit({
      files: decrypted.files,
      removed: [],
      full: true,
      inventory: status.inventory ?? [],
      defaultNamespace: opts.source.metadata.namespace ?? 'default',
      serverCrds: await listServerCrds(opts.kube),
    });
    if (!plan.ok) return { errors: plan.errors, warnings: [] };
    const values = secretValues(plan.apply.map((i) => i.object));
    let diff: Preview;
    try {
      diff = await previewSync({
        kube: opts.kube,
        source: key,
        revision: status.lastAppliedRevision ?? 'preview',
        items: plan.apply,
        inventory: status.inventory ?? [],
        origin: `commit ${opts.sha.slice(0, 12)}`,
      });
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      return { errors: [], warnings: plan.warnings, dryRunError: redactValues(message, values) };
    }
    // A render that cannot run is a note in the comment, not a verdict on the commit.
    const rendered = await renderChangedFlows({
      kube: opts.kube,
      gitDir: opts.gitDir,
      sha: opts.sha,
      prefix: sourcePathPrefix(opts.spec),
      items: plan.apply,
      changes: diff.changes,
      config: opts.spec.previews?.render,
    }).catch(
      (e: unknown): RenderedChildren => ({
        samples: [],
        notes: [`The render failed: ${redactValues(e instanceof Error ? e.message : String(e), values)}`],
      }),
    );
    return { errors: [], warnings: plan.warnings, diff, rendered };
  } finally {
    defs.cleanup();
  }
}
