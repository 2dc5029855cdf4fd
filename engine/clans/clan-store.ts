import type { Queryable } from '../db.js';

export interface Clan {
  gameId: string;
  id: string;
  name: string;
  memberCount: number;
  createdAt: Date;
  updatedAt: Date;
}

interface ClanRow {
  game_id: string;
  clan_id: string;
  name: string;
  member_count: number;
  created_at: Date;
  updated_at: Date;
}

const toClan = (row: ClanRow): Clan => ({
  gameId: row.game_id,
  id: row.clan_id,
  name: row.name,
  memberCount: row.member_count,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const SELECT_WITH_COUNT = `
  SELECT c.game_id, c.clan_id, c.name, c.created_at, c.updated_at,
         (SELECT count(*)::int FROM players p WHERE p.game_id = c.game_id AND p.clan_id = c.clan_id AND p.banned_at IS NULL) AS member_count
  FROM clans c`;

export class ClanStore {
  constructor(private readonly db: Queryable) {}

  /** The same store inside a transaction: every query goes through its client. */
  in(client: Queryable): ClanStore {
    return new ClanStore(client);
  }

  async findMany(gameId: string, clanIds: string[]): Promise<Clan[]> {
    if (clanIds.length === 0) return [];
    const { rows } = await this.db.query<ClanRow>(`${SELECT_WITH_COUNT} WHERE c.game_id = $1 AND c.clan_id = ANY($2::text[])`, [
      gameId,
      clanIds,
    ]);
    return rows.map(toClan);
  }

  async listIds(gameId: string): Promise<string[]> {
    const { rows } = await this.db.query<{ clan_id: string }>('SELECT clan_id FROM clans WHERE game_id = $1 ORDER BY clan_id', [gameId]);
    return rows.map((row) => row.clan_id);
  }

  /** Creates the clan or renames it; `created` tells which. */
  async upsert(gameId: string, clanId: string, name: string | undefined): Promise<{ clan: Clan; created: boolean }> {
    const { rows } = await this.db.query<{ created: boolean }>(
      `INSERT INTO clans (game_id, clan_id, name) VALUES ($1, $2, coalesce($3, $2))
       ON CONFLICT (game_id, clan_id) DO UPDATE SET name = coalesce($3, clans.name), updated_at = now()
       RETURNING (xmax = 0) AS created`,
      [gameId, clanId, name ?? null],
    );
    const [clan] = await this.findMany(gameId, [clanId]);
    return { clan: clan!, created: rows[0]!.created };
  }

  /**
   * Locks the clan's row until the transaction ends: 'update' to delete it, 'share' to keep it
   * from being deleted while a member joins. False when the game has no such clan.
   */
  async lock(gameId: string, clanId: string, mode: 'update' | 'share'): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `SELECT 1 FROM clans WHERE game_id = $1 AND clan_id = $2 ${mode === 'update' ? 'FOR UPDATE' : 'FOR SHARE'}`,
      [gameId, clanId],
    );
    return rowCount === 1;
  }

  async delete(gameId: string, clanId: string): Promise<void> {
    await this.db.query('DELETE FROM clans WHERE game_id = $1 AND clan_id = $2', [gameId, clanId]);
  }

  /** The ids of the clan's members not banned (a ban takes a player out of clan totals and lists), sorted (a stable order keeps floating-point sums reproducible). */
  async memberIds(gameId: string, clanId: string): Promise<string[]> {
    const { rows } = await this.db.query<{ id: string }>(
      'SELECT id FROM players WHERE game_id = $1 AND clan_id = $2 AND banned_at IS NULL ORDER BY id COLLATE "C"',
      [gameId, clanId],
    );
    return rows.map((row) => row.id);
  }
}
