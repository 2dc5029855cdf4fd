import { testStores } from './context.js';
import { until } from './processes.js';

/** Reads both sides of persistence for one leaderboard, and waits for them to agree. */
async function zsetAsMap(key: string): Promise<Map<string, number>> {
  const flat = await testStores().redis.zrange(key, '0', '-1', 'WITHSCORES');
  const entries = new Map<string, number>();
  for (let i = 0; i < flat.length; i += 2) entries.set(flat[i]!, Number(flat[i + 1]));
  return entries;
}

async function rowsAsMap(sql: string, internalId: number): Promise<Map<string, number>> {
  const { rows } = await testStores().pool.query<{ id: string; score: number }>(sql, [internalId]);
  return new Map(rows.map((row) => [row.id, row.score]));
}

export const liveScores = (board: { internalId: number }) => zsetAsMap(testStores().keys(board).scores);
export const liveClanTotals = (board: { internalId: number }) => zsetAsMap(testStores().keys(board).clans);
export const persistedScores = (board: { internalId: number }) =>
  rowsAsMap('SELECT player_id AS id, score FROM scores WHERE leaderboard_internal_id = $1', board.internalId);
export const persistedClanTotals = (board: { internalId: number }) =>
  rowsAsMap('SELECT clan_id AS id, score FROM clan_scores WHERE leaderboard_internal_id = $1', board.internalId);

/** Changes of the leaderboard accepted but not yet written to PostgreSQL: its persistence marks and ended seasons not yet archived. */
export async function pendingOf(board: { internalId: number }): Promise<number> {
  const { redis, keys } = testStores();
  const [players, clans, seasons] = await Promise.all([
    redis.zcard(keys(board).dirty),
    redis.zcard(keys(board).dirtyClans),
    redis.hlen(keys(board).archives),
  ]);
  return players + clans + seasons;
}

/** Waits until every change accepted for the leaderboard has been written to PostgreSQL. */
export async function waitForPersistence(board: { internalId: number }, timeoutMs = 30_000): Promise<void> {
  await until(async () => (await pendingOf(board)) === 0, 'pending_persistence to reach 0', timeoutMs);
}

/** Runs tasks with at most `width` in flight: concurrent, without opening thousands of sockets at once. */
export async function inParallel<T>(tasks: (() => Promise<T>)[], width = 100): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, tasks.length) }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]!();
      }
    }),
  );
  return results;
}
