import type { RedisClient } from '../redis.js';
import type { Pool } from '../db.js';
import type { Leaderboard, LeaderboardStore } from '../leaderboards/leaderboard-store.js';
import { lockKey } from '../keys.js';
import { withLock } from '../locks.js';
import { clanMemberships } from '../players/player-store.js';
import type { Rankings } from '../ranking/rankings.js';
import type { ClanStore } from './clan-store.js';

/**
 * Atomic per player move and per clan recount (each one script in the leaderboard's slot), not as a
 * whole: reports between steps move totals by exact differences, and each recount reads the members'
 * best scores at its own instant, so no step can leave a total wrong.
 *
 * Repairs drift in one clan leaderboard's live state: first memberships (PostgreSQL decides who
 * belongs where), then every clan total recomputed from its members' current best scores in Redis.
 * Totals are never taken from PostgreSQL, which trails Redis. Returns the number of repairs.
 */
export async function reconcileClanLeaderboard(
  board: Leaderboard,
  deps: { redis: RedisClient; pool: Pool; clans: ClanStore; rankings: Rankings },
): Promise<number> {
  const { redis, pool, clans, rankings } = deps;
  const k = rankings.keys(board);
  const expected = new Map<string, string>();
  for await (const page of clanMemberships(pool, board.gameId)) for (const [player, clan] of page) expected.set(player, clan);

  const live = await rankings.memberships(board);

  const moves: [string, string | null][] = [];
  for (const [player, clan] of expected) if (live.get(player) !== clan) moves.push([player, clan]);
  for (const player of live.keys()) if (!expected.has(player)) moves.push([player, null]);
  if (moves.length > 0) await rankings.setClans(board, moves);

  let repairs = moves.length;
  const known = new Set(await clans.listIds(board.gameId));
  const ranked = await redis.zrange(k.clans, '0', '-1');
  for (const clanId of new Set([...known, ...ranked])) {
    const members = known.has(clanId) ? await clans.memberIds(board.gameId, clanId) : [];
    if (await rankings.reconcileClan(board, clanId, members)) repairs += 1;
  }
  return repairs;
}

/**
 * Reconciles every clan leaderboard, a page of them at a time, each under a lock in its own slot so
 * workers do not double up.
 */
export async function reconcileAllClanLeaderboards(
  deps: { redis: RedisClient; pool: Pool; clans: ClanStore; rankings: Rankings; leaderboards: LeaderboardStore; prefix: string },
): Promise<number> {
  let repairs = 0;
  for await (const page of deps.leaderboards.walk('clan')) {
    for (const board of page) {
      repairs += (await withLock(deps.redis, lockKey(deps.prefix, 'reconcile', board), 120_000, () => reconcileClanLeaderboard(board, deps))) ?? 0;
    }
  }
  return repairs;
}
