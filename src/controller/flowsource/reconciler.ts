import {
  PIN_REASON_ANNOTATION,
  RECONCILE_REQUEST_ANNOTATION,
  parseDuration,
  flowSourceSpecSchema,
  type FlowSourceSpec,
  type FlowSourceStatus,
} from '../../api/index.js';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  type KubeClient,
  type EventRecorder,
  refOf,
  type KubeObject,
  hasFinalizer,
  setFinalizer,
} from '../../kube/index.js';
import type { Logger } from '../../log/index.js';
import {
  failed,
  runReconcile,
  stalled,
  success,
  UNEXPECTED,
  waiting,
  type ReconcileResult,
  type SubStep,
} from '../../reconcile/index.js';
import {
  diffCommits,
  type FileChange,
  SourceError,
  exportCommit,
  exportDirOf,
  fetchSource,
  readCommitInfo,
  type CommitInfo,
  gitContext,
  type GitContext,
  readBlobs,
  formatRevision,
  shaOfRevision,
} from '../../source/index.js';
import { timeGitFetch } from '../../metrics/registry.js';
import { syncCommit, type SyncOutcome, pruneObjects, listServerCrds } from '../../sync/index.js';
import { decryptionKeys, sourceCredentials } from './credentials.js';
import { OciSources } from './oci-source.js';
import { statusOf, statusAfterSync, withReady, writeStatus, type SourceEvent } from './status.js';
import { isRepeatedRefusal, refusedStatus, verifySourceRevision, withVerified } from './verification.js';

export interface FlowSourceReconcilerDeps {
  kube: KubeClient;
  log: Logger;
  events: EventRecorder;
  fieldManager: string;
  /** Folder for clones and per-commit exports: `<dataDir>/<namespace>/<name>/{repo,exports}`. */
  dataDir: string;
  /** `--default-service-account`: a source without serviceAccountName applies as this ServiceAccount of its namespace. */
  defaultServiceAccount?: string;
}

const DEFAULT_INTERVAL_MS = 60_000;

/** Held by a FlowSource with prune (the default) until what it applied has been deleted. */
export const SOURCE_FINALIZER = 'flowops.io/source-cleanup';

/** Where a source's commit is exported; Flows applied from it resolve chart paths there. */
export const exportsDirOf = (dataDir: string, source: string): string => join(dataDir, ...source.split('/'), 'exports');

/** Where a source's repository (objects only, no work tree) is kept. */
export const repoDirOf = (dataDir: string, source: string): string => join(dataDir, ...source.split('/'), 'repo');

/** SourceError codes only a change of the user's can fix (a Secret, the keys): Stalled=True. */
const STALLING_CODES = new Set(['AuthFailed', 'AuthRequired', 'VerifyKeysInvalid', 'DecryptionKeysInvalid']);

/** What one reconcile of a source carries from sub-step to sub-step. */
interface SourceRun {
  readonly src: KubeObject;
  readonly key: string;
  readonly namespace: string;
  readonly generation: number;
  /** The status the summary writes; each sub-step says its part. */
  status: FlowSourceStatus;
  /** Recorded after the status write, in order. */
  readonly events: SourceEvent[];
  spec?: FlowSourceSpec;
  interval?: number;
  fetched?: { ctx: GitContext; sha: string; revision: string };
  signer?: string | undefined;
}

/** Invariants of the sub-steps' order: the spec sub-step sets the spec, the fetch the commit. */
function specOf(r: SourceRun): FlowSourceSpec {
  return r.spec ?? ranBefore('the spec was read');
}
function fetchedOf(r: SourceRun): NonNullable<SourceRun['fetched']> {
  return r.fetched ?? ranBefore('the fetch');
}
function ranBefore(what: string): never {
  // invariant: the sub-steps run in the order of their list, each only after the one that sets its input.
  throw new Error(`flowsource sub-step ran before ${what}`);
}
const intervalOf = (r: SourceRun): number => r.interval ?? DEFAULT_INTERVAL_MS;

/**
 * Reconciles one FlowSource, Flux-style, as ordered sub-steps with one status write at the end:
 * spec and finalizer → suspension → credentials and fetch (the drift check when the commit is
 * already applied) → verification → diff, export, validate and apply as a unit, prune →
 * summarise (Ready, revisions, inventory, history). A deletion prunes instead (finalize).
 */
export class FlowSourceReconciler {
  private readonly repos = new Map<string, GitContext>();
  /** The definition files of each source's last applied commit, read once per commit for drift checks. */
  private readonly appliedFiles = new Map<string, { sha: string; files: Array<{ path: string; text: string }> }>();
  /** Sources with spec.oci: fetched from a registry by src/source/oci/, applied by the same src/sync/. */
  private readonly oci = new OciSources();

  constructor(private readonly deps: FlowSourceReconcilerDeps) {}

  forget(source: string): void {
    this.repos.delete(source);
    this.appliedFiles.delete(source);
    this.oci.forget(source);
  }

  async reconcile(namespace: string, name: string): Promise<ReconcileResult> {
    const src = await this.deps.kube.get({ apiVersion: 'flowops.io/v1', kind: 'FlowSource', namespace, name });
    if (!src) return success();
    const key = `${namespace}/${name}`;
    if (src.metadata.deletionTimestamp) {
      try {
        return await this.finalize(key, src);
      } finally {
        await this.markRequestHandled(src);
      }
    }
    const generation = src.metadata.generation ?? 0;
    const run: SourceRun = { src, key, namespace, generation, status: statusOf(src), events: [] };
    return runReconcile(this.subSteps, run, (r, result) => this.summarise(r, result));
  }

  /**
   * A source's sub-steps, in order: finalizer and spec, suspension, fetch (and the drift check when
   * the commit is already applied), verification, then validate-and-apply with its prune as a unit.
   * Each fills the run's status; the summary writes it once, then the Events (src/reconcile/runner.ts).
   */
  private readonly subSteps: ReadonlyArray<SubStep<SourceRun>> = [
    { name: 'spec', run: (r) => this.specStep(r) },
    { name: 'suspend', run: async (r) => this.suspendStep(r) },
    { name: 'oci', run: (r) => this.ociStep(r) },
    { name: 'fetch', run: (r) => this.guarded(r, () => this.fetchStep(r)) },
    { name: 'verify', run: (r) => this.guarded(r, () => this.verifyStep(r)) },
    { name: 'sync', run: (r) => this.guarded(r, () => this.syncStep(r)) },
  ];

  private async specStep(r: SourceRun): Promise<ReconcileResult | undefined> {
    const { src, generation } = r;
    const parsed = flowSourceSpecSchema.safeParse(src.spec);
    // The finalizer lets a deletion remove what this source applied before the source (and its inventory) is gone.
    const keep = parsed.success ? parsed.data.prune !== false : hasFinalizer(src, SOURCE_FINALIZER);
    await setFinalizer(this.deps.kube, src, keep, this.deps.fieldManager, SOURCE_FINALIZER);
    if (!parsed.success) {
      const message = `invalid spec: ${parsed.error.issues.map((i) => `${['spec', ...i.path].join('.')}: ${i.message}`).join('; ')}`;
      r.status = withReady(r.status, generation, false, 'InvalidSpec', message, true);
      return stalled('InvalidSpec', message);
    }
    r.spec = parsed.data;
    return undefined;
  }

  /**
   * Said in status as a Flow says it, for the generation that asked: kstatus (Flux's wait), the
   * Argo CD health check and `flowops get sources` then read a suspended source as such.
   */
  private suspendStep(r: SourceRun): ReconcileResult | undefined {
    const spec = specOf(r);
    if (!spec.suspend) {
      r.interval = jitter(spec.interval ? parseDuration(spec.interval) : DEFAULT_INTERVAL_MS);
      return undefined;
    }
    const message = 'reconciliation is suspended; the applied objects stay';
    r.status = withReady(r.status, r.generation, true, 'Suspended', message);
    return success();
  }

  /** A source with spec.oci ends here: src/source/oci/ fetches the artifact, src/sync/ applies it. */
  private async ociStep(r: SourceRun): Promise<ReconcileResult | undefined> {
    const spec = specOf(r);
    if (!spec.oci) return undefined;
    const deps = { ...this.deps, applier: this.applierFor(r.key, spec) };
    const out = await this.oci.reconcile(deps, r.src, spec, spec.oci, r.status);
    r.status = out.status;
    r.events.push(...out.events);
    if (out.retry !== undefined) return failed('ApplyFailed', out.retry);
    if (out.fetchFailed !== undefined) return waiting(intervalOf(r), out.fetchFailed);
    return success(r.interval);
  }

  /** Fetches the ref; a commit already applied under this spec is only kept from drifting. */
  private async fetchStep(r: SourceRun): Promise<ReconcileResult | undefined> {
    const spec = specOf(r);
    const url = spec.url;
    if (!url) throw new Error('invariant: the schema requires url or oci, and oci ended the sub-steps');
    const credentials = await sourceCredentials(this.deps.kube, r.namespace, spec);
    const ctx = this.contextFor(r.key);
    const sha = await timeGitFetch(r.key, () => fetchSource({ ctx, url, ref: spec.ref ?? {}, credentials }));
    r.fetched = { ctx, sha, revision: formatRevision(spec.ref ?? {}, sha) };
    if (!upToDate(r.status, r.generation, r.fetched.revision)) return undefined;
    await this.correctDrift(r.key, ctx, spec, r.src, r.status);
    return success(r.interval);
  }

  /** Refused: the last verified commit keeps running (and is kept from drifting); one Event per refusal. */
  private async verifyStep(r: SourceRun): Promise<ReconcileResult | undefined> {
    const spec = specOf(r);
    const { ctx, sha, revision } = fetchedOf(r);
    const asked = { kube: this.deps.kube, namespace: r.namespace, spec, ctx, commit: sha, status: r.status };
    const verified = await verifySourceRevision(asked);
    if (!verified) return undefined;
    if (verified.ok) {
      r.status = withVerified(r.status, r.generation, verified, sha);
      r.signer = verified.signer;
      return undefined;
    }
    if (isRepeatedRefusal(r.status, r.generation, revision, verified)) {
      await this.correctDrift(r.key, ctx, spec, r.src, r.status);
      return waiting(intervalOf(r), 'VerificationFailed');
    }
    r.status = refusedStatus(r.status, r.generation, revision, verified);
    const refusal = { source: r.key, revision, code: verified.code, signer: verified.signer, err: verified.message };
    this.deps.log.warn(refusal, 'revision refused: no trusted signature');
    r.events.push({ type: 'Warning', reason: 'VerificationFailed', message: verified.message });
    return waiting(intervalOf(r), 'VerificationFailed');
  }

  /** Validates and applies the commit as a unit (with its prune); a failed apply is retried with backoff. */
  private async syncStep(r: SourceRun): Promise<ReconcileResult | undefined> {
    const spec = specOf(r);
    const { ctx, sha, revision } = fetchedOf(r);
    const sameSpec = r.generation === r.status.observedGeneration;
    const synced = await this.syncTo(r.key, ctx, spec, sha, revision, r.status, sameSpec);
    const outcome = withPinReason(r.src, sha, synced);
    r.status = summarise(r.status, r.generation, revision, outcome, r.signer, await readCommitInfo(ctx, sha));
    r.events.push(this.record(r.src, outcome, revision));
    if (outcome.outcome === 'Failed') return failed('ApplyFailed', outcome.message);
    if (outcome.outcome === 'Rejected') return waiting(intervalOf(r), 'ValidationFailed');
    return success(r.interval);
  }

  /**
   * A SourceError (the fetch, the credentials, the keys) is said in status and an Event, and the
   * source polled again at its interval; Stalled when only a change of the user's can fix it.
   */
  private async guarded(
    r: SourceRun,
    step: () => Promise<ReconcileResult | undefined>,
  ): Promise<ReconcileResult | undefined> {
    try {
      return await step();
    } catch (e) {
      if (!(e instanceof SourceError)) throw e;
      this.deps.log.warn({ source: r.key, code: e.code, err: e.message }, 'fetch failed');
      r.status = withReady(r.status, r.generation, false, e.code, e.message, STALLING_CODES.has(e.code));
      r.events.push({ type: 'Warning', reason: e.code, message: e.message });
      return waiting(intervalOf(r), e.code);
    }
  }

  /**
   * The one status write of a reconcile, then its Events. `flowops reconcile source --wait` waits
   * for the request it set to be answered, whatever the outcome: the answer goes in the same write.
   * An exception nothing foresaw writes only that answer, as the status stood before.
   */
  private async summarise(r: SourceRun, result: ReconcileResult): Promise<ReconcileResult> {
    const base = result.kind === 'error' && result.code === UNEXPECTED ? statusOf(r.src) : r.status;
    const requested = r.src.metadata.annotations?.[RECONCILE_REQUEST_ANNOTATION];
    const status = requested ? { ...base, lastHandledReconcileAt: requested } : base;
    await writeStatus(this.deps.kube, r.src, status);
    for (const e of r.events) await this.deps.events.record(r.src, e.type, e.reason, e.message);
    return result;
  }

  /** A deleted source's request is answered too (its prune may keep it a while). */
  private async markRequestHandled(src: KubeObject): Promise<void> {
    const requested = src.metadata.annotations?.[RECONCILE_REQUEST_ANNOTATION];
    if (!requested || statusOf(src).lastHandledReconcileAt === requested) return;
    const body = { status: { lastHandledReconcileAt: requested } };
    await this.deps.kube.sendPatch(refOf(src), body, 'merge', { subresource: 'status' }).catch(() => undefined);
  }

  /**
   * What a source applies and prunes is applied as its ServiceAccount (spec.serviceAccountName,
   * else --default-service-account) through impersonation, so RBAC decides what a commit may
   * change; without either, with FlowOps' own rights. Reading Git and writing the source's own
   * status stay FlowOps' own.
   */
  private applierFor(key: string, spec: { serviceAccountName?: string | undefined }): KubeClient {
    const sa = spec.serviceAccountName ?? this.deps.defaultServiceAccount;
    return sa ? this.deps.kube.asServiceAccount(key.split('/')[0]!, sa) : this.deps.kube;
  }

  /**
   * Nothing new in Git: apply the last applied commit again, as Flux does every interval, so that
   * hand edits of fields FlowOps manages are reverted (server-side apply with force; an unchanged
   * object is a no-op write that keeps its resourceVersion). Objects another tool took over stay
   * skipped, and nothing is pruned that the inventory does not already list.
   */
  private async correctDrift(
    key: string,
    ctx: GitContext,
    spec: FlowSourceSpec,
    src: KubeObject,
    status: FlowSourceStatus,
  ): Promise<void> {
    const revision = status.lastAppliedRevision;
    const sha = shaOfRevision(revision);
    if (!revision || !sha) return;
    let files = this.appliedFiles.get(key);
    if (files?.sha !== sha) {
      files = { sha, files: await readDefinitions(ctx, sha, sourcePathPrefix(spec)) };
      this.appliedFiles.set(key, files);
    }
    const outcome = await syncCommit({
      kube: this.applierFor(key, spec),
      fieldManager: this.deps.fieldManager,
      source: key,
      revision,
      files: files.files,
      removed: [],
      full: true,
      inventory: status.inventory ?? [],
      defaultNamespace: key.split('/')[0]!,
      decryption: await decryptionKeys(this.deps.kube, key.split('/')[0] ?? '', spec),
    });
    if (outcome.outcome === 'Applied')
      return void this.deps.log.debug(
        { source: key, revision, applied: outcome.applied },
        'drift check: last applied revision re-applied',
      );
    this.deps.log.warn(
      { source: key, revision, outcome: outcome.outcome, err: outcome.message },
      'drift correction failed',
    );
    await this.deps.events.record(src, 'Warning', 'DriftCorrectionFailed', `${revision}: ${outcome.message}`);
  }

  /**
   * The FlowSource is being deleted: with prune (the default) delete every object in its inventory,
   * by the same rules as a commit's prune (only objects whose provenance still names this source,
   * never those another GitOps tool tracks; Flows first, CRDs last), then let it go. A failed
   * delete keeps the finalizer and is retried with backoff.
   */
  private async finalize(key: string, src: KubeObject): Promise<ReconcileResult> {
    if (!hasFinalizer(src, SOURCE_FINALIZER)) return success();
    const parsed = flowSourceSpecSchema.safeParse(src.spec);
    const prune = !parsed.success || parsed.data.prune !== false;
    if (prune) {
      const inventory = statusOf(src).inventory ?? [];
      const out = await pruneObjects({
        kube: this.applierFor(key, parsed.success ? parsed.data : {}),
        source: key,
        entries: inventory,
      });
      if (out.failures.length) {
        const message = `deleting what the source applied: ${out.failures.slice(0, 3).join('; ')}`;
        await this.deps.events.record(src, 'Warning', 'PruneFailed', message);
        return failed('PruneFailed', message);
      }
      this.deps.log.info(
        { source: key, pruned: out.pruned.length, skipped: out.skipped.length },
        'source deleted; pruned what it applied',
      );
      await this.deps.events.record(
        src,
        'Normal',
        'Pruned',
        `deleted ${out.pruned.length} object(s) this source applied${out.skipped.length ? `; left ${out.skipped.length} that another tool or source now manages` : ''}`,
      );
    }
    await setFinalizer(this.deps.kube, src, false, this.deps.fieldManager, SOURCE_FINALIZER);
    this.forget(key);
    rmSync(join(this.deps.dataDir, ...key.split('/')), { recursive: true, force: true });
    return success();
  }

  private contextFor(key: string): GitContext {
    let ctx = this.repos.get(key);
    if (!ctx) {
      const dir = repoDirOf(this.deps.dataDir, key);
      mkdirSync(dir, { recursive: true });
      ctx = gitContext(dir);
      this.repos.set(key, ctx);
    }
    return ctx;
  }

  /**
   * Diffs against the last applied commit when it is here and the spec has not changed (a new
   * path or a pin re-reads the whole folder), exports the commit, then validates and applies it.
   */
  private async syncTo(
    key: string,
    ctx: GitContext,
    spec: FlowSourceSpec,
    sha: string,
    revision: string,
    status: FlowSourceStatus,
    sameSpec: boolean,
  ): Promise<SyncOutcome> {
    const prefix = sourcePathPrefix(spec);
    const exportsDir = exportsDirOf(this.deps.dataDir, key);
    mkdirSync(exportsDir, { recursive: true });
    const last = shaOfRevision(status.lastAppliedRevision);
    const base = sameSpec && last && existsSync(exportDirOf(exportsDir, last)) ? last : undefined;
    let changes = await diffCommits({ ctx, from: base, to: sha, path: prefix }).catch(async () => undefined);
    const full = !changes || !base;
    if (!changes) changes = await diffCommits({ ctx, to: sha, path: prefix });
    const blobs = await readBlobs({ ctx, oids: changes.filter((c) => c.status !== 'deleted').map((c) => c.oid) });
    exportCommit({ exportsDir, sha, base: full ? undefined : exportDirOf(exportsDir, base!), changes, blobs });
    // A changed chart or kustomize base is an input of Flows whose own files did not change: apply
    // every definition again, so those Flows move to this revision (and rerun against it), as Flux
    // applies a whole revision rather than a diff.
    const inputsChanged = !full && changes.some((c) => !c.definition);
    const defs = changes.filter((c: FileChange) => c.definition);
    const decoder = new TextDecoder();
    return syncCommit({
      kube: this.applierFor(key, spec),
      fieldManager: this.deps.fieldManager,
      source: key,
      revision,
      files: inputsChanged
        ? await readDefinitions(ctx, sha, prefix)
        : defs
            .filter((c) => c.status !== 'deleted')
            .map((c) => ({ path: repoPath(prefix, c.path), text: decoder.decode(blobs.get(c.oid)) })),
      removed: inputsChanged ? [] : defs.filter((c) => c.status === 'deleted').map((c) => repoPath(prefix, c.path)),
      full: full || inputsChanged,
      inventory: status.inventory ?? [],
      defaultNamespace: key.split('/')[0]!,
      decryption: await decryptionKeys(this.deps.kube, key.split('/')[0] ?? '', spec),
      // The commit's Flows are type-checked against the server's CRDs too: the commit's own win.
      serverCrds: await listServerCrds(this.deps.kube),
    });
  }

  /** Logs a commit's outcome and says its Event (recorded after the status write). */
  private record(src: KubeObject, outcome: SyncOutcome, revision: string): SourceRun['events'][number] {
    const log = this.deps.log.child({ source: `${src.metadata.namespace}/${src.metadata.name}`, revision });
    if (outcome.outcome === 'Applied')
      log.info(
        { applied: outcome.applied, pruned: outcome.pruned, skipped: outcome.skipped.length },
        'revision applied',
      );
    else log.warn({ outcome: outcome.outcome, err: outcome.message }, 'revision not applied');
    const reason =
      outcome.outcome === 'Applied' ? 'Applied' : outcome.outcome === 'Rejected' ? 'ValidationFailed' : 'ApplyFailed';
    const type = outcome.outcome === 'Applied' ? 'Normal' : 'Warning';
    return { type, reason, message: `${revision}: ${outcome.message}` };
  }
}

/** The source's folder inside the repository, normalised ("" for all of it). */
export function sourcePathPrefix(spec: FlowSourceSpec): string {
  return (spec.path ?? '')
    .split('/')
    .filter((s) => s && s !== '.')
    .join('/');
}

/** A path relative to the source's folder, as a path in the repository. */
function repoPath(prefix: string, path: string): string {
  return prefix ? `${prefix}/${path}` : path;
}

/** Every definition file of a commit under the source's folder, with its repository path. */
async function readDefinitions(
  ctx: GitContext,
  sha: string,
  prefix: string,
): Promise<Array<{ path: string; text: string }>> {
  const defs = (await diffCommits({ ctx, to: sha, path: prefix })).filter((c) => c.definition);
  const blobs = await readBlobs({ ctx, oids: defs.map((c) => c.oid) });
  const decoder = new TextDecoder();
  return defs.map((c) => ({ path: repoPath(prefix, c.path), text: decoder.decode(blobs.get(c.oid)) }));
}

/** The commit is applied (or was rejected as it stands) under the current spec: nothing to do. */
function upToDate(status: FlowSourceStatus, generation: number, revision: string): boolean {
  if (status.observedGeneration !== generation || status.lastAttemptedRevision !== revision) return false;
  const last = status.history?.[0];
  // A refused revision is verified again each interval: the trusted keys may have changed.
  return last?.revision === revision && last.outcome !== 'Failed' && last.outcome !== 'Refused';
}

function summarise(
  status: FlowSourceStatus,
  generation: number,
  revision: string,
  outcome: SyncOutcome,
  signer?: string,
  commit?: CommitInfo,
): FlowSourceStatus {
  const entry = {
    revision,
    outcome: outcome.outcome,
    message: outcome.message.slice(0, 1000),
    ...(signer ? { signer } : {}),
    ...commit,
  };
  return statusAfterSync(status, generation, entry, outcome, `Applied revision ${revision}: ${outcome.message}`);
}

/** A commit pinned by a rollout's rollback (src/rollout/pin-source.ts): its history entry says why. */
function withPinReason(src: KubeObject, sha: string, outcome: SyncOutcome): SyncOutcome {
  const reason = src.metadata.annotations?.[PIN_REASON_ANNOTATION];
  const pinned = (src.spec as { ref?: { commit?: string } } | undefined)?.ref?.commit === sha;
  return reason && pinned ? { ...outcome, message: `pinned by a rollback: ${reason}; ${outcome.message}` } : outcome;
}

/** ±10 % so that many sources on one interval do not poll in lockstep. */
function jitter(ms: number): number {
  return Math.round(ms * (0.9 + Math.random() * 0.2));
}
