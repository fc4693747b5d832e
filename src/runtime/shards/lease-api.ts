// Reads and writes of coordination.k8s.io/v1 Leases for the shard coordinator: each call bounded
// by a timeout (one slow request must not cost a lease), writes conditional on resourceVersion.

import { type KubeClient, microTime, parseMicroTime, KubeApiError } from '../../kube/index.js';

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

export interface Lease {
  apiVersion: 'coordination.k8s.io/v1';
  kind: 'Lease';
  metadata: { name: string; namespace: string; resourceVersion?: string; labels?: Record<string, string> };
  spec?: LeaseSpec;
}

/** Label on every Lease of one shard group (its member and shard Leases), for one list call. */
export const GROUP_LABEL = 'flowops.io/shard-group';
/** "member" or "shard". */
export const ROLE_LABEL = 'flowops.io/shard-role';

/** A Lease whose holder is empty or whose last renewal is older than its duration is free to take. */
export function isFree(spec: LeaseSpec | undefined, now: number): boolean {
  if (!spec?.holderIdentity) return true;
  const renew = parseMicroTime(spec.renewTime);
  if (renew === undefined) return true;
  return renew + (spec.leaseDurationSeconds ?? 0) * 1000 < now;
}

export class LeaseApi {
  constructor(
    private readonly kube: KubeClient,
    private readonly namespace: string,
    private readonly timeoutMs: number,
  ) {}

  private path(name?: string): string {
    const base = `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(this.namespace)}/leases`;
    return name === undefined ? base : `${base}/${encodeURIComponent(name)}`;
  }

  /** Every Lease of the group, by name. */
  async list(group: string): Promise<Map<string, Lease>> {
    const res = await this.kube.rest.json<{ items: Lease[] }>('GET', this.path(), {
      query: { labelSelector: `${GROUP_LABEL}=${group}` },
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    return new Map(res.items.map((l) => [l.metadata.name, l]));
  }

  /** Create (no `existing`) or replace at the read resourceVersion; false when another writer won (409). */
  async write(
    name: string,
    labels: Record<string, string>,
    spec: LeaseSpec,
    existing?: Lease,
  ): Promise<Lease | undefined> {
    const body: Lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name,
        namespace: this.namespace,
        labels,
        ...(existing?.metadata.resourceVersion ? { resourceVersion: existing.metadata.resourceVersion } : {}),
      },
      spec,
    };
    try {
      const signal = AbortSignal.timeout(this.timeoutMs);
      if (existing) return await this.kube.rest.json<Lease>('PUT', this.path(name), { body, signal });
      return await this.kube.rest.json<Lease>('POST', this.path(), { body, signal });
    } catch (err) {
      if (err instanceof KubeApiError && err.statusCode === 409) return undefined;
      throw err;
    }
  }
}

/** The record a holder writes: a renewal keeps acquireTime; a takeover counts one more transition. */
export function heldRecord(identity: string, leaseMs: number, now: number, existing: LeaseSpec | undefined): LeaseSpec {
  const t = microTime(now);
  const mine = existing?.holderIdentity === identity;
  return {
    holderIdentity: identity,
    leaseDurationSeconds: Math.ceil(leaseMs / 1000),
    acquireTime: mine ? (existing.acquireTime ?? t) : t,
    renewTime: t,
    leaseTransitions: (existing?.leaseTransitions ?? 0) + (existing && !mine ? 1 : 0),
  };
}

/** client-go's ReleaseOnCancel record: no holder, so any candidate takes the Lease at once. */
export function releasedRecord(existing: LeaseSpec | undefined, now: number): LeaseSpec {
  const t = microTime(now);
  return { leaseDurationSeconds: 1, acquireTime: t, renewTime: t, leaseTransitions: existing?.leaseTransitions ?? 0 };
}
