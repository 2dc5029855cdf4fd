import type { RedisClient } from './redis.js';
import { lockKey, rebuildCursorKey } from './keys.js';
import { withLock } from './locks.js';
import type { LeaderboardStore } from './leaderboards/leaderboard-store.js';
import type { LiveState } from './ranking/live-state.js';
import type { Logger } from './logger.js';

const BOARDS_PER_STEP = 100;
const LOCK_TTL_MS = 60_000;

/** Asks for every leaderboard to be merged back from PostgreSQL (done by the next rebuild run). */
export async function requestRebuild(redis: RedisClient, prefix: string): Promise<void> {
  await redis.set(rebuildCursorKey(prefix), '0');
}

/**
 * Carries out a requested rebuild (a lost dataset, a reconnection after which Redis may lack the
 * last writes, or `npm run rebuild`): every leaderboard's persisted state merged back from
 * PostgreSQL, a page of leaderboards at a time. Merging never lowers a best score, so reports
 * arriving meanwhile are kept. The cursor in Redis records the progress: a process that dies
 * mid-way leaves the rest to the next one, and a new request (cursor back to 0) made meanwhile
 * starts the walk again instead of being lost. One process at a time (a lock renewed per step).
 */
export class Rebuild {
  constructor(
    private readonly deps: { redis: RedisClient; prefix: string; leaderboards: LeaderboardStore; liveState: LiveState; logger: Logger },
  ) {}

  /** Asks for every leaderboard to be merged back from PostgreSQL (done by the next run). */
  request(): Promise<void> {
    return requestRebuild(this.deps.redis, this.deps.prefix);
  }

  /** The number of leaderboards merged, or undefined when another process holds the lock. */
  async run(): Promise<number | undefined> {
    const { redis, prefix, leaderboards, liveState, logger } = this.deps;
    const cursorKey = rebuildCursorKey(prefix);
    if ((await redis.exists(cursorKey)) === 0) return 0;
    return withLock(redis, lockKey(prefix, 'rebuild'), LOCK_TTL_MS, async (lock) => {
      const started = Date.now();
      let merged = 0;
      for (;;) {
        const cursor = await redis.get(cursorKey);
        if (cursor === null) break;
        const page = await leaderboards.pageAfter(Number(cursor), BOARDS_PER_STEP);
        if (page.length === 0) {
          if ((await redis.compareAndSet(cursorKey, cursor, '')) === 1) break;
          continue; // requested again meanwhile: walk again
        }
        for (const board of page) await liveState.prepare(board);
        merged += page.length;
        if (!(await lock.renew())) throw new Error('the rebuild lock expired; another process carries on');
        await redis.compareAndSet(cursorKey, cursor, String(page[page.length - 1]!.internalId));
      }
      logger.info({ leaderboards: merged, ms: Date.now() - started }, 'leaderboards rebuilt from PostgreSQL');
      return merged;
    });
  }
}
