import type { KubeClient } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { compilePipeline, type CompiledPipeline, type InputEvent, type SourceFilter } from '../pipeline/index.js';
import { ControllerHealth } from './health.js';
import { resolveResource } from './resolve.js';
import { SourceRunner } from './source-runner.js';
import { TargetWriter } from './target-writer.js';
import { checkController, sourceType, type ControllerSpec, type ResolvedResource } from './types.js';
import type { ViewBackend } from './view-backend.js';
import { WriteQueue } from './write-queue.js';
import { OperatorError } from './errors.js';

export interface ControllerDeps {
  kube: KubeClient;
  views: ViewBackend;
  log: Logger;
  /** The Operator (or Flow) name: a source or target without apiGroup is a view of it. */
  operator: string;
  fieldManager: string;
  /** The health changed: the owner writes status. */
  onChange(): void;
  /** Why this controller may not run at all (its Operator's identity); reported as a critical error. */
  refused?: string;
}

/**
 * One declarative controller (spec §1.2): its sources' events run through the compiled pipeline
 * one at a time, in arrival order, and the outputs go to the target through a coalescing write
 * queue. A controller that fails to build stays around with a critical error in its status; the
 * other controllers of the Operator keep running.
 */
export class DeclarativeController {
  readonly health: ControllerHealth;
  private sources: SourceRunner[] = [];
  private queue: WriteQueue | undefined;
  private pipeline: CompiledPipeline | undefined;
  private stopped = false;

  constructor(
    private readonly spec: Partial<ControllerSpec>,
    private readonly deps: ControllerDeps,
  ) {
    this.health = new ControllerHealth(typeof spec.name === 'string' ? spec.name : '');
  }

  async start(): Promise<void> {
    try {
      await this.setup();
    } catch (err) {
      this.deps.log.warn({ controller: this.health.name, err: (err as Error).message }, 'controller failed to start');
      this.health.setCritical(err);
    }
    this.deps.onChange();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.sources.map((s) => s.stop()));
    await this.queue?.stop();
  }

  /** Resolves when queued target writes are done (tests). */
  idle(): Promise<void> {
    return this.queue?.idle() ?? Promise.resolve();
  }

  private async setup(): Promise<void> {
    if (this.deps.refused) throw new OperatorError('Refused', this.deps.refused);
    const spec = checkController(this.spec);
    const { kube, operator } = this.deps;
    const target = await resolveResource(kube, operator, spec.target);
    const sources = await Promise.all(spec.sources.map((s) => resolveResource(kube, operator, s)));
    // OneShot and Periodic sources are virtual: nothing to watch, so nothing needs serving.
    const watched = sources.filter((_, i) => sourceType(spec.sources[i]!) === 'Watcher');
    for (const r of [target, ...watched]) await this.ensureServed(r);

    const inputs = spec.sources
      .map((s, i) => ({ spec: s, resource: sources[i]! }))
      .filter((s) => sourceType(s.spec) !== 'Periodic');
    if (inputs.length === 0)
      throw new OperatorError(
        'InvalidController',
        `controller ${spec.name}: needs a Watcher or OneShot source as pipeline input`,
      );
    const filters: Record<string, SourceFilter> = {};
    for (const s of inputs) {
      // Label selectors go to the engine, not the watch: an object that leaves the selection then
      // leaves the pipeline too (spec §8 item 10).
      if (sourceType(s.spec) === 'Watcher' && s.spec.labelSelector)
        filters[s.resource.kind] = { labelSelector: s.spec.labelSelector };
    }
    const pipeline = compilePipeline(spec.pipeline, {
      sources: inputs.map((s) => s.resource.kind),
      target: { apiVersion: target.apiVersion, kind: target.kind },
      filters,
    });
    const writer = new TargetWriter(
      this.clientFor(target),
      target,
      spec.target.type ?? 'Updater',
      this.deps.fieldManager,
    );
    const runners = spec.sources.map(
      (s, i) => new SourceRunner(this.clientFor(sources[i]!), s, sources[i]!, this.deps.log),
    );
    if (this.stopped) return;
    this.pipeline = pipeline;
    this.queue = new WriteQueue({
      write: (e) => (e.type === 'Deleted' ? writer.delete(e.object) : writer.upsert(e.object)),
      onError: (err) => this.runtimeError(err),
      log: this.deps.log,
    });
    this.sources = runners;
    let unsynced = runners.length;
    const synced = (): void => {
      if (--unsynced === 0) void this.collectOrphans(target).catch((err: unknown) => this.runtimeError(err));
    };
    for (const r of runners)
      r.start({
        event: (e) => this.feed(e),
        resync: () => this.resync(),
        error: (err) => this.runtimeError(err),
        synced: once(synced),
      });
  }

  /**
   * Once every source has delivered the state of the world: a target object this controller wrote
   * (its field manager applied it) that the pipeline no longer outputs lost its sources while no
   * controller ran (FlowOps was down, or the Operator was stopped). It gets the same Deleted write
   * as if the source had gone while running: an Updater's object is deleted, a Patcher's fields
   * are released.
   */
  private async collectOrphans(target: ResolvedResource): Promise<void> {
    const client = this.clientFor(target);
    const { items } = await client.list(target.apiVersion, target.kind);
    if (this.stopped || !this.pipeline || !this.queue) return;
    const wanted = new Set(
      this.pipeline
        .outputs()
        .map((o) => objectKey(o as { metadata?: { namespace?: string | undefined; name?: string | undefined } })),
    );
    for (const obj of items) {
      const ours = (obj.metadata.managedFields as Array<{ manager?: string; operation?: string }> | undefined)?.some(
        (m) => m.manager === this.deps.fieldManager && m.operation === 'Apply',
      );
      if (!ours || wanted.has(objectKey(obj))) continue;
      this.deps.log.info(
        { controller: this.health.name, target: objectKey(obj) },
        'target object whose sources are gone: removing what the controller wrote',
      );
      this.queue.push({
        type: 'Deleted',
        object: {
          metadata: {
            name: obj.metadata.name,
            ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
          },
        },
      });
    }
  }

  /** Views get their kind made servable; native kinds must already be served (else a critical error). */
  private async ensureServed(r: ResolvedResource): Promise<void> {
    if (r.isView) await this.deps.views.ensureKind(r.group, r.kind);
    else await this.deps.kube.resource(r.apiVersion, r.kind);
  }

  private clientFor(r: ResolvedResource): KubeClient {
    return r.isView ? this.deps.views.client : this.deps.kube;
  }

  private feed(event: InputEvent): void {
    if (this.stopped || !this.pipeline || !this.queue) return;
    try {
      for (const out of this.pipeline.process(event)) this.queue.push(out);
    } catch (err) {
      this.runtimeError(err);
    }
  }

  /** State of the world (Periodic sources): rewrite everything the target should hold. */
  private resync(): void {
    if (this.stopped || !this.pipeline || !this.queue) return;
    for (const object of this.pipeline.outputs()) this.queue.push({ type: 'Upserted', object });
  }

  private runtimeError(err: unknown): void {
    if (this.stopped) return;
    this.deps.log.warn(
      { controller: this.health.name, err: err instanceof Error ? err.message : String(err) },
      'controller error',
    );
    this.health.addRuntime(err);
    this.deps.onChange();
  }
}

function objectKey(o: { metadata?: { namespace?: string | undefined; name?: string | undefined } }): string {
  return `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}
