import { mkdirSync, utimesSync } from 'node:fs';
import { FLOWSOURCE_API_VERSION, FLOWSOURCE_KIND, flowSourceSpecSchema } from '../api/index.js';
import { sourceCredentials, exportsDirOf, repoDirOf, sourcePathPrefix } from '../controller/index.js';
import type { KubeClient, KubeObject } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { timeGitFetch } from '../metrics/registry.js';
import {
  diffCommits,
  exportCommit,
  exportDirOf,
  fetchSource,
  gitContext,
  type GitContext,
  readBlobs,
  shaOfRevision,
} from '../source/index.js';
import { provenanceOf } from '../sync/index.js';

/** Why a worker could not materialise the commit a Flow came from; the reconcile is retried. */
export class CommitExportError extends Error {}

/**
 * A worker's own copy of the commits its Flows came from. In cluster mode the leader's clones
 * live in the leader's pod, so a worker re-derives what it needs from Git itself (the source of
 * truth, as Flux's controllers fetch artifacts instead of sharing disks): the FlowSource named in
 * the Flow's provenance gives the URL, path and credentials, the revision annotation the commit.
 * The export has the same layout as the leader's, under this worker's `dataDir`.
 */
export class CommitExports {
  private readonly pending = new Map<string, Promise<string>>();
  private readonly repos = new Map<string, GitContext>();
  /** One Git operation per repository at a time: two fetches into one object store would race. */
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: { kube: KubeClient; log: Logger; dataDir: string }) {}

  /** The folder of the Flow's commit, fetched and exported on first use; undefined when the Flow did not come from Git. */
  async dirFor(flow: KubeObject): Promise<string | undefined> {
    const p = provenanceOf(flow);
    const sha = shaOfRevision(p?.revision);
    if (!p || !sha) return undefined;
    const dir = exportDirOf(exportsDirOf(this.deps.dataDir, p.source), sha);
    // Newer exports prune older ones by age: touching the one in use keeps it among the kept.
    if (touch(dir)) return dir;
    const key = `${p.source}@${sha}`;
    let job = this.pending.get(key);
    if (!job) {
      job = this.serial(p.source, () => this.materialise(p.source, sha));
      this.pending.set(key, job);
      // Only the fetch in flight is shared; afterwards the folder itself is the record.
      const forget = (): void => void this.pending.delete(key);
      job.then(forget, forget);
    }
    return job;
  }

  private async materialise(source: string, sha: string): Promise<string> {
    const exportsDir = exportsDirOf(this.deps.dataDir, source);
    const dir = exportDirOf(exportsDir, sha);
    if (touch(dir)) return dir;
    const [namespace, name] = source.split('/') as [string, string];
    const obj = await this.deps.kube.get({
      apiVersion: FLOWSOURCE_API_VERSION,
      kind: FLOWSOURCE_KIND,
      namespace,
      name,
    });
    if (!obj)
      throw new CommitExportError(
        `the Flow came from FlowSource ${source}, which no longer exists; its files at ${sha.slice(0, 12)} cannot be fetched`,
      );
    const parsed = flowSourceSpecSchema.safeParse(obj.spec);
    if (!parsed.success)
      throw new CommitExportError(
        `FlowSource ${source} has an invalid spec; its files at ${sha.slice(0, 12)} cannot be fetched`,
      );
    const spec = parsed.data;
    if (!spec.url) {
      const why = 'chart and kustomize paths of its Flows are not exported yet';
      throw new CommitExportError(`FlowSource ${source} follows an OCI artifact: ${why}`);
    }
    const url = spec.url;
    const ctx = this.contextFor(source);
    const credentials = await sourceCredentials(this.deps.kube, namespace, spec);
    const branch = spec.ref?.branch;
    const tag = spec.ref?.tag;
    const ref = { ...(branch ? { branch } : {}), ...(tag ? { tag } : {}), commit: sha };
    await timeGitFetch(source, () => fetchSource({ ctx, url, ref, credentials }));
    const changes = await diffCommits({ ctx, to: sha, path: sourcePathPrefix(spec) });
    const blobs = await readBlobs({ ctx, oids: changes.map((c) => c.oid) });
    mkdirSync(exportsDir, { recursive: true });
    // More kept than the leader's 4: Flows of one source may sit at many different commits.
    const out = exportCommit({ exportsDir, sha, changes, blobs, keep: 16 });
    this.deps.log.info({ source, revision: sha, files: changes.length }, 'exported the commit a Flow came from');
    return out;
  }

  private serial<T>(source: string, fn: () => Promise<T>): Promise<T> {
    const next = (this.locks.get(source) ?? Promise.resolve()).catch(() => undefined).then(fn);
    this.locks.set(source, next);
    return next;
  }

  private contextFor(source: string): GitContext {
    let ctx = this.repos.get(source);
    if (!ctx) {
      const dir = repoDirOf(this.deps.dataDir, source);
      mkdirSync(dir, { recursive: true });
      ctx = gitContext(dir);
      this.repos.set(source, ctx);
    }
    return ctx;
  }
}

/** Marks an export as in use; false when it does not exist (never made, or pruned). */
function touch(dir: string): boolean {
  try {
    const now = new Date();
    utimesSync(dir, now, now);
    return true;
  } catch {
    return false;
  }
}
