import type { Redis } from 'ioredis';
import { allMemberKeys, leaderboardKeys } from '../../engine/keys.js';
import type { Leaderboard } from '../../engine/leaderboards/leaderboard-store.js';
import type { BenchParts } from './engine-parts.js';
import { randomBelow, playerId } from './fixtures.js';

export interface MemoryFigures {
  entries: number;
  bytes: Record<string, number>;
  perEntry: number;
}

/**
 * Bytes per ranked entry: every key the engine keeps for the leaderboard (exact, SAMPLES 0),
 * divided by the number of ranked players. On a clan board that includes the member hashes.
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
  const entries = await redis.zcard(keys.scores);
  const total = Object.values(bytes).reduce((sum, n) => sum + n, 0);
  return { entries, bytes, perEntry: entries === 0 ? 0 : total / entries };
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
