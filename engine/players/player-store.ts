import { storable, type Queryable } from '../db.js';

export interface Player {
  id: string;
  gameId: string;
  displayName: string | null;
  clanId: string | null;
  /** When the player was banned; null while not banned. */
  bannedAt: Date | null;
  banReason: string | null;
  /** How: 'ban' (told, reports refused) or 'shadow' (never told, docs/review.md part 6); null while not banned. */
  banKind: BanKind | null;
  createdAt: Date;
}

export type BanKind = 'ban' | 'shadow';

interface PlayerRow {
  id: string;
  game_id: string;
  display_name: string | null;
  clan_id: string | null;
  banned_at: Date | null;
  ban_reason: string | null;
  ban_kind: BanKind | null;
  created_at: Date;
}

const toPlayer = (row: PlayerRow): Player => ({
  id: row.id,
  gameId: row.game_id,
  displayName: row.display_name,
  clanId: row.clan_id,
  bannedAt: row.banned_at,
  banReason: row.ban_reason,
  banKind: row.ban_kind,
  createdAt: row.created_at,
});

/** The columns of a player that reads show. */
export type ProfileRow = Pick<Player, 'id' | 'gameId' | 'displayName' | 'clanId' | 'banKind'>;

const COLUMNS = 'id, game_id, display_name, clan_id, banned_at, ban_reason, ban_kind, created_at';

export class PlayerStore {
  constructor(private readonly db: Queryable) {}

  /** The same store inside a transaction: every query goes through its client. */
  in(client: Queryable): PlayerStore {
    return new PlayerStore(client);
  }

  /**
   * Inserts a player with their first display name; with a device id already known in the game,
   * returns undefined instead.
   */
  /** The game's players (erased ones are gone from the table). */
  async countInGame(gameId: string): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>('SELECT count(*)::int AS n FROM players WHERE game_id = $1', [gameId]);
    return rows[0]!.n;
  }

  async insert(id: string, gameId: string, deviceId: string | null, displayName: string): Promise<Player | undefined> {
    const { rows } = await this.db.query<PlayerRow>(
      `INSERT INTO players (id, game_id, device_id, display_name) VALUES ($1, $2, $3, $4)
       ON CONFLICT (game_id, device_id) DO NOTHING RETURNING ${COLUMNS}`,
      [id, gameId, deviceId, displayName],
    );
    return rows[0] && toPlayer(rows[0]);
  }

  async findByDevice(gameId: string, deviceId: string): Promise<Player | undefined> {
    const { rows } = await this.db.query<PlayerRow>(`SELECT ${COLUMNS} FROM players WHERE game_id = $1 AND device_id = $2`, [
      gameId,
      deviceId,
    ]);
    return rows[0] && toPlayer(rows[0]);
  }

  /**
   * What reads show of the given players (any game): id, game, name, clan and ban kind (a
   * shadow-banned player's own reads differ, docs/review.md part 6). Not the whole row: a
   * page of 100 would parse 200 dates it never shows (about 5% of its API CPU in a profile).
   */
  async findProfiles(ids: string[]): Promise<ProfileRow[]> {
    const lookups = ids.filter(storable);
    if (lookups.length === 0) return [];
    // Named, so each pooled connection plans it once: the hottest query of the read paths.
    const { rows } = await this.db.query<Pick<PlayerRow, 'id' | 'game_id' | 'display_name' | 'clan_id' | 'ban_kind'>>({
      name: 'players-find-profiles',
      text: 'SELECT id, game_id, display_name, clan_id, ban_kind FROM players WHERE id = ANY($1::text[])',
      values: [lookups],
    });
    return rows.map((row) => ({
      id: row.id,
      gameId: row.game_id,
      displayName: row.display_name,
      clanId: row.clan_id,
      banKind: row.ban_kind,
    }));
  }

  /** The game's players holding the given alias ids of one type, each with the alias id it holds. */
  async findByAliases(gameId: string, aliasType: string, aliasIds: string[]): Promise<{ aliasId: string; player: Player }[]> {
    const lookups = aliasIds.filter(storable);
    if (lookups.length === 0) return [];
    const { rows } = await this.db.query<PlayerRow & { alias_id: string }>(
      `SELECT a.alias_id, ${COLUMNS.split(', ')
        .map((column) => `p.${column}`)
        .join(', ')}
       FROM player_aliases a JOIN players p ON p.id = a.player_id
       WHERE a.game_id = $1 AND a.alias_type = $2 AND a.alias_id = ANY($3::text[])`,
      [gameId, aliasType, lookups],
    );
    return rows.map((row) => ({ aliasId: row.alias_id, player: toPlayer(row) }));
  }

  /** A player of the given game, read from PostgreSQL (never a cache: support sees the ban as stored). */
  async findInGame(gameId: string, id: string): Promise<Player | undefined> {
    if (!storable(id)) return undefined;
    const { rows } = await this.db.query<PlayerRow>(`SELECT ${COLUMNS} FROM players WHERE id = $1 AND game_id = $2`, [id, gameId]);
    return rows[0] && toPlayer(rows[0]);
  }

  /**
   * The game's players whose id is `text`, then those holding an alias id `text` (of any type), each
   * once, by id: a handful of rows, found through the primary key and the alias-id index.
   */
  async exactMatches(gameId: string, text: string): Promise<Player[]> {
    const { rows } = await this.db.query<PlayerRow>(
      `SELECT ${COLUMNS} FROM (
         SELECT ${COLUMNS}, 0 AS kind FROM players WHERE game_id = $1 AND id = $2
         UNION ALL
         SELECT ${COLUMNS}, 1 AS kind FROM players
         WHERE game_id = $1 AND id <> $2 AND id IN (SELECT player_id FROM player_aliases WHERE game_id = $1 AND alias_id = $2)
       ) AS matches ORDER BY kind, id`,
      [gameId, text],
    );
    return rows.map(toPlayer);
  }

  /**
   * A page of the game's players whose display name starts with `prefix` (case-insensitive, taken
   * literally), by lowercased name then id, leaving out `excluded`; and how many there are, counted
   * up to `countUpTo`. The players_by_lower_name index serves the range, the order and the count (sql/010).
   */
  async namePrefixPage(
    gameId: string,
    prefix: string,
    excluded: string[],
    offset: number,
    limit: number,
    countUpTo: number,
  ): Promise<{ total: number; players: Player[] }> {
    // LIKE's own wildcards and its escape character, escaped, so the text matches only itself.
    const pattern = `${prefix.replace(/[\\%_]/g, '\\$&')}%`;
    const matching = `game_id = $1 AND lower(display_name) COLLATE "C" LIKE lower($2) AND id <> ALL($3::text[])`;
    const [page, count] = await Promise.all([
      limit === 0
        ? { rows: [] }
        : this.db.query<PlayerRow>(
            `SELECT ${COLUMNS} FROM players WHERE ${matching} ORDER BY lower(display_name) COLLATE "C", id LIMIT $4 OFFSET $5`,
            [gameId, pattern, excluded, limit, offset],
          ),
      // Counted no further than asked: a one-letter prefix may match most of a game's players.
      this.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM (SELECT 1 FROM players WHERE ${matching} LIMIT $4) AS counted`, [
        gameId,
        pattern,
        excluded,
        countUpTo,
      ]),
    ]);
    return { total: count.rows[0]!.count, players: page.rows.map(toPlayer) };
  }

  /** Renames a player of the given game; undefined when the game has no such player. */
  async setDisplayName(gameId: string, id: string, displayName: string): Promise<Player | undefined> {
    if (!storable(id)) return undefined;
    const { rows } = await this.db.query<PlayerRow>(
      `UPDATE players SET display_name = $3, updated_at = now() WHERE id = $2 AND game_id = $1 RETURNING ${COLUMNS}`,
      [gameId, id, displayName],
    );
    return rows[0] && toPlayer(rows[0]);
  }

  /** Locks the player's row until the transaction ends; its current clan and ban kind, or undefined when the game has no such player. */
  async lock(gameId: string, id: string): Promise<{ clanId: string | null; banKind: BanKind | null } | undefined> {
    const { rows } = await this.db.query<{ clan_id: string | null; ban_kind: BanKind | null }>(
      'SELECT clan_id, ban_kind FROM players WHERE id = $1 AND game_id = $2 FOR UPDATE',
      [id, gameId],
    );
    return rows[0] && { clanId: rows[0].clan_id, banKind: rows[0].ban_kind };
  }

  /**
   * Bans (with the reason and kind) or unbans the player; the row as it is after. Keeps the first
   * ban's time and reason; a ban of the other kind changes the kind.
   */
  async setBan(gameId: string, id: string, ban: { reason: string | null; kind: BanKind } | null): Promise<Player | undefined> {
    const { rows } = await this.db.query<PlayerRow>(
      `UPDATE players SET banned_at = CASE WHEN $3 THEN coalesce(banned_at, now()) END,
         ban_reason = CASE WHEN NOT $3 THEN NULL WHEN banned_at IS NULL THEN $4 ELSE ban_reason END,
         ban_kind = CASE WHEN $3 THEN $5 END, updated_at = now()
       WHERE id = $1 AND game_id = $2 RETURNING ${COLUMNS}`,
      [id, gameId, ban !== null, ban?.reason ?? null, ban?.kind ?? null],
    );
    return rows[0] && toPlayer(rows[0]);
  }

  /**
   * Deletes the player (their aliases go with the row) and keeps only their id as erased; false when
   * the game has no such player.
   */
  async delete(gameId: string, id: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `WITH gone AS (DELETE FROM players WHERE id = $1 AND game_id = $2 RETURNING id, game_id)
       INSERT INTO erased_players (game_id, player_id) SELECT game_id, id FROM gone`,
      [id, gameId],
    );
    return rowCount === 1;
  }

  /** Sets the given fields (a clanId of null leaves the clan; an absent one keeps it). */
  async update(gameId: string, id: string, changes: { displayName?: string; clanId?: string | null }): Promise<Player | undefined> {
    const { rows } = await this.db.query<PlayerRow>(
      `UPDATE players SET display_name = coalesce($3, display_name),
         clan_id = CASE WHEN $4 THEN $5 ELSE clan_id END, updated_at = now()
       WHERE id = $1 AND game_id = $2 RETURNING ${COLUMNS}`,
      [id, gameId, changes.displayName ?? null, changes.clanId !== undefined, changes.clanId ?? null],
    );
    return rows[0] && toPlayer(rows[0]);
  }

  /** Every member of the clan leaves it; their ids. */
  async leaveClan(gameId: string, clanId: string): Promise<string[]> {
    const { rows } = await this.db.query<{ id: string }>(
      'UPDATE players SET clan_id = NULL, updated_at = now() WHERE game_id = $1 AND clan_id = $2 RETURNING id',
      [gameId, clanId],
    );
    return rows.map((row) => row.id);
  }

  /** Of these games, those with a banned or erased player, and those with a clan member (one query). */
  async gamesWithBarredOrClans(gameIds: readonly string[]): Promise<{ barred: Set<string>; clans: Set<string> }> {
    const { rows } = await this.db.query<{ game_id: string; barred: boolean; clans: boolean }>(
      `SELECT g.game_id,
              EXISTS (SELECT 1 FROM players WHERE game_id = g.game_id AND banned_at IS NOT NULL)
                OR EXISTS (SELECT 1 FROM erased_players WHERE game_id = g.game_id) AS barred,
              EXISTS (SELECT 1 FROM players WHERE game_id = g.game_id AND clan_id IS NOT NULL) AS clans
       FROM unnest($1::text[]) AS g(game_id)`,
      [[...new Set(gameIds)]],
    );
    return {
      barred: new Set(rows.filter((row) => row.barred).map((row) => row.game_id)),
      clans: new Set(rows.filter((row) => row.clans).map((row) => row.game_id)),
    };
  }

  /**
   * The players every board of the game refuses: banned and erased ones, a page at a time, each
   * with whether the ban is a shadow ban.
   */
  async *barredIds(gameId: string, pageSize = 1000): AsyncGenerator<{ id: string; shadow: boolean }[]> {
    let after = '';
    for (;;) {
      const { rows } = await this.db.query<{ id: string; shadow: boolean }>(
        `SELECT id, shadow FROM (
           SELECT id, ban_kind = 'shadow' AS shadow FROM players WHERE game_id = $1 AND banned_at IS NOT NULL
           UNION ALL SELECT player_id, false FROM erased_players WHERE game_id = $1
         ) barred WHERE id > $2 ORDER BY id LIMIT $3`,
        [gameId, after, pageSize],
      );
      if (rows.length === 0) return;
      yield rows;
      after = rows[rows.length - 1]!.id;
    }
  }

  /** Clan memberships of a game, player -> clan, read in pages (a game may have millions of players). */
  async *clanMemberships(gameId: string, pageSize = 5000): AsyncGenerator<[string, string][]> {
    let after = '';
    for (;;) {
      const { rows } = await this.db.query<{ id: string; clan_id: string }>(
        `SELECT id, clan_id FROM players WHERE game_id = $1 AND clan_id IS NOT NULL AND id > $2 ORDER BY id LIMIT $3`,
        [gameId, after, pageSize],
      );
      if (rows.length === 0) return;
      yield rows.map((row) => [row.id, row.clan_id]);
      after = rows[rows.length - 1]!.id;
    }
  }
}
