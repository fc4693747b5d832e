import { isConflict, type KubeClient, EventRecorder, refOf } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { adopt, isOrphanFor, resolveNameTaken } from './adoption.js';
import { setCondition } from './conditions.js';
import { ControlLoop, type SimulatedController } from './control-loop.js';
import { scaledValue } from './int-or-percent.js';
import { SIMULATOR_FIELD_MANAGER, type ObjectWriter } from './object-writer.js';
import { controllerRef } from './pods.js';
import { nonZero } from './replicaset-controller.js';
import { keyOf, ownerKeyOf, splitKey, type SharedInformer } from './shared-informers.js';
import { recreateStep, rollingStep, type ReplicaCounts, type RolloutStep } from './rollout-plan.js';
import { podTemplateHash } from './template-hash.js';
import type { Deployment, ReplicaSet } from './types.js';

export const REVISION = 'deployment.kubernetes.io/revision';
const HASH_LABEL = 'pod-template-hash';
/** Annotations the real controller does not copy from a Deployment onto its ReplicaSets. */
const NOT_COPIED = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION,
  'deployment.kubernetes.io/revision-history',
  'deployment.kubernetes.io/desired-replicas',
  'deployment.kubernetes.io/max-replicas',
  'deprecated.deployment.rollback.to',
]);

/**
 * The Deployment controller: one ReplicaSet per pod template (`<name>-<pod-template-hash>`),
 * revisions numbered in `deployment.kubernetes.io/revision`, a changed template rolled out step by
 * step as the real controller does (RollingUpdate within maxSurge / maxUnavailable, or Recreate),
 * status summed from the ReplicaSets.
 */
export class DeploymentController implements SimulatedController {
  readonly loop: ControlLoop;
  private readonly events: EventRecorder;

  constructor(
    private readonly kube: KubeClient,
    private readonly deployments: SharedInformer,
    private readonly replicaSets: SharedInformer,
    private readonly writer: ObjectWriter,
    log: Logger,
  ) {
    this.loop = new ControlLoop('deployment', log, (key) => this.reconcile(key));
    this.events = new EventRecorder(kube, 'deployment-controller');
    deployments.addListener({
      changed: (obj, _old, deleted) => {
        if (deleted) this.writer.forget(obj);
        else this.loop.enqueue(keyOf(obj));
      },
    });
    replicaSets.addListener({ changed: (rs) => this.loop.enqueue(ownerKeyOf(rs, 'Deployment')) });
  }

  private async reconcile(key: string): Promise<void> {
    const [ns, name] = splitKey(key);
    const d = this.deployments.get(ns, name) as Deployment | undefined;
    if (!d || d.metadata.deletionTimestamp) return;
    // ReplicaSets left by an earlier Deployment of this name (deleted with --cascade=orphan) are
    // claimed, as the real controller claims every orphan its selector matches.
    const orphans = this.replicaSets.list().filter((rs) => isOrphanFor(rs, d, d.spec?.selector));
    for (const rs of orphans) await adopt(this.kube, rs, d);
    if (orphans.length) return; // their update events bring the Deployment back with them owned
    const owned = this.replicaSets.controlledBy(d.metadata.uid) as ReplicaSet[];
    const hash = podTemplateHash(d.spec?.template, Number(d.status?.collisionCount ?? 0));
    const current = owned.find((rs) => rs.metadata.labels?.[HASH_LABEL] === hash);
    const olds = owned.filter((rs) => rs !== current);
    const want = d.spec?.replicas ?? 1;
    const maxOldRevision = Math.max(0, ...olds.map(revisionOf));
    if (!d.spec?.paused) {
      if (!current) {
        const first = this.step(d, want, { spec: 0, available: 0, pods: 0 }, olds).newReplicas ?? 0;
        await this.createReplicaSet(d, hash, maxOldRevision + 1, first);
        return; // its add event brings the Deployment back
      }
      await this.rollOut(d, current, olds, want, maxOldRevision);
    } else {
      // Paused: no rollout (a changed template gets no ReplicaSet yet), but a scale still applies.
      // The real controller spreads it over the ReplicaSets proportionally; with one that has
      // replicas (the usual case) that is all of it.
      const withReplicas = owned.filter((rs) => (rs.spec?.replicas ?? 0) > 0);
      const target = withReplicas.length === 1 ? withReplicas[0] : withReplicas.length === 0 ? current : undefined;
      if (target) await this.scale(d, target, want);
    }
    await this.writeStatus(d, current, owned, want);
  }

  private async createReplicaSet(d: Deployment, hash: string, revision: number, replicas: number): Promise<void> {
    const template = structuredClone(d.spec?.template ?? {});
    template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, [HASH_LABEL]: hash } };
    const selector = structuredClone(d.spec?.selector ?? { matchLabels: { ...d.spec?.template?.metadata?.labels } });
    selector.matchLabels = { ...selector.matchLabels, [HASH_LABEL]: hash };
    const rs: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${d.metadata.name}-${hash}`,
        namespace: d.metadata.namespace,
        labels: template.metadata.labels!,
        annotations: { ...copiedAnnotations(d), ...this.replicaAnnotations(d, replicas), [REVISION]: String(revision) },
        ownerReferences: [controllerRef(d)],
      },
      spec: {
        replicas,
        selector,
        template,
        ...(d.spec?.minReadySeconds ? { minReadySeconds: d.spec.minReadySeconds } : {}),
      },
    };
    try {
      await this.kube.create(rs, { fieldManager: SIMULATOR_FIELD_MANAGER });
      if (replicas > 0)
        await this.events.record(
          d,
          'Normal',
          'ScalingReplicaSet',
          `Scaled up replica set ${rs.metadata.name} from 0 to ${replicas}`,
        );
    } catch (e) {
      if (!isConflict(e)) throw e;
      // Ours from an earlier sync whose add event is on its way, an orphan to adopt, or another
      // owner's: then, as the real controller does, count a collision so the next hash differs.
      const ref = {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        namespace: d.metadata.namespace,
        name: rs.metadata.name!,
      };
      if ((await resolveNameTaken(this.kube, ref, d, d.spec?.selector)) === 'foreign') {
        await this.kube.sendPatch(
          refOf(d),
          { status: { collisionCount: Number(d.status?.collisionCount ?? 0) + 1 } },
          'merge',
          { subresource: 'status', fieldManager: SIMULATOR_FIELD_MANAGER },
        );
      }
    }
  }

  private async rollOut(
    d: Deployment,
    current: ReplicaSet,
    olds: ReplicaSet[],
    want: number,
    maxOldRevision: number,
  ): Promise<void> {
    const revision = revisionOf(current) > maxOldRevision ? revisionOf(current) : maxOldRevision + 1;
    const oldestFirst = [...olds].sort((a, b) => revisionOf(a) - revisionOf(b));
    const step = this.step(d, want, countsOf(current), oldestFirst);
    await this.scale(d, current, step.newReplicas ?? current.spec?.replicas ?? 1, {
      metadata: {
        annotations: { ...copiedAnnotations(d), ...this.replicaAnnotations(d, want), [REVISION]: String(revision) },
      },
    });
    await this.writer.merge(d, { metadata: { annotations: { [REVISION]: String(revision) } } });
    for (const [i, replicas] of (step.oldReplicas ?? []).entries()) await this.scale(d, oldestFirst[i]!, replicas);
    await this.cleanUp(d, olds);
  }

  /** The next move of the rollout, by the Deployment's strategy. */
  private step(d: Deployment, want: number, current: ReplicaCounts, olds: ReplicaSet[]): RolloutStep {
    const oldCounts = olds.map(countsOf);
    if (d.spec?.strategy?.type === 'Recreate') return recreateStep(want, current, oldCounts);
    const rolling = d.spec?.strategy?.rollingUpdate;
    return rollingStep(
      {
        want,
        maxSurge: scaledValue(rolling?.maxSurge, want, true, '25%'),
        maxUnavailable: scaledValue(rolling?.maxUnavailable, want, false, '25%'),
      },
      current,
      oldCounts,
    );
  }

  /** Sets a ReplicaSet's replicas (and more of it, `extra`), with the Event the real controller records for a scale. */
  private async scale(
    d: Deployment,
    rs: ReplicaSet,
    replicas: number,
    extra: Record<string, unknown> = {},
  ): Promise<void> {
    const from = rs.spec?.replicas ?? 1;
    const sent = await this.writer.merge(rs, { ...extra, spec: { replicas } });
    // Events only for a scale actually sent (a lagging cache can compute the same step twice).
    if (sent && from !== replicas) {
      await this.events.record(
        d,
        'Normal',
        'ScalingReplicaSet',
        `Scaled ${replicas > from ? 'up' : 'down'} replica set ${rs.metadata.name} from ${from} to ${replicas}`,
      );
    }
  }

  /** revisionHistoryLimit (default 10): the oldest scaled-down ReplicaSets beyond it are deleted. */
  private async cleanUp(d: Deployment, olds: ReplicaSet[]): Promise<void> {
    const limit = d.spec?.revisionHistoryLimit ?? 10;
    const idle = olds
      .filter(
        (rs) => (rs.spec?.replicas ?? 0) === 0 && (rs.status?.replicas ?? 0) === 0 && !rs.metadata.deletionTimestamp,
      )
      .sort((a, b) => revisionOf(a) - revisionOf(b));
    for (const rs of idle.slice(0, Math.max(0, idle.length - limit))) {
      await this.kube.delete({
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        namespace: rs.metadata.namespace,
        name: rs.metadata.name!,
      });
    }
  }

  private replicaAnnotations(d: Deployment, replicas: number): Record<string, string> {
    const surge =
      d.spec?.strategy?.type === 'Recreate'
        ? 0
        : scaledValue(d.spec?.strategy?.rollingUpdate?.maxSurge, replicas, true, '25%');
    return {
      'deployment.kubernetes.io/desired-replicas': String(replicas),
      'deployment.kubernetes.io/max-replicas': String(replicas + surge),
    };
  }

  private async writeStatus(
    d: Deployment,
    current: ReplicaSet | undefined,
    owned: ReplicaSet[],
    want: number,
  ): Promise<void> {
    const sum = (f: (rs: ReplicaSet) => number | undefined): number => owned.reduce((n, rs) => n + (f(rs) ?? 0), 0);
    const replicas = sum((rs) => rs.status?.replicas);
    const updated = current?.status?.replicas ?? 0;
    const available = sum((rs) => rs.status?.availableReplicas);
    const maxUnavailable =
      d.spec?.strategy?.type === 'Recreate' || want === 0
        ? 0
        : scaledValue(d.spec?.strategy?.rollingUpdate?.maxUnavailable, want, false, '25%');
    const existing = d.status?.conditions;
    const availableCond =
      available >= want - maxUnavailable
        ? setCondition(
            existing,
            {
              type: 'Available',
              status: 'True',
              reason: 'MinimumReplicasAvailable',
              message: 'Deployment has minimum availability.',
            },
            'lastUpdateTime',
          )
        : setCondition(
            existing,
            {
              type: 'Available',
              status: 'False',
              reason: 'MinimumReplicasUnavailable',
              message: 'Deployment does not have minimum availability.',
            },
            'lastUpdateTime',
          );
    const complete =
      current !== undefined &&
      updated === want &&
      replicas === want &&
      (current.status?.availableReplicas ?? 0) === want;
    const rsName = current?.metadata.name ?? `${d.metadata.name}`;
    const progressing = d.spec?.paused
      ? setCondition(
          existing,
          { type: 'Progressing', status: 'Unknown', reason: 'DeploymentPaused', message: 'Deployment is paused' },
          'lastUpdateTime',
        )
      : complete
        ? setCondition(
            existing,
            {
              type: 'Progressing',
              status: 'True',
              reason: 'NewReplicaSetAvailable',
              message: `ReplicaSet "${rsName}" has successfully progressed.`,
            },
            'lastUpdateTime',
          )
        : setCondition(
            existing,
            {
              type: 'Progressing',
              status: 'True',
              reason: 'ReplicaSetUpdated',
              message: `ReplicaSet "${rsName}" is progressing.`,
            },
            'lastUpdateTime',
          );
    await this.writer.status(d, {
      observedGeneration: d.metadata.generation,
      replicas: nonZero(replicas),
      updatedReplicas: nonZero(updated),
      readyReplicas: nonZero(sum((rs) => rs.status?.readyReplicas)),
      availableReplicas: nonZero(available),
      // As the real controller: the shortfall of available pods against what the ReplicaSets ask for.
      unavailableReplicas: nonZero(Math.max(0, sum((rs) => rs.spec?.replicas) - available)),
      conditions: [availableCond, progressing],
      ...(d.status?.collisionCount !== undefined ? { collisionCount: d.status.collisionCount } : {}),
    });
  }
}

function countsOf(rs: ReplicaSet): ReplicaCounts {
  return { spec: rs.spec?.replicas ?? 1, available: rs.status?.availableReplicas ?? 0, pods: rs.status?.replicas ?? 0 };
}

export function revisionOf(rs: ReplicaSet): number {
  return Number.parseInt(rs.metadata.annotations?.[REVISION] ?? '0', 10) || 0;
}

function copiedAnnotations(d: Deployment): Record<string, string> {
  return Object.fromEntries(Object.entries(d.metadata.annotations ?? {}).filter(([k]) => !NOT_COPIED.has(k)));
}
