// A sharded `flowops run` (docs/sharding.md): each replica's watches keep only its shards' objects,
// but a rollout's stages count and gate on all of a Flow's objects. The replica holding shard 0
// (the singletons' holder) keeps, for each Flow with spec.rollout only, an informer on the Flow's
// watched objects across every shard, and the rollout controller judges that Flow from it.

import type { FlowEntry, FlowListener, FlowRegistry } from '../controller/index.js';
import { watchedInformer, watchOf, watchSignature } from '../controller/watched-informer.js';
import type { KubeClient, Informer, KubeObject } from '../kube/index.js';
import type { Logger } from '../log/index.js';

export interface ClusterObjectsDeps {
  kube: KubeClient;
  log: Logger;
  registry: FlowRegistry;
  /** One of the Flow's objects changed (in any shard): evaluate its rollout. */
  changed(entry: FlowEntry): void;
}

interface Watch {
  informer: Informer;
  signature: string;
  synced: boolean;
}

export class ClusterObjects implements FlowListener {
  private readonly byFlow = new Map<string, Watch>();
  private stopped = false;

  constructor(private readonly deps: ClusterObjectsDeps) {
    deps.registry.subscribe(this);
  }

  /** All the Flow's watched objects, every shard's; undefined until listed (or without spec.rollout). */
  objects(entry: FlowEntry): KubeObject[] | undefined {
    const w = this.byFlow.get(entry.key);
    return w?.synced ? w.informer.list() : undefined;
  }

  changed(entry: FlowEntry): void {
    if (this.stopped) return;
    const wanted = entry.def?.spec.rollout !== undefined && entry.def.spec.pipeline === undefined;
    const signature = wanted ? watchSignature(entry.flow) : '';
    const w = this.byFlow.get(entry.key);
    if (w?.signature === signature) return;
    this.drop(entry.key);
    const watch = watchOf(entry.flow);
    if (!wanted || !watch?.apiVersion || !watch.kind) return;
    const spec = { ...watch, apiVersion: watch.apiVersion, kind: watch.kind };
    const touch = (): void => this.deps.changed(entry);
    let informer: Informer;
    try {
      informer = watchedInformer(this.deps.kube, this.deps.log, spec, {
        add: touch,
        update: touch,
        delete: touch,
        synced: () => {
          const now = this.byFlow.get(entry.key);
          if (now?.informer === informer) now.synced = true;
          touch();
        },
      });
    } catch (err) {
      // A bad labelSelector: the Flow's own watches report it on the Flow.
      this.deps.log.warn({ err, flow: entry.key }, 'rollout: cannot watch the Flow objects of every shard');
      return;
    }
    this.byFlow.set(entry.key, { informer, signature, synced: false });
    informer.start();
  }

  removed(entry: FlowEntry): void {
    this.drop(entry.key);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const all = [...this.byFlow.values()];
    this.byFlow.clear();
    await Promise.all(all.map((w) => w.informer.stop()));
  }

  private drop(key: string): void {
    const w = this.byFlow.get(key);
    if (!w) return;
    this.byFlow.delete(key);
    void w.informer.stop();
  }
}
