import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../log/index.js';
import type { KubeClient } from './client.js';
import { microTime, parseMicroTime } from './micro-time.js';
import { KubeApiError } from './rest.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { KubeConfigError } from './errors.js';

export interface LeaderElectionOptions {
  namespace: string;
  name: string;
  /** Defaults to hostname + "_" + a UUID, as controller-runtime does. */
  identity?: string;
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Started when the lease is won; `signal` aborts when leadership ends. Must not block. */
  onStartedLeading(signal: AbortSignal): void | Promise<void>;
  /** Called once leadership ended (lost or released); leader work must be stopped when it returns. */
  onStoppedLeading?(): void | Promise<void>;
  /** Another identity became (or is) the holder. */
  onNewLeader?(identity: string): void;
  log: Logger;
}

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

interface Lease {
  apiVersion: 'coordination.k8s.io/v1';
  kind: 'Lease';
  metadata: { name: string; namespace: string; resourceVersion?: string };
  spec?: LeaseSpec;
}

export const DEFAULT_LEASE_DURATION_MS = 15_000;
export const DEFAULT_RENEW_DEADLINE_MS = 10_000;
export const DEFAULT_RETRY_PERIOD_MS = 2_000;

export function defaultIdentity(): string {
  return `${hostname()}_${randomUUID()}`;
}

/**
 * client-go's LeaseLock elector. Acquire: read → create on 404 → take over when the holder is
 * empty or its lease expired (renewTime + leaseDuration < now) → replace with the read
 * resourceVersion, where 409 means another candidate won. Renew every retryPeriod; if no renewal
 * succeeds within renewDeadline, leadership ends. renewDeadline < leaseDuration is what keeps two
 * leaders apart: the leader stops its work before its last renewal can look expired to anyone.
 */
export class LeaderElector {
  readonly identity: string;
  private readonly leaseMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryMs: number;
  private leading = false;
  private lastHolder: string | undefined;
  /** The campaign's stop: a call in flight ends with it, so a stop never waits out a slow answer. */
  private stop: AbortSignal | undefined;
  private leaseRv: string | undefined;

  constructor(
    private readonly kube: KubeClient,
    private readonly opts: LeaderElectionOptions,
  ) {
    this.identity = opts.identity ?? defaultIdentity();
    this.leaseMs = opts.leaseDurationMs ?? DEFAULT_LEASE_DURATION_MS;
    this.renewDeadlineMs = opts.renewDeadlineMs ?? DEFAULT_RENEW_DEADLINE_MS;
    this.retryMs = opts.retryPeriodMs ?? DEFAULT_RETRY_PERIOD_MS;
    if (this.renewDeadlineMs >= this.leaseMs)
      throw new KubeConfigError(
        'InvalidLeaderElection',
        'leader election: renewDeadline must be shorter than leaseDuration',
      );
    if (this.retryMs >= this.renewDeadlineMs)
      throw new KubeConfigError(
        'InvalidLeaderElection',
        'leader election: retryPeriod must be shorter than renewDeadline',
      );
  }

  isLeader(): boolean {
    return this.leading;
  }

  /**
   * Campaigns until `stop` aborts: acquire, lead, and when leadership is lost return "lost"
   * (controller-runtime exits then). On stop while leading, the leader work is stopped and the lease
   * released, and "stopped" is returned.
   */
  async run(stop: AbortSignal): Promise<'lost' | 'stopped'> {
    this.stop = stop;
    while (!stop.aborted) {
      if (await this.tryAcquireOrRenew()) break;
      await sleep(jitter(this.retryMs), undefined, { signal: stop }).catch(() => undefined);
    }
    if (stop.aborted) return 'stopped';
    this.leading = true;
    this.opts.log.info({ identity: this.identity, lease: `${this.opts.namespace}/${this.opts.name}` }, 'became leader');
    const work = new AbortController();
    void Promise.resolve()
      .then(() => this.opts.onStartedLeading(work.signal))
      .catch((err: unknown) => this.opts.log.error({ err }, 'leader work failed to start'));
    const lost = await this.renewLoop(stop);
    // Stop leader work first, then (only on a graceful stop) hand the lease back.
    work.abort();
    this.leading = false;
    await this.opts.onStoppedLeading?.();
    if (lost) {
      this.opts.log.error({ identity: this.identity }, 'leader election lost');
      return 'lost';
    }
    await this.release();
    return 'stopped';
  }

  /** Renews every retryPeriod; true when leadership is lost (not renewed within renewDeadline, or taken). */
  private async renewLoop(stop: AbortSignal): Promise<boolean> {
    let lastRenew = Date.now();
    while (!stop.aborted) {
      // An abort ends the wait early (it rejects); both loops then see stop.aborted.
      await sleep(this.retryMs, undefined, { signal: stop }).catch(() => undefined);
      if (stop.aborted) return false;
      // The renewTime written is taken before the call, so lastRenew never runs ahead of it; the
      // call may not outlive the deadline.
      const attemptAt = Date.now();
      if (await this.tryAcquireOrRenew(lastRenew + this.renewDeadlineMs - attemptAt)) {
        lastRenew = attemptAt;
        continue;
      }
      if (this.lastHolder !== undefined && this.lastHolder !== this.identity) return true;
      // The next attempt would land after the deadline: give up now, while the lease still holds.
      if (Date.now() + this.retryMs >= lastRenew + this.renewDeadlineMs) return true;
    }
    return false;
  }

  /**
   * One read-modify-write of the Lease; false on any failure (the caller retries). A renewal may
   * not outlive its deadline (`budgetMs`, what is left of it); an attempt to acquire has no deadline
   * to keep, as in client-go, so it waits up to a lease duration: on a loaded machine an answer that
   * takes more than a second must not keep a standby from ever taking over.
   */
  private async tryAcquireOrRenew(budgetMs?: number): Promise<boolean> {
    const timeoutMs = Math.max(1, budgetMs ?? this.leaseMs);
    const now = Date.now();
    try {
      const lease = await this.read(timeoutMs);
      if (!lease) {
        await this.write('POST', this.record(now, undefined, false), timeoutMs);
        return true;
      }
      const spec = lease.spec ?? {};
      this.observeHolder(spec.holderIdentity);
      const mine = spec.holderIdentity === this.identity;
      if (!mine && spec.holderIdentity && !expired(spec, now)) return false;
      this.leaseRv = lease.metadata.resourceVersion;
      await this.write('PUT', this.record(now, spec, mine), timeoutMs);
      return true;
    } catch (err) {
      if (!(err instanceof KubeApiError && err.statusCode === 409))
        this.opts.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'lease update failed');
      return false;
    }
  }

  /** client-go's ReleaseOnCancel: empty holder, 1 s duration, so a candidate takes over at once. */
  private async release(): Promise<void> {
    try {
      const lease = await this.read(2000);
      if (lease?.spec?.holderIdentity !== this.identity) return;
      this.leaseRv = lease.metadata.resourceVersion;
      const now = microTime();
      await this.write(
        'PUT',
        {
          leaseDurationSeconds: 1,
          acquireTime: now,
          renewTime: now,
          leaseTransitions: lease.spec.leaseTransitions ?? 0,
        },
        2000,
      );
      this.opts.log.info({ identity: this.identity }, 'released the lease');
    } catch (err) {
      this.opts.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'could not release the lease');
    }
  }

  /** The record to write: a renewal keeps acquireTime; a takeover counts one more transition. */
  private record(now: number, existing: LeaseSpec | undefined, mine: boolean): LeaseSpec {
    const t = microTime(now);
    return {
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.ceil(this.leaseMs / 1000),
      acquireTime: mine ? (existing?.acquireTime ?? t) : t,
      renewTime: t,
      leaseTransitions: (existing?.leaseTransitions ?? 0) + (existing && !mine ? 1 : 0),
    };
  }

  private observeHolder(holder: string | undefined): void {
    if (holder && holder !== this.lastHolder && holder !== this.identity) this.opts.onNewLeader?.(holder);
    this.lastHolder = holder;
  }

  private callSignal(timeoutMs: number): AbortSignal {
    const timeout = AbortSignal.timeout(timeoutMs);
    // The release runs after the stop; only the campaign's calls end with it.
    return this.stop && !this.stop.aborted ? AbortSignal.any([timeout, this.stop]) : timeout;
  }

  private path(withName: boolean): string {
    return `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(this.opts.namespace)}/leases${withName ? `/${encodeURIComponent(this.opts.name)}` : ''}`;
  }

  private async read(timeoutMs: number): Promise<Lease | undefined> {
    const res = await this.kube.rest.call('GET', this.path(true), { signal: this.callSignal(timeoutMs) });
    if (res.status === 404) return undefined;
    if (res.status >= 400) throw KubeApiError.from('GET', this.opts.name, res);
    return JSON.parse(res.body) as Lease;
  }

  private async write(method: 'POST' | 'PUT', spec: LeaseSpec, timeoutMs: number): Promise<void> {
    const body: Lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: this.opts.name,
        namespace: this.opts.namespace,
        ...(method === 'PUT' && this.leaseRv ? { resourceVersion: this.leaseRv } : {}),
      },
      spec,
    };
    const lease = await this.kube.rest.json<Lease>(method, this.path(method === 'PUT'), {
      body,
      signal: this.callSignal(timeoutMs),
    });
    this.leaseRv = lease.metadata.resourceVersion;
    this.lastHolder = spec.holderIdentity;
  }
}

function expired(spec: LeaseSpec, now: number): boolean {
  const renew = parseMicroTime(spec.renewTime);
  if (renew === undefined) return true;
  return renew + (spec.leaseDurationSeconds ?? 0) * 1000 < now;
}

/** client-go's wait.Jitter(retryPeriod, 1.2): spreads candidates so they do not collide every round. */
function jitter(ms: number): number {
  return ms + Math.random() * ms * 0.2;
}
