import type { QueryConfig, QueryResult, QueryResultRow } from 'pg';
import type { Pool, PoolClient } from '../db.js';
import type { SortOrder } from '../leaderboards/leaderboard-store.js';

/** An archived season's summary. */
export interface ArchivedSeason {
  season: number;
  startedAt: Date;
  endedAt: Date;
  /** Ranked players (or, for clan counts, clanTotal ranked clans) when the season ended. */
  total: number;
  clanTotal: number;
}

/** One archived entry: the frozen score and rank; clanId (players only) as it stood at the archive. */
export interface ArchivedEntry {
  id: string;
  score: number;
  rank: number;
  position: number;
  clanId: string | null;
  /** Clans only: members who scored that season. */
  memberCount: number;
  /** Players only: the score's metadata as JSON text, as Redis holds it ('' for none). */
  metadata: string;
}

/** What an archive is made of, each ranking a page at a time in ranking order (best first). */
export interface SeasonSnapshot {
  season: number;
  startedAt: Date;
  endedAt: Date;
  settings: object;
  /** Id, score and metadata (JSON, '' for none). */
  players: AsyncIterable<[string, number, string][]>;
  clans: AsyncIterable<[string, number][]>;
}

interface EntryRow {
  id: string;
  score: number;
  rank: number;
  position: number;
  clan_id: string | null;
  member_count: number;
  metadata: string | null;
}

const toEntry = (row: EntryRow): ArchivedEntry => ({
  id: row.id,
  score: row.score,
  rank: row.rank,
  position: row.position,
  clanId: row.clan_id,
  memberCount: row.member_count,
  metadata: row.metadata ?? '',
});

// Metadata as text, the form Redis's entries carry it in: parsed once, by parseMetadata.
const PLAYER_COLUMNS = 'player_id AS id, score, rank, position, clan_id, 0 AS member_count, metadata::text AS metadata';
const CLAN_COLUMNS = 'clan_id AS id, score, rank, position, NULL AS clan_id, member_count, NULL::text AS metadata';

/**
 * Archived seasons in PostgreSQL. An archive is written once, in one transaction, with every
 * entry's position and competition rank computed there by window functions; every read of an
 * archived season is then a lookup on (leaderboard, season, position) or (leaderboard, season, id).
 */
export class SeasonStore {
  constructor(private readonly pool: Pool) {}

  /**
   * Writes one ended season whole, or finds it already written (then false: a retried job, or
   * another worker got there first). The leaderboard's current season moves past it, the season's
   * working rows go, and seasons beyond `keepSeasons` are dropped, all in the same transaction.
   */
  async archive(
    client: PoolClient,
    board: { internalId: number; gameId: string; sortOrder: SortOrder; keepSeasons: number },
    snapshot: SeasonSnapshot,
  ): Promise<boolean> {
    const lb = board.internalId;
    const query = <R extends QueryResultRow>(text: string, values?: unknown[]) => client.query<R>(archiveStatement(text, values));
    // The leaderboard's row lock orders archives of one board: a second worker waits here, then sees the season written.
    const locked = await query('SELECT 1 FROM leaderboards WHERE internal_id = $1 FOR UPDATE', [lb]);
    if (locked.rowCount === 0) return false; // deleted meanwhile
    const exists = await query('SELECT 1 FROM leaderboard_seasons WHERE leaderboard_internal_id = $1 AND season = $2', [
      lb,
      snapshot.season,
    ]);
    if (exists.rowCount !== 0) return false;

    await query('CREATE TEMP TABLE ended_players (player_id text, score float8, metadata json) ON COMMIT DROP');
    await query('CREATE TEMP TABLE ended_clans (clan_id text, score float8) ON COMMIT DROP');
    for await (const page of snapshot.players) {
      await query(
        'INSERT INTO ended_players SELECT id, score, metadata::json FROM unnest($1::text[], $2::float8[], $3::text[]) AS u (id, score, metadata)',
        [page.map(([id]) => id), page.map(([, score]) => score), page.map(([, , metadata]) => metadata || null)],
      );
    }
    for await (const page of snapshot.clans) {
      await query('INSERT INTO ended_clans SELECT * FROM unnest($1::text[], $2::float8[])', [
        page.map(([id]) => id),
        page.map(([, score]) => score),
      ]);
    }
    const [players, clans] = await Promise.all([
      query<{ count: number }>('SELECT count(*)::int AS count FROM ended_players'),
      query<{ count: number }>('SELECT count(*)::int AS count FROM ended_clans'),
    ]).then((counts) => counts.map((result) => result.rows[0]!.count));
    await query(
      `INSERT INTO leaderboard_seasons (leaderboard_internal_id, season, started_at, ended_at, total, clan_total, settings)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [lb, snapshot.season, snapshot.startedAt, snapshot.endedAt, players, clans, JSON.stringify(snapshot.settings)],
    );
    // The order of the live list: best first, ties by id as Redis orders equal scores (bytewise,
    // descending on desc boards, where the list is read in reverse).
    const direction = board.sortOrder === 'asc' ? 'ASC' : 'DESC';
    await query(
      `INSERT INTO season_entries (leaderboard_internal_id, season, position, player_id, score, rank, clan_id, metadata)
       SELECT $1, $2, row_number() OVER (ORDER BY e.score ${direction}, e.player_id COLLATE "C" ${direction}),
              e.player_id, e.score, rank() OVER (ORDER BY e.score ${direction}), p.clan_id, e.metadata
       FROM ended_players e LEFT JOIN players p ON p.id = e.player_id`,
      [lb, snapshot.season],
    );
    await query(
      `INSERT INTO season_clan_entries (leaderboard_internal_id, season, position, clan_id, score, rank, member_count)
       SELECT $1, $2, row_number() OVER (ORDER BY c.score ${direction}, c.clan_id COLLATE "C" ${direction}),
              c.clan_id, c.score, rank() OVER (ORDER BY c.score ${direction}),
              (SELECT count(*)::int FROM season_entries s
               WHERE s.leaderboard_internal_id = $1 AND s.season = $2 AND s.clan_id = c.clan_id)
       FROM ended_clans c`,
      [lb, snapshot.season],
    );
    await query(`UPDATE leaderboards SET season = $2, season_started_at = $3 WHERE internal_id = $1 AND season < $2`, [
      lb,
      snapshot.season + 1,
      snapshot.endedAt,
    ]);
    await query('DELETE FROM scores WHERE leaderboard_internal_id = $1 AND season <= $2', [lb, snapshot.season]);
    await query('DELETE FROM clan_scores WHERE leaderboard_internal_id = $1 AND season <= $2', [lb, snapshot.season]);
    await this.dropBeyond(lb, board.keepSeasons, client);
    await analyzeWhenStale(query, { season_entries: players ?? 0, season_clan_entries: clans ?? 0 });
    return true;
  }

  /** Keeps the newest `keep` archived seasons of a leaderboard; the number dropped. */
  async dropBeyond(leaderboardInternalId: number, keep: number, client: Pool | PoolClient = this.pool): Promise<number> {
    const { rowCount } = await client.query(
      `DELETE FROM leaderboard_seasons WHERE leaderboard_internal_id = $1 AND season <= (
         SELECT season FROM leaderboard_seasons WHERE leaderboard_internal_id = $1 ORDER BY season DESC OFFSET $2 LIMIT 1)`,
      [leaderboardInternalId, keep],
    );
    return rowCount ?? 0;
  }

  /** One archived season, or undefined (never existed, not archived yet, or dropped). */
  async find(leaderboardInternalId: number, season: number): Promise<ArchivedSeason | undefined> {
    const { rows } = await this.pool.query<SeasonRow>(`${SEASON_SELECT} WHERE leaderboard_internal_id = $1 AND season = $2`, [
      leaderboardInternalId,
      season,
    ]);
    return rows[0] && toSeason(rows[0]);
  }

  /** A leaderboard's archived seasons, newest first. */
  async list(leaderboardInternalId: number): Promise<ArchivedSeason[]> {
    const { rows } = await this.pool.query<SeasonRow>(`${SEASON_SELECT} WHERE leaderboard_internal_id = $1 ORDER BY season DESC`, [
      leaderboardInternalId,
    ]);
    return rows.map(toSeason);
  }

  /** A page of an archived season (positions offset+1 .. offset+limit), or undefined when it is not archived. */
  async page(
    leaderboardInternalId: number,
    season: number,
    view: 'players' | 'clans',
    offset: number,
    limit: number,
  ): Promise<{ season: ArchivedSeason; entries: ArchivedEntry[] } | undefined> {
    const found = await this.withEntries(view, 'position > $3 AND position <= $3 + $4', [leaderboardInternalId, season, offset, limit]);
    return found && { season: found.season, entries: found.rows.map(toEntry) };
  }

  /** The archived entries of the given ids (players or clans), in the order asked (undefined: no entry). */
  async entriesOf(
    leaderboardInternalId: number,
    season: number,
    view: 'players' | 'clans',
    ids: string[],
  ): Promise<{ season: ArchivedSeason; entries: (ArchivedEntry | undefined)[] } | undefined> {
    const idColumn = view === 'clans' ? 'clan_id' : 'player_id';
    const found = await this.withEntries(view, `${idColumn} = ANY($3::text[])`, [leaderboardInternalId, season, ids]);
    if (!found) return undefined;
    const byId = new Map(found.rows.map((row) => [row.id, toEntry(row)]));
    return { season: found.season, entries: ids.map((id) => byId.get(id)) };
  }

  /** The archived entries of positions from..to (1-based, inclusive). */
  async positions(leaderboardInternalId: number, season: number, from: number, to: number): Promise<ArchivedEntry[]> {
    const { rows } = await this.pool.query<EntryRow>(
      `SELECT ${PLAYER_COLUMNS} FROM season_entries
       WHERE leaderboard_internal_id = $1 AND season = $2 AND position BETWEEN $3 AND $4 ORDER BY position`,
      [leaderboardInternalId, season, from, to],
    );
    return rows.map(toEntry);
  }

  /** The players archived in a clan that season, in the season's order, with their rank within the clan. */
  async clanMembers(
    leaderboardInternalId: number,
    season: number,
    clanId: string,
    sortOrder: SortOrder,
  ): Promise<{ season: ArchivedSeason; members: (ArchivedEntry & { clanRank: number })[] } | undefined> {
    return this.withSeason(leaderboardInternalId, season, async (found) => {
      const { rows } = await this.pool.query<EntryRow & { clan_rank: number }>(
        `SELECT ${PLAYER_COLUMNS}, rank() OVER (ORDER BY score ${sortOrder === 'asc' ? 'ASC' : 'DESC'})::int AS clan_rank
         FROM season_entries WHERE leaderboard_internal_id = $1 AND season = $2 AND clan_id = $3 ORDER BY position`,
        [leaderboardInternalId, season, clanId],
      );
      return { season: found, members: rows.map((row) => ({ ...toEntry(row), clanRank: row.clan_rank })) };
    });
  }

  /**
   * The season's row and its entries matching `where` (on $1 leaderboard, $2 season and the
   * parameters after them) in one round trip, undefined when the season is not archived. The
   * entries come as one JSON array: rows repeating the season's timestamps cost twice the API CPU
   * of two queries on a page of 100 (node-postgres parses each date), the array half of it.
   */
  private async withEntries(
    view: 'players' | 'clans',
    where: string,
    params: unknown[],
  ): Promise<{ season: ArchivedSeason; rows: EntryRow[] } | undefined> {
    const table = view === 'clans' ? 'season_clan_entries' : 'season_entries';
    const columns = view === 'clans' ? CLAN_COLUMNS : PLAYER_COLUMNS;
    const { rows } = await this.pool.query<SeasonRow & { entries: EntryRow[] }>(
      `SELECT season, started_at, ended_at, total, clan_total,
              (SELECT coalesce(json_agg(e ORDER BY e.position), '[]')
               FROM (SELECT ${columns} FROM ${table} WHERE leaderboard_internal_id = $1 AND season = $2 AND ${where}) e) AS entries
       FROM leaderboard_seasons WHERE leaderboard_internal_id = $1 AND season = $2`,
      params,
    );
    return rows[0] && { season: toSeason(rows[0]), rows: rows[0].entries };
  }

  private async withSeason<T>(
    leaderboardInternalId: number,
    season: number,
    read: (found: ArchivedSeason) => Promise<T>,
  ): Promise<T | undefined> {
    const found = await this.find(leaderboardInternalId, season);
    return found && read(found);
  }
}

interface SeasonRow {
  season: number;
  started_at: Date;
  ended_at: Date;
  total: number;
  clan_total: number;
}

const SEASON_SELECT = 'SELECT season, started_at, ended_at, total, clan_total FROM leaderboard_seasons';

const toSeason = (row: SeasonRow): ArchivedSeason => ({
  season: row.season,
  startedAt: row.started_at,
  endedAt: row.ended_at,
  total: row.total,
  clanTotal: row.clan_total,
});

/**
 * Statistics that predate a large archive (none at all before the first one) lead the planner to
 * find a player's entry by walking the whole season along the primary key; it keeps the unique
 * index once they count the new rows. Refreshed here when the archive grew a table by more than a
 * tenth (autovacuum's own threshold, which it reaches only a minute or more later); ANALYZE samples
 * a bounded number of rows, its own transaction's included.
 */
async function analyzeWhenStale(
  query: <R extends QueryResultRow>(text: string, values?: unknown[]) => Promise<QueryResult<R>>,
  added: Record<'season_entries' | 'season_clan_entries', number>,
): Promise<void> {
  const { rows } = await query<{ relname: keyof typeof added; reltuples: number }>(
    "SELECT relname, reltuples FROM pg_class WHERE relname = ANY($1::text[]) AND relkind = 'r' AND pg_table_is_visible(oid)",
    [Object.keys(added)],
  );
  const stale = rows.filter((row) => added[row.relname] > 0 && added[row.relname] > 0.1 * Math.max(0, row.reltuples));
  if (stale.length > 0) await query(`ANALYZE ${stale.map((row) => row.relname).join(', ')}`);
}

/**
 * The pools fail a query after 15 s, so that a hung connection cannot hold a request; an archive's
 * statements over a season of a million entries run longer than that on a small machine, and an
 * archive that fails is retried from the start, forever. Its statements get their own bound.
 */
const ARCHIVE_STATEMENT_TIMEOUT_MS = 15 * 60_000;

function archiveStatement(text: string, values?: unknown[]): QueryConfig {
  // node-postgres reads query_timeout per query too; its types declare it on the client only.
  return { text, values, query_timeout: ARCHIVE_STATEMENT_TIMEOUT_MS } as QueryConfig;
}
