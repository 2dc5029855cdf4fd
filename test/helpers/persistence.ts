import { testEngine } from './context.js';
import { until } from './processes.js';

/** Reads both sides of persistence for one leaderboard, and waits for them to agree. */
export async function liveScores(board: { internalId: number }): Promise<Map<string, number>> {
  const engine = testEngine();
  const flat = await engine.redis.zrange(engine.rankings.keys(board).scores, '0', '-1', 'WITHSCORES');
  const scores = new Map<string, number>();
  for (let i = 0; i < flat.length; i += 2) scores.set(flat[i]!, Number(flat[i + 1]));
  return scores;
}

export async function persistedScores(board: { internalId: number }): Promise<Map<string, number>> {
  const { rows } = await testEngine().pool.query<{ player_id: string; score: number }>(
    'SELECT player_id, score FROM scores WHERE leaderboard_id = $1',
    [board.internalId],
  );
  return new Map(rows.map((row) => [row.player_id, row.score]));
}

export async function liveClanTotals(board: { internalId: number }): Promise<Map<string, number>> {
  const engine = testEngine();
  const flat = await engine.redis.zrange(engine.rankings.keys(board).clans, '0', '-1', 'WITHSCORES');
  const totals = new Map<string, number>();
  for (let i = 0; i < flat.length; i += 2) totals.set(flat[i]!, Number(flat[i + 1]));
  return totals;
}

export async function persistedClanTotals(board: { internalId: number }): Promise<Map<string, number>> {
  const { rows } = await testEngine().pool.query<{ clan_id: string; score: number }>(
    'SELECT clan_id, score FROM clan_scores WHERE leaderboard_id = $1',
    [board.internalId],
  );
  return new Map(rows.map((row) => [row.clan_id, row.score]));
}

/** Waits until every change accepted for the leaderboard has been written to PostgreSQL. */
export async function waitForPersistence(board: { internalId: number }, timeoutMs = 30_000): Promise<void> {
  await until(async () => (await testEngine().rankings.pendingPersistence([board])) === 0, 'pending_persistence to reach 0', timeoutMs);
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
