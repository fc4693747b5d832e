// The Flow controller's parts, composed by process role the way controller-runtime's manager
// adds runnables: every process has the Flow registry; the process that watches (the leader, or
// `flowops up`) adds the watch set and the status reporter; the process that reconciles (a
// worker, or `flowops up`) adds the reconcile handler, and a worker a read cache of its own.

import {
  FlowRegistry,
  FlowStatusReporter,
  ReadCache,
  ReconcileHandler,
  type TenancyPolicy,
  WatchSet,
  RunCauses,
  type RunCauseLog,
  type FlowEntry,
} from '../controller/index.js';
import { FlowReconciler, RunHistoryWriter } from '../engine/index.js';
import { FIELD_MANAGER, type LiveChild } from '../executors/index.js';
import { type KubeClient, EventRecorder, type KubeObject, type ObjectRef } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { reconcileMetrics, stepMetrics } from '../metrics/observers.js';
import type { FlowOpsMetrics } from '../metrics/index.js';
import type { WorkQueue } from '../queue/index.js';
import type { FlowFile } from '../api/index.js';
import { ClusterObjects, GenerationResolver, RevisionStore, RolloutController } from '../rollout/index.js';

export interface FlowPartsOptions {
  kube: KubeClient;
  log: Logger;
  /** Where watch events (and a worker's re-derived keys) go. */
  queue: Pick<WorkQueue, 'add'>;
  metrics?: FlowOpsMetrics;
  /** `{{ .Now }}` for templates; default the clock. */
  now?: () => string;
  sourceDir?: string;
  /** Per-Flow source folder (a Git export of the Flow's commit); falls back to sourceDir. */
  sourceDirFor?: (flow: KubeObject) => string | undefined;
  /** The file a Flow was defined in (`flowops render`); default: its flowops.io/path in its source folder. */
  fileFor?: (flow: KubeObject) => FlowFile | undefined;
  /** Fetches a Flow's commit when this process has no copy (workers); see ReconcileHandlerDeps. */
  fetchSourceDir?: (flow: KubeObject) => Promise<string | undefined>;
  /** --default-service-account and --no-cross-namespace-refs. */
  tenancy?: TenancyPolicy;
  /** A sharded `flowops run` replica's shards (WatchSetDeps.shard); only the leader's watches use it. */
  shard?: { owns(namespace: string | undefined, name: string): boolean };
  /** A sharded replica holding shard 0: it judges every Flow's rollout from all shards' objects. */
  singleton?: boolean;
  /**
   * Leader and workers: where the leader's watches mark why each key is enqueued and a worker's
   * run takes it (controller/queue-run-causes.ts). `flowops up` keeps its own in memory.
   */
  causes?: RunCauseLog;
}

/** What a process of one role runs; `start` starts the watches, `stop` stops them (not the queue). */
export interface FlowParts {
  registry: FlowRegistry;
  start(): void;
  stop(): Promise<void>;
  /** The Flows are listed and every Flow's watch has made its first list: what /readyz waits on. */
  synced(): boolean;
}

export interface EmbeddedFlows extends FlowParts {
  watches: WatchSet;
  handler: ReconcileHandler;
  /** Writes the run records waiting for their batch's timer now (a bench counting every write of a phase). */
  flushRecords(): Promise<void>;
}

export interface LeaderFlows extends FlowParts {
  watches: WatchSet;
}

export interface WorkerFlows extends FlowParts {
  cache: ReadCache;
  handler: ReconcileHandler;
}

function registryFor(p: FlowPartsOptions): FlowRegistry {
  const { sourceDir, sourceDirFor } = p;
  const dirFor = sourceDirFor ?? (sourceDir ? () => sourceDir : undefined);
  return new FlowRegistry({
    kube: p.kube,
    log: p.log.child({ part: 'controller' }),
    ...(dirFor ? { sourceDirFor: (flow: KubeObject) => dirFor(flow) ?? sourceDir } : {}),
    ...(p.fileFor ? { fileFor: p.fileFor } : {}),
    ...(p.tenancy ? { tenancy: p.tenancy } : {}),
  });
}

function reconcilerFor(
  p: FlowPartsOptions,
  read?: (ref: ObjectRef, seen?: string) => KubeObject | undefined,
  liveChild?: LiveChild,
): FlowReconciler {
  return new FlowReconciler({
    ...(liveChild ? { liveChild } : {}),
    kube: p.kube,
    events: new EventRecorder(p.kube, 'flowops'),
    log: p.log.child({ part: 'engine' }),
    fieldManager: FIELD_MANAGER,
    history: new RunHistoryWriter(p.kube, p.log.child({ part: 'engine' })),
    ...(read ? { read } : {}),
    ...(p.now ? { now: p.now } : {}),
    ...(p.metrics ? { observer: stepMetrics(p.metrics) } : {}),
    ...(p.tenancy?.defaultServiceAccount ? { defaultServiceAccount: p.tenancy.defaultServiceAccount } : {}),
    ...(p.tenancy && !p.tenancy.crossNamespaceRefs ? { ownNamespaceOnly: true } : {}),
  });
}

interface Watches {
  watches: WatchSet;
  reporter: FlowStatusReporter;
  rollouts: RolloutController;
  /** A sharded singleton's view of rollout Flows' objects in every shard. */
  clusterObjects: ClusterObjects | undefined;
}

/** Where the watches tell why they enqueue; `echoes` only where the reconciles run in the same process. */
interface CauseWiring {
  causes: RunCauseLog;
  echoes?: (child: KubeObject, release: () => void) => boolean;
}

function watchesFor(
  p: FlowPartsOptions,
  registry: FlowRegistry,
  reconciler: FlowReconciler,
  countReadyConditions: boolean,
  wiring?: CauseWiring,
): Watches {
  const log = p.log.child({ part: 'controller' });
  let watches: WatchSet | undefined;
  const shard = p.shard;
  let rollouts: RolloutController | undefined;
  const reporter = new FlowStatusReporter({
    kube: p.kube,
    log,
    fieldManager: FIELD_MANAGER,
    facts: (e) => watches!.facts(e),
    ...(shard ? { writes: (e: FlowEntry) => shard.owns(e.flow.metadata.namespace, e.flow.metadata.name ?? '') } : {}),
    rolloutStatus: (e) => rollouts?.statusFor(e),
  });
  const clusterObjects =
    shard && p.singleton
      ? new ClusterObjects({ kube: p.kube, log, registry, changed: (e) => rollouts?.touch(e) })
      : undefined;
  const sharded = shard
    ? {
        writesStatus: (e: FlowEntry) => shard.owns(e.flow.metadata.namespace, e.flow.metadata.name ?? ''),
        ...(clusterObjects ? { allObjects: (e: FlowEntry) => clusterObjects.objects(e) } : {}),
      }
    : undefined;
  rollouts = new RolloutController({
    ...(sharded ? { sharded } : {}),
    kube: p.kube,
    log: p.log.child({ part: 'rollout' }),
    registry,
    revisions: new RevisionStore(p.kube, FIELD_MANAGER),
    events: new EventRecorder(p.kube, 'flowops'),
    fieldManager: FIELD_MANAGER,
    objects: (e) => watches?.objects(e),
    refreshStatus: (e) => reporter.schedule(e),
  });
  watches = new WatchSet({
    kube: p.kube,
    log,
    registry,
    queue: p.queue,
    fieldManager: FIELD_MANAGER,
    reporter,
    release: (ref) => reconciler.release(ref),
    ...(wiring ? { causes: wiring.causes } : {}),
    ...(wiring?.echoes ? { echoes: wiring.echoes } : {}),
    ...(shard ? { shard } : {}),
    onWatched: (entry, obj) => {
      if (countReadyConditions) reporter.recordReadyCondition(entry, obj);
      rollouts.touch(entry);
    },
  });
  return { watches, reporter, rollouts, clusterObjects };
}

/** The generation each object is reconciled by (spec.rollout), read as the reconciler reads objects. */
function resolverFor(
  p: FlowPartsOptions,
  read: (ref: ObjectRef, seen?: string) => KubeObject | undefined,
): GenerationResolver {
  return new GenerationResolver({
    revisions: new RevisionStore(p.kube, FIELD_MANAGER),
    read: async (ref, seen) => read(ref, seen) ?? (await p.kube.get(ref)),
  });
}

/** `flowops up`: the watches and the reconciles in one process; outcomes feed the Flow status directly. */
export function embeddedFlows(p: FlowPartsOptions): EmbeddedFlows {
  const registry = registryFor(p);
  let cache: WatchSet | undefined;
  // The watches and the reconciles share a process: the child informers' cache saves applies that
  // would change nothing, and a child's status change re-judges instead of running the steps.
  const causes = new RunCauses();
  const reconciler = reconcilerFor(
    p,
    (ref, seen) => cache?.cached(ref, seen),
    (ref) => cache?.children.get(ref),
  );
  const echoes = (child: KubeObject, release: () => void): boolean => reconciler.echoes(child, release);
  const { watches, reporter, rollouts } = watchesFor(p, registry, reconciler, false, { causes, echoes });
  cache = watches;
  const generations = resolverFor(p, (ref, seen) => cache?.cached(ref, seen));
  const handler = new ReconcileHandler({
    kube: p.kube,
    registry,
    reconciler,
    outcomes: reporter,
    causes,
    generations,
    ...(p.metrics ? { observer: reconcileMetrics(p.metrics) } : {}),
  });
  return {
    registry,
    watches,
    handler,
    flushRecords: () => reconciler.flushRecords(),
    synced: () => registry.isSynced && watches.allSynced(),
    start: () => {
      registry.start();
      watches.start();
      rollouts.start();
    },
    stop: async () => {
      handler.cancel();
      await Promise.all([registry.stop(), watches.stop(), reporter.stop(), rollouts.stop(), reconciler.drain()]);
    },
  };
}

/** `flowops run` while it leads: the watches only; workers reconcile, so outcomes come from the Ready conditions they write. */
export function leaderFlows(p: FlowPartsOptions): LeaderFlows {
  const registry = registryFor(p);
  const wiring = p.causes ? { causes: p.causes } : undefined;
  const { watches, reporter, rollouts, clusterObjects } = watchesFor(p, registry, reconcilerFor(p), true, wiring);
  return {
    registry,
    watches,
    synced: () => registry.isSynced && watches.allSynced(),
    start: () => {
      registry.start();
      watches.start();
      rollouts.start();
    },
    stop: async () => {
      await Promise.all([registry.stop(), watches.stop(), reporter.stop(), rollouts.stop(), clusterObjects?.stop()]);
    },
  };
}

/** `flowops worker`: the registry, a read cache of the watched objects and the reconcile handler; no watches enqueue here. */
export function workerFlows(p: FlowPartsOptions): WorkerFlows {
  const registry = registryFor(p);
  const causes = p.causes ? { causes: p.causes } : {};
  const cache = new ReadCache({
    kube: p.kube,
    log: p.log.child({ part: 'controller' }),
    registry,
    queue: p.queue,
    ...causes,
  });
  const reconciler = reconcilerFor(p, (ref, seen) => cache.cached(ref, seen));
  const handler = new ReconcileHandler({
    kube: p.kube,
    registry,
    reconciler,
    generations: resolverFor(p, (ref, seen) => cache.cached(ref, seen)),
    ...causes,
    ...(p.fetchSourceDir ? { fetchSourceDir: p.fetchSourceDir } : {}),
    ...(p.metrics ? { observer: reconcileMetrics(p.metrics) } : {}),
  });
  return {
    registry,
    cache,
    handler,
    synced: () => registry.isSynced,
    start: () => registry.start(),
    stop: async () => {
      handler.cancel();
      await Promise.all([registry.stop(), cache.stop(), reconciler.drain()]);
    },
  };
}
