import type { RedisClient } from './redis.js';
import type { LeaderboardService } from './leaderboards/leaderboard-service.js';
import type { Leaderboard, LeaderboardStore } from './leaderboards/leaderboard-store.js';
import type { Rankings } from './ranking/rankings.js';
import type { Logger } from './logger.js';

interface Deps {
  redis: RedisClient;
  store: LeaderboardStore;
  service: LeaderboardService;
  rankings: Rankings;
  logger: Logger;
}

/**
 * Recreates the live Redis state of leaderboards from PostgreSQL: those whose state is missing
 * (Redis lost its data), or with `all`, every one. Merging never lowers a best score, so reports
 * arriving meanwhile are kept; a lock in the leaderboard's own slot keeps processes from doubling up.
 */
export async function rebuildLeaderboards({ redis, store, service, rankings, logger }: Deps, all = false): Promise<Leaderboard[]> {
  const rebuilt: Leaderboard[] = [];
  for (const board of await store.listAll()) {
    if (!all && (await rankings.isReady(board))) continue;
    const lock = `${rankings.keys(board).ready}:lock`;
    if ((await redis.set(lock, String(process.pid), 'PX', 120_000, 'NX')) !== 'OK') continue;
    try {
      const started = Date.now();
      await service.prepareLiveState(board);
      rebuilt.push(board);
      logger.info({ leaderboard: board.id, game: board.gameId, ms: Date.now() - started }, 'leaderboard rebuilt from PostgreSQL');
    } finally {
      await redis.del(lock);
    }
  }
  return rebuilt;
}
