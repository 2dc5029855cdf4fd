import { Queue, type JobsOptions } from 'bullmq';
import type { RedisClient } from '../live/redis.js';
import { queuePrefix } from '../live/keys.js';

export const PERSIST_QUEUE = 'persist';
export const PERSIST_JOB = 'persist-leaderboard';

/**
 * A persistence job names a leaderboard by its internal id; the changes themselves wait as marks in
 * Redis. Jobs queued before the field had this name carry `leaderboard`, which the worker still reads.
 */
export interface PersistJobData {
  leaderboardInternalId: number;
}

/**
 * Jobs retry until PostgreSQL answers again (a capped backoff, set by the worker): a persistence job
 * never fails for good because a database or a worker was down for a while.
 */
export const PERSIST_JOB_OPTIONS: JobsOptions = {
  attempts: 1_000_000,
  backoff: { type: 'capped' },
  removeOnComplete: true,
  removeOnFail: 1000,
};

/**
 * The persistence queues: one per shard, a leaderboard always in the same one (internal id modulo
 * the shard count), so its jobs stay ordered by one queue and the load spreads over the cluster.
 */
export class PersistenceQueue {
  readonly shards: Queue<PersistJobData>[];

  constructor({ connection, prefix, shardCount }: { connection: RedisClient; prefix: string; shardCount: number }) {
    this.shards = Array.from(
      { length: shardCount },
      (_, shard) =>
        new Queue<PersistJobData>(PERSIST_QUEUE, {
          connection,
          prefix: queuePrefix(prefix, shard),
          defaultJobOptions: PERSIST_JOB_OPTIONS,
        }),
    );
  }

  /** Boards asked for in this turn of the event loop, queued together. */
  private asked = new Set<number>();
  private queueing: Promise<void> | undefined;

  /**
   * Queues one job per given leaderboard (those with changes waiting and no job yet). Requests made in
   * the same turn of the event loop go in one bulk add per shard: a round that ends a thousand
   * seasons, or reports to many boards at once, queue their jobs in a few round trips, not one each.
   */
  request(internalIds: number[]): Promise<void> {
    if (internalIds.length === 0) return Promise.resolve();
    for (const id of internalIds) this.asked.add(id);
    this.queueing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      const ids = [...this.asked];
      this.asked = new Set();
      this.queueing = undefined;
      return this.add(ids);
    });
    return this.queueing;
  }

  private async add(internalIds: number[]): Promise<void> {
    const byShard = new Map<number, number[]>();
    for (const id of internalIds) {
      const shard = id % this.shards.length;
      byShard.set(shard, [...(byShard.get(shard) ?? []), id]);
    }
    await Promise.all(
      [...byShard].map(([shard, ids]) =>
        this.shards[shard]!.addBulk(ids.map((leaderboardInternalId) => ({ name: PERSIST_JOB, data: { leaderboardInternalId } }))),
      ),
    );
  }

  /** Jobs by state, summed over the shards. */
  async counts(): Promise<Record<'waiting' | 'active' | 'delayed' | 'failed', number>> {
    const perShard = await Promise.all(this.shards.map((queue) => queue.getJobCounts('waiting', 'active', 'delayed', 'failed')));
    const total = { waiting: 0, active: 0, delayed: 0, failed: 0 };
    for (const counts of perShard) for (const state of Object.keys(total) as (keyof typeof total)[]) total[state] += counts[state] ?? 0;
    return total;
  }

  async close(): Promise<void> {
    await Promise.all(this.shards.map((queue) => queue.close()));
  }
}
