import { storable, withAdvisoryLock, type Pool, type Queryable } from '../db.js';

export interface Game {
  id: string;
  name: string;
  publishableKey: string;
  createdAt: Date;
}

interface GameRow {
  id: string;
  name: string;
  publishable_key: string;
  created_at: Date;
}

const toGame = (row: GameRow): Game => ({
  id: row.id,
  name: row.name,
  publishableKey: row.publishable_key,
  createdAt: row.created_at,
});

const COLUMNS = 'id, name, publishable_key, created_at';

export class GameStore {
  constructor(
    private readonly pool: Pool,
    /** What queries run on: the pool, or (through `in`) the client of a transaction. */
    private readonly db: Queryable = pool,
  ) {}

  /** The same store inside a transaction: every query goes through its client. */
  in(client: Queryable): GameStore {
    return new GameStore(this.pool, client);
  }

  async insert(game: { id: string; name: string; publishableKey: string; secretKeyHash: Buffer }): Promise<Game> {
    const { rows } = await this.db.query<GameRow>(
      `INSERT INTO games (id, name, publishable_key, secret_key_hash) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
      [game.id, game.name, game.publishableKey, game.secretKeyHash],
    );
    return toGame(rows[0]!);
  }

  /** Games, oldest first, a page at a time. */
  async page(offset: number, limit: number): Promise<Game[]> {
    const { rows } = await this.db.query<GameRow>(`SELECT ${COLUMNS} FROM games ORDER BY created_at, id LIMIT $1 OFFSET $2`, [
      limit,
      offset,
    ]);
    return rows.map(toGame);
  }

  /** Runs work while no other process runs work under the same name (one-off set-up at start). */
  exclusively<T>(name: string, work: () => Promise<T>): Promise<T> {
    return withAdvisoryLock(this.pool, `leaderboard:${name}`, work);
  }

  async count(): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM games');
    return rows[0]!.n;
  }

  async findById(id: string): Promise<Game | undefined> {
    const { rows } = await this.db.query<GameRow>(`SELECT ${COLUMNS} FROM games WHERE id = $1`, [id]);
    return rows[0] && toGame(rows[0]);
  }

  async findByPublishableKey(key: string): Promise<Game | undefined> {
    const { rows } = await this.db.query<GameRow>(`SELECT ${COLUMNS} FROM games WHERE publishable_key = $1`, [key]);
    return rows[0] && toGame(rows[0]);
  }

  async findBySecretKeyHash(hash: Buffer): Promise<(Game & { secretKeyHash: Buffer; keyGeneration: number }) | undefined> {
    const { rows } = await this.db.query<GameRow & { secret_key_hash: Buffer; secret_key_generation: number }>(
      `SELECT ${COLUMNS}, secret_key_hash, secret_key_generation FROM games WHERE secret_key_hash = $1`,
      [hash],
    );
    return rows[0] && { ...toGame(rows[0]), secretKeyHash: rows[0].secret_key_hash, keyGeneration: rows[0].secret_key_generation };
  }

  /** Replaces the secret key's hash and raises its generation; undefined when there is no such game. */
  async setSecretKeyHash(id: string, hash: Buffer): Promise<number | undefined> {
    if (!storable(id)) return undefined;
    const { rows } = await this.db.query<{ generation: number }>(
      `UPDATE games SET secret_key_hash = $2, secret_key_generation = secret_key_generation + 1 WHERE id = $1
       RETURNING secret_key_generation AS generation`,
      [id, hash],
    );
    return rows[0]?.generation;
  }

  /** The game and its secret key's generation (which a dashboard session signed in with), read uncached. */
  async withKeyGeneration(id: string): Promise<{ game: Game; generation: number } | undefined> {
    if (!storable(id)) return undefined;
    const { rows } = await this.db.query<GameRow & { secret_key_generation: number }>(
      `SELECT ${COLUMNS}, secret_key_generation FROM games WHERE id = $1`,
      [id],
    );
    return rows[0] && { game: toGame(rows[0]), generation: rows[0].secret_key_generation };
  }
}
