import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeClient } from '../../kube/index.js';
import type { Logger } from '../../log/index.js';
import { GROUP_LABEL, heldRecord, isFree, LeaseApi, releasedRecord, ROLE_LABEL, type Lease } from './lease-api.js';

/** The shard count a member runs with: replicas that disagree would split objects two ways. */
const SHARDS_LABEL = 'flowops.io/shards';

export interface ShardCoordinatorOptions {
  kube: KubeClient;
  namespace: string;
  /** Prefix of the Lease names and the group label: `<group>-shard-<i>`, `<group>-member-<id>`. */
  group: string;
  shards: number;
  identity: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  log: Logger;
  /**
   * Makes this replica's watches cover exactly `held`. Called with the smaller set before any
   * Lease is given up or may expire, and with the larger set only after the new Leases are held.
   */
  apply(held: ReadonlySet<number>): Promise<void>;
}

interface Held {
  lease: Lease;
  /** When the last successful renewal was sent: the renewTime the others judge expiry by. */
  renewedAt: number;
}

/**
 * Shards as Leases, client-go's LeaseLock once per shard. Every retryPeriod a replica renews its
 * member Lease (so all see how many replicas live), renews the shard Leases it holds, gives back
 * those above its share (ceil(shards / live members)) and takes free or expired ones up to it.
 * renewDeadline < leaseDuration keeps two holders apart: a holder that could not renew within
 * renewDeadline drops the shard (and `valid` turns false at once) while its last renewal still
 * looks current to everyone else, who only take the Lease once it expired.
 */
export class ShardCoordinator {
  private readonly held = new Map<number, Held>();
  private readonly api: LeaseApi;
  private readonly memberName: string;
  private disagreement = '';

  constructor(private readonly opts: ShardCoordinatorOptions) {
    // A call may take up to a renew deadline: `valid` gates every enqueue on the last renewal's time,
    // so a slow answer cannot let two replicas hold a shard, and a shorter bound only made a loaded
    // machine's rounds fail (and a survivor never take the shards of a killed replica).
    this.api = new LeaseApi(opts.kube, opts.namespace, opts.renewDeadlineMs);
    this.memberName = `${opts.group}-member-${createHash('sha256').update(opts.identity).digest('hex').slice(0, 12)}`;
  }

  /** The shards held now, ascending. */
  heldShards(): number[] {
    return [...this.held.keys()].sort((a, b) => a - b);
  }

  /** True while `shard` is held and its last renewal is within renewDeadline: the gate on every enqueue. */
  valid(shard: number, now = Date.now()): boolean {
    const h = this.held.get(shard);
    return h !== undefined && now < h.renewedAt + this.opts.renewDeadlineMs;
  }

  /** Runs until `stop` aborts; then stops the watches, gives every Lease back and returns. */
  async run(stop: AbortSignal): Promise<void> {
    while (!stop.aborted) {
      await this.tick().catch((err: unknown) => this.opts.log.warn({ err: message(err) }, 'shard round failed'));
      await sleep(this.opts.retryPeriodMs * (1 + Math.random() * 0.2), undefined, { signal: stop }).catch(
        () => undefined,
      );
    }
    await this.releaseAll();
  }

  private shardName(i: number): string {
    return `${this.opts.group}-shard-${i}`;
  }

  private labels(role: 'member' | 'shard'): Record<string, string> {
    return { [GROUP_LABEL]: this.opts.group, [ROLE_LABEL]: role, [SHARDS_LABEL]: String(this.opts.shards) };
  }

  /** One round: member, renew, give back, take. */
  private async tick(): Promise<void> {
    const leases = await this.api.list(this.opts.group).catch((err: unknown) => {
      this.opts.log.warn({ err: message(err) }, 'could not list the shard Leases');
      return undefined;
    });
    if (!leases) return this.dropOverdue();
    const now = Date.now();
    const member = leases.get(this.memberName);
    await this.api
      .write(
        this.memberName,
        this.labels('member'),
        heldRecord(this.opts.identity, this.opts.leaseDurationMs, now, member?.spec),
        member,
      )
      .catch((err: unknown) => this.opts.log.warn({ err: message(err) }, 'could not renew the member Lease'));
    const quota = this.quota(leases, now);
    await this.renew(leases);
    await this.giveBack(quota);
    await this.take(leases, quota);
    // Idempotent; retries watches whose start failed in an earlier round.
    await this.opts.apply(new Set(this.held.keys()));
  }

  /** ceil(shards / live members), this one included; 0 while a live member runs another shard count. */
  private quota(leases: Map<string, Lease>, now: number): number {
    const live = [...leases.values()].filter(
      (l) =>
        l.metadata.labels?.[ROLE_LABEL] === 'member' && l.metadata.name !== this.memberName && !isFree(l.spec, now),
    );
    const other = live.find((l) => l.metadata.labels?.[SHARDS_LABEL] !== String(this.opts.shards));
    const said = other
      ? `${other.spec?.holderIdentity ?? '?'} runs with ${other.metadata.labels?.[SHARDS_LABEL] ?? '?'}`
      : '';
    if (said !== this.disagreement) {
      this.disagreement = said;
      if (said) {
        this.opts.log.error(
          { shards: this.opts.shards, other: said },
          `replica ${said} shards, this one with ${this.opts.shards}: ` +
            'holding none until every replica runs the same --shards',
        );
      }
    }
    if (other) return 0;
    return Math.ceil(this.opts.shards / (live.length + 1));
  }

  private async renew(leases: Map<string, Lease>): Promise<void> {
    const lost: number[] = [];
    for (const [i, h] of this.held) {
      const lease = leases.get(this.shardName(i));
      if (lease?.spec?.holderIdentity !== this.opts.identity) {
        lost.push(i);
        continue;
      }
      const at = Date.now();
      const renewed = await this.api
        .write(
          this.shardName(i),
          this.labels('shard'),
          heldRecord(this.opts.identity, this.opts.leaseDurationMs, at, lease.spec),
          lease,
        )
        .catch(() => undefined);
      if (renewed) this.held.set(i, { lease: renewed, renewedAt: at });
      else if (Date.now() + this.opts.retryPeriodMs >= h.renewedAt + this.opts.renewDeadlineMs) lost.push(i);
    }
    await this.lose(lost, 'not renewed in time or taken');
  }

  /** No answer from the server: shards whose next renewal would come too late are dropped now. */
  private async dropOverdue(): Promise<void> {
    const now = Date.now();
    const overdue = [...this.held].filter(
      ([, h]) => now + this.opts.retryPeriodMs >= h.renewedAt + this.opts.renewDeadlineMs,
    );
    await this.lose(
      overdue.map(([i]) => i),
      'the API server did not answer within the renew deadline',
    );
  }

  private async lose(shards: number[], why: string): Promise<void> {
    if (!shards.length) return;
    for (const i of shards) this.held.delete(i);
    this.opts.log.error({ shards, why }, 'lost shard Leases; their watches stop');
    await this.opts.apply(new Set(this.held.keys()));
  }

  /** Above the share: the highest shards go back, their watches stopped first. */
  private async giveBack(quota: number): Promise<void> {
    const extra = this.heldShards().slice(quota);
    if (!extra.length) return;
    const leases = extra.map((i) => [i, this.held.get(i)] as const);
    for (const i of extra) this.held.delete(i);
    await this.opts.apply(new Set(this.held.keys()));
    for (const [i, h] of leases) await this.release(i, h?.lease);
    this.opts.log.info({ shards: extra, held: this.heldShards() }, 'gave shard Leases back to balance the replicas');
  }

  private async take(leases: Map<string, Lease>, quota: number): Promise<void> {
    if (this.held.size >= quota) return;
    const gained: number[] = [];
    // Start at a place of one's own so replicas starting together do not all race for shard 0.
    const start = parseInt(this.memberName.slice(-6), 16) % this.opts.shards;
    for (let k = 0; k < this.opts.shards && this.held.size < quota; k++) {
      const i = (start + k) % this.opts.shards;
      if (this.held.has(i)) continue;
      const lease = leases.get(this.shardName(i));
      const at = Date.now();
      if (lease && !isFree(lease.spec, at)) continue;
      const record = heldRecord(this.opts.identity, this.opts.leaseDurationMs, at, lease?.spec);
      const won = await this.api.write(this.shardName(i), this.labels('shard'), record, lease).catch((err: unknown) => {
        this.opts.log.warn({ err: message(err), shard: i }, 'could not take a shard Lease');
        return undefined;
      });
      if (!won) continue;
      this.held.set(i, { lease: won, renewedAt: at });
      gained.push(i);
    }
    if (!gained.length) return;
    this.opts.log.info(
      {
        shards: gained,
        held: this.heldShards(),
        previous: gained.map((i) => leases.get(this.shardName(i))?.spec?.holderIdentity ?? ''),
      },
      'took shard Leases',
    );
    await this.opts.apply(new Set(this.held.keys()));
  }

  private async release(i: number, lease: Lease | undefined): Promise<void> {
    if (!lease) return;
    await this.api
      .write(this.shardName(i), this.labels('shard'), releasedRecord(lease.spec, Date.now()), lease)
      .catch((err: unknown) => this.opts.log.warn({ err: message(err), shard: i }, 'could not release a shard Lease'));
  }

  private async releaseAll(): Promise<void> {
    const held = [...this.held];
    this.held.clear();
    await this.opts.apply(new Set());
    for (const [i, h] of held) await this.release(i, h.lease);
    const leases = await this.api.list(this.opts.group).catch(() => undefined);
    const member = leases?.get(this.memberName);
    if (member)
      await this.api
        .write(this.memberName, this.labels('member'), releasedRecord(member.spec, Date.now()), member)
        .catch(() => undefined);
    this.opts.log.info({ shards: held.map(([i]) => i) }, 'released the shard Leases');
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
