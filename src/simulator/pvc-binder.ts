import type { KubeObject } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { ControlLoop, type SimulatedController } from './control-loop.js';
import type { ObjectWriter } from './object-writer.js';
import { keyOf, splitKey, type SharedInformer } from './shared-informers.js';

interface ClaimSpec {
  accessModes?: string[];
  resources?: { requests?: { storage?: string } };
}

/**
 * A dynamic provisioner and the PV binder in one: every claim is Bound at once with the access
 * modes and the storage it asked for. No volume exists behind it (no PersistentVolume is created).
 */
export class PvcBinder implements SimulatedController {
  readonly loop: ControlLoop;

  constructor(
    private readonly claims: SharedInformer,
    private readonly writer: ObjectWriter,
    log: Logger,
  ) {
    this.loop = new ControlLoop('pvc-binder', log, (key) => this.reconcile(key));
    claims.addListener({
      changed: (obj, _old, deleted) => {
        if (deleted) this.writer.forget(obj);
        else this.loop.enqueue(keyOf(obj));
      },
    });
  }

  private async reconcile(key: string): Promise<void> {
    const [ns, name] = splitKey(key);
    const pvc = this.claims.get(ns, name) as
      | (KubeObject & { spec?: ClaimSpec; status?: Record<string, unknown> })
      | undefined;
    if (!pvc || pvc.metadata.deletionTimestamp) return;
    const storage = pvc.spec?.resources?.requests?.storage;
    // phase, accessModes and capacity are the binder's; anything else in status (conditions) stays.
    await this.writer.status(pvc, {
      ...pvc.status,
      phase: 'Bound',
      ...(pvc.spec?.accessModes ? { accessModes: pvc.spec.accessModes } : {}),
      ...(storage ? { capacity: { storage } } : {}),
    });
  }
}
