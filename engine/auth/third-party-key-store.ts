import { storable, type Pool } from '../db.js';

export interface ThirdPartyKey {
  id: string;
  gameId: string;
  name: string;
  createdAt: Date;
  revokedAt: Date | null;
}

interface KeyRow {
  id: string;
  game_id: string;
  name: string;
  created_at: Date;
  revoked_at: Date | null;
}

const toKey = (row: KeyRow): ThirdPartyKey => ({
  id: row.id,
  gameId: row.game_id,
  name: row.name,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

const COLUMNS = 'id, game_id, name, created_at, revoked_at';

export class ThirdPartyKeyStore {
  constructor(private readonly pool: Pool) {}

  async insert(key: { id: string; gameId: string; name: string; keyHash: Buffer }): Promise<ThirdPartyKey> {
    const { rows } = await this.pool.query<KeyRow>(
      `INSERT INTO third_party_keys (id, game_id, name, key_hash) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
      [key.id, key.gameId, key.name, key.keyHash],
    );
    return toKey(rows[0]!);
  }

  /** A game's keys, oldest first, a page at a time, with the game's count. */
  async pageByGame(gameId: string, offset: number, limit: number): Promise<{ total: number; keys: ThirdPartyKey[] }> {
    const [page, count] = await Promise.all([
      this.pool.query<KeyRow>(`SELECT ${COLUMNS} FROM third_party_keys WHERE game_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`, [
        gameId,
        limit,
        offset,
      ]),
      this.pool.query<{ count: number }>('SELECT count(*)::int AS count FROM third_party_keys WHERE game_id = $1', [gameId]),
    ]);
    return { total: count.rows[0]!.count, keys: page.rows.map(toKey) };
  }

  async findActiveByHash(hash: Buffer): Promise<ThirdPartyKey | undefined> {
    const { rows } = await this.pool.query<KeyRow>(`SELECT ${COLUMNS} FROM third_party_keys WHERE key_hash = $1 AND revoked_at IS NULL`, [
      hash,
    ]);
    return rows[0] && toKey(rows[0]);
  }

  /** Marks the key revoked; false when the game has no such key. Revoking twice is harmless. */
  async revoke(gameId: string, id: string): Promise<boolean> {
    if (!storable(id)) return false;
    const result = await this.pool.query(
      'UPDATE third_party_keys SET revoked_at = coalesce(revoked_at, now()) WHERE game_id = $1 AND id = $2',
      [gameId, id],
    );
    return result.rowCount === 1;
  }
}
