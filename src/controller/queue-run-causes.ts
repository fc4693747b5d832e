// Why each reconcile job was enqueued, across processes: the leader's watches mark a key's
// trigger in a Redis set beside the queue just before the job goes in, and the worker that runs
// the job takes (reads and deletes) the set as the run starts. BullMQ keeps one waiting job per key
// and drops the data of a duplicate add (or replaces a delayed job's), so a trigger carried in the
// job's own data would be lost when adds coalesce; the set merges every add since the last run, as
// the in-process RunCauses does. A mark after the take (the key is running) is for the next run,
// the one the dedup keeps.

import { RUN_TRIGGERS, type RunTrigger } from '../api/run-history.js';
import { causeOf, triggerOf, UNMARKED, type RunCauseLog, type RunCauseTaken } from './run-causes.js';
import type { RunCause } from '../engine/index.js';
import type { Logger } from '../log/index.js';
import {
  type BullProducer,
  DEFAULT_PREFIX,
  DEFAULT_QUEUE_NAME,
  queuePrefix,
  type RedisClient,
} from '../queue/index.js';

/** A key marked and never run (its Flow deleted first) must not stay for ever. */
const TTL_SECONDS = 24 * 3600;

export class QueueRunCauses implements RunCauseLog {
  private readonly redis: RedisClient;
  private readonly base: string;
  private readonly log: Logger;
  /** Marks of the current tick, sent as one pipeline before the producer's batched add (a later phase). */
  private readonly pending = new Map<string, Set<RunTrigger>>();

  /** On the producer's connection: a mark is written before the add that follows it. */
  constructor(producer: BullProducer) {
    const { redisUrl, name, prefix, log } = producer.opts;
    this.redis = producer.redis;
    this.base = `${queuePrefix(redisUrl, prefix ?? DEFAULT_PREFIX)}:${name ?? DEFAULT_QUEUE_NAME}:triggers:`;
    this.log = log;
  }

  mark(key: string, cause: RunCause, trigger?: RunTrigger): void {
    const t = triggerOf(cause, trigger);
    const set = this.pending.get(key);
    if (set) return void set.add(t);
    this.pending.set(key, new Set([t]));
    // process.nextTick runs before setImmediate, where BullProducer sends the turn's adds.
    if (this.pending.size === 1) process.nextTick(this.flush);
  }

  private readonly flush = (): void => {
    const pipeline = this.redis.pipeline();
    for (const [key, triggers] of this.pending) {
      pipeline.sadd(this.base + key, ...triggers).expire(this.base + key, TTL_SECONDS);
    }
    const keys = this.pending.size;
    this.pending.clear();
    // Lost marks cost only the record: the run still happens, said to be a resync.
    pipeline.exec().catch((err: unknown) => this.log.warn({ err, keys }, 'could not record run triggers'));
  };

  async take(key: string): Promise<RunCauseTaken> {
    try {
      const replies = await this.redis
        .multi()
        .smembers(this.base + key)
        .del(this.base + key)
        .exec();
      const [err, members] = replies?.[0] ?? [null, []];
      if (err) throw err;
      const triggers = Array.isArray(members) ? members.filter(isTrigger) : [];
      return triggers.length ? { cause: causeOf(triggers), triggers } : UNMARKED;
    } catch (err) {
      // The run goes ahead as a full one; only its record misses why.
      this.log.warn({ err, key }, 'could not read run triggers');
      return UNMARKED;
    }
  }
}

function isTrigger(v: unknown): v is RunTrigger {
  return (RUN_TRIGGERS as readonly unknown[]).includes(v);
}
