import type { Logger } from '../log/index.js';
import { ControlLoop, type SimulatedController } from './control-loop.js';
import type { ObjectWriter } from './object-writer.js';
import { keyOf, splitKey, type SharedInformer } from './shared-informers.js';

/**
 * The DaemonSet controller on a cluster without nodes: nothing is scheduled, so the status says so
 * for the current generation (0 desired, 0 ready), which kstatus and `kubectl rollout status` read as done.
 */
export class DaemonSetController implements SimulatedController {
  readonly loop: ControlLoop;

  constructor(
    private readonly sets: SharedInformer,
    private readonly writer: ObjectWriter,
    log: Logger,
  ) {
    this.loop = new ControlLoop('daemonset', log, (key) => this.reconcile(key));
    sets.addListener({
      changed: (obj, _old, deleted) => {
        if (deleted) this.writer.forget(obj);
        else this.loop.enqueue(keyOf(obj));
      },
    });
  }

  private async reconcile(key: string): Promise<void> {
    const [ns, name] = splitKey(key);
    const ds = this.sets.get(ns, name);
    if (!ds || ds.metadata.deletionTimestamp) return;
    await this.writer.status(ds, {
      currentNumberScheduled: 0,
      desiredNumberScheduled: 0,
      numberMisscheduled: 0,
      numberReady: 0,
      observedGeneration: ds.metadata.generation,
    });
  }
}
