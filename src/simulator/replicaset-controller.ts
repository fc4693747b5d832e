import { isConflict, type KubeClient, EventRecorder } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import type { ReconcileResult } from '../queue/index.js';
import { waiting } from '../reconcile/index.js';
import { ControlLoop, type SimulatedController } from './control-loop.js';
import { Expectations } from './expectations.js';
import { type ObjectWriter, SIMULATOR_FIELD_MANAGER } from './object-writer.js';
import { availableInMs, isActive, isPodReady, labelsMatch, podFromTemplate } from './pods.js';
import { keyOf, ownerKeyOf, splitKey, type SharedInformer } from './shared-informers.js';
import { slowStartBatch } from './slow-start.js';
import { randomSuffix } from './template-hash.js';
import type { Pod, ReplicaSet } from './types.js';

/** At most this many pod creates or deletes per sync, as the real controller's burst (500) bounds them. */
const BURST = 500;

/** The ReplicaSet controller: keeps `spec.replicas` pods and reports them in status. */
export class ReplicaSetController implements SimulatedController {
  readonly loop: ControlLoop;
  private readonly expectations = new Expectations();
  private readonly events: EventRecorder;

  constructor(
    private readonly kube: KubeClient,
    private readonly replicaSets: SharedInformer,
    private readonly pods: SharedInformer,
    private readonly writer: ObjectWriter,
    log: Logger,
  ) {
    this.loop = new ControlLoop('replicaset', log, (key) => this.reconcile(key));
    this.events = new EventRecorder(kube, 'replicaset-controller');
    replicaSets.addListener({
      changed: (obj, _old, deleted) => {
        if (deleted) {
          this.expectations.forget(keyOf(obj));
          this.writer.forget(obj);
        }
        this.loop.enqueue(keyOf(obj));
      },
    });
    pods.addListener({
      changed: (pod, old, deleted) => {
        const owner = ownerKeyOf(pod, 'ReplicaSet');
        if (!owner) return;
        if (deleted || !old) this.expectations.observed(owner, pod.metadata.name!);
        this.loop.enqueue(owner);
      },
    });
  }

  private async reconcile(key: string): Promise<ReconcileResult | void> {
    const [ns, name] = splitKey(key);
    const rs = this.replicaSets.get(ns, name) as ReplicaSet | undefined;
    if (!rs || rs.metadata.deletionTimestamp) return;
    const pods = (this.pods.controlledBy(rs.metadata.uid) as Pod[]).filter(isActive);
    const want = rs.spec?.replicas ?? 1;
    if (this.expectations.satisfied(key)) await this.manage(key, rs, pods, want);
    const now = Date.now();
    const minReady = rs.spec?.minReadySeconds ?? 0;
    const waits = pods.map((p) => availableInMs(p, minReady, now));
    const labels = rs.spec?.template?.metadata?.labels;
    await this.writer.status(rs, {
      replicas: pods.length,
      fullyLabeledReplicas: nonZero(pods.filter((p) => labelsMatch(labels, p.metadata.labels)).length),
      readyReplicas: nonZero(pods.filter(isPodReady).length),
      availableReplicas: nonZero(waits.filter((w) => w === 0).length),
      observedGeneration: rs.metadata.generation,
    });
    // A pod ready but not yet for minReadySeconds becomes available without an event: look again then.
    const next = Math.min(...waits.filter((w): w is number => w !== undefined && w > 0));
    if (Number.isFinite(next)) return waiting(next, 'MinReadySeconds');
  }

  private async manage(key: string, rs: ReplicaSet, pods: Pod[], want: number): Promise<void> {
    const diff = want - pods.length;
    if (diff > 0) {
      await slowStartBatch(Math.min(diff, BURST), async () => {
        const pod = podFromTemplate(rs, `${rs.metadata.name}-${randomSuffix()}`, rs.spec?.template);
        this.expectations.expect(key, pod.metadata.name!);
        try {
          await this.kube.create(pod, { fieldManager: SIMULATOR_FIELD_MANAGER });
          await this.events.record(rs, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`);
        } catch (e) {
          this.expectations.observed(key, pod.metadata.name!);
          if (!isConflict(e)) throw e;
        }
      });
    } else if (diff < 0) {
      // The real controller deletes the least useful pods first: not ready before ready, newest first; all at once.
      const victims = [...pods].sort(
        (a, b) =>
          Number(isPodReady(a)) - Number(isPodReady(b)) ||
          String(b.metadata.creationTimestamp).localeCompare(String(a.metadata.creationTimestamp)),
      );
      await Promise.all(
        victims.slice(0, Math.min(-diff, BURST)).map(async (pod) => {
          this.expectations.expect(key, pod.metadata.name!);
          try {
            const deleted = await this.kube.delete({
              apiVersion: 'v1',
              kind: 'Pod',
              namespace: pod.metadata.namespace,
              name: pod.metadata.name!,
            });
            if (!deleted) this.expectations.observed(key, pod.metadata.name!);
            else await this.events.record(rs, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
          } catch (e) {
            this.expectations.observed(key, pod.metadata.name!);
            throw e;
          }
        }),
      );
    }
  }
}

/** The workload status fields are `omitempty` int32s: a zero is left out, as the real controllers leave it. */
export function nonZero(n: number): number | undefined {
  return n === 0 ? undefined : n;
}
