import { isConflict, type KubeClient } from '../kube/client.js';
import { EventRecorder } from '../kube/events.js';
import type { Logger } from '../log/index.js';
import { setCondition } from './conditions.js';
import { ControlLoop, type SimulatedController } from './control-loop.js';
import { Expectations } from './expectations.js';
import { SIMULATOR_FIELD_MANAGER, type ObjectWriter } from './object-writer.js';
import { isActive, isPodReady, podFromTemplate, rfc3339 } from './pods.js';
import { nonZero } from './replicaset-controller.js';
import { keyOf, ownerKeyOf, splitKey, type SharedInformer } from './shared-informers.js';
import { randomSuffix } from './template-hash.js';
import type { Job, Pod, WorkloadCondition } from './types.js';

const COMPLETED = 'Reached expected number of succeeded pods';

/**
 * The Job controller for jobs whose pods all succeed (the simulated kubelet never fails one): up to
 * `parallelism` pods at a time until `completions` have succeeded, then the status the 1.31+
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
    const succeeded = pods.filter((p) => p.status?.phase === 'Succeeded').length;
    const failed = pods.filter((p) => p.status?.phase === 'Failed').length;
    const parallelism = job.spec?.parallelism ?? 1;
    // Neither set means one pod to completion (the API server's defaulting); parallelism alone is a work queue.
    const completions = job.spec?.completions ?? (job.spec?.parallelism === undefined ? 1 : undefined);
    const alreadyDone = job.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True') === true;
    const complete = alreadyDone || (completions !== undefined ? succeeded >= completions : succeeded > 0 && active.length === 0);
    const suspended = job.spec?.suspend === true;
    if (!complete && !suspended && this.expectations.satisfied(key)) {
      const want = completions !== undefined ? Math.min(parallelism, completions - succeeded) : succeeded > 0 ? 0 : parallelism;
      for (let i = active.length; i < want; i++) await this.createPod(key, job);
    }
    const now = Date.now();
    const existing = job.status?.conditions;
    const conditions: WorkloadCondition[] = complete
      ? [
          setCondition(existing, { type: 'SuccessCriteriaMet', status: 'True', reason: 'CompletionsReached', message: COMPLETED }, 'lastProbeTime', now),
          setCondition(existing, { type: 'Complete', status: 'True', reason: 'CompletionsReached', message: COMPLETED }, 'lastProbeTime', now),
        ]
      : [];
    const startTime = job.status?.startTime ?? (suspended ? undefined : rfc3339(now));
    const sent = await this.writer.status(job, {
      ...(startTime ? { startTime } : {}),
      ...(complete ? { completionTime: typeof job.status?.completionTime === 'string' ? job.status.completionTime : rfc3339(now) } : {}),
      active: nonZero(active.length),
      succeeded: nonZero(succeeded),
      failed: nonZero(failed),
      ready: active.filter(isPodReady).length,
      terminating: 0,
      uncountedTerminatedPods: {},
      ...(conditions.length ? { conditions } : {}),
    });
    if (sent && complete && !alreadyDone) await this.events.record(job, 'Normal', 'Completed', 'Job completed');
  }

  private async createPod(key: string, job: Job): Promise<void> {
    const jobName = job.metadata.name!;
    const uid = job.metadata.uid!;
    const pod = podFromTemplate(job, `${jobName}-${randomSuffix()}`, job.spec?.template, {
      // What the API server puts on a Job's template (and so on its pods) when it defaults the selector.
      labels: { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': jobName, 'controller-uid': uid, 'job-name': jobName },
    });
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
