// Pure mapping from Kubernetes objects to what the web view shows. No I/O: reads.ts fetches.

import { conditionsOf, healthOf, type Condition, type KubeObject } from '../kube/index.js';
import type { HistoryEntry, InventoryEntry, FlowStatus } from '../api/index.js';
import type {
  ApplyEntry,
  CommitEntry,
  FlowFileLink,
  FlowSummary,
  ObjectKey,
  Provenance,
  Readiness,
  RejectedVersion,
  SourceState,
  SourceSummary,
  SourceVerification,
} from './types.js';

const UNKNOWN: Readiness = { status: 'Unknown', reason: '', message: '' };

const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export { conditionsOf };

export function readinessOf(c: Condition | undefined): Readiness {
  if (!c) return UNKNOWN;
  return {
    status: c.status,
    reason: c.reason ?? '',
    message: c.message ?? '',
    ...(c.lastTransitionTime ? { since: c.lastTransitionTime } : {}),
  };
}

export const readyOf = (obj: KubeObject): Readiness => readinessOf(conditionsOf(obj).find((c) => c.type === 'Ready'));

export const keyOf = (obj: KubeObject): ObjectKey => ({
  apiVersion: obj.apiVersion,
  kind: obj.kind,
  name: obj.metadata.name ?? '',
  ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
});

/** `main@sha1:<40 hex>` → the sha. */
export function commitOf(revision: string | undefined): string | undefined {
  return revision ? /sha1:([0-9a-f]{40})$/.exec(revision)?.[1] : undefined;
}

/** An OCI source's ref as the sources table shows it: the pinned digest, the semver range or the tag. */
function ociRefText(ref: Record<string, unknown>): string {
  const digest = str(ref.digest);
  if (digest) return `pinned ${digest.slice(0, 'sha256:'.length + 12)}`;
  const range = str(ref.semver);
  return range ? `semver ${range}` : `tag ${str(ref.tag) ?? 'latest'}`;
}

function gitRefText(commit: string | undefined, tag: string | undefined, branch: string | undefined): string {
  return commit ? `pinned ${commit.slice(0, 8)}` : tag ? `tag ${tag}` : `branch ${branch ?? 'main'}`;
}

export function sourceSummary(obj: KubeObject): SourceSummary {
  const spec = record(obj.spec);
  const ref = record(spec.ref);
  const oci = record(spec.oci);
  const status = record(obj.status);
  const ready = readyOf(obj);
  const commit = str(ref.commit);
  const appliedRevision = str(status.lastAppliedRevision);
  return {
    namespace: obj.metadata.namespace ?? '',
    name: obj.metadata.name ?? '',
    url: str(spec.url) ?? str(oci.url) ?? '',
    ref: spec.oci ? ociRefText(record(oci.ref)) : gitRefText(commit, str(ref.tag), str(ref.branch)),
    pinned: Boolean(commit ?? str(record(oci.ref).digest)),
    suspended: spec.suspend === true,
    ...(appliedRevision ? { appliedRevision } : {}),
    ready,
    ...(ready.status !== 'True' && ready.message ? { lastError: ready.message } : {}),
  };
}

/**
 * Each commit once, newest first, with its syncs under it: a pin or a retry syncs a commit again,
 * which is one more apply of the same commit, not another commit.
 */
export function commitHistory(obj: KubeObject): CommitEntry[] {
  const status = record(obj.status);
  const live = str(status.lastAppliedRevision);
  const history = Array.isArray(status.history) ? (status.history as HistoryEntry[]) : [];
  const byCommit = new Map<string, CommitEntry>();
  // Newest first: the live apply is the first applied entry of the live revision.
  let liveSeen = false;
  for (const h of history) {
    const commit = commitOf(h.revision);
    const isLive: boolean = !liveSeen && h.revision === live && h.outcome === 'Applied';
    liveSeen ||= isLive;
    const apply: ApplyEntry = {
      time: h.time,
      outcome: h.outcome,
      ...(h.message ? { message: h.message } : {}),
      live: isLive,
    };
    const key = commit ?? h.revision;
    const entry = byCommit.get(key);
    if (entry) {
      entry.applies.push(apply);
      entry.live ||= isLive;
      if (entry.subject === undefined && h.subject !== undefined) entry.subject = h.subject;
      if (entry.author === undefined && h.author !== undefined) entry.author = h.author;
      if (entry.authoredAt === undefined && h.authoredAt !== undefined) entry.authoredAt = h.authoredAt;
      if (entry.signer === undefined && h.signer !== undefined) entry.signer = h.signer;
      continue;
    }
    byCommit.set(key, {
      revision: h.revision,
      ...(commit ? { commit } : {}),
      ...(h.subject !== undefined ? { subject: h.subject } : {}),
      ...(h.author !== undefined ? { author: h.author } : {}),
      ...(h.authoredAt !== undefined ? { authoredAt: h.authoredAt } : {}),
      ...(h.signer !== undefined ? { signer: h.signer } : {}),
      outcome: h.outcome,
      applies: [apply],
      live: isLive,
    });
  }
  return [...byCommit.values()];
}

/** What a page that shows where an object came from says of its source: pinned, suspended. */
export function sourceStateOf(src: KubeObject): SourceState {
  const s = sourceSummary(src);
  return { ref: s.ref, pinned: s.pinned, suspended: s.suspended };
}

/** The files of the applied commit that define Flows, so a `file:line` in a message links to the Flow. */
export function flowFiles(obj: KubeObject): FlowFileLink[] {
  return sourceObjects(obj).flatMap((o) =>
    o.kind === 'Flow' && o.apiVersion.startsWith('flowops.io/') && o.namespace
      ? [{ path: o.path, namespace: o.namespace, name: o.name }]
      : [],
  );
}

/**
 * The newest commit of the source, when it is newer than what the Flow runs, was rejected and names
 * the Flow's file: the Flow page says a newer version of it was refused.
 */
export function rejectedVersion(
  src: KubeObject,
  flowRevision: string | undefined,
  path: string | undefined,
): RejectedVersion | undefined {
  const newest = (record(src.status).history as HistoryEntry[] | undefined)?.[0];
  if (newest?.outcome !== 'Rejected' || !path || newest.revision === flowRevision) return undefined;
  if (!(newest.message ?? '').includes(`${path}:`)) return undefined;
  const commit = commitOf(newest.revision);
  return {
    revision: newest.revision,
    ...(commit ? { commit } : {}),
    ...(newest.subject ? { subject: newest.subject } : {}),
    time: newest.time,
    message: newest.message ?? '',
  };
}

/** Whether a source requires signatures (spec.verify) and its SourceVerified condition; undefined without verify. */
export function sourceVerification(obj: KubeObject): SourceVerification | undefined {
  const verify = record(record(obj.spec).verify);
  if (!Object.keys(verify).length) return undefined;
  const condition = conditionsOf(obj).find((c) => c.type === 'SourceVerified');
  const status = condition?.status === 'True' || condition?.status === 'False' ? condition.status : 'Unknown';
  const state: Readiness = { status, reason: condition?.reason ?? 'NotChecked', message: condition?.message ?? '' };
  const last = str(record(obj.status).lastVerifiedCommit);
  return { mode: verify.mode === 'all' ? 'all' : 'head', state, ...(last ? { lastVerifiedCommit: last } : {}) };
}

export function sourceObjects(obj: KubeObject): Array<ObjectKey & { path: string }> {
  const inv = record(obj.status).inventory;
  return (Array.isArray(inv) ? (inv as InventoryEntry[]) : []).map((e) => ({
    apiVersion: e.apiVersion,
    kind: e.kind,
    name: e.name,
    ...(e.namespace ? { namespace: e.namespace } : {}),
    path: e.path,
  }));
}

export function flowSummary(obj: KubeObject): FlowSummary {
  const spec = record(obj.spec);
  const watch = record(spec.watch);
  const status = record(obj.status) as FlowStatus;
  const r = status.resources ?? {};
  return {
    namespace: obj.metadata.namespace ?? '',
    name: obj.metadata.name ?? '',
    watched: {
      apiVersion: str(watch.apiVersion) ?? '',
      kind: str(watch.kind) ?? '',
      ...(str(watch.namespace) ? { namespace: str(watch.namespace)! } : {}),
    },
    ready: readyOf(obj),
    counts: { watched: r.watched ?? 0, ready: r.ready ?? 0, notReady: r.notReady ?? 0, failed: r.failed ?? 0 },
    suspended: spec.suspend === true,
    ...(status.lastError ? { lastError: status.lastError } : {}),
  };
}

/** The annotations FlowOps stamps, read back as links to the commit and the Flow. */
export function provenanceOf(obj: KubeObject): Provenance {
  const a = obj.metadata.annotations ?? {};
  const revision = a['flowops.io/revision'];
  const commit = commitOf(revision);
  const p: Provenance = {};
  if (a['flowops.io/source']) p.source = a['flowops.io/source'];
  if (revision) p.revision = revision;
  if (commit) p.commit = commit;
  if (a['flowops.io/path']) p.path = a['flowops.io/path'];
  if (a['flowops.io/flow']) p.flow = a['flowops.io/flow'];
  if (a['flowops.io/owner']) p.owner = a['flowops.io/owner'];
  return p;
}

/** kstatus health, as the children tree colours it. */
export function healthView(obj: KubeObject): { status: 'Current' | 'InProgress' | 'Failed'; message: string } {
  return healthOf(obj);
}
