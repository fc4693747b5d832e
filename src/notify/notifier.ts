import type { Registry } from 'prom-client';
import {
  type CommitState,
  type FlowSourceStatus,
  ALERT_KIND,
  FLOW_API_VERSION,
  FLOW_KIND,
  FLOWSOURCE_KIND,
  PROVIDER_KIND,
  alertSpecSchema,
  COMMIT_STATUS_TYPES,
  type ProviderType,
  parseDuration,
} from '../api/index.js';
import {
  type KubeClient,
  dropManagedFields,
  Informer,
  type Condition,
  type KubeObject,
  setCondition,
} from '../kube/index.js';
import type { Logger } from '../log/index.js';
import { processMetrics } from '../metrics/registry.js';
import type { BackoffOptions } from '../queue/index.js';
import { alertFilter, alertMatches, alertSelects, type AlertFilter } from './alert-match.js';
import { CommitTracker, type CommitTransition } from './commit-state.js';
import { Delivery } from './delivery.js';
import type { NotifyEvent } from './event.js';
import { flowTransition, fromCoreEvent, pinTransition } from './event-feed.js';
import { Grouper, type Group } from './grouper.js';
import { MAX_EVENTS, type Message } from './message.js';
import { notifyMetrics } from './metrics.js';
import { commitStatusRequest, messageRequest } from './providers/index.js';

export interface NotifierOptions {
  kube: KubeClient;
  log: Logger;
  /** The web view's base URL (`http://host:port`): messages and commit statuses link to its pages. */
  viewUrl?: string;
  /** Metrics go here (default: the process registry). */
  registry?: Registry;
  /** A commit whose objects are not all Ready by then is a failure (default 5 min). */
  commitDeadlineMs?: number;
  /** How often a pending commit's objects are looked at (default 1 s). */
  commitCheckEveryMs?: number;
  /** Between delivery attempts (default 1 s doubling to 1 min). */
  backoff?: BackoffOptions;
  /** Attempts per delivery (default 6). */
  attempts?: number;
}

const DEFAULT_GROUP_MS = 10_000;
const DEFAULT_SUPPRESS_MS = 10 * 60_000;
const COMMITS_KEPT = 10;

interface AlertEntry {
  namespace: string;
  name: string;
  filter: AlertFilter;
  groupMs: number;
  suppressMs: number;
}

const keyOf = (o: KubeObject): string => `${o.metadata.namespace ?? 'default'}/${o.metadata.name}`;

/**
 * FlowOps' notification-controller: informers on what FlowOps already records (its Events, the
 * FlowSources' status, the Flows' conditions) feed the Alerts, whose grouped messages and the
 * commits' states go to the Providers. It runs beside the controllers and only reads what they
 * wrote: a slow or failing provider never reaches a reconcile.
 */
export class Notifier {
  private readonly informers: Informer[] = [];
  private readonly providers: Informer;
  private readonly alerts = new Map<string, AlertEntry>();
  private readonly grouper: Grouper;
  private readonly delivery: Delivery;
  private readonly tracker: CommitTracker;
  /** The commit states this notifier decided per source, written again if a status write lost them. */
  private readonly commits = new Map<string, CommitState[]>();
  private readonly sources: Informer;
  private eventsSynced = false;
  private flowsSynced = false;

  constructor(private readonly opts: NotifierOptions) {
    const log = opts.log;
    const metrics = notifyMetrics(opts.registry ?? processMetrics().registry);
    this.providers = new Informer(
      opts.kube,
      { apiVersion: FLOW_API_VERSION, kind: PROVIDER_KIND, log, transform: dropManagedFields },
      {
        add: (o) => void this.delivery.check(o),
        update: (o, old) => void (o.metadata.generation !== old.metadata.generation && this.delivery.check(o)),
        delete: () => {},
      },
    );
    this.delivery = new Delivery({
      kube: opts.kube,
      log,
      metrics,
      providerObject: (ns, name) => this.providers.get(ns, name),
      ...(opts.backoff ? { backoff: opts.backoff } : {}),
      ...(opts.attempts ? { attempts: opts.attempts } : {}),
    });
    this.grouper = new Grouper((group) => this.sendGroup(group));
    this.tracker = new CommitTracker({
      kube: opts.kube,
      log,
      onTransition: (t) => this.onCommit(t),
      ...(opts.commitDeadlineMs ? { deadlineMs: opts.commitDeadlineMs } : {}),
      ...(opts.commitCheckEveryMs ? { checkEveryMs: opts.commitCheckEveryMs } : {}),
    });
    const alerts = new Informer(
      opts.kube,
      { apiVersion: FLOW_API_VERSION, kind: ALERT_KIND, log, transform: dropManagedFields },
      {
        add: (o) => this.setAlert(o),
        update: (o) => this.setAlert(o),
        delete: (o) => void this.alerts.delete(keyOf(o)),
      },
    );
    this.sources = new Informer(
      opts.kube,
      { apiVersion: FLOW_API_VERSION, kind: FLOWSOURCE_KIND, log, transform: dropManagedFields },
      {
        add: (o) => this.onSource(o),
        update: (o, old) => {
          const pin = pinTransition(o, old);
          if (pin) this.emit(pin);
          this.onSource(o);
        },
        delete: (o) => {
          this.tracker.onSourceDeleted(o);
          this.commits.delete(keyOf(o));
        },
      },
    );
    const flows = new Informer(
      opts.kube,
      { apiVersion: FLOW_API_VERSION, kind: FLOW_KIND, log, transform: dropManagedFields },
      {
        add: () => {},
        update: (o, old) => {
          const e = this.flowsSynced ? flowTransition(o, old) : undefined;
          if (e) this.emit(e);
        },
        delete: () => {},
        synced: () => void (this.flowsSynced = true),
      },
    );
    // Events already there when the notifier starts were sent (or not) by the one before it.
    const onEvent = (o: KubeObject): void => {
      const e = this.eventsSynced ? fromCoreEvent(o) : undefined;
      if (e) this.emit(e);
    };
    const events = new Informer(
      opts.kube,
      { apiVersion: 'v1', kind: 'Event', log, transform: dropManagedFields },
      {
        add: onEvent,
        update: onEvent,
        delete: () => {},
        synced: () => void (this.eventsSynced = true),
      },
    );
    this.informers.push(this.providers, alerts, this.sources, flows, events);
  }

  start(): void {
    for (const i of this.informers) i.start();
    this.tracker.start();
  }

  async stop(): Promise<void> {
    this.grouper.flushAll();
    this.tracker.stop();
    this.delivery.stop();
    await Promise.all(this.informers.map((i) => i.stop()));
  }

  /** The Event and Flow informers have listed: from now on what FlowOps records is seen (the bench waits on it). */
  synced(): boolean {
    return this.eventsSynced && this.flowsSynced;
  }

  /** `Kind:Reason` of each event held for the commit, waiting for its group's window to end. */
  held(revision: string | undefined): string[] {
    return this.grouper.held(revision);
  }

  /** Sends every open group now instead of at the end of its window (tests and the bench; shutdown does it too). */
  flush(): void {
    this.grouper.flushAll();
  }

  /** Nothing is waiting to be sent or retried (tests and the bench wait on it after flush()). */
  idle(): boolean {
    return this.delivery.idle();
  }

  private setAlert(o: KubeObject): void {
    const parsed = alertSpecSchema.safeParse(o.spec);
    if (!parsed.success) {
      this.alerts.delete(keyOf(o));
      const issue = parsed.error.issues[0];
      const field = `spec.${issue?.path.join('.') ?? ''}`;
      this.opts.log.warn({ alert: keyOf(o), field, err: issue?.message }, 'Alert ignored: invalid spec');
      void this.writeAlertReady(o, false, 'InvalidSpec', `${field}: ${issue?.message ?? 'invalid'}`);
      return;
    }
    void this.writeAlertReady(o, true, 'Valid', 'the Alert is in effect');
    const spec = parsed.data;
    const namespace = o.metadata.namespace ?? 'default';
    this.alerts.set(keyOf(o), {
      namespace,
      name: o.metadata.name ?? '',
      filter: alertFilter(namespace, spec),
      groupMs: spec.groupWindow ? parseDuration(spec.groupWindow) : DEFAULT_GROUP_MS,
      suppressMs: spec.suppressWindow ? parseDuration(spec.suppressWindow) : DEFAULT_SUPPRESS_MS,
    });
  }

  /** The Alert's Ready condition, written only when it would change (its own status write comes back as an update). */
  private async writeAlertReady(o: KubeObject, ready: boolean, reason: string, message: string): Promise<void> {
    const generation = o.metadata.generation ?? 0;
    const prev = ((o.status ?? {}) as { conditions?: Condition[] }).conditions;
    const current = prev?.find((c) => c.type === 'Ready');
    const status = ready ? 'True' : 'False';
    const same = current?.status === status && current.reason === reason && current.message === message;
    if (same && current.observedGeneration === generation) return;
    const conditions = setCondition(prev, { type: 'Ready', status, reason, message, observedGeneration: generation });
    const ref = {
      apiVersion: o.apiVersion,
      kind: o.kind,
      namespace: o.metadata.namespace,
      name: o.metadata.name ?? '',
    };
    const patch = { status: { observedGeneration: generation, conditions } };
    try {
      await this.opts.kube.sendPatch(ref, patch, 'merge', { subresource: 'status', fieldManager: 'flowops-notify' });
    } catch (err) {
      this.opts.log.debug({ err, alert: keyOf(o) }, "could not write the Alert's status");
    }
  }

  private providerType(namespace: string, name: string): ProviderType | undefined {
    return (this.providers.get(namespace, name)?.spec as { type?: ProviderType } | undefined)?.type;
  }

  private emit(e: NotifyEvent): void {
    this.tracker.onEvent(e);
    for (const [key, a] of this.alerts) {
      const type = this.providerType(a.namespace, a.filter.spec.providerRef.name);
      if (type && COMMIT_STATUS_TYPES.has(type)) continue;
      if (alertMatches(a.filter, e))
        this.grouper.add({ alert: key, ...(e.revision ? { revision: e.revision } : {}) }, e, a.groupMs, a.suppressMs);
    }
  }

  private sendGroup({ key, events, total, errors }: Group): void {
    const a = this.alerts.get(key.alert);
    if (!a) return;
    const first = events[0];
    const sourceLink =
      first?.involved.kind === FLOWSOURCE_KIND
        ? this.link(first.involved.namespace, first.involved.name, key.revision)
        : undefined;
    const message: Message = {
      alert: key.alert,
      severity: errors > 0 ? 'error' : 'info',
      events: events.slice(0, MAX_EVENTS),
      total,
      errors,
      ...(a.filter.spec.summary ? { summary: a.filter.spec.summary } : {}),
      ...(key.revision ? { revision: key.revision } : {}),
      ...(sourceLink ? { link: sourceLink } : {}),
    };
    const what = `${total} event(s)${key.revision ? ` of ${key.revision}` : ''}`;
    this.delivery.enqueue(a.namespace, a.filter.spec.providerRef.name, what, (p) => messageRequest(p, message));
  }

  private link(namespace: string, name: string, revision: string | undefined): string | undefined {
    if (!this.opts.viewUrl) return undefined;
    const sha = revision ? /sha1:([0-9a-f]{40})$/.exec(revision)?.[1] : undefined;
    const base = this.opts.viewUrl.replace(/\/+$/, '');
    return `${base}/ui/sources/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}${sha ? `#${sha}` : ''}`;
  }

  private onSource(o: KubeObject): void {
    this.tracker.onSource(o);
    // A status write of the source controller that raced ours dropped our list: write it again.
    const mine = this.commits.get(keyOf(o));
    const theirs = ((o.status ?? {}) as FlowSourceStatus).commits;
    if (mine && JSON.stringify(mine) !== JSON.stringify(theirs ?? [])) void this.writeCommits(o, mine);
  }

  private onCommit(t: CommitTransition): void {
    const src = this.sources.get(...splitKey(t.source));
    const before = this.commits.get(t.source) ?? ((src?.status ?? {}) as FlowSourceStatus).commits ?? [];
    const entry: CommitState = {
      revision: t.revision,
      state: t.state,
      description: t.description.slice(0, 1000),
      time: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    };
    const list = [entry, ...before.filter((c) => c.revision !== t.revision)].slice(0, COMMITS_KEPT);
    this.commits.set(t.source, list);
    if (src) void this.writeCommits(src, list);
    this.opts.log.info(
      { source: t.source, revision: t.revision, state: t.state, description: t.description },
      'commit state',
    );
    const [namespace, name] = splitKey(t.source);
    const update = {
      sha: t.sha,
      state: t.state,
      description: t.description,
      context: `flowops/${namespace}/${name}`,
      ...this.targetUrl(namespace, name, t.revision),
    };
    const involved = { apiVersion: FLOW_API_VERSION, kind: FLOWSOURCE_KIND, name, namespace };
    for (const a of this.alerts.values()) {
      const type = this.providerType(a.namespace, a.filter.spec.providerRef.name);
      if (!type || !COMMIT_STATUS_TYPES.has(type) || !alertSelects(a.filter, involved)) continue;
      this.delivery.enqueue(a.namespace, a.filter.spec.providerRef.name, `${t.state} status of ${t.revision}`, (p) =>
        commitStatusRequest(p, update),
      );
    }
  }

  private targetUrl(namespace: string, name: string, revision: string): { targetUrl?: string } {
    const url = this.link(namespace, name, revision);
    return url ? { targetUrl: url } : {};
  }

  private async writeCommits(src: KubeObject, commits: CommitState[]): Promise<void> {
    try {
      await this.opts.kube.sendPatch(
        {
          apiVersion: src.apiVersion,
          kind: src.kind,
          namespace: src.metadata.namespace,
          name: src.metadata.name ?? '',
        },
        { status: { commits } },
        'merge',
        { subresource: 'status', fieldManager: 'flowops-notify' },
      );
    } catch (err) {
      this.opts.log.debug({ err, source: keyOf(src) }, 'could not record the commit state on the FlowSource');
    }
  }
}

function splitKey(key: string): [string, string] {
  const i = key.indexOf('/');
  return [key.slice(0, i), key.slice(i + 1)];
}
