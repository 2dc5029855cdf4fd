import type { Queryable } from '../db.js';

/** Aliases: a player's ids in outside systems, one per alias type; an alias belongs to one player. */
export class AliasStore {
  constructor(private readonly db: Queryable) {}

  /** The same store inside a transaction: every query goes through its client. */
  in(client: Queryable): AliasStore {
    return new AliasStore(client);
  }

  async of(playerId: string): Promise<Record<string, string>> {
    const { rows } = await this.db.query<{ alias_type: string; alias_id: string }>(
      'SELECT alias_type, alias_id FROM player_aliases WHERE player_id = $1 ORDER BY alias_type',
      [playerId],
    );
    return Object.fromEntries(rows.map((row) => [row.alias_type, row.alias_id]));
  }

  /** The aliases of each given player (those without any are absent), in one query. */
  async ofMany(playerIds: string[]): Promise<Map<string, Record<string, string>>> {
    const { rows } = await this.db.query<{ player_id: string; alias_type: string; alias_id: string }>(
      'SELECT player_id, alias_type, alias_id FROM player_aliases WHERE player_id = ANY($1::text[]) ORDER BY alias_type',
      [playerIds],
    );
    const aliases = new Map<string, Record<string, string>>();
    for (const row of rows) {
      const held = aliases.get(row.player_id) ?? {};
      held[row.alias_type] = row.alias_id;
      aliases.set(row.player_id, held);
    }
    return aliases;
  }

  async findPlayer(gameId: string, aliasType: string, aliasId: string): Promise<string | undefined> {
    const { rows } = await this.db.query<{ player_id: string }>(
      'SELECT player_id FROM player_aliases WHERE game_id = $1 AND alias_type = $2 AND alias_id = $3',
      [gameId, aliasType, aliasId],
    );
    return rows[0]?.player_id;
  }

  /**
   * Sets (or with null removes) aliases; false when one is taken. Run inside the transaction that
   * locked the player (`in(client)`). Claimed in alias-type order, whatever the order of the
   * request's keys: two players claiming the same aliases then meet at the first one, where one
   * waits for the other (and finds it taken) instead of each holding one the other needs (a deadlock).
   */
  async set(gameId: string, playerId: string, aliases: Record<string, string | null>): Promise<boolean> {
    const inTypeOrder = Object.entries(aliases).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [type, id] of inTypeOrder) {
      await this.db.query('DELETE FROM player_aliases WHERE player_id = $1 AND alias_type = $2', [playerId, type]);
      if (id === null) continue;
      const inserted = await this.db.query(
        `INSERT INTO player_aliases (game_id, alias_type, alias_id, player_id) VALUES ($1, $2, $3, $4)
         ON CONFLICT (game_id, alias_type, alias_id) DO NOTHING`,
        [gameId, type, id, playerId],
      );
      if (inserted.rowCount === 0) return false;
    }
    return true;
  }
}
