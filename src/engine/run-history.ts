// Writes each watched object's RunHistory (src/api/run-history.ts): the newest run first, at most
// RUN_HISTORY_LIMIT. Bookkeeping of FlowOps' own, like Events: written with FlowOps' identity, and
// a failure to write it is logged, never the run's failure.
//
// One write per run: a create the first time, then a replace at the resourceVersion last written
// (cached), so that another worker's run in between (runs of one object are serialised by the
// queue, not pinned to a worker) is a conflict, read and kept rather than overwritten.

import { LRUCache } from 'lru-cache';
import { FLOW_API_VERSION, RUNHISTORY_KIND } from '../api/names.js';
import { RUN_HISTORY_LIMIT, type Run, type RunHistory } from '../api/run-history.js';
import type { KubeClient } from '../kube/client.js';
import { KubeApiError } from '../kube/rest.js';
import type { KubeObject } from '../kube/types.js';
import type { Logger } from '../log/index.js';
import { readLastRun } from './last-run.js';

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

type FlowName = { namespace: string; name: string };

interface Unchanged {
  obj: KubeObject;
  flow: FlowName;
  count: number;
}

export class RunHistoryWriter {
  private readonly cache = new LRUCache<string, Cached>({ max: 10_000 });
  /** The write in flight per record: the next run's waits for it, so runs land in their order. */
  private readonly writing = new Map<string, Promise<void>>();
  /**
   * Runs that changed nothing, per record, not written yet: added to status.total by the record's
   * next write, or by the flush timer. Past the bound the least recently counted go unwritten
   * (a count, not a run: the runs listed stay exact).
   */
  private readonly unchanged = new LRUCache<string, Unchanged>({ max: 10_000 });
  private readonly timer: NodeJS.Timeout;
  private warned = false;

  constructor(
    private readonly kube: KubeClient,
    private readonly log: Logger,
    flushMs = UNCHANGED_FLUSH_MS,
  ) {
    this.timer = setInterval(() => void this.flushUnchanged(), flushMs);
    this.timer.unref();
  }

  /**
   * A run of `obj` whose outcome equals the last one recorded: counted, not written (a resync of
   * a thousand settled objects writes nothing). The count reaches status.total with the next write.
   */
  countUnchanged(obj: KubeObject, flow: { namespace: string; name: string }): void {
    const { key } = this.where(obj, flow);
    const u = this.unchanged.get(key);
    if (u) u.count++;
    else this.unchanged.set(key, { obj: identityOf(obj), flow, count: 1 });
  }

  /** Runs counted and not written yet, for `obj` (tests, the bench). */
  pendingUnchanged(obj: KubeObject, flow: { namespace: string; name: string }): number {
    return this.unchanged.get(this.where(obj, flow).key)?.count ?? 0;
  }

  /** Writes every count waiting (the timer, and a process stopping). */
  async flushUnchanged(): Promise<void> {
    const waiting = [...this.unchanged.entries()];
    this.unchanged.clear();
    await Promise.all(waiting.map(([key, u]) => this.enqueue(key, () => this.writeCount(u))));
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

  /**
   * Adds `run` to the record of `obj` (a cluster-scoped object's record lives in the Flow's
   * namespace). The reconcile need not wait for it: writes of one record are chained in order, and
   * the promise never rejects.
   */
  record(obj: KubeObject, flow: { namespace: string; name: string }, run: Run): Promise<void> {
    const { namespace, name, key } = this.where(obj, flow);
    const skipped = this.unchanged.get(key)?.count ?? 0;
    this.unchanged.delete(key);
    return this.enqueue(key, () => this.write(obj, flow, run, namespace, name, key, skipped));
  }

  /** Every write in flight, done, and the counts waiting written (a process stopping). */
  async drain(): Promise<void> {
    clearInterval(this.timer);
    await this.flushUnchanged();
    await Promise.all([...this.writing.values()]);
  }

  /** The counted runs alone: the same runs listed, a larger total. */
  private async writeCount(u: Unchanged): Promise<void> {
    const { namespace, name, key } = this.where(u.obj, u.flow);
    await this.write(u.obj, u.flow, undefined, namespace, name, key, u.count);
  }

  private async write(
    obj: KubeObject,
    flow: FlowName,
    run: Run | undefined,
    namespace: string,
    name: string,
    key: string,
    skipped = 0,
  ): Promise<void> {
    const cut: Run | undefined = run?.error
      ? { ...run, error: { ...run.error, message: run.error.message.slice(0, MAX_MESSAGE) } }
      : run;
    try {
      for (let attempt = 0; ; attempt++) {
        const mustRead = attempt > 0 || !cut;
        const previous =
          this.cache.get(key) ?? (mustRead ? await this.read(namespace, name, obj.metadata.uid) : undefined);
        // A count alone needs a record to add to; without one the runs it counted are not listed either.
        if (!cut && !previous) return;
        const runs = [...(cut ? [cut] : []), ...(previous?.runs ?? [])].slice(0, RUN_HISTORY_LIMIT);
        const total = (previous?.total ?? 0) + (cut ? 1 : 0) + skipped;
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
          return;
        } catch (err) {
          // It exists (create), or another worker wrote in between (replace): read it and add to it.
          if (!(err instanceof KubeApiError && err.statusCode === 409) || attempt >= 2) throw err;
          this.cache.delete(key);
        }
      }
    } catch (err) {
      // Once at warn (a cluster without the RunHistory CRD, or without the RBAC for it, says so on
      // every run otherwise), then at debug.
      const fields = { err, runHistory: `${namespace}/${name}` };
      if (this.warned) this.log.debug(fields, 'could not write the run history');
      else
        this.log.warn(
          fields,
          'could not write the run history (install the runhistories.flowops.io CRD and its RBAC from config/ or the chart); said once',
        );
      this.warned = true;
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

/**
 * What a record needs of its object (kind, name, namespace, uid): a count waiting up to
 * UNCHANGED_FLUSH_MS keeps this, not the whole object, which the watch cache has replaced by then.
 */
function identityOf(obj: KubeObject): KubeObject {
  const { name, namespace, uid } = obj.metadata;
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    metadata: { ...(name ? { name } : {}), ...(namespace ? { namespace } : {}), ...(uid ? { uid } : {}) },
  };
}
