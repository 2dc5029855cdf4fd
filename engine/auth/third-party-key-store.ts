import { storable, type Queryable } from '../db.js';

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
  constructor(private readonly db: Queryable) {}

  /** The same store inside a transaction: every query goes through its client. */
  in(client: Queryable): ThirdPartyKeyStore {
    return new ThirdPartyKeyStore(client);
  }

  async insert(key: { id: string; gameId: string; name: string; keyHash: Buffer }): Promise<ThirdPartyKey> {
    const { rows } = await this.db.query<KeyRow>(
      `INSERT INTO third_party_keys (id, game_id, name, key_hash) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
      [key.id, key.gameId, key.name, key.keyHash],
    );
    return toKey(rows[0]!);
  }

  /** A game's keys, oldest first, a page at a time, with the game's count. */
  async pageByGame(gameId: string, offset: number, limit: number): Promise<{ total: number; keys: ThirdPartyKey[] }> {
    const [page, count] = await Promise.all([
      this.db.query<KeyRow>(`SELECT ${COLUMNS} FROM third_party_keys WHERE game_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`, [
        gameId,
        limit,
        offset,
      ]),
      this.db.query<{ count: number }>('SELECT count(*)::int AS count FROM third_party_keys WHERE game_id = $1', [gameId]),
    ]);
    return { total: count.rows[0]!.count, keys: page.rows.map(toKey) };
  }

  async findActiveByHash(hash: Buffer): Promise<ThirdPartyKey | undefined> {
    const { rows } = await this.db.query<KeyRow>(`SELECT ${COLUMNS} FROM third_party_keys WHERE key_hash = $1 AND revoked_at IS NULL`, [
      hash,
    ]);
    return rows[0] && toKey(rows[0]);
  }

  /** Marks the key revoked; false when it was revoked already or the game has no such key. */
  async revoke(gameId: string, id: string): Promise<boolean> {
    if (!storable(id)) return false;
    const { rowCount } = await this.db.query(
      'UPDATE third_party_keys SET revoked_at = now() WHERE game_id = $1 AND id = $2 AND revoked_at IS NULL',
      [gameId, id],
    );
    return rowCount === 1;
  }

  /** Whether the game has the key, revoked or not. */
  async exists(gameId: string, id: string): Promise<boolean> {
    if (!storable(id)) return false;
    const { rowCount } = await this.db.query('SELECT 1 FROM third_party_keys WHERE game_id = $1 AND id = $2', [gameId, id]);
    return rowCount === 1;
  }
}
