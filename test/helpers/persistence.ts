import calculateSlot from 'cluster-key-slot';
import { Cluster, type Redis } from 'ioredis';
import { keysUnder, lockKey, resetScheduleKey } from '../../engine/live/keys.js';
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
    redis.hlen(keys(board).endedSeasons),
  ]);
  return players + clans + seasons;
}

/**
 * The board as another process sees it while rebuilding it from PostgreSQL: its live state gone and
 * its preparation lock held, until the returned function lets go of the lock.
 */
export async function rebuildingElsewhere(board: { internalId: number }): Promise<() => Promise<void>> {
  const { redis, prefix, keys } = testStores();
  const lock = lockKey(prefix, 'prepare', board);
  await redis.set(lock, 'another-process', 'PX', 120_000);
  await redis.del(keys(board).season);
  return async () => {
    await redis.del(lock);
  };
}

/**
 * The Redis node that holds the board's keys loses its data, as a node that restarted empty: every
 * key of the service's prefix on that node goes (on a cluster, that one master's; other services
 * sharing the Redis keep theirs).
 */
export async function nodeLosesData(board: { internalId: number }): Promise<void> {
  const { redis, prefix, keys } = testStores();
  let node: Redis | Cluster = redis;
  if (redis instanceof Cluster) {
    const [address] = redis.slots[calculateSlot(keys(board).scores)]!;
    node = redis.nodes('master').find((each) => `${each.options.host}:${each.options.port}` === address)!;
  }
  let cursor = '0';
  do {
    const [next, found] = await (node as Redis).scan(cursor, 'MATCH', keysUnder(prefix), 'COUNT', 10_000);
    await Promise.all(found.map((key) => (node as Redis).unlink(key)));
    cursor = next;
  } while (cursor !== '0');
}

/**
 * The board loses everything Redis held for it (every key under its hash tag: ranking, memberships,
 * the season key that marks its live state), as a board whose keys were lost; the dataset marker
 * stays, so only this board is rebuilt, at its first touch.
 */
export async function boardLosesLiveState(board: { internalId: number }): Promise<void> {
  const { redis, prefix } = testStores();
  const nodes: Redis[] = redis instanceof Cluster ? redis.nodes('master') : [redis as Redis];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, found] = await node.scan(cursor, 'MATCH', `${prefix}:lb:{${board.internalId}}*`, 'COUNT', 10_000);
      await Promise.all(found.map((key) => node.unlink(key)));
      cursor = next;
    } while (cursor !== '0');
  }
}

/** The board's current season as Redis holds it (its season key also holds the next scheduled reset). */
export async function liveSeason(board: { internalId: number }): Promise<number | undefined> {
  const value = await testStores().redis.get(testStores().keys(board).season);
  return value === null ? undefined : Number.parseInt(value, 10);
}

/**
 * Makes the board's next scheduled reset come at `at` (ms), as if its schedule said so: in the
 * board's own keys, where its scripts find it, and in the worker's index.
 */
export async function scheduledResetAt(board: { internalId: number }, at: number): Promise<void> {
  const { redis, prefix, keys } = testStores();
  const season = await liveSeason(board);
  await redis.zadd(keys(board).scheduledResets, at, String(at));
  await redis.set(keys(board).season, `${season}:${at}`);
  await redis.zadd(resetScheduleKey(prefix), at, board.internalId);
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
