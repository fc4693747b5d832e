// What pinning a commit would change, before the button is pressed: the commit's definitions, read
// from the source's own clone, validated by the sync's planner and dry-run applied against the live
// cluster, as `flowops diff --commit` does (src/diff/preview.ts): created, changed with the fields,
// pruned.

import git from 'isomorphic-git';
import { flowSourceSpecSchema, type FlowSourceStatus, formatValidationError } from '../api/index.js';
import { repoDirOf, sourcePathPrefix } from '../controller/flowsource/reconciler.js';
import { previewSync } from '../diff/preview.js';
import type { KubeClient, KubeObject } from '../kube/index.js';
import { diffCommits, gitContext, readBlobs } from '../source/index.js';
import { planCommit, listServerCrds } from '../sync/index.js';
import { commitDiff, type CommitDiff } from './commit-diff.js';
import type { CommitPreview } from './types.js';

/** A page shows this many changed objects, and this much of each diff; it says what it cut. */
const MAX_CHANGES = 100;
const MAX_DIFF = 8 * 1024;

/** Asks for the newest commit of the branch the source follows, as of its last fetch. */
export const BRANCH_TIP = 'branch';

export type CommitPreviewer = (kube: KubeClient, source: KubeObject, commit: string) => Promise<CommitPreview>;

/** A commit's own page, from the same clone (undefined when the commit is not in it). */
export type CommitReader = (source: KubeObject, commit: string) => Promise<CommitDiff | undefined>;

export function commitReader(sourcesDir: string): CommitReader {
  return async (source, commit) => {
    const spec = flowSourceSpecSchema.safeParse(source.spec);
    if (!spec.success) return undefined;
    const ctx = gitContext(repoDirOf(sourcesDir, `${source.metadata.namespace}/${source.metadata.name}`));
    return commitDiff(ctx, commit, sourcePathPrefix(spec.data)).catch(() => undefined);
  };
}

/** Previews from the clones the FlowSource controller keeps under `sourcesDir` (`flowops up`). */
export function commitPreviewer(sourcesDir: string): CommitPreviewer {
  return async (kube, source, commit) => {
    const key = `${source.metadata.namespace}/${source.metadata.name}`;
    const spec = flowSourceSpecSchema.safeParse(source.spec);
    if (!spec.success) return { commit, errors: [`FlowSource ${key} has an invalid spec`], changes: [], cut: 0 };
    const status = (source.status ?? {}) as FlowSourceStatus;
    const prefix = sourcePathPrefix(spec.data);
    const ctx = gitContext(repoDirOf(sourcesDir, key));
    if (commit === BRANCH_TIP) {
      // Unpin and sync move to the branch's newest commit: the one the last fetch saw.
      const branch = spec.data.ref?.branch ?? (spec.data.ref?.tag ? undefined : 'main');
      const tip = branch
        ? await git
            .resolveRef({ fs: ctx.fs, gitdir: ctx.gitdir, ref: `refs/remotes/origin/${branch}` })
            .catch(() => undefined)
        : undefined;
      if (!tip)
        return {
          commit,
          errors: [
            branch
              ? `branch ${branch} has not been fetched yet`
              : 'a source that follows a tag has no branch to preview',
          ],
          changes: [],
          cut: 0,
        };
      commit = tip;
    }
    let files: Array<{ path: string; text: string }>;
    try {
      const defs = (await diffCommits({ ctx, to: commit, path: prefix })).filter((c) => c.definition);
      const blobs = await readBlobs({ ctx, oids: defs.map((c) => c.oid) });
      const decoder = new TextDecoder();
      files = defs.map((c) => ({
        path: prefix ? `${prefix}/${c.path}` : c.path,
        text: decoder.decode(blobs.get(c.oid)),
      }));
    } catch (err) {
      return {
        commit,
        errors: [
          `commit ${commit.slice(0, 12)} is not in the source's clone: ${err instanceof Error ? err.message : String(err)}`,
        ],
        changes: [],
        cut: 0,
      };
    }
    const plan = planCommit({
      files,
      removed: [],
      full: true,
      inventory: status.inventory ?? [],
      defaultNamespace: source.metadata.namespace ?? 'default',
      serverCrds: await listServerCrds(kube),
    });
    if (!plan.ok) return { commit, errors: plan.errors.map(formatValidationError), changes: [], cut: 0 };
    const preview = await previewSync({
      kube,
      source: key,
      revision: status.lastAppliedRevision ?? 'preview',
      items: plan.apply,
      inventory: status.inventory ?? [],
      origin: `commit ${commit.slice(0, 12)}`,
    });
    const changes = preview.changes.slice(0, MAX_CHANGES).map((c) => ({
      change: c.change,
      object: c.object,
      diff:
        c.diff.length > MAX_DIFF
          ? `${c.diff.slice(0, MAX_DIFF)}\n… (${c.diff.length - MAX_DIFF} more characters of this diff not shown)\n`
          : c.diff,
    }));
    return {
      commit,
      errors: [],
      changes,
      cut: preview.changes.length - changes.length,
      ...(preview.skipped.length ? { skipped: preview.skipped } : {}),
    };
  };
}
