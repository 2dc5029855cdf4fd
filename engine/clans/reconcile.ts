import type { RedisClient } from '../live/redis.js';
import type { Leaderboard, LeaderboardStore } from '../leaderboards/leaderboard-store.js';
import { lockKey } from '../live/keys.js';
import { withLock } from '../locks.js';
import type { PlayerStore } from '../players/player-store.js';
import type { Rankings } from '../live/rankings.js';
import type { ClanStore } from './clan-store.js';

/**
 * Repairs drift in the clan leaderboards' live state: first memberships (PostgreSQL decides who
 * belongs where), then every clan total recomputed from its members' current best scores in Redis.
 * Totals are never taken from PostgreSQL, which trails Redis.
 */
export class ClanReconciler {
  constructor(
    private readonly deps: {
      redis: RedisClient;
      prefix: string;
      leaderboards: LeaderboardStore;
      clans: ClanStore;
      players: PlayerStore;
      rankings: Rankings;
    },
  ) {}

  /**
   * Reconciles every clan leaderboard, a page of them at a time, each under a lock in its own slot so
   * workers do not double up. Returns the number of repairs.
   */
  async reconcileAll(): Promise<number> {
    const { redis, prefix, leaderboards } = this.deps;
    let repairs = 0;
    for await (const page of leaderboards.walk('clan')) {
      for (const board of page) {
        repairs += (await withLock(redis, lockKey(prefix, 'reconcile', board), 120_000, () => this.reconcile(board))) ?? 0;
      }
    }
    return repairs;
  }

  /**
   * The worker's periodic recount, once per `intervalMs` over every worker: the first to claim the
   * round runs it. A worker that starts (a restart, a scale-out) does not repeat the recount another
   * ran within the interval; at 1M members one costs ~20 s of CPU (docs/performance.md). The number
   * of repairs, or undefined when the round was already taken.
   */
  async reconcileAllOncePer(intervalMs: number): Promise<number | undefined> {
    const { redis, prefix } = this.deps;
    const claimed = await redis.set(lockKey(prefix, 'reconcile-round'), String(process.pid), 'PX', intervalMs, 'NX');
    return claimed === 'OK' ? this.reconcileAll() : undefined;
  }

  /**
   * Atomic per player move and per clan recount (each one script in the leaderboard's slot), not as a
   * whole: reports between steps move totals by exact differences, and each recount reads the members'
   * best scores at its own instant, so no step can leave a total wrong. Returns the number of repairs.
   */
  private async reconcile(board: Leaderboard): Promise<number> {
    const { clans, players, rankings } = this.deps;
    // PostgreSQL's memberships are compared a page at a time, each one struck off the live ones:
    // what is left is live only. No map of every membership is built beside the live one, and no
    // loop over a million of them holds the worker's event loop (persistence jobs share it).
    const live = await rankings.memberships(board);
    const moves: [string, string | null][] = [];
    for await (const page of players.clanMemberships(board.gameId)) {
      for (const [player, clan] of page) {
        if (live.get(player) !== clan) moves.push([player, clan]);
        live.delete(player);
      }
    }
    for (const player of live.keys()) moves.push([player, null]);
    if (moves.length > 0) await rankings.setClans(board, moves);

    let repairs = moves.length;
    const known = new Set(await clans.listIds(board.gameId));
    for (const clanId of new Set([...known, ...(await rankings.rankedClans(board))])) {
      const members = known.has(clanId) ? await clans.memberIds(board.gameId, clanId) : [];
      if (await rankings.reconcileClan(board, clanId, members)) repairs += 1;
    }
    return repairs;
  }
}
