import type { Redis } from 'ioredis';
import { allBestRankKeys, allMemberKeys, boardRetryKey, leaderboardKeys, requestRetryKey } from '../../engine/live/keys.js';
import type { Leaderboard } from '../../engine/leaderboards/leaderboard-store.js';
import type { BenchParts } from './engine-parts.js';
import { randomBelow, playerId } from './fixtures.js';

/** Redis's count of commands processed so far (the INFO that reads it counts as one). */
export async function commandsProcessed(redis: Redis): Promise<number> {
  return Number(/total_commands_processed:(\d+)/.exec(await redis.info('stats'))?.[1]);
}

export interface MemoryFigures {
  entries: number;
  bytes: Record<string, number>;
  perEntry: number;
}

/**
 * Bytes per ranked entry: every key the engine keeps for the leaderboard (exact, SAMPLES 0),
 * divided by the number of ranked players. On a clan board that includes the member hashes; on
 * a large board, the hashes its best ranks are spread over.
 */
export async function memoryPerEntry(redis: Redis, parts: BenchParts, board: Leaderboard): Promise<MemoryFigures> {
  const keys = leaderboardKeys(parts.prefix, board.internalId);
  const usage = async (key: string) => ((await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) as number | null) ?? 0;
  const bytes: Record<string, number> = {};
  for (const [name, key] of Object.entries(keys)) {
    const used = await usage(key);
    if (used) bytes[name] = used;
  }
  const members = (await Promise.all(allMemberKeys(parts.prefix, board.internalId).map(usage))).reduce((sum, n) => sum + n, 0);
  if (members) bytes.members = members;
  const spreadBestRanks = (await Promise.all(allBestRankKeys(parts.prefix, board.internalId).map(usage))).reduce((sum, n) => sum + n, 0);
  if (spreadBestRanks) bytes.bestRanks = (bytes.bestRanks ?? 0) + spreadBestRanks;
  const entries = await redis.zcard(keys.scores);
  const total = Object.values(bytes).reduce((sum, n) => sum + n, 0);
  return { entries, bytes, perEntry: entries === 0 ? 0 : total / entries };
}

export interface IdempotencyCost {
  /** Keyed reports that left their record on the board (one each): what the bytes are divided by. */
  reports: number;
  /** MEMORY USAGE of the board's records and of the requests' records, summed (their expiry entries aside). */
  boardBytes: number;
  requestBytes: number;
  /** (boardBytes + requestBytes) / reports. */
  perReport: number;
  /** used_memory given back when every record is deleted, per report: expiry entries included. */
  freedPerReport: number;
  /** The time to live a record had when measured (the configured lifetime, less a few seconds or minutes). */
  ttlSeconds: number;
}

/**
 * What an Idempotency-Key report leaves in Redis for the records' lifetime, from those the keyed
 * report_score scenario wrote on `board`: the board's record (in its slot) and the request's (across
 * boards), each report one of each. Deletes them afterwards, which also gives used_memory's view.
 */
export async function idempotencyCost(redis: Redis, prefix: string, board: Leaderboard): Promise<IdempotencyCost | undefined> {
  const boardKeys = await scanKeys(redis, boardRetryKey(prefix, board.internalId, '*'));
  if (boardKeys.length === 0) return undefined;
  const requestKeys = await scanKeys(redis, requestRetryKey(prefix, '*'));
  const boardBytes = await usageOf(redis, boardKeys);
  const requestBytes = await usageOf(redis, requestKeys);
  const ttlSeconds = await redis.ttl(boardKeys[0]!);
  const used = async () => Number(/^used_memory:(\d+)/m.exec(await redis.info('memory'))?.[1]);
  const before = await used();
  for (const keys of [boardKeys, requestKeys]) {
    for (let i = 0; i < keys.length; i += 1000) await redis.del(...keys.slice(i, i + 1000));
  }
  const freed = before - (await used());
  const reports = boardKeys.length;
  return {
    reports,
    boardBytes,
    requestBytes,
    perReport: (boardBytes + requestBytes) / reports,
    freedPerReport: freed / reports,
    ttlSeconds,
  };
}

async function scanKeys(redis: Redis, match: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', match, 'COUNT', 10_000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  return keys;
}

async function usageOf(redis: Redis, keys: string[]): Promise<number> {
  let bytes = 0;
  for (let i = 0; i < keys.length; i += 1000) {
    const batch = redis.pipeline();
    for (const key of keys.slice(i, i + 1000)) batch.call('MEMORY', 'USAGE', key, 'SAMPLES', '0');
    for (const [error, used] of (await batch.exec()) ?? []) if (!error) bytes += Number(used ?? 0);
  }
  return bytes;
}

export interface RankReadCost {
  entries: number;
  /** Redis's own time per call of the record-read script (INFO commandstats), in microseconds. */
  serverMicros: number;
  /** Wall time per call seen by the engine with auto-pipelining, in microseconds. */
  wallMicros: number;
}

/**
 * The record read's Redis step (Rankings.scoresOf: ZSCORE + ZCOUNT) on random players among the
 * first `players`, so two boards can be compared on exactly the same members.
 */
export async function rankReadCost(
  redis: Redis,
  parts: BenchParts,
  board: Leaderboard,
  players: number,
  calls = 20_000,
): Promise<RankReadCost> {
  const before = await scriptStats(redis);
  const started = process.hrtime.bigint();
  for (let done = 0; done < calls; done += 1000) {
    await Promise.all(Array.from({ length: 1000 }, () => parts.rankings.scoresOf(board, 'players', [playerId(randomBelow(players))])));
  }
  const wallMicros = Number(process.hrtime.bigint() - started) / 1000 / calls;
  const after = await scriptStats(redis);
  const scriptCalls = after.calls - before.calls;
  return {
    entries: await redis.zcard(leaderboardKeys(parts.prefix, board.internalId).scores),
    serverMicros: scriptCalls > 0 ? (after.usec - before.usec) / scriptCalls : 0,
    wallMicros,
  };
}

async function scriptStats(redis: Redis): Promise<{ calls: number; usec: number }> {
  const info = await redis.info('commandstats');
  let calls = 0;
  let usec = 0;
  for (const match of info.matchAll(/^cmdstat_(?:evalsha|eval):calls=(\d+),usec=(\d+)/gm)) {
    calls += Number(match[1]);
    usec += Number(match[2]);
  }
  return { calls, usec };
}
