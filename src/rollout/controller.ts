// The rollout controller (where the watches run: the leader, or `flowops up`). Per Flow, on each
// change of the Flow or of a watched object (debounced) and every second while a rollout runs: keeps
// the ControllerRevisions of the generations in use, moves objects between generations as the
// rollout's stages allow (plan.ts), and writes status.generations, status.rollout, the rollout's
// conditions and Events. Everything it decides from is in the cluster, so a new leader continues.

import { isDeepStrictEqual } from 'node:util';
import type { FlowEntry, FlowListener, FlowRegistry } from '../controller/index.js';
import { type KubeClient, isNotFound, type EventRecorder, type KubeObject, refOf } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { factsOf, type ObjectFacts } from './objects.js';
import { revisionName, ROLLOUT_TARGET_ANNOTATION, type GenerationStatus, type RolloutStatus } from '../api/index.js';
import { plan, type PlanOutput } from './plan.js';
import type { FlowIdentity, RevisionStore } from './revisions.js';
import { rolloutStatusOf } from './assignment.js';
import { pinSourceForRollback } from './pin-source.js';
import { REVISION_ANNOTATION } from '../sync/provenance.js';
import { replacingRollout } from '../controller/rollout-status-patch.js';

export interface RolloutControllerDeps {
  kube: KubeClient;
  log: Logger;
  registry: FlowRegistry;
  revisions: RevisionStore;
  events: EventRecorder;
  fieldManager: string;
  /** The Flow's watched objects as its informer holds them; undefined until the informer has synced. */
  objects(entry: FlowEntry): KubeObject[] | undefined;
  /** Asks the Flow status writer to write the Flow's status (it asks statusFor for this part). */
  refreshStatus(entry: FlowEntry): void;
  /**
   * A sharded `flowops run` replica (docs/sharding.md). Flows with spec.rollout are judged by the
   * holder of shard 0 alone (`allObjects` set), from every shard's objects; it writes their
   * status.generations and status.rollout itself where another replica writes the Flow's status.
   * The other replicas leave those Flows alone. Flows without spec.rollout: as unsharded.
   */
  sharded?: {
    allObjects?: (entry: FlowEntry) => KubeObject[] | undefined;
    /** This replica writes the Flow's status (it holds the Flow's own shard). */
    writesStatus(entry: FlowEntry): boolean;
  };
  debounceMs?: number;
  tickMs?: number;
}

interface FlowState {
  timer: NodeJS.Timeout | undefined;
  running: Promise<void> | undefined;
  again: boolean;
  /** The rollout status last computed (the informer's copy of the Flow may lag it). */
  written: { uid: string; rollout: RolloutStatus | undefined; json: string } | undefined;
  /** Targets set on objects whose informer copy may not show them yet. */
  pending: Map<string, number>;
  /** The generations kept last time revisions were pruned. */
  kept: string;
}

export class RolloutController implements FlowListener {
  private readonly flows = new Map<string, FlowState>();
  private ticker: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly deps: RolloutControllerDeps) {
    deps.registry.subscribe(this);
  }

  start(): void {
    // Deadlines and pause durations pass without any event: look at running rollouts every tick.
    this.ticker ??= setInterval(() => {
      for (const entry of this.deps.registry.all()) {
        const r = this.rolloutOf(entry);
        if (r && (r.state === 'Progressing' || r.state === 'Paused')) this.touch(entry);
      }
    }, this.deps.tickMs ?? 1000);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.ticker) clearInterval(this.ticker);
    for (const s of this.flows.values()) if (s.timer) clearTimeout(s.timer);
    await Promise.all([...this.flows.values()].map((s) => s.running?.catch(() => undefined)));
  }

  changed(entry: FlowEntry): void {
    this.touch(entry);
  }

  removed(entry: FlowEntry): void {
    const s = this.flows.get(entry.key);
    if (s?.timer) clearTimeout(s.timer);
    this.flows.delete(entry.key);
  }

  /** Something about the Flow or one of its objects changed: evaluate it soon (debounced). */
  touch(entry: FlowEntry): void {
    if (this.stopped) return;
    const s = this.stateOf(entry.key);
    if (s.timer) return;
    s.timer = setTimeout(() => {
      s.timer = undefined;
      this.run(entry.key, s);
    }, this.deps.debounceMs ?? 100);
  }

  private run(key: string, s: FlowState): void {
    if (s.running) {
      s.again = true;
      return;
    }
    s.running = this.evaluate(key, s)
      .catch((err: unknown) => this.deps.log.warn({ err, flow: key }, 'rollout evaluation failed'))
      .finally(() => {
        s.running = undefined;
        if (s.again && !this.stopped) {
          s.again = false;
          this.run(key, s);
        }
      });
  }

  private stateOf(key: string): FlowState {
    let s = this.flows.get(key);
    if (!s)
      this.flows.set(
        key,
        (s = { timer: undefined, running: undefined, again: false, written: undefined, pending: new Map(), kept: '' }),
      );
    return s;
  }

  private rolloutOf(entry: FlowEntry): RolloutStatus | undefined {
    const w = this.flows.get(entry.key)?.written;
    return w && w.uid === entry.flow.metadata.uid ? w.rollout : rolloutStatusOf(entry.flow);
  }

  private async evaluate(key: string, s: FlowState): Promise<void> {
    const [namespace, name] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)];
    const entry = this.deps.registry.get(namespace, name);
    const def = entry?.def;
    if (!entry || !def || entry.flow.metadata.deletionTimestamp || def.spec.pipeline !== undefined) return;
    if (!this.judges(entry)) return;
    const listed = this.objectsOf(entry);
    if (!listed) return;
    const id = { namespace: def.namespace, name: def.name, uid: def.uid };
    await this.deps.revisions.ensure(id, {
      generation: def.generation,
      spec: def.spec,
      ...(def.revision ? { revision: def.revision } : {}),
    });
    const objects = listed
      .filter((o) => !o.metadata.deletionTimestamp)
      .map((o) => factsOf(o, s.pending.get(keyOf(o))))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const o of objects)
      if (o.obj.metadata.annotations?.[ROLLOUT_TARGET_ANNOTATION] === String(s.pending.get(o.key)))
        s.pending.delete(o.key);
    const previous = this.rolloutOf(entry);
    let rollout: RolloutStatus | undefined;
    if (def.spec.rollout) {
      const sameSpecAs = await this.repeatedGeneration(id, def.generation, def.spec, previous);
      const out = plan({
        spec: def.spec.rollout,
        generation: def.generation,
        previous,
        objects,
        annotations: entry.flow.metadata.annotations ?? {},
        now: new Date(),
        ...(sameSpecAs !== undefined ? { sameSpecAs } : {}),
      });
      rollout = out.status;
      await this.act(entry, s, out);
    }
    const generations = generationsOf(def.name, def.generation, objects, rollout);
    const json = JSON.stringify([generations, rollout ?? null]);
    const uid = def.uid;
    if (s.written?.uid !== uid || s.written.json !== json) {
      s.written = { uid, rollout, json };
      if (def.spec.rollout && this.deps.sharded && !this.deps.sharded.writesStatus(entry)) {
        await this.writeStatus(entry, generations, rollout);
      } else {
        // The Flow status writer writes it (one patch with the rest of the status, debounced).
        this.deps.refreshStatus(entry);
      }
    }
    await this.prune(id, s, objects, def.generation, rollout);
  }

  /**
   * The generation a rollback returned the objects to, when the newest generation repeats its spec
   * (the pinned commit applied again) — or, once that was decided, the same answer again.
   */
  private async repeatedGeneration(
    id: FlowIdentity,
    generation: number,
    spec: unknown,
    previous: RolloutStatus | undefined,
  ): Promise<number | undefined> {
    const from = previous?.fromGeneration;
    if (!previous || from === undefined) return undefined;
    const returned = previous.state === 'RolledBack' || previous.state === 'Aborted';
    const decided = previous.generation === generation && previous.state === 'Complete';
    if (!(returned && previous.generation < generation) && !decided) return undefined;
    const read = await this.deps.revisions.read(id, from);
    return read.ok && isDeepStrictEqual(read.stored.spec, spec) ? from : undefined;
  }

  private async act(entry: FlowEntry, s: FlowState, out: PlanOutput): Promise<void> {
    const move = async (m: PlanOutput['moves'][number]): Promise<void> => {
      s.pending.set(m.object.key, m.to);
      try {
        const patch = { metadata: { annotations: { [ROLLOUT_TARGET_ANNOTATION]: String(m.to) } } };
        await this.deps.kube.sendPatch(refOf(m.object.obj), patch, 'merge', { fieldManager: this.deps.fieldManager });
      } catch (err) {
        s.pending.delete(m.object.key);
        if (!isNotFound(err)) throw err;
      }
    };
    // A stage of hundreds of objects: the patches go MOVE_CONCURRENCY at a time, not one by one.
    for (let i = 0; i < out.moves.length; i += MOVE_CONCURRENCY) {
      await Promise.all(out.moves.slice(i, i + MOVE_CONCURRENCY).map(move));
    }
    // Worded as FlowOps' other Events of a commit (`branch@sha1:…: …`): an Alert sends a halt in the
    // same message as the Flow's NotReady of that commit (src/notify/event-feed.ts).
    const revision = entry.flow.metadata.annotations?.[REVISION_ANNOTATION];
    for (const e of out.events) {
      const message = revision ? `${revision}: ${e.message}` : e.message;
      await this.deps.events.record(entry.flow, e.type, e.reason, message).catch(() => undefined);
    }
    if (out.rolledBackTo !== undefined) {
      const what = `rollout of generation ${out.status.generation} of Flow ${entry.key}`;
      const reason = `${what} rolled back: ${out.status.message ?? ''}`;
      await pinSourceForRollback(
        {
          kube: this.deps.kube,
          revisions: this.deps.revisions,
          events: this.deps.events,
          log: this.deps.log,
          fieldManager: this.deps.fieldManager,
        },
        entry,
        out.rolledBackTo,
        reason,
      );
    }
  }

  /**
   * Where the rollout is judged on another replica (sharded), its status is written there: the
   * Flow's status writer leaves those fields and takes the Flow's Ready from the stored rollout.
   */
  private judges(entry: FlowEntry): boolean {
    return !this.deps.sharded || !entry.def?.spec.rollout || this.deps.sharded.allObjects !== undefined;
  }

  private objectsOf(entry: FlowEntry): KubeObject[] | undefined {
    const all = this.deps.sharded?.allObjects;
    return all && entry.def?.spec.rollout ? all(entry) : this.deps.objects(entry);
  }

  /** status.generations and status.rollout by a patch of their own (a sharded replica's Flow of another's shard). */
  private async writeStatus(
    entry: FlowEntry,
    generations: GenerationStatus[],
    rollout: RolloutStatus | undefined,
  ): Promise<void> {
    const status = { generations, rollout: replacingRollout(rollout) };
    try {
      await this.deps.kube.sendPatch(refOf(entry.flow), { status }, 'merge', {
        subresource: 'status',
        fieldManager: this.deps.fieldManager,
      });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /** The Flow status' generations and rollout, computed now (FlowStatusReporterDeps.rolloutStatus). */
  statusFor(entry: FlowEntry): { generations: GenerationStatus[]; rollout: RolloutStatus | undefined } | undefined {
    const def = entry.def;
    if (!this.judges(entry)) return undefined;
    const listed = this.objectsOf(entry);
    if (!def || !listed || def.spec.pipeline !== undefined) return undefined;
    const s = this.flows.get(entry.key);
    const objects = listed
      .filter((o) => !o.metadata.deletionTimestamp)
      .map((o) => factsOf(o, s?.pending.get(keyOf(o))));
    const rollout = def.spec.rollout ? this.rolloutOf(entry) : undefined;
    return { generations: generationsOf(def.name, def.generation, objects, rollout), rollout };
  }

  /** Deletes the revisions of generations no object uses, other than the newest and the rollout's. */
  private async prune(
    id: { namespace: string; name: string; uid: string },
    s: FlowState,
    objects: ObjectFacts[],
    newest: number,
    r: RolloutStatus | undefined,
  ): Promise<void> {
    const keep = new Set<number>([newest]);
    for (const o of objects) {
      if (o.current !== undefined) keep.add(o.current);
      if (o.target !== undefined) keep.add(o.target);
    }
    if (r) keep.add(r.generation);
    // An unfinished rollout may still send objects back to where it started.
    if (r?.fromGeneration !== undefined && r.state !== 'Complete') keep.add(r.fromGeneration);
    const kept = [...keep].sort((a, b) => a - b).join(',');
    if (kept === s.kept) return;
    await this.deps.revisions.prune(id, keep);
    s.kept = kept;
  }
}

const MOVE_CONCURRENCY = 16;

const keyOf = (o: KubeObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

/** Every generation in use (by the run that last reconciled each object), newest first; the newest always. */
function generationsOf(
  flow: string,
  newest: number,
  objects: ObjectFacts[],
  r: RolloutStatus | undefined,
): GenerationStatus[] {
  const counts = new Map<number, { objects: number; ready: number }>([[newest, { objects: 0, ready: 0 }]]);
  if (r?.fromGeneration !== undefined && r.state !== 'Complete') counts.set(r.fromGeneration, { objects: 0, ready: 0 });
  for (const o of objects) {
    if (o.current === undefined) continue;
    const c = counts.get(o.current) ?? { objects: 0, ready: 0 };
    c.objects++;
    if (o.ready) c.ready++;
    counts.set(o.current, c);
  }
  return [...counts.entries()]
    .sort((a, b) => b[0] - a[0])
    .map(([generation, c]) => ({ generation, revision: revisionName(flow, generation), ...c }));
}
