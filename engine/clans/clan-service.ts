import { LRUCache } from 'lru-cache';
import { ConflictError, NotFoundError } from '../errors.js';
import type { AliasStore } from '../players/alias-store.js';
import { storable, withTransaction, type Pool } from '../db.js';
import type { Invalidator } from '../invalidator.js';
import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import type { Player } from '../players/player-store.js';
import type { PlayerService } from '../players/player-service.js';
import type { Rankings } from '../ranking/rankings.js';
import type { Clan, ClanStore } from './clan-store.js';

export interface PlayerChanges {
  displayName?: string;
  /** null leaves the clan. */
  clanId?: string | null;
  aliases?: Record<string, string | null>;
}

/**
 * Clans and memberships. PostgreSQL holds who belongs where; every clan leaderboard's Redis state
 * follows in the same request, while the player's row is locked, so concurrent changes to one
 * player apply in one order in both places.
 */
export class ClanService {
  // Clan names and member counts for pages; short-lived and dropped in every process on any change.
  private readonly cache = new LRUCache<string, Clan>({ max: 20_000, ttl: 10_000 });

  constructor(
    private readonly store: ClanStore,
    private readonly pool: Pool,
    private readonly leaderboards: LeaderboardService,
    private readonly rankings: Rankings,
    private readonly players: PlayerService,
    private readonly aliases: AliasStore,
    private readonly invalidator: Invalidator,
  ) {
    invalidator.onChange((change) => {
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
    for (const clan of await this.store.findMany(gameId, missing)) this.cache.set(key(clan.id), clan);
    const found = new Map<string, Clan>();
    for (const id of clanIds) {
      const clan = this.cache.get(key(id));
      if (clan) found.set(id, clan);
    }
    return found;
  }

  memberIds(gameId: string, clanId: string): Promise<string[]> {
    return this.store.memberIds(gameId, clanId);
  }

  async put(gameId: string, clanId: string, name: string | undefined): Promise<{ clan: Clan; created: boolean }> {
    const result = await this.store.upsert(gameId, clanId, name);
    await this.invalidator.clansChanged();
    return result;
  }

  /**
   * Members become clanless, and every clan leaderboard drops the clan's total. The Redis steps are
   * safe to repeat should the transaction run again: they set memberships and recount the total.
   */
  async delete(gameId: string, clanId: string): Promise<void> {
    const boards = await this.leaderboards.clanBoards(gameId);
    const formerMembers = await withTransaction(this.pool, async (client) => {
      const locked = await client.query('SELECT 1 FROM clans WHERE game_id = $1 AND clan_id = $2 FOR UPDATE', [gameId, clanId]);
      if (locked.rowCount === 0) throw new NotFoundError('clan_not_found', `This game has no clan '${clanId}'.`);
      const { rows } = await client.query<{ id: string }>(
        'UPDATE players SET clan_id = NULL, updated_at = now() WHERE game_id = $1 AND clan_id = $2 RETURNING id',
        [gameId, clanId],
      );
      for (const board of boards) {
        await this.rankings.setClans(board, rows.map((row) => [row.id, null]));
        await this.rankings.reconcileClan(board, clanId, []); // drops whatever drift left of its total
      }
      await client.query('DELETE FROM clans WHERE game_id = $1 AND clan_id = $2', [gameId, clanId]);
      return rows.map((row) => row.id);
    });
    for (const playerId of formerMembers) await this.invalidator.playerChanged(playerId);
    await this.invalidator.clansChanged();
  }

  /**
   * The game server's player update: display name, clan membership (moving best scores between
   * clan totals at once) and aliases, in one transaction (run again whole if PostgreSQL aborts it as
   * a deadlock: the Redis step comes last and sets memberships, so repeating it is harmless).
   * Atomic per clan leaderboard (one setClans script in its slot; a report racing it reads the
   * membership inside its own script, so it credits exactly one clan). Not atomic across
   * leaderboards: the player's row lock serialises updates of one player, so every board applies
   * them in the same order; a failure in between rolls PostgreSQL back and the scheduled
   * reconciliation realigns the boards already changed with PostgreSQL's membership.
   */
  async updatePlayer(gameId: string, playerId: string, changes: PlayerChanges): Promise<{ player: Player; aliases: Record<string, string> }> {
    if (!storable(playerId)) throw new NotFoundError('player_not_found', `No player has the id '${playerId}' in this game.`);
    const boards = changes.clanId !== undefined ? await this.leaderboards.clanBoards(gameId) : [];
    const player = await withTransaction(this.pool, async (client): Promise<Player> => {
      const { rows } = await client.query<{ clan_id: string | null }>(
        'SELECT clan_id FROM players WHERE id = $1 AND game_id = $2 FOR UPDATE',
        [playerId, gameId],
      );
      if (!rows[0]) throw new NotFoundError('player_not_found', `No player has the id '${playerId}' in this game.`);
      if (changes.clanId) {
        const clan = await client.query('SELECT 1 FROM clans WHERE game_id = $1 AND clan_id = $2 FOR SHARE', [gameId, changes.clanId]);
        if (clan.rowCount === 0) throw new NotFoundError('clan_not_found', `This game has no clan '${changes.clanId}'.`);
      }
      const updated = await client.query<{ id: string; game_id: string; display_name: string | null; clan_id: string | null }>(
        `UPDATE players SET display_name = coalesce($3, display_name),
           clan_id = CASE WHEN $4 THEN $5 ELSE clan_id END, updated_at = now()
         WHERE id = $1 AND game_id = $2 RETURNING id, game_id, display_name, clan_id`,
        [playerId, gameId, changes.displayName ?? null, changes.clanId !== undefined, changes.clanId ?? null],
      );
      const row = updated.rows[0]!;
      const changed: Player = { id: row.id, gameId: row.game_id, displayName: row.display_name, clanId: row.clan_id };
      if (changes.aliases && !(await this.aliases.set(client, gameId, playerId, changes.aliases))) {
        throw new ConflictError('One of these aliases already belongs to another player of this game.', 'already_exists');
      }
      if (changes.clanId !== undefined && rows[0].clan_id !== changed.clanId) {
        for (const board of boards) await this.rankings.setClans(board, [[playerId, changed.clanId]]);
      }
      return changed;
    });
    await this.players.changed(player);
    if (changes.clanId !== undefined) await this.invalidator.clansChanged();
    return { player, aliases: await this.aliases.of(playerId) };
  }
}
