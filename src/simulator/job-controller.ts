import { isConflict, type KubeClient, EventRecorder } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { setCondition } from './conditions.js';
import { ControlLoop, type SimulatedController } from './control-loop.js';
import { Expectations } from './expectations.js';
import { SIMULATOR_FIELD_MANAGER, type ObjectWriter } from './object-writer.js';
import { isActive, isPodReady, podFromTemplate, rfc3339 } from './pods.js';
import { nonZero } from './replicaset-controller.js';
import { keyOf, ownerKeyOf, splitKey, type SharedInformer } from './shared-informers.js';
import { slowStartBatch } from './slow-start.js';
import { randomSuffix } from './template-hash.js';
import type { Job, Pod, WorkloadCondition } from './types.js';

const COMPLETED = 'Reached expected number of succeeded pods';
const INDEX = 'batch.kubernetes.io/job-completion-index';

function indexOf(pod: Pod): number | undefined {
  const v = pod.metadata.annotations?.[INDEX];
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
}

/** `0-2,4`: the form of status.completedIndexes. */
export function compressIndexes(indexes: ReadonlySet<number>): string {
  const sorted = [...indexes].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const start = sorted[i]!;
    while (i + 1 < sorted.length && sorted[i + 1] === sorted[i]! + 1) i++;
    parts.push(start === sorted[i] ? String(start) : `${start}-${sorted[i]}`);
  }
  return parts.join(',');
}

/**
 * The Job controller for jobs whose pods all succeed (the simulated kubelet never fails one): up to
 * `parallelism` pods at a time until `completions` have succeeded (with `completionMode: Indexed`
 * one per index, reported in completedIndexes), then the status the 1.31+
 * controller writes, SuccessCriteriaMet and Complete, with startTime and completionTime.
 */
export class JobController implements SimulatedController {
  readonly loop: ControlLoop;
  private readonly expectations = new Expectations();
  private readonly events: EventRecorder;

  constructor(
    private readonly kube: KubeClient,
    private readonly jobs: SharedInformer,
    private readonly pods: SharedInformer,
    private readonly writer: ObjectWriter,
    log: Logger,
  ) {
    this.loop = new ControlLoop('job', log, (key) => this.reconcile(key));
    this.events = new EventRecorder(kube, 'job-controller');
    jobs.addListener({
      changed: (obj, _old, deleted) => {
        if (deleted) {
          this.expectations.forget(keyOf(obj));
          this.writer.forget(obj);
        } else this.loop.enqueue(keyOf(obj));
      },
    });
    pods.addListener({
      changed: (pod, old, deleted) => {
        const owner = ownerKeyOf(pod, 'Job');
        if (!owner) return;
        if (deleted || !old) this.expectations.observed(owner, pod.metadata.name!);
        this.loop.enqueue(owner);
      },
    });
  }

  private async reconcile(key: string): Promise<void> {
    const [ns, name] = splitKey(key);
    const job = this.jobs.get(ns, name) as Job | undefined;
    if (!job || job.metadata.deletionTimestamp) return;
    const pods = this.pods.controlledBy(job.metadata.uid) as Pod[];
    const active = pods.filter(isActive);
    const failed = pods.filter((p) => p.status?.phase === 'Failed').length;
    const parallelism = job.spec?.parallelism ?? 1;
    // Neither set means one pod to completion (the API server's defaulting); parallelism alone is a work queue.
    const completions = job.spec?.completions ?? (job.spec?.parallelism === undefined ? 1 : undefined);
    const indexed = job.spec?.completionMode === 'Indexed' && completions !== undefined;
    // Indexed: an index counts once however many of its pods succeeded.
    const succeededIndexes = new Set(
      pods
        .filter((p) => p.status?.phase === 'Succeeded')
        .map(indexOf)
        .filter((i): i is number => i !== undefined && i < (completions ?? 0)),
    );
    const succeeded = indexed ? succeededIndexes.size : pods.filter((p) => p.status?.phase === 'Succeeded').length;
    const alreadyDone = job.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True') === true;
    const complete =
      alreadyDone || (completions !== undefined ? succeeded >= completions : succeeded > 0 && active.length === 0);
    const suspended = job.spec?.suspend === true;
    if (!complete && !suspended && this.expectations.satisfied(key)) {
      const want =
        completions !== undefined ? Math.min(parallelism, completions - succeeded) : succeeded > 0 ? 0 : parallelism;
      if (indexed) {
        const running = new Set(active.map(indexOf));
        const missing = Array.from({ length: completions }, (_, i) => i).filter(
          (i) => !succeededIndexes.has(i) && !running.has(i),
        );
        const indexes = missing.slice(0, Math.max(0, want - active.length));
        await slowStartBatch(indexes.length, (i) => this.createPod(key, job, indexes[i]));
      } else {
        await slowStartBatch(Math.max(0, want - active.length), () => this.createPod(key, job, undefined));
      }
    }
    const now = Date.now();
    const existing = job.status?.conditions;
    const conditions: WorkloadCondition[] = complete
      ? [
          setCondition(
            existing,
            { type: 'SuccessCriteriaMet', status: 'True', reason: 'CompletionsReached', message: COMPLETED },
            'lastProbeTime',
            now,
          ),
          setCondition(
            existing,
            { type: 'Complete', status: 'True', reason: 'CompletionsReached', message: COMPLETED },
            'lastProbeTime',
            now,
          ),
        ]
      : [];
    const startTime = job.status?.startTime ?? (suspended ? undefined : rfc3339(now));
    const sent = await this.writer.status(job, {
      ...(startTime ? { startTime } : {}),
      ...(complete
        ? { completionTime: typeof job.status?.completionTime === 'string' ? job.status.completionTime : rfc3339(now) }
        : {}),
      active: nonZero(active.length),
      succeeded: nonZero(succeeded),
      failed: nonZero(failed),
      ready: active.filter(isPodReady).length,
      terminating: 0,
      uncountedTerminatedPods: {},
      ...(indexed && succeededIndexes.size ? { completedIndexes: compressIndexes(succeededIndexes) } : {}),
      ...(conditions.length ? { conditions } : {}),
    });
    if (sent && complete && !alreadyDone) await this.events.record(job, 'Normal', 'Completed', 'Job completed');
  }

  private async createPod(key: string, job: Job, index: number | undefined): Promise<void> {
    const jobName = job.metadata.name!;
    const uid = job.metadata.uid!;
    const pod = podFromTemplate(
      job,
      index === undefined ? `${jobName}-${randomSuffix()}` : `${jobName}-${index}-${randomSuffix()}`,
      job.spec?.template,
      {
        // What the API server puts on a Job's template (and so on its pods) when it defaults the selector.
        labels: {
          'batch.kubernetes.io/controller-uid': uid,
          'batch.kubernetes.io/job-name': jobName,
          'controller-uid': uid,
          'job-name': jobName,
          ...(index === undefined ? {} : { [INDEX]: String(index) }),
        },
        ...(index === undefined ? {} : { annotations: { [INDEX]: String(index) } }),
      },
    );
    if (index !== undefined) {
      // As the real controller does: the index reaches the containers and names the host.
      const env = {
        name: 'JOB_COMPLETION_INDEX',
        valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${INDEX}']` } },
      };
      pod.spec = {
        ...pod.spec,
        hostname: `${jobName}-${index}`,
        containers: (pod.spec?.containers ?? []).map((c) => ({ ...c, env: [...((c.env ?? []) as unknown[]), env] })),
      };
    }
    this.expectations.expect(key, pod.metadata.name!);
    try {
      await this.kube.create(pod, { fieldManager: SIMULATOR_FIELD_MANAGER });
      await this.events.record(job, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`);
    } catch (e) {
      this.expectations.observed(key, pod.metadata.name!);
      if (!isConflict(e)) throw e;
    }
  }
}
