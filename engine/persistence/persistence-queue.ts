import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { queuePrefix } from '../keys.js';

export const PERSIST_QUEUE = 'persist';
export const PERSIST_JOB = 'persist-leaderboard';

/** A persistence job names a leaderboard; the changes themselves wait as marks in Redis. */
export interface PersistJobData {
  leaderboard: number;
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

export class PersistenceQueue {
  readonly queue: Queue<PersistJobData>;

  constructor(connection: Redis, keyPrefix: string) {
    this.queue = new Queue<PersistJobData>(PERSIST_QUEUE, {
      connection,
      prefix: queuePrefix(keyPrefix),
      defaultJobOptions: PERSIST_JOB_OPTIONS,
    });
  }

  /** Queues one job per leaderboard that has changes waiting and no job yet. */
  async request(internalIds: number[]): Promise<void> {
    if (internalIds.length === 0) return;
    await this.queue.addBulk(internalIds.map((leaderboard) => ({ name: PERSIST_JOB, data: { leaderboard } })));
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
