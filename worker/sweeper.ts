import type { RedisClient } from '../engine/redis.js';
import type { LeaderboardStore } from '../engine/leaderboards/leaderboard-store.js';
import type { PersistenceQueue } from '../engine/persistence/persistence-queue.js';
import { QUEUED_FLAG_TTL_MS, type Rankings } from '../engine/ranking/rankings.js';
import type { Logger } from '../engine/logger.js';

/**
 * The safety net behind the report path: queues a job for every leaderboard that has changes
 * waiting but no live job (an API process died between its report and its queue add, or a job's
 * flag expired with its worker). Cheap: a few pipelined reads per leaderboard.
 */
export async function requeueStranded(
  redis: RedisClient,
  store: LeaderboardStore,
  rankings: Rankings,
  queue: PersistenceQueue,
  logger: Logger,
): Promise<number> {
  const boards = await store.listAll();
  const stranded: number[] = [];
  await Promise.all(
    boards.map(async (board) => {
      const k = rankings.keys(board);
      const [players, clans] = await Promise.all([redis.zcard(k.dirty), redis.zcard(k.dirtyClans)]);
      if (players + clans === 0) return;
      if ((await redis.set(k.queued, '1', 'PX', QUEUED_FLAG_TTL_MS, 'NX')) === 'OK') stranded.push(board.internalId);
    }),
  );
  if (stranded.length > 0) {
    logger.warn({ leaderboards: stranded }, 're-queueing persistence for leaderboards without a live job');
    await queue.request(stranded);
  }
  return stranded.length;
}
