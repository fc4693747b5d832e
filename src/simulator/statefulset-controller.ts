import { isConflict, type KubeClient, EventRecorder, type KubeObject } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import type { ReconcileResult } from '../queue/index.js';
import { waiting } from '../reconcile/index.js';
import { resolveNameTaken } from './adoption.js';
import { ControlLoop, type SimulatedController } from './control-loop.js';
import type { ControllerRevisions } from './controller-revisions.js';
import { SIMULATOR_FIELD_MANAGER, type ObjectWriter } from './object-writer.js';
import { availableInMs, controllerRef, isPodReady, podFromTemplate } from './pods.js';
import { keyOf, ownerKeyOf, splitKey, type SharedInformer } from './shared-informers.js';
import { podTemplateHash } from './template-hash.js';
import type { Pod, StatefulSet } from './types.js';
import { SimulatorError } from './errors.js';

const REVISION_LABEL = 'controller-revision-hash';

/**
 * The StatefulSet controller: pods `<name>-0 … <name>-N-1` with stable names, created in order and
 * each only once the one before is Ready (`OrderedReady`, the default; `Parallel` all at once),
 * removed from the highest ordinal down on scale-down, and replaced highest ordinal first when the
 * template changes (`RollingUpdate` with `partition`; `OnDelete` leaves that to the user). Claims of
 * `volumeClaimTemplates` are created beside their pods.
 */
export class StatefulSetController implements SimulatedController {
  readonly loop: ControlLoop;
  private readonly events: EventRecorder;

  constructor(
    private readonly kube: KubeClient,
    private readonly sets: SharedInformer,
    private readonly pods: SharedInformer,
    private readonly revisions: ControllerRevisions,
    private readonly writer: ObjectWriter,
    log: Logger,
  ) {
    this.loop = new ControlLoop('statefulset', log, (key) => this.reconcile(key));
    this.events = new EventRecorder(kube, 'statefulset-controller');
    sets.addListener({
      changed: (obj, _old, deleted) => {
        if (deleted) this.writer.forget(obj);
        else this.loop.enqueue(keyOf(obj));
      },
    });
    pods.addListener({ changed: (pod) => this.loop.enqueue(ownerKeyOf(pod, 'StatefulSet')) });
  }

  private async reconcile(key: string): Promise<ReconcileResult | void> {
    const [ns, name] = splitKey(key);
    const sts = this.sets.get(ns, name) as StatefulSet | undefined;
    if (!sts || sts.metadata.deletionTimestamp) return;
    const replicas = sts.spec?.replicas ?? 1;
    const updateRevision = `${name}-${podTemplateHash(sts.spec?.template)}`;
    const pods = (this.pods.controlledBy(sts.metadata.uid) as Pod[]).filter((p) => !p.metadata.deletionTimestamp);
    const byOrdinal = new Map<number, Pod>();
    const condemned: Pod[] = [];
    for (const p of pods) {
      const ord = ordinalOf(name, p);
      if (ord !== undefined && ord < replicas) byOrdinal.set(ord, p);
      else condemned.push(p);
    }
    await this.revisions.record(
      sts,
      updateRevision,
      new Set([updateRevision, sts.status?.currentRevision ?? updateRevision]),
    );
    await this.manage(sts, replicas, updateRevision, byOrdinal, condemned);
    return this.writeStatus(sts, replicas, updateRevision, pods);
  }

  private async manage(
    sts: StatefulSet,
    replicas: number,
    updateRevision: string,
    byOrdinal: Map<number, Pod>,
    condemned: Pod[],
  ): Promise<void> {
    const ordered = sts.spec?.podManagementPolicy !== 'Parallel';
    for (let ord = 0; ord < replicas; ord++) {
      const pod = byOrdinal.get(ord);
      if (!pod) {
        await this.createPod(sts, ord, updateRevision);
        if (ordered) return;
      } else if (ordered && !isPodReady(pod)) {
        return;
      }
    }
    // Scale-down: highest ordinal first; in order, one at a time and only while the rest are Ready.
    condemned.sort((a, b) => (ordinalOf(sts.metadata.name!, b) ?? -1) - (ordinalOf(sts.metadata.name!, a) ?? -1));
    for (const pod of ordered ? condemned.slice(0, 1) : condemned) await this.deletePod(sts, pod);
    if (condemned.length) return;
    if ((sts.spec?.updateStrategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') return;
    // Rolling update: when every pod is Ready, replace the highest-ordinal outdated pod at or above the partition.
    if ([...byOrdinal.values()].some((p) => !isPodReady(p))) return;
    const partition = sts.spec?.updateStrategy?.rollingUpdate?.partition ?? 0;
    for (let ord = replicas - 1; ord >= partition; ord--) {
      const pod = byOrdinal.get(ord);
      if (pod && pod.metadata.labels?.[REVISION_LABEL] !== updateRevision) {
        await this.deletePod(sts, pod);
        return;
      }
    }
  }

  private async createPod(sts: StatefulSet, ord: number, revision: string): Promise<void> {
    const name = `${sts.metadata.name}-${ord}`;
    const pod = podFromTemplate(sts, name, sts.spec?.template, {
      labels: {
        [REVISION_LABEL]: revision,
        'statefulset.kubernetes.io/pod-name': name,
        'apps.kubernetes.io/pod-index': String(ord),
      },
    });
    pod.spec = { ...pod.spec, hostname: name, ...(sts.spec?.serviceName ? { subdomain: sts.spec.serviceName } : {}) };
    const claims = sts.spec?.volumeClaimTemplates ?? [];
    const volumes = ((pod.spec.volumes ?? []) as Array<{ name: string }>).filter(
      (v) => !claims.some((c) => c.metadata.name === v.name),
    );
    for (const claim of claims) {
      const claimName = `${claim.metadata.name}-${name}`;
      await this.createClaim(sts, claim, claimName, name);
      volumes.push({ name: claim.metadata.name!, persistentVolumeClaim: { claimName } } as { name: string });
    }
    if (volumes.length) pod.spec.volumes = volumes;
    try {
      await this.kube.create(pod, { fieldManager: SIMULATOR_FIELD_MANAGER });
      await this.events.record(
        sts,
        'Normal',
        'SuccessfulCreate',
        `create Pod ${name} in StatefulSet ${sts.metadata.name} successful`,
      );
    } catch (e) {
      if (!isConflict(e)) throw e;
      // Ours from an earlier sync the cache has not shown yet, or an orphan left by an earlier set of this name.
      const ref = { apiVersion: 'v1', kind: 'Pod', namespace: pod.metadata.namespace, name };
      if ((await resolveNameTaken(this.kube, ref, sts, sts.spec?.selector)) === 'foreign')
        throw new SimulatorError('NameTaken', `pod ${name} exists and belongs to another controller`);
    }
  }

  /** A claim per pod and template, kept after the pod (Retain, the default) or owned by the set (whenDeleted: Delete). */
  private async createClaim(
    sts: StatefulSet,
    claim: KubeObject & { spec?: Record<string, unknown> },
    claimName: string,
    podName: string,
  ): Promise<void> {
    const ownedBySet = sts.spec?.persistentVolumeClaimRetentionPolicy?.whenDeleted === 'Delete';
    const pvc: KubeObject = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name: claimName,
        namespace: sts.metadata.namespace,
        labels: { ...claim.metadata.labels, ...sts.spec?.selector?.matchLabels },
        ...(ownedBySet ? { ownerReferences: [{ ...controllerRef(sts), controller: false }] } : {}),
      },
      spec: structuredClone(claim.spec ?? {}),
    };
    try {
      await this.kube.create(pvc, { fieldManager: SIMULATOR_FIELD_MANAGER });
      await this.events.record(
        sts,
        'Normal',
        'SuccessfulCreate',
        `create Claim ${claimName} Pod ${podName} in StatefulSet ${sts.metadata.name} success`,
      );
    } catch (e) {
      if (!isConflict(e)) throw e; // claims outlive their pods: the recreated pod finds it again
    }
  }

  private async deletePod(sts: StatefulSet, pod: Pod): Promise<void> {
    if (
      await this.kube.delete({
        apiVersion: 'v1',
        kind: 'Pod',
        namespace: pod.metadata.namespace,
        name: pod.metadata.name!,
      })
    ) {
      await this.events.record(
        sts,
        'Normal',
        'SuccessfulDelete',
        `delete Pod ${pod.metadata.name} in StatefulSet ${sts.metadata.name} successful`,
      );
    }
  }

  private async writeStatus(
    sts: StatefulSet,
    replicas: number,
    updateRevision: string,
    pods: Pod[],
  ): Promise<ReconcileResult | void> {
    const now = Date.now();
    const waits = pods.map((p) => availableInMs(p, sts.spec?.minReadySeconds ?? 0, now));
    const ready = pods.filter(isPodReady).length;
    const updated = pods.filter((p) => p.metadata.labels?.[REVISION_LABEL] === updateRevision).length;
    let currentRevision = sts.status?.currentRevision ?? updateRevision;
    // A finished rolling update makes the update revision the current one (completeRollingUpdate).
    if (updated === replicas && ready === replicas && pods.length === replicas) currentRevision = updateRevision;
    const current = pods.filter((p) => p.metadata.labels?.[REVISION_LABEL] === currentRevision).length;
    await this.writer.status(sts, {
      observedGeneration: sts.metadata.generation,
      replicas: pods.length,
      readyReplicas: ready || undefined,
      currentReplicas: current || undefined,
      updatedReplicas: updated || undefined,
      availableReplicas: waits.filter((w) => w === 0).length,
      currentRevision,
      updateRevision,
      collisionCount: 0,
    });
    const next = Math.min(...waits.filter((w): w is number => w !== undefined && w > 0));
    if (Number.isFinite(next)) return waiting(next, 'MinReadySeconds');
  }
}

function ordinalOf(setName: string, pod: KubeObject): number | undefined {
  const name = pod.metadata.name ?? '';
  if (!name.startsWith(`${setName}-`)) return undefined;
  const rest = name.slice(setName.length + 1);
  return /^(0|[1-9]\d*)$/.test(rest) ? Number(rest) : undefined;
}
