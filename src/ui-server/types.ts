// The JSON the web view's backend answers with. The UI (ui/) imports these types only, so the
// browser bundle and the server agree on one shape without sharing any runtime code.

import type { LastRun } from '../engine/index.js';
import type { Run } from '../api/index.js';

export type HealthStatus = 'Current' | 'InProgress' | 'Failed' | 'Missing';

export interface ObjectKey {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
}

/** A Ready condition as shown: status plus why. */
export interface Readiness {
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  /** ISO time of the last transition, when known. */
  since?: string;
}

export interface SourceSummary {
  namespace: string;
  name: string;
  url: string;
  /** What it follows, as a person reads it: `branch main`, `tag v1`, `pinned 1a2b3c4d`. */
  ref: string;
  pinned: boolean;
  suspended: boolean;
  appliedRevision?: string;
  ready: Readiness;
  /** The message of Ready when it is not True: the last error. */
  lastError?: string;
}

/** One sync of a commit: when, what came of it, what it said. */
export interface ApplyEntry {
  time: string;
  outcome: 'Applied' | 'Rejected' | 'Failed' | 'Refused';
  message?: string;
  /** This apply is what is live. */
  live: boolean;
}

/** A commit once, with what Git says of it and each time it was synced (newest first). */
export interface CommitEntry {
  revision: string;
  /** The 40-hex commit of the revision, for links and short display. */
  commit?: string;
  subject?: string;
  author?: string;
  authoredAt?: string;
  /** Who signed it (spec.verify): key fingerprint and user or principals, or "unsigned". */
  signer?: string;
  /** The outcome of its newest sync. */
  outcome: ApplyEntry['outcome'];
  /** Its syncs, newest first. */
  applies: ApplyEntry[];
  /** This commit is live. */
  live: boolean;
}

/** spec.verify of a source and where it stands: the SourceVerified condition and the last verified commit. */
export interface SourceVerification {
  mode: 'head' | 'all';
  /** Unknown until the first commit has been checked. */
  state: Readiness;
  lastVerifiedCommit?: string;
}

/** A file of the source that defines a Flow: links from a `file:line` message go to that Flow. */
export interface FlowFileLink {
  path: string;
  namespace: string;
  name: string;
}

export interface SourceDetail {
  source: SourceSummary;
  path?: string;
  interval?: string;
  /** Set when the source requires signed commits. */
  verification?: SourceVerification;
  history: CommitEntry[];
  /** The objects of the applied commit, with the file each came from. */
  objects: Array<ObjectKey & { path: string }>;
  /** The files that define Flows, for links from `file:line` messages. */
  flowFiles: FlowFileLink[];
  /** This web view has the source's clone: commits have pages and pins show their dry run. */
  commitPages?: boolean;
}

export interface FlowSummary {
  namespace: string;
  name: string;
  watched: { apiVersion: string; kind: string; namespace?: string };
  ready: Readiness;
  counts: { watched: number; ready: number; notReady: number; failed: number };
  suspended: boolean;
  lastError?: string;
}

export interface Overview {
  sources: SourceSummary[];
  flows: FlowSummary[];
  /** Δ-controller Operators (cluster-scoped). */
  operators: OperatorSummary[];
  /** What changed recently: the newest Events of any object, newest first. */
  recent: RecentEvent[];
  /** The API server's refusals of this reader's lists (their RBAC), e.g. `flows.flowops.io is forbidden: …`. */
  forbidden?: string[];
  /** Kinds this reader may not list at the cluster scope, listed in the namespaces they may list instead. */
  scoped?: string[];
}

/**
 * The overview's rows a change batch named, each read alone (GET /ui/api/overview/rows?flow=ns/name&
 * source=ns/name&operator=name&event=ns/name): those there now, and the keys of those gone.
 */
export interface OverviewRows {
  sources: SourceSummary[];
  flows: FlowSummary[];
  operators: OperatorSummary[];
  events: RecentEvent[];
  gone: { sources: string[]; flows: string[]; operators: string[]; events: string[] };
}

export interface WatchedObject {
  key: ObjectKey;
  ready: Readiness;
  children: number;
  /** Its last reconcile failed (a step failed; retried, or stalled for good). */
  failing?: boolean;
}

/**
 * What the Flow page refetches when only the Flow or its source changed: everything but the
 * watched objects and the definition, which can be megabytes (FlowDetail has them).
 */
export interface FlowHead {
  flow: FlowSummary;
  /** Present when the Flow has spec.rollout or a rollout status. */
  rollout?: FlowRolloutView;
  provenance?: Provenance;
  /** A newer commit of its source that touched its file and was rejected: what is live is older. */
  rejected?: RejectedVersion;
  /** Changes when the definition shown would (a new spec or another commit): the page refetches it all then. */
  definitionId: string;
}

/** The watched objects named in a change batch, as they are now; those gone or no longer watched by key. */
export interface FlowObjectsUpdate {
  objects: WatchedObject[];
  gone: ObjectKey[];
}

/** A Flow's progressive rollout as the Flow page shows it (status.rollout, status.generations; docs/rollout.md). */
export interface FlowRolloutView {
  /** Absent until a rollout has started (or without spec.rollout). */
  rollout?: {
    generation?: number;
    fromGeneration?: number;
    state?: string;
    currentStage?: number;
    startedAt?: string;
    message?: string;
    stages: Array<{
      index: number;
      target?: number | undefined;
      updated?: number | undefined;
      ready?: number | undefined;
      state?: string | undefined;
    }>;
    failed: Array<{ object: string; reason?: string | undefined }>;
  };
  generations: Array<{
    generation: number;
    revision?: string | undefined;
    objects?: number | undefined;
    ready?: number | undefined;
  }>;
  /** flowops.io/rollout-paused is set (`flowops rollout pause`). */
  paused: boolean;
  /** The controls that mean something in this state; the page offers only these. */
  controls: RolloutControlName[];
}

export type RolloutControlName = 'promote' | 'pause' | 'resume' | 'abort';

export interface FlowDetail extends FlowHead {
  /** The definition as YAML (spec only, as it was applied). */
  yaml: string;
  /** The file it was applied from, as it is in that commit (line numbers match `file:line` messages). */
  file?: { path: string; text: string };
  /** The file shown is at this commit (the page was asked for one: `?commit=`), not the applied one. */
  shownCommit?: string;
  objects: WatchedObject[];
}

export interface SourceState {
  ref: string;
  pinned: boolean;
  suspended: boolean;
}

export interface RejectedVersion {
  revision: string;
  commit?: string;
  subject?: string;
  time: string;
  /** The rejection as the source said it (`flow.yaml:20: field: problem; …`). */
  message: string;
}

export interface RunFlow {
  source?: string;
  revision?: string;
  commit?: string;
  generation: number;
}

export interface Provenance {
  /** The FlowSource's state (pinned, suspended), when it could be read. */
  sourceState?: SourceState;
  /** `namespace/name` of the FlowSource. */
  source?: string;
  revision?: string;
  commit?: string;
  path?: string;
  /** `namespace/name` of the Flow that made this object. */
  flow?: string;
  /** `Kind/namespace/name` of the watched object that owns it. */
  owner?: string;
}

export interface ChildNode {
  key: ObjectKey;
  health: HealthStatus;
  /** Why it is not Current; empty when it is. */
  message: string;
  /** What its own controller made for it (a StatefulSet's Pods), found through ownerReferences. */
  children: ChildNode[];
}

export interface EventEntry {
  type: string;
  reason: string;
  message: string;
  count: number;
  lastSeen?: string;
  source?: string;
}

export interface RecentEvent extends EventEntry {
  /** The Event's involvedObject. */
  object: ObjectKey;
  /** The Event itself, `namespace/name`: a change of it replaces this row (OverviewRows). */
  id?: string;
}

export interface ObjectDetail {
  key: ObjectKey;
  uid?: string;
  createdAt?: string;
  health: { status: HealthStatus; message: string };
  ready?: Readiness;
  conditions: Array<Readiness & { type: string }>;
  provenance: Provenance;
  /** The watched object this one is a child of (its controller ownerReference), when there is one. */
  owner?: ObjectKey;
  /** The step its last reconcile failed at, while it is failing (flowops.io/failure). */
  failure?: { step: string; reason: string; message: string; terminal: boolean };
  /** Its last run (flowops.io/last-run): the Flow and commit, each step's result and attempts, the error. */
  lastRun?: LastRun;
  /**
   * The Flow that made the last run, as it is now: its source (a run's revision links to that
   * source's commit), the commit and generation it is at (the run's may be older: said on the page).
   */
  runFlow?: RunFlow;
  /** This server makes commit pages (`flowops up`): revisions link to them, else to the commit's row. */
  commitPages?: boolean;
  /** Its RunHistory, newest first: when each of the last runs started, how long it and its steps took. */
  runs: Run[];
  /** The tree below it: its inventory (what a Flow applied for it), then what those own. */
  children: ChildNode[];
  /** `namespace/name` of the Flows that watch its kind. */
  watchedBy: string[];
  events: EventEntry[];
  /** The object as YAML without managedFields; Secrets' values are never included. */
  yaml: string;
}

/** What the stream says: something of this kind changed; pages refetch what they show. */
export interface ChangeMessage {
  apiVersion: string;
  kind: string;
  namespace?: string;
  name: string;
}

/** A button on the Source page, as its POST body. */
export type SourceAction = { action: 'pin'; commit: string } | { action: 'unpin' | 'suspend' | 'resume' | 'sync' };

export interface ActionResult {
  message: string;
}

/** A source or target of a Δ-controller pipeline, as a graph node. */
export interface GraphResource {
  kind: string;
  /** API group ("core" for ""), or the view group of an Operator. */
  group: string;
  /** A view (an Operator's in-memory kind), not a stored kind. */
  view: boolean;
  namespace?: string;
  /** Source: Watcher | OneShot | Periodic; target: Updater | Patcher. */
  type?: string;
}

export interface OperatorController {
  name: string;
  sources: GraphResource[];
  /** The pipeline's stages in order: `@select`, `@project`, `@join`, … */
  stages: string[];
  target?: GraphResource;
  ready: Readiness;
  lastErrors: string[];
}

export interface OperatorSummary {
  name: string;
  controllers: number;
  ready: number;
}

export interface OperatorDetail {
  name: string;
  /** Where it was applied from (its flowops.io/source, revision and path), when from Git. */
  provenance?: Provenance;
  controllers: OperatorController[];
  yaml: string;
}

/** What pinning a commit would change, from a server-side dry run (as `flowops diff --commit`). */
export interface CommitPreview {
  commit: string;
  /** Why it cannot be applied (the sync would reject it), or could not be previewed. */
  errors: string[];
  changes: Array<{ change: 'changed' | 'created' | 'pruned'; object: string; diff: string }>;
  /** Changed objects not listed (past the page's bound). */
  cut: number;
  skipped?: string[];
}

export interface CommitFileDiff {
  path: string;
  status: 'added' | 'modified' | 'deleted';
  /** `diff -u` against the parent; empty when tooLarge. */
  diff: string;
  /** Past the page's bound (or binary): named, not diffed. */
  tooLarge?: true;
}

/** A commit's page: what Git says of it, its diff against its parent, and what applying it would change live. */
export interface CommitDetail {
  source: { namespace: string; name: string };
  commit: string;
  parent?: string;
  subject?: string;
  author?: string;
  authoredAt?: string;
  files: CommitFileDiff[];
  cut: number;
  /** The dry run of applying it now (as a pin would). */
  live: CommitPreview;
  /** Its syncs, when the source synced it. */
  entry?: CommitEntry;
}

/** A FlowSource's pull-request previews (src/preview/preview-store.ts), without their diffs. */
export interface PreviewList {
  source: { namespace: string; name: string };
  previews: Array<{
    pr: number;
    headRef: string;
    sha: string;
    at: string;
    state: 'pending' | 'success' | 'failure' | 'error';
    description: string;
    errors: string[];
    cut?: boolean;
    /** How many objects the preview would change, create or prune. */
    objects: number;
  }>;
}
