import { isConflict, isNotFound, type KubeClient } from '../kube/client.js';
import type { Logger } from '../log/index.js';
import type { ReconcileResult } from '../queue/index.js';
import { waiting } from '../reconcile/index.js';
import { ControlLoop, type SimulatedController } from './control-loop.js';
import type { ObjectWriter } from './object-writer.js';
import { PodIpAllocator } from './pod-ips.js';
import { normalizeImage, podStatusAt, stageOf, type PodStage } from './pod-status.js';
import { isDeleting } from './pods.js';
import { controllerOf, keyOf, splitKey, type SharedInformer } from './shared-informers.js';
import type { Pod } from './types.js';

export interface KubeletOptions {
  /** How long a pod takes from scheduled to Running and Ready (and a Job's pod from Running to Succeeded). */
  podStartMs: number;
  /** The address reported as the pods' node (status.hostIP). */
  hostIP: string;
  /**
   * Bind every pod to this Node first (pods/binding, as the scheduler does), for a real kube-controller-manager
   * beside, which wants pods on a node that exists (SimulatedNode). Without it pods stay unbound.
   */
  bindTo?: { node: string; kube: KubeClient };
}

const ORDER: Record<PodStage, number> = { Scheduled: 0, Running: 1, Succeeded: 2 };

/**
 * The scheduler and kubelet in one: a pod is scheduled at once, Running and Ready `podStartMs`
 * after the simulator first saw it, and a Job's pod Succeeded as long again later. No container
 * runs; only the status a real node would report is written.
 */
export class SimulatedKubelet implements SimulatedController {
  readonly loop: ControlLoop;
  private readonly firstSeen = new Map<string, number>();
  private readonly ips = new PodIpAllocator();

  constructor(
    private readonly pods: SharedInformer,
    private readonly writer: ObjectWriter,
    private readonly opts: KubeletOptions,
    log: Logger,
  ) {
    this.loop = new ControlLoop('kubelet', log, (key) => this.reconcile(key));
    pods.addListener({
      changed: (obj, _old, deleted) => {
        const uid = obj.metadata.uid ?? '';
        if (deleted) {
          this.firstSeen.delete(uid);
          this.ips.release(uid);
          this.writer.forget(obj);
          return;
        }
        const ip = (obj as Pod).status?.podIP;
        if (typeof ip === 'string') this.ips.reserve(uid, ip);
        if (!this.firstSeen.has(uid)) this.firstSeen.set(uid, Date.now());
        this.loop.enqueue(keyOf(obj));
      },
    });
  }

  private async reconcile(key: string): Promise<ReconcileResult | void> {
    const [ns, name] = splitKey(key);
    const pod = this.pods.get(ns, name) as Pod | undefined;
    if (!pod || isDeleting(pod)) return;
    const bindTo = this.opts.bindTo;
    if (bindTo && !pod.spec?.nodeName) {
      // The watch delivers the bound pod, which is reconciled again from here.
      const target = { kind: 'Node', name: bindTo.node };
      const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target };
      await bindTo.kube.rest.send('POST', `/api/v1/namespaces/${ns}/pods/${name}/binding`, { body: binding }).catch(
        // Gone, or bound meanwhile: the watch says which.
        (e: unknown) => {
          if (!isNotFound(e) && !isConflict(e)) throw e;
        },
      );
      return;
    }
    const uid = pod.metadata.uid ?? '';
    const seen = this.firstSeen.get(uid) ?? Date.now();
    const elapsed = Date.now() - seen;
    const runsToCompletion = controllerOf(pod)?.kind === 'Job';
    const due: PodStage =
      elapsed < this.opts.podStartMs
        ? 'Scheduled'
        : runsToCompletion && elapsed >= 2 * this.opts.podStartMs
          ? 'Succeeded'
          : 'Running';
    const current = stageOf(pod);
    const target = current && ORDER[current] > ORDER[due] ? current : due;
    if (target !== current || !imagesReported(pod)) {
      const podIP = target === 'Scheduled' ? '' : this.ips.ipFor(uid);
      await this.writer.status(pod, podStatusAt(pod, target, { hostIP: this.opts.hostIP, podIP }));
    }
    if (target === 'Scheduled') return waiting(this.opts.podStartMs - elapsed, 'PodStarting');
    if (target === 'Running' && runsToCompletion) return waiting(2 * this.opts.podStartMs - elapsed, 'PodRunning');
  }
}

/** A running pod whose containers (or their images) changed since its status was written is reported afresh. */
function imagesReported(pod: Pod): boolean {
  if (pod.status?.phase !== 'Running') return true;
  const statuses = (pod.status.containerStatuses ?? []) as Array<{ name: string; image: string }>;
  const containers = pod.spec?.containers ?? [];
  return (
    containers.length === statuses.length &&
    containers.every((c) => statuses.some((s) => s.name === c.name && s.image === normalizeImage(c.image ?? '')))
  );
}
