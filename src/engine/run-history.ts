// Writes each watched object's RunHistory (src/api/run-history.ts): the newest run first, at most
// RUN_HISTORY_LIMIT. Bookkeeping of FlowOps' own, like Events: written with FlowOps' identity, and
// a failure to write it is logged, never the run's failure.
//
// Runs are batched per record (run-batch.ts): a run is written within RUN_BATCH_MS with every run
// of the same object recorded meanwhile, in one write — a create the first time, then a replace at
// the resourceVersion last written (cached), so that another worker's run in between (runs of one
// object are serialised by the queue, not pinned to a worker) is a conflict, read and kept rather
// than overwritten. A write the server may take later (a 5xx, a 429, a cut connection) is tried
// again with the runs recorded since; a stop writes what waits.

import { LRUCache } from 'lru-cache';
import { FLOW_API_VERSION, RUNHISTORY_KIND, RUN_HISTORY_LIMIT, type Run, type RunHistory } from '../api/index.js';
import type { KubeClient, KubeObject } from '../kube/index.js';
import { KubeApiError } from '../kube/rest.js';
import type { Logger } from '../log/index.js';
import { readLastRun } from './last-run.js';
import { addRun, type FlowName, identityOf, mergeFailed, type RunBatch } from './run-batch.js';

export const RUN_HISTORY_FIELD_MANAGER = 'flowops-run-history';
/** Messages are cut so that ten runs stay a small object. */
const MAX_MESSAGE = 1024;
const MAX_NAME = 253;

interface Cached {
  resourceVersion: string;
  runs: Run[];
  total: number;
}

/** The record's name: `<kind>-<name>` of the watched object, lower case, cut to a valid name. */
export function runHistoryName(obj: Pick<KubeObject, 'kind' | 'metadata'>): string {
  const name = `${obj.kind.toLowerCase()}-${obj.metadata.name ?? ''}`;
  return name.length <= MAX_NAME ? name : name.slice(0, MAX_NAME).replace(/[-.]+$/, '');
}

/** How long runs that changed nothing may be counted in memory only before the count is written. */
export const UNCHANGED_FLUSH_MS = 10 * 60_000;
/**
 * How long a recorded run waits for others of its object before its record is written: the runs of
 * one object within it are one write. 0 for now (the runs of one event-loop turn): with 1 s, a
 * whole `npm test` showed three tests that read a run's record right after its status (get runs,
 * tree, the web view's last run), and not every such reader is known to wait yet. A longer window
 * is a constructor option (the batching tests use 50–200 ms).
 */
export const RUN_BATCH_MS = 0;

interface Unchanged {
  obj: KubeObject;
  flow: FlowName;
  count: number;
}

/** How a write ended: written, to be tried again (the server may take it later), or given up. */
type WriteEnd = 'written' | 'retry' | 'dropped';

export class RunHistoryWriter {
  private readonly cache = new LRUCache<string, Cached>({ max: 10_000 });
  /** The write in flight per record: the next one waits for it, so runs land in their order. */
  private readonly writing = new Map<string, Promise<void>>();
  /**
   * Runs that changed nothing, per record, not written yet: added to status.total by the record's
   * next write, or by the flush timer. Past the bound the least recently counted go unwritten
   * (a count, not a run: the runs listed stay exact).
   */
  private readonly unchanged = new LRUCache<string, Unchanged>({ max: 10_000 });
  /** Runs recorded and not written yet, per record; all written when batchTimer fires. */
  private readonly batches = new Map<string, RunBatch>();
  private batchTimer: NodeJS.Timeout | undefined;
  /** Orders batches of one record: a failed one put back goes under those made after it. */
  private seq = 0;
  private readonly timer: NodeJS.Timeout;
  private stopped = false;
  private warned = false;

  constructor(
    private readonly kube: KubeClient,
    private readonly log: Logger,
    flushMs = UNCHANGED_FLUSH_MS,
    private readonly batchMs = RUN_BATCH_MS,
  ) {
    this.timer = setInterval(() => void this.flushUnchanged(), flushMs);
    this.timer.unref();
  }

  /**
   * A run of `obj` whose outcome equals the last one recorded: counted, not written (a resync of
   * a thousand settled objects writes nothing). The count reaches status.total with the next write.
   */
  countUnchanged(obj: KubeObject, flow: FlowName): void {
    const { key } = this.where(obj, flow);
    this.addUnchanged(key, { obj: identityOf(obj), flow, count: 1 });
  }

  private addUnchanged(key: string, add: Unchanged): void {
    const u = this.unchanged.get(key);
    if (u) u.count += add.count;
    else this.unchanged.set(key, add);
  }

  /** Runs counted and not written yet, for `obj` (tests, the bench). */
  pendingUnchanged(obj: KubeObject, flow: FlowName): number {
    return this.unchanged.get(this.where(obj, flow).key)?.count ?? 0;
  }

  /** Writes every count waiting (the timer, and a process stopping). */
  async flushUnchanged(): Promise<void> {
    const waiting = [...this.unchanged.entries()];
    this.unchanged.clear();
    await Promise.all(waiting.map(([key, u]) => this.enqueue(key, () => this.writeCount(key, u))));
  }

  /**
   * Writes every run recorded and waiting now, each record's in one write (the timer, a stop, the
   * bench), and resolves once those and the writes already in flight are done.
   */
  async flush(): Promise<void> {
    clearTimeout(this.batchTimer);
    this.batchTimer = undefined;
    const due = [...this.batches.entries()];
    this.batches.clear();
    const inFlight = [...this.writing.values()];
    await Promise.all([
      ...inFlight,
      ...due.map(([key, batch]) => this.enqueue(key, () => this.writeBatch(key, batch))),
    ]);
  }

  private where(obj: KubeObject, flow: FlowName): { namespace: string; name: string; key: string } {
    const namespace = obj.metadata.namespace ?? flow.namespace;
    const name = runHistoryName(obj);
    return { namespace, name, key: `${namespace}/${name}/${obj.metadata.uid ?? ''}` };
  }

  private enqueue(key: string, write: () => Promise<void>): Promise<void> {
    const next = (this.writing.get(key) ?? Promise.resolve()).then(write);
    this.writing.set(key, next);
    void next.then(() => {
      if (this.writing.get(key) === next) this.writing.delete(key);
    });
    return next;
  }

  private later(ms: number): void {
    if (this.batchTimer || this.stopped) return;
    this.batchTimer = setTimeout(() => void this.flush(), ms);
    // Bookkeeping does not keep a process alive; a stop writes what waits (drain).
    this.batchTimer.unref();
  }

  /**
   * Adds `run` to the record of `obj` (a cluster-scoped object's record lives in the Flow's
   * namespace), written within RUN_BATCH_MS with the object's other runs. The reconcile need not
   * wait: the promise resolves once the run is written (or given up), and never rejects.
   */
  record(obj: KubeObject, flow: FlowName, run: Run): Promise<void> {
    const { key } = this.where(obj, flow);
    const cut: Run = run.error
      ? { ...run, error: { ...run.error, message: run.error.message.slice(0, MAX_MESSAGE) } }
      : run;
    let batch = this.batches.get(key);
    if (!batch) {
      // An object that carries a last run has most likely a record already (a restarted process
      // has no cache of it): read it first rather than have a create refused.
      const known = readLastRun(obj) !== undefined;
      batch = { obj: identityOf(obj), flow, runs: [], extra: 0, known, seq: this.seq++, waiters: [] };
      this.batches.set(key, batch);
    }
    // The runs counted unchanged before this one go with its write, as they did unbatched.
    batch.extra += this.unchanged.get(key)?.count ?? 0;
    this.unchanged.delete(key);
    addRun(batch, cut);
    const { waiters } = batch;
    const done = new Promise<void>((resolve) => waiters.push(resolve));
    if (this.stopped) void this.flush();
    else this.later(this.batchMs);
    return done;
  }

  /** Every run and count waiting written, and every write in flight done (a process stopping). */
  async drain(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.flush();
    await this.flushUnchanged();
    await Promise.all([...this.writing.values()]);
  }

  private async writeBatch(key: string, batch: RunBatch): Promise<void> {
    const end = await this.write(batch.obj, batch.flow, batch.runs, key, batch.extra, batch.known);
    if (end === 'retry' && !this.stopped) {
      // Tried again with the runs recorded since, in one write, on the next batch's timer; read
      // first, as a refused create may have been made all the same.
      batch.known = true;
      this.batches.set(key, mergeFailed(batch, this.batches.get(key)));
      this.later(this.batchMs);
      return;
    }
    for (const resolve of batch.waiters) resolve();
  }

  /** The counted runs alone: the same runs listed, a larger total. */
  private async writeCount(key: string, u: Unchanged): Promise<void> {
    const end = await this.write(u.obj, u.flow, [], key, u.count, true);
    if (end === 'retry' && !this.stopped) this.addUnchanged(key, u);
  }

  /**
   * Adds `runs` (newest first) and `extra` more to status.total of the record; `known`: a record
   * is expected, so read it before writing rather than try a create.
   */
  private async write(
    obj: KubeObject,
    flow: FlowName,
    added: Run[],
    key: string,
    extra: number,
    known: boolean,
  ): Promise<WriteEnd> {
    const { namespace, name } = this.where(obj, flow);
    try {
      for (let attempt = 0; ; attempt++) {
        const mustRead = attempt > 0 || !added.length || known;
        const previous =
          this.cache.get(key) ?? (mustRead ? await this.read(namespace, name, obj.metadata.uid) : undefined);
        // A count alone needs a record to add to; without one the runs it counted are not listed either.
        if (!added.length && !previous) return 'written';
        const runs = [...added, ...(previous?.runs ?? [])].slice(0, RUN_HISTORY_LIMIT);
        const total = (previous?.total ?? 0) + added.length + extra;
        const record = this.recordOf(
          obj,
          flow,
          namespace,
          name,
          runs,
          total,
          previous?.resourceVersion,
        ) as unknown as KubeObject;
        try {
          // Nothing known of the record: most often it does not exist yet, so a create, and a
          // conflict says otherwise. Known: a replace at the resourceVersion last written. Both are
          // cheaper for the API server than a server-side apply.
          const written = previous?.resourceVersion
            ? await this.kube.replace(record, { fieldManager: RUN_HISTORY_FIELD_MANAGER })
            : await this.kube.create(record, { fieldManager: RUN_HISTORY_FIELD_MANAGER });
          this.cache.set(key, { resourceVersion: written.metadata.resourceVersion ?? '', runs, total });
          return 'written';
        } catch (err) {
          // It exists (create), or another worker wrote in between (replace): read it and add to it.
          if (!(err instanceof KubeApiError && err.statusCode === 409) || attempt >= 2) throw err;
          this.cache.delete(key);
        }
      }
    } catch (err) {
      this.cache.delete(key);
      const retry =
        !(err instanceof KubeApiError) || err.statusCode >= 500 || err.statusCode === 429 || err.statusCode === 409;
      // Once at warn (a cluster without the RunHistory CRD, or without the RBAC for it, says so on
      // every run otherwise), then at debug.
      const fields = { err, runHistory: `${namespace}/${name}` };
      if (this.warned) this.log.debug(fields, 'could not write the run history');
      else
        this.log.warn(
          fields,
          retry
            ? 'could not write the run history; trying again (said once)'
            : 'could not write the run history (install the runhistories.flowops.io CRD and its RBAC from config/ or the chart); said once',
        );
      this.warned = true;
      return retry ? 'retry' : 'dropped';
    }
  }

  private async read(namespace: string, name: string, uid: string | undefined): Promise<Cached | undefined> {
    const found = (await this.kube.get({
      apiVersion: FLOW_API_VERSION,
      kind: RUNHISTORY_KIND,
      namespace,
      name,
    })) as unknown as RunHistory | undefined;
    if (!found) return undefined;
    // A record of an earlier object of the same name starts over (its owner was another uid).
    const runs = found.spec.object.uid === uid ? (found.status?.runs ?? []) : [];
    const total = found.spec.object.uid === uid ? (found.status?.total ?? runs.length) : 0;
    return { resourceVersion: (found.metadata as { resourceVersion?: string }).resourceVersion ?? '', runs, total };
  }

  private recordOf(
    obj: KubeObject,
    flow: { namespace: string; name: string },
    namespace: string,
    name: string,
    runs: Run[],
    total: number,
    resourceVersion: string | undefined,
  ): RunHistory {
    const uid = obj.metadata.uid ?? '';
    // Owned by the watched object (garbage-collected with it) where an owner reference can reach it.
    const owned = obj.metadata.namespace === undefined || obj.metadata.namespace === namespace;
    return {
      apiVersion: FLOW_API_VERSION,
      kind: RUNHISTORY_KIND,
      metadata: {
        name,
        namespace,
        ...(resourceVersion ? { resourceVersion } : {}),
        ...(owned && uid
          ? { ownerReferences: [{ apiVersion: obj.apiVersion, kind: obj.kind, name: obj.metadata.name ?? '', uid }] }
          : {}),
      },
      spec: {
        object: {
          apiVersion: obj.apiVersion,
          kind: obj.kind,
          name: obj.metadata.name ?? '',
          ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
          uid,
        },
        flow: `${flow.namespace}/${flow.name}`,
      },
      status: { runs, total },
    };
  }
}

/**
 * The runs recorded for `obj`, newest first; [] when it has no record (or the record is of an
 * earlier object of its name). A cluster-scoped object's record is in the namespace of the Flow
 * its last run names.
 */
export async function readRuns(kube: KubeClient, obj: KubeObject): Promise<Run[]> {
  const namespace = obj.metadata.namespace ?? readLastRun(obj)?.flow.split('/')[0];
  if (!namespace) return [];
  const found = (await kube
    .get({ apiVersion: FLOW_API_VERSION, kind: RUNHISTORY_KIND, namespace, name: runHistoryName(obj) })
    .catch(() => undefined)) as unknown as RunHistory | undefined;
  return found && found.spec.object.uid === obj.metadata.uid ? (found.status?.runs ?? []) : [];
}
