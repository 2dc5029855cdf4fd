import type { Redis } from 'ioredis';
import { datasetKeysPrefix, keysUnder, leaderboardKeys, rebuildCursorKey } from '../../engine/live/keys.js';
import { chunks } from '../../engine/live/rankings.js';
import type { BenchParts } from './engine-parts.js';
import { sleep, stop, type Started } from './processes.js';
import type { ScenarioContext } from './scenarios.js';
import { startApi, type ServiceSetup } from './service.js';
import { BENCH_PREFIX } from './fixtures.js';

export interface RecoveryFigures {
  boards: number;
  scoredBoards: number;
  /** First touches (a record read) of scored boards right after the loss, no worker running: each rebuilds its board. */
  touchMs: number[];
  /** From the loss to the worker's walk asking for it (the dataset marker missing at its sweep). */
  noticedMs: number;
  /** From the loss until every scored board is back (the walk takes the most active first). */
  scoredBackMs: number;
  /** From the loss until the walk has rebuilt every board. */
  allBackMs: number;
}

/**
 * A lost dataset at 100,000 boards, 1,000 of them scored (the many-boards figures' boards, after their
 * reports persisted): Redis loses every key of these boards and the dataset marker, as a node that
 * restarted empty. First with no worker running: the first touch of each of 100 scored boards (a
 * record read through the API) rebuilds it before answering, and its latency is kept. Then with a
 * worker: the time until the walk has every scored board back, and every board.
 */
export async function recoveryFigures(
  setup: ServiceSetup,
  parts: BenchParts,
  redis: Redis,
  ctx: ScenarioContext,
  worker: Started,
  startWorker: () => Promise<Started>,
): Promise<{ figures: RecoveryFigures; worker: Started }> {
  // One player with a persisted score per scored board: the few scored boards' rows, not a probe per board.
  const { rows } = await parts.pool.query<{ internal_id: number; leaderboard_id: string; game_id: string; player_id: string | null }>(
    `SELECT l.internal_id, l.leaderboard_id, l.game_id, s.player_id
     FROM leaderboards l
     LEFT JOIN (SELECT DISTINCT ON (s.leaderboard_internal_id) s.leaderboard_internal_id, s.player_id
                FROM scores s JOIN leaderboards m ON m.internal_id = s.leaderboard_internal_id AND m.leaderboard_id LIKE 'many-%'
                ORDER BY s.leaderboard_internal_id) s ON s.leaderboard_internal_id = l.internal_id
     WHERE l.leaderboard_id LIKE 'many-%'`,
  );
  const scored = rows.filter((row) => row.player_id !== null && row.game_id === ctx.gameId);
  const ids = rows.map((row) => row.internal_id);
  const seasonKeys = (boards: { internal_id: number }[]) => boards.map((row) => leaderboardKeys(BENCH_PREFIX, row.internal_id).season);

  await stop(worker);
  await loseBoards(redis, new Set(ids));
  const api = await startApi(setup, 1);
  const touchMs: number[] = [];
  try {
    for (const row of scored.slice(0, 100)) {
      const started = performance.now();
      const res = await fetch(
        `http://127.0.0.1:${setup.apiPort}/api/v1/client/leaderboards/${row.leaderboard_id}/players/${row.player_id}`,
        {
          headers: { 'Secret-Key': ctx.secretKey },
        },
      );
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`first touch of ${row.leaderboard_id}: ${res.status}`);
      touchMs.push(performance.now() - started);
    }
  } finally {
    await stop(api);
  }

  await loseBoards(redis, new Set(ids));
  const lostAt = Date.now();
  const next = await startWorker();
  let noticedMs = -1;
  let scoredBackMs = -1;
  for (;;) {
    const now = Date.now() - lostAt;
    if (noticedMs < 0 && (await redis.exists(rebuildCursorKey(BENCH_PREFIX))) === 1) noticedMs = now;
    if (scoredBackMs < 0 && (await countPresent(redis, seasonKeys(scored))) === scored.length) scoredBackMs = now;
    if (noticedMs >= 0 && scoredBackMs >= 0 && (await redis.exists(rebuildCursorKey(BENCH_PREFIX))) === 0) break;
    if (now > 600_000) throw new Error('the rebuild walk did not finish within 10 minutes');
    await sleep(100);
  }
  const allBackMs = Date.now() - lostAt;
  const present = await countPresent(redis, seasonKeys(rows));
  if (present !== rows.length) throw new Error(`the walk ended with ${rows.length - present} boards still without live state`);
  return { figures: { boards: rows.length, scoredBoards: scored.length, touchMs, noticedMs, scoredBackMs, allBackMs }, worker: next };
}

/** Every key of the given boards goes, and the dataset marker with them, as on a node that restarted empty. */
async function loseBoards(redis: Redis, internalIds: Set<number>): Promise<void> {
  const board = /:lb:\{(\d+)\}:/;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', keysUnder(`${BENCH_PREFIX}:lb`), 'COUNT', 10_000);
    const doomed = keys.filter((key) => internalIds.has(Number(board.exec(key)?.[1])));
    for (const batch of chunks(doomed, 1000)) await redis.unlink(...batch);
    cursor = next;
  } while (cursor !== '0');
  const markers = await redis.keys(`${datasetKeysPrefix(BENCH_PREFIX)}*`);
  if (markers.length > 0) await redis.unlink(...markers);
}

async function countPresent(redis: Redis, keys: string[]): Promise<number> {
  let present = 0;
  for (const batch of chunks(keys, 10_000)) present += await redis.exists(...batch);
  return present;
}
