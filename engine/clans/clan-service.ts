import { LRUCache } from 'lru-cache';
import { NotFoundError } from '../errors.js';
import type { RunInTransaction } from '../db.js';
import type { Actor, AuditStore } from '../audit/audit-store.js';
import type { Invalidator } from '../invalidator.js';
import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import type { PlayerStore } from '../players/player-store.js';
import type { Rankings } from '../live/rankings.js';
import type { Clan, ClanStore } from './clan-store.js';

/**
 * Clans and memberships. PostgreSQL holds who belongs where; every clan leaderboard's Redis state
 * follows in the same request, while the player's row is locked, so concurrent changes to one
 * player apply in one order in both places.
 */
export class ClanService {
  // Clan names and member counts for pages; short-lived and dropped in every process on any change.
  private readonly cache = new LRUCache<string, Clan>({ max: 20_000, ttl: 10_000 });

  constructor(
    private readonly deps: {
      store: ClanStore;
      players: PlayerStore;
      transact: RunInTransaction;
      leaderboards: LeaderboardService;
      rankings: Rankings;
      invalidator: Invalidator;
      audit: AuditStore;
    },
  ) {
    deps.invalidator.onChange((change) => {
      if (change.kind === 'clans' || change.kind === 'all') this.cache.clear();
    });
  }

  async get(gameId: string, clanId: string): Promise<Clan> {
    const clan = (await this.getMany(gameId, [clanId])).get(clanId);
    if (!clan) throw new NotFoundError('clan_not_found', `This game has no clan '${clanId}'.`);
    return clan;
  }

  async getMany(gameId: string, clanIds: string[]): Promise<Map<string, Clan>> {
    const key = (id: string) => `${gameId}\u0000${id}`;
    const missing = clanIds.filter((id) => !this.cache.has(key(id)));
    for (const clan of await this.deps.store.findMany(gameId, missing)) this.cache.set(key(clan.id), clan);
    const found = new Map<string, Clan>();
    for (const id of clanIds) {
      const clan = this.cache.get(key(id));
      if (clan) found.set(id, clan);
    }
    return found;
  }

  memberIds(gameId: string, clanId: string): Promise<string[]> {
    return this.deps.store.memberIds(gameId, clanId);
  }

  async put(gameId: string, clanId: string, name: string | undefined, actor: Actor): Promise<{ clan: Clan; created: boolean }> {
    const result = await this.deps.transact(async (client) => {
      const upserted = await this.deps.store.in(client).upsert(gameId, clanId, name);
      // An existing clan given no name is left as it was: nothing to record.
      if (upserted.created || name !== undefined) {
        await this.deps.audit.in(client).record({
          gameId,
          actor,
          action: upserted.created ? 'clan.create' : 'clan.update',
          target: clanId,
          details: { name: upserted.clan.name },
        });
      }
      return upserted;
    });
    await this.deps.invalidator.clansChanged();
    return result;
  }

  /**
   * Members become clanless, and every clan leaderboard drops the clan's total. The Redis steps are
   * safe to repeat should the transaction run again: they set memberships and recount the total.
   */
  async delete(gameId: string, clanId: string, actor: Actor): Promise<void> {
    const boards = await this.deps.leaderboards.clanBoards(gameId);
    const formerMembers = await this.deps.transact(async (client) => {
      const clans = this.deps.store.in(client);
      if (!(await clans.lock(gameId, clanId, 'update'))) throw new NotFoundError('clan_not_found', `This game has no clan '${clanId}'.`);
      const members = await this.deps.players.in(client).leaveClan(gameId, clanId);
      for (const board of boards) {
        await this.deps.rankings.setClans(
          board,
          members.map((id) => [id, null]),
        );
        await this.deps.rankings.reconcileClan(board, clanId, []); // drops whatever drift left of its total
      }
      await clans.delete(gameId, clanId);
      await this.deps.audit
        .in(client)
        .record({ gameId, actor, action: 'clan.delete', target: clanId, details: { former_members: members.length } });
      return members;
    });
    for (const playerId of formerMembers) await this.deps.invalidator.playerChanged(playerId);
    await this.deps.invalidator.clansChanged();
  }
}
