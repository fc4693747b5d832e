// Every process's view of the Flows: one informer on Flow objects and each Flow's parsed
// definition. The parts that act on Flows (the watches on the leader, the read cache and the
// reconcile handler on workers) subscribe to it instead of watching Flows themselves.

import { FLOW_API_VERSION, parseFlow, RECONCILE_REQUEST_ANNOTATION, type FlowFile } from '../api/index.js';
import type { FlowDefinition } from '../engine/index.js';
import type { KubeClient, KubeObject } from '../kube/index.js';
import { Informer } from '../kube/informer.js';
import type { Logger } from '../log/index.js';
import { PATH_ANNOTATION, REVISION_ANNOTATION, SOURCE_ANNOTATION } from '../sync/provenance.js';
import { readSourceFile } from './flow-file.js';
import { flowKeyOf } from './keys.js';
import { watchProblem, type TenancyPolicy } from './tenancy.js';
import { readsSourceFiles } from './source-files.js';
import { ControllerError } from './errors.js';

export interface FlowEntry {
  /** `namespace/name`. */
  readonly key: string;
  flow: KubeObject;
  /** The parsed spec; undefined while the Flow is invalid. */
  def: FlowDefinition | undefined;
  /** Why the Flow is invalid (the validation errors), if it is. */
  invalid: string | undefined;
}

/** What the registry tells its subscribers. */
export interface FlowListener {
  /**
   * A Flow was added or changed. `rerun`: its watched objects must run again under the new spec
   * (a new generation, or a new commit of a Flow that renders files from its source).
   */
  changed(entry: FlowEntry, rerun: boolean): void;
  /** The Flow has a deletionTimestamp (it waits on a finalizer). */
  deleting?(entry: FlowEntry): void;
  /** The Flow is gone. */
  removed(entry: FlowEntry): void;
}

export interface FlowRegistryDeps {
  kube: KubeClient;
  log: Logger;
  /** Resolves a Flow's source folder (for relative chart paths), when it came from Git. */
  sourceDirFor?: (flow: KubeObject) => string | undefined;
  /**
   * The file a Flow was defined in, so errors name its lines; default: its flowops.io/path in its
   * source folder (the export of its commit).
   */
  fileFor?: (flow: KubeObject) => FlowFile | undefined;
  /** What a Flow may reach; default: anything its identity may. */
  tenancy?: TenancyPolicy;
}

export class FlowRegistry {
  private readonly entries = new Map<string, FlowEntry>();
  private readonly listeners: FlowListener[] = [];
  private informer: Informer | undefined;
  private readonly syncedP: Promise<void>;
  private markSynced: () => void = () => undefined;
  /** The first list of Flows is in (a worker waits for it before taking jobs). */
  isSynced = false;

  constructor(private readonly deps: FlowRegistryDeps) {
    this.syncedP = new Promise<void>((resolve) => (this.markSynced = resolve));
  }

  subscribe(listener: FlowListener): void {
    this.listeners.push(listener);
  }

  start(): void {
    this.informer ??= new Informer(
      this.deps.kube,
      { apiVersion: FLOW_API_VERSION, kind: 'Flow', log: this.deps.log },
      {
        add: (f) => this.upsert(f),
        update: (f) => this.upsert(f),
        delete: (f) => this.remove(f),
        synced: () => {
          this.isSynced = true;
          this.markSynced();
        },
      },
    );
    this.informer.start();
  }

  synced(): Promise<void> {
    return this.syncedP;
  }

  async stop(): Promise<void> {
    await this.informer?.stop();
  }

  get(namespace: string, name: string): FlowEntry | undefined {
    return this.entries.get(flowKeyOf(namespace, name));
  }

  all(): IterableIterator<FlowEntry> {
    return this.entries.values();
  }

  /**
   * A key names a Flow this process has not seen yet (its watch lags the one that enqueued it):
   * read the Flow from the server instead of taking it for deleted.
   */
  async fetch(namespace: string, name: string): Promise<FlowEntry | undefined> {
    const flow = await this.deps.kube.get({ apiVersion: FLOW_API_VERSION, kind: 'Flow', namespace, name });
    if (!flow) return undefined;
    this.upsert(flow);
    return this.get(namespace, name);
  }

  private upsert(flow: KubeObject): void {
    const key = flowKeyOf(flow.metadata.namespace ?? 'default', flow.metadata.name!);
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { key, flow, def: undefined, invalid: undefined };
      this.entries.set(key, entry);
    }
    const revisionMoved =
      entry.flow.metadata.annotations?.[REVISION_ANNOTATION] !== flow.metadata.annotations?.[REVISION_ANNOTATION];
    const requested =
      entry.flow.metadata.annotations?.[RECONCILE_REQUEST_ANNOTATION] !==
      flow.metadata.annotations?.[RECONCILE_REQUEST_ANNOTATION];
    let rerun = entry.flow.metadata.generation !== flow.metadata.generation || !entry.def || requested;
    entry.flow = flow;
    if (flow.metadata.deletionTimestamp) {
      for (const l of this.listeners) l.deleting?.(entry);
      return;
    }
    try {
      const parsed = parseFlow(flow);
      const tenancy = this.deps.tenancy;
      if (tenancy && !tenancy.crossNamespaceRefs) {
        const ns = flow.metadata.namespace ?? 'default';
        const problem = watchProblem(tenancy, ns, parsed.spec.watch.namespace);
        if (problem) throw new ControllerError('TenancyRefused', problem);
        // Without a namespace the Flow watches its own (the watches read the Flow's watch).
        if (!parsed.spec.watch.namespace) {
          parsed.spec.watch.namespace = ns;
          entry.flow = flow = { ...flow, spec: { ...(flow.spec as object), watch: { ...parsed.spec.watch } } };
        }
      }
      const annotations = flow.metadata.annotations ?? {};
      const sourceDir = this.deps.sourceDirFor?.(flow);
      const file = this.deps.fileFor
        ? this.deps.fileFor(flow)
        : readSourceFile(sourceDir, annotations[PATH_ANNOTATION]);
      entry.def = {
        namespace: flow.metadata.namespace ?? 'default',
        name: flow.metadata.name!,
        uid: flow.metadata.uid ?? '',
        generation: flow.metadata.generation ?? 0,
        spec: parsed.spec,
        ...(sourceDir ? { sourceDir } : {}),
        ...(file ? { file } : {}),
        ...(annotations[REVISION_ANNOTATION] ? { revision: annotations[REVISION_ANNOTATION] } : {}),
        ...(annotations[SOURCE_ANNOTATION] ? { source: annotations[SOURCE_ANNOTATION] } : {}),
      };
      entry.invalid = undefined;
      // A new commit may have changed the chart or kustomize files the steps render: rerun as for a new spec.
      if (revisionMoved && readsSourceFiles(parsed.spec)) rerun = true;
    } catch (err) {
      entry.def = undefined;
      entry.invalid = err instanceof Error ? err.message : String(err);
      this.deps.log.warn(
        { flow: key, err: entry.invalid },
        'Flow is invalid; its watched objects are only released on deletion',
      );
    }
    for (const l of this.listeners) l.changed(entry, rerun);
  }

  private remove(flow: KubeObject): void {
    const key = flowKeyOf(flow.metadata.namespace ?? 'default', flow.metadata.name!);
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    for (const l of this.listeners) l.removed(entry);
  }
}
