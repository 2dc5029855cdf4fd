import { randomUUID } from 'node:crypto';
import type { RedisClient } from './live/redis.js';

/**
 * A Redis lock that only its holder releases or renews (compare-and-delete): a holder that outlived
 * its lifetime cannot free a lock another process has taken since.
 */
export class Lock {
  private constructor(
    private readonly redis: RedisClient,
    readonly key: string,
    private readonly token: string,
    private readonly ttlMs: number,
  ) {}

  /** The lock, or undefined when another process holds it. */
  static async acquire(redis: RedisClient, key: string, ttlMs: number): Promise<Lock | undefined> {
    const token = `${process.pid}:${randomUUID()}`;
    const taken = await redis.set(key, token, 'PX', ttlMs, 'NX');
    return taken === 'OK' ? new Lock(redis, key, token, ttlMs) : undefined;
  }

  /** Extends the lifetime; false when the lock was lost (expired and taken by another). */
  async renew(): Promise<boolean> {
    return (await this.redis.compareAndSet(this.key, this.token, this.token, this.ttlMs)) === 1;
  }

  async release(): Promise<void> {
    await this.redis.compareAndSet(this.key, this.token, '');
  }
}

/** Runs work under the lock; undefined (work not run) when another process holds it. */
export async function withLock<T>(
  redis: RedisClient,
  key: string,
  ttlMs: number,
  work: (lock: Lock) => Promise<T>,
): Promise<T | undefined> {
  const lock = await Lock.acquire(redis, key, ttlMs);
  if (!lock) return undefined;
  try {
    return await work(lock);
  } finally {
    await lock.release();
  }
}
