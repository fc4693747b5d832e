import { isConflict, type KubeClient, EventRecorder, type KubeObject } from '../kube/index.js';
import type { Logger } from '../log/index.js';
import type { ReconcileResult } from '../queue/index.js';
import { waiting } from '../reconcile/index.js';
import { ControlLoop, type SimulatedController } from './control-loop.js';
import { latestBetween, nextAfter, parseCron, type CronSchedule } from './cron-schedule.js';
import { SIMULATOR_FIELD_MANAGER, type ObjectWriter } from './object-writer.js';
import { controllerRef, rfc3339 } from './pods.js';
import { keyOf, ownerKeyOf, splitKey, type SharedInformer } from './shared-informers.js';
import type { Job, WorkloadCondition } from './types.js';

interface CronJob extends KubeObject {
  spec?: {
    schedule?: string;
    suspend?: boolean;
    concurrencyPolicy?: 'Allow' | 'Forbid' | 'Replace';
    startingDeadlineSeconds?: number;
    successfulJobsHistoryLimit?: number;
    failedJobsHistoryLimit?: number;
    jobTemplate?: {
      metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
      spec?: Record<string, unknown>;
    };
  };
  status?: { lastScheduleTime?: string; lastSuccessfulTime?: string };
}

const SCHEDULED_AT = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

/**
 * The CronJob controller (UTC): at each scheduled minute a Job `<name>-<minutes since epoch>` from
 * the jobTemplate (only the latest missed run is made up, within startingDeadlineSeconds),
 * concurrencyPolicy Forbid / Replace honoured, finished Jobs beyond the history limits deleted,
 * status `active`, `lastScheduleTime`, `lastSuccessfulTime`.
 */
export class CronJobController implements SimulatedController {
  readonly loop: ControlLoop;
  private readonly events: EventRecorder;

  constructor(
    private readonly kube: KubeClient,
    private readonly cronJobs: SharedInformer,
    private readonly jobs: SharedInformer,
    private readonly writer: ObjectWriter,
    log: Logger,
  ) {
    this.loop = new ControlLoop('cronjob', log, (key) => this.reconcile(key));
    this.events = new EventRecorder(kube, 'cronjob-controller');
    cronJobs.addListener({
      changed: (obj, _old, deleted) => {
        if (deleted) this.writer.forget(obj);
        else this.loop.enqueue(keyOf(obj));
      },
    });
    jobs.addListener({ changed: (job) => this.loop.enqueue(ownerKeyOf(job, 'CronJob')) });
  }

  private async reconcile(key: string): Promise<ReconcileResult | void> {
    const [ns, name] = splitKey(key);
    const cj = this.cronJobs.get(ns, name) as CronJob | undefined;
    if (!cj || cj.metadata.deletionTimestamp) return;
    let schedule: CronSchedule;
    try {
      schedule = parseCron(cj.spec?.schedule ?? '');
    } catch (e) {
      await this.events.record(cj, 'Warning', 'UnparseableSchedule', `unparseable schedule: ${(e as Error).message}`);
      return;
    }
    const now = Date.now();
    const jobs = this.jobs.controlledBy(cj.metadata.uid) as Job[];
    const active = jobs.filter((j) => !finishedAs(j));
    let lastScheduleTime = cj.status?.lastScheduleTime;
    if (!cj.spec?.suspend) {
      const earliest = Date.parse(lastScheduleTime ?? cj.metadata.creationTimestamp ?? new Date(now).toISOString());
      const due = latestBetween(schedule, earliest, now);
      const deadline = cj.spec?.startingDeadlineSeconds;
      if (due !== undefined && (deadline === undefined || now - due <= deadline * 1000)) {
        const jobName = `${name}-${Math.floor(due / 60_000)}`;
        const policy = cj.spec?.concurrencyPolicy ?? 'Allow';
        if (policy === 'Forbid' && active.length) {
          // Skipped, not postponed: the next scheduled minute is the next chance (as the real controller).
        } else {
          if (policy === 'Replace')
            for (const j of active)
              await this.kube.delete({ apiVersion: 'batch/v1', kind: 'Job', namespace: ns, name: j.metadata.name! });
          if (!jobs.some((j) => j.metadata.name === jobName)) await this.createJob(cj, jobName, due);
          lastScheduleTime = rfc3339(due);
        }
      }
    }
    await this.pruneHistory(cj, jobs);
    const succeededAt = jobs
      .map((j) => (finishedAs(j) === 'Complete' ? (j.status?.completionTime as string | undefined) : undefined))
      .filter((t): t is string => !!t)
      .sort();
    const lastSuccessfulTime = succeededAt.at(-1) ?? cj.status?.lastSuccessfulTime;
    await this.writer.status(cj, {
      ...(active.length
        ? {
            active: active.map((j) => ({
              apiVersion: 'batch/v1',
              kind: 'Job',
              name: j.metadata.name,
              namespace: j.metadata.namespace,
              uid: j.metadata.uid,
            })),
          }
        : {}),
      ...(lastScheduleTime ? { lastScheduleTime } : {}),
      ...(lastSuccessfulTime ? { lastSuccessfulTime } : {}),
    });
    const next = nextAfter(schedule, now);
    if (next !== undefined && !cj.spec?.suspend) return waiting(next - Date.now(), 'NextSchedule');
  }

  private async createJob(cj: CronJob, name: string, due: number): Promise<void> {
    const template = structuredClone(cj.spec?.jobTemplate ?? {});
    const job: Job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name,
        namespace: cj.metadata.namespace,
        ...(template.metadata?.labels ? { labels: template.metadata.labels } : {}),
        annotations: { ...template.metadata?.annotations, [SCHEDULED_AT]: rfc3339(due) },
        ownerReferences: [controllerRef(cj)],
      },
      spec: (template.spec ?? {}) as NonNullable<Job['spec']>,
    };
    try {
      await this.kube.create(job, { fieldManager: SIMULATOR_FIELD_MANAGER });
      await this.events.record(cj, 'Normal', 'SuccessfulCreate', `Created job ${name}`);
    } catch (e) {
      if (!isConflict(e)) throw e; // made by an earlier sync the cache has not shown yet
    }
  }

  /** successfulJobsHistoryLimit (3) and failedJobsHistoryLimit (1): the oldest finished Jobs beyond them go. */
  private async pruneHistory(cj: CronJob, jobs: Job[]): Promise<void> {
    const limits = { Complete: cj.spec?.successfulJobsHistoryLimit ?? 3, Failed: cj.spec?.failedJobsHistoryLimit ?? 1 };
    for (const kind of ['Complete', 'Failed'] as const) {
      const done = jobs
        .filter((j) => finishedAs(j) === kind && !j.metadata.deletionTimestamp)
        .sort((a, b) => String(a.metadata.name).localeCompare(String(b.metadata.name), undefined, { numeric: true }));
      for (const j of done.slice(0, Math.max(0, done.length - limits[kind]))) {
        await this.kube.delete({
          apiVersion: 'batch/v1',
          kind: 'Job',
          namespace: j.metadata.namespace,
          name: j.metadata.name!,
        });
      }
    }
  }
}

function finishedAs(job: Job): 'Complete' | 'Failed' | undefined {
  const c = (job.status?.conditions ?? []).find(
    (x: WorkloadCondition) => (x.type === 'Complete' || x.type === 'Failed') && x.status === 'True',
  );
  return c?.type as 'Complete' | 'Failed' | undefined;
}
