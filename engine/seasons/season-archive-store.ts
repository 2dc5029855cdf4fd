import type { QueryConfig, QueryResult, QueryResultRow } from 'pg';
import type { Queryable } from '../db.js';
import { layoutOf, type EntryValue, type OrderedBoard } from '../live/types.js';
import { eachPaced, unpaced, type Pace } from '../pace.js';

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
  /** Players only: the entry's tiebreakers (empty on boards without any). */
  tiebreakers: number[];
  /** Players only: when the entry was reached (ms), on 'earliest' boards. */
  achievedAt: number | undefined;
}

/** An archived league group: its tier and shown members, best first. */
export interface ArchivedGroup {
  group: number;
  tier: number;
  members: (ArchivedEntry & { groupRank: number; movedTo: number })[];
}

/** What an archive is made of, each ranking a page at a time in ranking order (best first). */
export interface SeasonSnapshot {
  season: number;
  startedAt: Date;
  endedAt: Date;
  settings: object;
  players: AsyncIterable<EntryValue[]>;
  clans: AsyncIterable<[string, number][]>;
  /** A league's group members with their standing and move (none off leagues). */
  groups?: AsyncIterable<ArchivedGroupMember[]>;
}

/** A league group member at the season's end: rank within the group (null unscored) and the tier it moved to. */
export interface ArchivedGroupMember {
  playerId: string;
  group: number;
  tier: number;
  groupRank: number | null;
  movedTo: number;
}

interface EntryRow {
  id: string;
  score: number;
  rank: number;
  position: number;
  clan_id: string | null;
  member_count: number;
  metadata: string | null;
  tiebreakers: number[] | null;
  achieved_at: number | null;
}

const toEntry = (row: EntryRow): ArchivedEntry => ({
  id: row.id,
  score: row.score,
  rank: row.rank,
  position: row.position,
  clanId: row.clan_id,
  memberCount: row.member_count,
  metadata: row.metadata ?? '',
  tiebreakers: row.tiebreakers ?? [],
  achievedAt: row.achieved_at ?? undefined,
});

// Metadata as text, the form Redis's entries carry it in: parsed once, by parseMetadata.
const PLAYER_COLUMNS = `player_id AS id, score, rank, position, clan_id, 0 AS member_count, metadata::text AS metadata, tiebreakers,
  (extract(epoch FROM achieved_at) * 1000)::bigint AS achieved_at`;
const CLAN_COLUMNS =
  'clan_id AS id, score, rank, position, NULL AS clan_id, member_count, NULL::text AS metadata, NULL::float8[] AS tiebreakers, NULL::bigint AS achieved_at';

/**
 * The ORDER BY of a board's players, as Redis orders them (docs/ordering.md), over `e`; and the
 * one that makes equal ranks on it. Plain boards: by score, ties by id bytewise (descending on desc
 * boards, read in reverse). Keyed boards: by score, each tiebreaker, then on 'earliest' boards the
 * time, then the id bytewise ascending; ranks are positions on 'earliest' boards.
 */
function playerOrder(board: OrderedBoard): { position: string; rank: string } {
  const direction = (order: string) => (order === 'asc' ? 'ASC' : 'DESC');
  if (layoutOf(board) === '') {
    const by = direction(board.sortOrder);
    return { position: `e.score ${by}, e.player_id COLLATE "C" ${by}`, rank: `e.score ${by}` };
  }
  const columns = [
    `e.score ${direction(board.sortOrder)}`,
    ...board.tiebreakers.map((c, i) => `e.tiebreakers[${i + 1}] ${direction(c.sortOrder)}`),
  ];
  const time = board.tieBreak === 'earliest' ? ['e.achieved_at ASC'] : [];
  const position = [...columns, ...time, 'e.player_id COLLATE "C" ASC'].join(', ');
  return { position, rank: board.tieBreak === 'earliest' ? position : columns.join(', ') };
}

/**
 * Archived seasons in PostgreSQL. An archive is written once, in one transaction, with every
 * entry's position and competition rank computed there by window functions; every read of an
 * archived season is then a lookup on (leaderboard, season, position) or (leaderboard, season, id).
 * Each read is a named statement whose generic plan PostgreSQL keeps (see `bound` and `entriesOf`):
 * planning one took longer than running it (docs/performance.md, archived reads).
 */
export class SeasonArchiveStore {
  constructor(private readonly db: Queryable) {}

  /** The same store inside a transaction: every query goes through its client. */
  in(client: Queryable): SeasonArchiveStore {
    return new SeasonArchiveStore(client);
  }

  /**
   * Writes one ended season whole, or finds it already written (then false: a retried job, or
   * another worker got there first). The leaderboard's current season moves past it, the season's
   * working rows go, and seasons beyond `keepSeasons` are dropped, all in the same transaction: call
   * it on the store of a transaction (`in(client)`), whose temporary tables last until its commit.
   * The work goes in steps of at most ARCHIVE_SLICE rows, each run through `pace`, so that the worker
   * can keep a large season's archive to its share of the machine.
   */
  async archive(
    board: OrderedBoard & { internalId: number; gameId: string; keepSeasons: number },
    snapshot: SeasonSnapshot,
    pace: Pace = unpaced,
  ): Promise<boolean> {
    const lb = board.internalId;
    const query = <R extends QueryResultRow>(text: string, values?: unknown[]) => this.db.query<R>(archiveStatement(text, values));
    // The leaderboard's row lock orders archives of one board: a second worker waits here, then sees the season written.
    const locked = await query('SELECT 1 FROM leaderboards WHERE internal_id = $1 FOR UPDATE', [lb]);
    if (locked.rowCount === 0) return false; // deleted meanwhile
    const exists = await query('SELECT 1 FROM leaderboard_seasons WHERE leaderboard_internal_id = $1 AND season = $2', [
      lb,
      snapshot.season,
    ]);
    if (exists.rowCount !== 0) return false;

    await query(
      'CREATE TEMP TABLE ended_players (player_id text, score float8, metadata json, tiebreakers float8[], achieved_at bigint) ON COMMIT DROP',
    );
    await query('CREATE TEMP TABLE ended_clans (clan_id text, score float8) ON COMMIT DROP');
    await eachPaced(snapshot.players, pace, (page) =>
      query(
        `INSERT INTO ended_players
         SELECT id, score, metadata::json, CASE WHEN tiebreakers = '' THEN NULL ELSE string_to_array(tiebreakers, ',')::float8[] END, achieved_at
         FROM unnest($1::text[], $2::float8[], $3::text[], $4::text[], $5::bigint[]) AS u (id, score, metadata, tiebreakers, achieved_at)`,
        [
          page.map((entry) => entry.id),
          page.map((entry) => entry.score),
          page.map((entry) => entry.metadata || null),
          page.map((entry) => entry.tiebreakers.join(',')),
          page.map((entry) => entry.achievedAt ?? null),
        ],
      ),
    );
    await eachPaced(snapshot.clans, pace, (page) =>
      query('INSERT INTO ended_clans SELECT * FROM unnest($1::text[], $2::float8[])', [
        page.map(([id]) => id),
        page.map(([, score]) => score),
      ]),
    );
    const [players, clans] = await Promise.all([
      query<{ count: number }>('SELECT count(*)::int AS count FROM ended_players'),
      query<{ count: number }>('SELECT count(*)::int AS count FROM ended_clans'),
    ]).then((counts) => counts.map((result) => result.rows[0]!.count) as [number, number]);
    await query(
      `INSERT INTO leaderboard_seasons (leaderboard_internal_id, season, started_at, ended_at, total, clan_total, settings)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [lb, snapshot.season, snapshot.startedAt, snapshot.endedAt, players, clans, JSON.stringify(snapshot.settings)],
    );
    // The order of the live list (playerOrder), computed once; the rows are then written a slice of
    // positions at a time, each slice a paced step. Players banned at the reset (from the season's
    // hidden entries) are ranked among everyone and stored hidden, unless unbanned since; a player
    // erased since keeps only position, score and rank.
    const order = playerOrder(board);
    const direction = board.sortOrder === 'asc' ? 'ASC' : 'DESC';
    await pace(() =>
      query(
        `CREATE TEMP TABLE ranked_players ON COMMIT DROP AS
         SELECT e.*, row_number() OVER (ORDER BY ${order.position}) AS position, rank() OVER (ORDER BY ${order.rank}) AS rank
         FROM ended_players e`,
      ),
    );
    await pace(() => query('CREATE INDEX ON ranked_players (position)'));
    for (let first = 1; first <= players; first += ARCHIVE_SLICE) {
      await pace(() =>
        query(
          `INSERT INTO season_entries
             (leaderboard_internal_id, season, position, player_id, score, rank, clan_id, metadata, withdrawn, tiebreakers, achieved_at)
           SELECT $1, $2, e.position, CASE WHEN p.id IS NOT NULL THEN e.player_id END, e.score, e.rank,
                  p.clan_id, CASE WHEN p.id IS NOT NULL THEN e.metadata END,
                  CASE WHEN p.id IS NULL THEN 'erased' WHEN p.banned_at IS NOT NULL THEN 'banned' END,
                  CASE WHEN p.id IS NOT NULL THEN e.tiebreakers END,
                  CASE WHEN p.id IS NOT NULL THEN timestamptz 'epoch' + e.achieved_at * interval '1 millisecond' END
           FROM ranked_players e LEFT JOIN players p ON p.id = e.player_id
           WHERE e.position >= $3 AND e.position < $4`,
          [lb, snapshot.season, first, first + ARCHIVE_SLICE],
        ),
      );
    }
    // A league's groups and moves (docs/competitions.md, part 6), erased players left out.
    if (snapshot.groups)
      await eachPaced(snapshot.groups, pace, (page) =>
        query(
          `INSERT INTO season_group_members (leaderboard_internal_id, season, player_id, group_no, tier, group_rank, moved_to)
         SELECT $1, $2, u.player_id, u.group_no, u.tier, u.group_rank, u.moved_to
         FROM unnest($3::text[], $4::int[], $5::int[], $6::int[], $7::int[]) AS u (player_id, group_no, tier, group_rank, moved_to)
         JOIN players p ON p.id = u.player_id`,
          [
            lb,
            snapshot.season,
            page.map((member) => member.playerId),
            page.map((member) => member.group),
            page.map((member) => member.tier),
            page.map((member) => member.groupRank),
            page.map((member) => member.movedTo),
          ],
        ),
      );
    // From here to the commit, bans, unbans and erasures of the game's players wait (and this waits
    // for theirs; MODERATION_LOCK). The slices above read the players table as it stood at each; a
    // moderation committed since is applied to the rows written, from the few players it can concern
    // (the game's banned and erased players, the season's withdrawn rows), so every row stands as the
    // players table does now, and a moderation that follows finds the rows written.
    await query(`SELECT pg_advisory_xact_lock_shared(${MODERATION_LOCK})`, [board.gameId]);
    await query(
      `UPDATE season_entries e SET withdrawn = 'banned' FROM players p
       WHERE p.game_id = $3 AND p.banned_at IS NOT NULL
         AND e.leaderboard_internal_id = $1 AND e.season = $2 AND e.player_id = p.id AND e.withdrawn IS NULL`,
      [lb, snapshot.season, board.gameId],
    );
    await query(
      `UPDATE season_entries e SET withdrawn = NULL FROM players p
       WHERE e.leaderboard_internal_id = $1 AND e.season = $2 AND e.withdrawn = 'banned' AND p.id = e.player_id AND p.banned_at IS NULL`,
      [lb, snapshot.season],
    );
    await query(
      `UPDATE season_entries e SET withdrawn = 'erased', player_id = NULL, clan_id = NULL, metadata = NULL, tiebreakers = NULL, achieved_at = NULL
       FROM erased_players x
       WHERE x.game_id = $3 AND e.leaderboard_internal_id = $1 AND e.season = $2 AND e.player_id = x.player_id`,
      [lb, snapshot.season, board.gameId],
    );
    await query(
      `DELETE FROM season_group_members m USING erased_players x
       WHERE x.game_id = $3 AND m.leaderboard_internal_id = $1 AND m.season = $2 AND m.player_id = x.player_id`,
      [lb, snapshot.season, board.gameId],
    );
    // The tiers the league's moves set, once, with the archive: a replayed older season never undoes a later move.
    await query(
      `INSERT INTO league_tiers (leaderboard_internal_id, player_id, tier, moved_season)
       SELECT leaderboard_internal_id, player_id, moved_to, season FROM season_group_members
       WHERE leaderboard_internal_id = $1 AND season = $2 AND moved_to <> tier
       ON CONFLICT (leaderboard_internal_id, player_id) DO UPDATE SET tier = EXCLUDED.tier, moved_season = EXCLUDED.moved_season
       WHERE league_tiers.moved_season < EXCLUDED.moved_season`,
      [lb, snapshot.season],
    );
    // Clan standings are frozen as the reset left them: banned members' scores were out of the totals.
    await query(
      `INSERT INTO season_clan_entries (leaderboard_internal_id, season, position, clan_id, score, rank, member_count)
       SELECT $1, $2, row_number() OVER (ORDER BY c.score ${direction}, c.clan_id COLLATE "C" ${direction}),
              c.clan_id, c.score, rank() OVER (ORDER BY c.score ${direction}),
              (SELECT count(*)::int FROM season_entries s
               WHERE s.leaderboard_internal_id = $1 AND s.season = $2 AND s.clan_id = c.clan_id AND s.withdrawn IS NULL)
       FROM ended_clans c`,
      [lb, snapshot.season],
    );
    await query(`UPDATE leaderboards SET season = $2, season_started_at = $3 WHERE internal_id = $1 AND season < $2`, [
      lb,
      snapshot.season + 1,
      snapshot.endedAt,
    ]);
    // The season's persisted scores go a slice at a time, as they were written.
    for (let deleted: number | null = ARCHIVE_SLICE; deleted === ARCHIVE_SLICE;) {
      ({ rowCount: deleted } = await pace(() =>
        query(
          `DELETE FROM scores WHERE ctid = ANY(ARRAY(
             SELECT ctid FROM scores WHERE leaderboard_internal_id = $1 AND season <= $2 LIMIT ${ARCHIVE_SLICE}))`,
          [lb, snapshot.season],
        ),
      ));
    }
    await query('DELETE FROM clan_scores WHERE leaderboard_internal_id = $1 AND season <= $2', [lb, snapshot.season]);
    // Entries, seats and attempts belong to the season that ended (docs/competitions.md, part 3).
    await query('DELETE FROM season_seats WHERE leaderboard_internal_id = $1 AND season <= $2', [lb, snapshot.season]);
    await this.dropBeyond(lb, board.keepSeasons);
    await analyzeWhenStale(query, { season_entries: players, season_clan_entries: clans });
    return true;
  }

  /** Keeps the newest `keep` archived seasons of a leaderboard; the number dropped. */
  async dropBeyond(leaderboardInternalId: number, keep: number): Promise<number> {
    // Claims go with their season: they stay open as long as the season is kept.
    const { rows } = await this.db.query<{ dropped: number }>(
      `WITH dropped AS (
         DELETE FROM leaderboard_seasons WHERE leaderboard_internal_id = $1 AND season <= (
           SELECT season FROM leaderboard_seasons WHERE leaderboard_internal_id = $1 ORDER BY season DESC OFFSET $2 LIMIT 1)
         RETURNING season),
       claims AS (
         DELETE FROM reward_claims WHERE leaderboard_internal_id = $1 AND season <= (SELECT max(season) FROM dropped))
       SELECT count(*)::int AS dropped FROM dropped`,
      [leaderboardInternalId, keep],
    );
    return rows[0]!.dropped;
  }

  /** A banned player's archived rows, on every board of the game, are hidden from reads (the ban's transaction). */
  /** The league members the season's end moved to another tier, group by group, best first. */
  async movedPlayers(
    internalId: number,
    season: number,
  ): Promise<{ playerId: string; tier: number; movedTo: number; groupRank: number | null }[]> {
    const { rows } = await this.db.query<{ player_id: string; tier: number; moved_to: number; group_rank: number | null }>(
      `SELECT player_id, tier, moved_to, group_rank FROM season_group_members
       WHERE leaderboard_internal_id = $1 AND season = $2 AND moved_to <> tier
       ORDER BY group_no, group_rank NULLS LAST, player_id`,
      [internalId, season],
    );
    return rows.map((row) => ({ playerId: row.player_id, tier: row.tier, movedTo: row.moved_to, groupRank: row.group_rank }));
  }

  async hidePlayer(gameId: string, playerId: string): Promise<void> {
    await this.db.query(`SELECT pg_advisory_xact_lock(${MODERATION_LOCK})`, [gameId]);
    await this.db.query(
      `UPDATE season_entries e SET withdrawn = 'banned' FROM leaderboards l
       WHERE e.player_id = $2 AND e.withdrawn IS NULL AND l.internal_id = e.leaderboard_internal_id AND l.game_id = $1`,
      [gameId, playerId],
    );
  }

  /** An unbanned player's hidden rows show again, with their stored ranks; removed or erased rows stay withdrawn. */
  async showPlayer(gameId: string, playerId: string): Promise<void> {
    await this.db.query(`SELECT pg_advisory_xact_lock(${MODERATION_LOCK})`, [gameId]);
    await this.db.query(
      `UPDATE season_entries e SET withdrawn = NULL FROM leaderboards l
       WHERE e.player_id = $2 AND e.withdrawn = 'banned' AND l.internal_id = e.leaderboard_internal_id AND l.game_id = $1`,
      [gameId, playerId],
    );
  }

  /** Withdraws the player's row of one archived season; false when it has none that reads show (404 record_not_found). */
  async removeEntry(leaderboardInternalId: number, season: number, playerId: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE season_entries SET withdrawn = 'removed'
       WHERE leaderboard_internal_id = $1 AND season = $2 AND player_id = $3 AND withdrawn IS NULL`,
      [leaderboardInternalId, season, playerId],
    );
    return rowCount !== 0;
  }

  /**
   * Erasure: every archived row of the player, whatever its state, keeps only its position, score
   * and rank (so no other row is renumbered) and is withdrawn for good.
   */
  async erasePlayer(gameId: string, playerId: string): Promise<void> {
    await this.db.query(`SELECT pg_advisory_xact_lock(${MODERATION_LOCK})`, [gameId]);
    await this.db.query('DELETE FROM season_group_members WHERE player_id = $1', [playerId]);
    await this.db.query(
      `UPDATE season_entries e SET withdrawn = 'erased', player_id = NULL, clan_id = NULL, metadata = NULL, tiebreakers = NULL, achieved_at = NULL
       FROM leaderboards l
       WHERE e.player_id = $2 AND l.internal_id = e.leaderboard_internal_id AND l.game_id = $1`,
      [gameId, playerId],
    );
  }

  /** One archived season, or undefined (never existed, not archived yet, or dropped). */
  async find(leaderboardInternalId: number, season: number): Promise<ArchivedSeason | undefined> {
    const { rows } = await this.db.query<SeasonRow>({
      name: 'archive-season',
      text: `${SEASON_SELECT} WHERE s.leaderboard_internal_id = $1 AND s.season = $2`,
      values: [leaderboardInternalId, season],
    });
    return rows[0] && toSeason(rows[0]);
  }

  /** A leaderboard's archived seasons, newest first. */
  async list(leaderboardInternalId: number): Promise<ArchivedSeason[]> {
    const { rows } = await this.db.query<SeasonRow>(`${SEASON_SELECT} WHERE s.leaderboard_internal_id = $1 ORDER BY s.season DESC`, [
      leaderboardInternalId,
    ]);
    return rows.map(toSeason);
  }

  /**
   * A page of an archived season as reads show it (the visible entries offset+1 .. offset+limit),
   * or undefined when it is not archived. Players: the stored position of the first entry shown is
   * offset + 1 + the withdrawn rows before it, found on the withdrawn index (withdrawn row i, in
   * position order, has position - i visible rows before it), then the primary key walks on.
   */
  async page(
    leaderboardInternalId: number,
    season: number,
    view: 'players' | 'clans',
    offset: number,
    limit: number,
  ): Promise<{ season: ArchivedSeason; entries: ArchivedEntry[] } | undefined> {
    if (view === 'clans') {
      const found = await this.withClans('archive-clan-page', 'position > $3 AND position <= $3 + $4', [
        leaderboardInternalId,
        season,
        offset,
        limit,
      ]);
      return found && { season: found.season, entries: found.rows.map(toEntry) };
    }
    const found = await this.withPlayers(
      `archive-page-${bound(limit)}`,
      `SELECT ${PLAYER_COLUMNS} FROM season_entries
       WHERE leaderboard_internal_id = $1 AND season = $2 AND withdrawn IS NULL AND position >= $3 + 1 + (
         SELECT count(*) FROM (
           SELECT w.position - row_number() OVER (ORDER BY w.position) AS visible_before ${WITHDRAWN_ROWS}
         ) withdrawn_before WHERE visible_before <= $3)
       ORDER BY position LIMIT ${bound(limit)}`,
      [leaderboardInternalId, season, offset],
    );
    return found && { season: found.season, entries: found.rows.map(toEntry) };
  }

  /** The archived entries of the given ids (players or clans), in the order asked (undefined: no entry, or withdrawn). */
  async entriesOf(
    leaderboardInternalId: number,
    season: number,
    view: 'players' | 'clans',
    ids: string[],
  ): Promise<{ season: ArchivedSeason; entries: (ArchivedEntry | undefined)[] } | undefined> {
    // One id (a record) is its own statement: planned for a list of unknown length, the generic plan
    // looks dearer than a custom one, and PostgreSQL would plan the record read every time.
    const one = ids.length === 1;
    const match = (column: string) => (one ? `${column} = $3` : `${column} = ANY($3::text[])`);
    const params = [leaderboardInternalId, season, one ? ids[0] : ids];
    const found =
      view === 'clans'
        ? await this.withClans(one ? 'archive-clan-entry' : 'archive-clan-entries', match('clan_id'), params)
        : await this.withPlayers(
            one ? 'archive-entry' : 'archive-entries',
            `SELECT ${PLAYER_COLUMNS} FROM season_entries
             WHERE leaderboard_internal_id = $1 AND season = $2 AND withdrawn IS NULL AND ${match('player_id')}`,
            params,
          );
    if (!found) return undefined;
    const byId = new Map(found.rows.map((row) => [row.id, toEntry(row)]));
    return { season: found.season, entries: ids.map((id) => byId.get(id)) };
  }

  /**
   * The player's archived entry with up to `range` shown entries above and below it, in the season's
   * order; entries is empty when the player has no entry that reads show. Undefined when the season
   * is not archived.
   */
  async around(
    leaderboardInternalId: number,
    season: number,
    playerId: string,
    range: number,
  ): Promise<{ season: ArchivedSeason; entries: ArchivedEntry[] } | undefined> {
    const visible = 'leaderboard_internal_id = $1 AND season = $2 AND withdrawn IS NULL';
    const own = `(SELECT position FROM season_entries WHERE ${visible} AND player_id = $3)`;
    const found = await this.withPlayers(
      `archive-around-${bound(range)}`,
      `(SELECT ${PLAYER_COLUMNS} FROM season_entries WHERE ${visible} AND position < ${own} ORDER BY position DESC LIMIT ${bound(range)})
       UNION ALL
       (SELECT ${PLAYER_COLUMNS} FROM season_entries WHERE ${visible} AND position >= ${own} ORDER BY position LIMIT ${bound(range) + 1})`,
      [leaderboardInternalId, season, playerId],
    );
    return found && { season: found.season, entries: found.rows.map(toEntry) };
  }

  /**
   * The players archived in a clan that season and shown, in the season's order, with their rank
   * within the clan by the board's tie rule: members of equal stored rank are the tied ones.
   */
  async clanMembers(
    leaderboardInternalId: number,
    season: number,
    clanId: string,
  ): Promise<{ season: ArchivedSeason; members: (ArchivedEntry & { clanRank: number })[] } | undefined> {
    const found = await this.withPlayers<{ clan_rank: number }>(
      'archive-clan-members',
      `SELECT ${PLAYER_COLUMNS}, rank() OVER (ORDER BY rank)::int AS clan_rank
       FROM season_entries WHERE leaderboard_internal_id = $1 AND season = $2 AND clan_id = $3 AND withdrawn IS NULL`,
      [leaderboardInternalId, season, clanId],
    );
    return found && { season: found.season, members: found.rows.map((row) => ({ ...toEntry(row), clanRank: row.clan_rank })) };
  }

  /**
   * One archived league group (by its number, or the player's), or undefined when the season is not
   * archived or has no such group: its tier and the members shown, each with the rank within the
   * group closed up over members withdrawn since (as archived ranks are), and the tier they moved to.
   */
  async group(
    leaderboardInternalId: number,
    season: number,
    by: { group: number } | { playerId: string },
  ): Promise<ArchivedGroup | undefined> {
    const which =
      'group' in by
        ? '$3::int'
        : 'm.group_no FROM season_group_members m WHERE m.leaderboard_internal_id = $1 AND m.season = $2 AND m.player_id = $3';
    const { rows } = await this.db.query<
      EntryRow & { group_no: number; tier: number; group_rank: number | null; moved_to: number; withdrawn: string | null }
    >({
      name: 'group' in by ? 'archive-group' : 'archive-group-of',
      text: `SELECT g.group_no, g.tier, g.group_rank, g.moved_to, g.player_id AS id, e.score, e.rank, e.position, e.clan_id, 0 AS member_count,
                    e.metadata::text AS metadata, e.tiebreakers, (extract(epoch FROM e.achieved_at) * 1000)::bigint AS achieved_at, e.withdrawn
             FROM season_group_members g
             LEFT JOIN season_entries e ON e.leaderboard_internal_id = $1 AND e.season = $2 AND e.player_id = g.player_id
             WHERE g.leaderboard_internal_id = $1 AND g.season = $2 AND g.group_no = (SELECT ${which})`,
      values: [leaderboardInternalId, season, 'group' in by ? by.group : by.playerId],
    });
    if (rows.length === 0) return undefined;
    const shown = rows.filter((row) => row.group_rank !== null && row.score !== null && row.withdrawn === null);
    const ranks = shown.map((row) => row.group_rank!).sort((a, b) => a - b);
    const members = shown
      .map((row) => ({ ...toEntry(row), groupRank: 1 + countBelow(ranks, row.group_rank!), movedTo: row.moved_to }))
      .sort((a, b) => a.groupRank - b.groupRank || a.position - b.position);
    return { group: rows[0]!.group_no, tier: rows[0]!.tier, members };
  }

  /** A page of an archived season's league groups, by tier then number, of one tier or all. */
  async groups(
    leaderboardInternalId: number,
    season: number,
    tier: number | undefined,
    offset: number,
    limit: number,
  ): Promise<{ total: number; groups: { group: number; tier: number; members: number }[] }> {
    const where = 'leaderboard_internal_id = $1 AND season = $2 AND ($3::int IS NULL OR tier = $3)';
    const [page, count] = await Promise.all([
      this.db.query<{ group_no: number; tier: number; members: number }>(
        `SELECT group_no, tier, count(*)::int AS members FROM season_group_members WHERE ${where}
         GROUP BY group_no, tier ORDER BY tier, group_no LIMIT $4 OFFSET $5`,
        [leaderboardInternalId, season, tier ?? null, limit, offset],
      ),
      this.db.query<{ total: number }>(`SELECT count(DISTINCT group_no)::int AS total FROM season_group_members WHERE ${where}`, [
        leaderboardInternalId,
        season,
        tier ?? null,
      ]),
    ]);
    return { total: count.rows[0]!.total, groups: page.rows.map((row) => ({ group: row.group_no, tier: row.tier, members: row.members })) };
  }

  /**
   * The season's row and the player entries `entries` selects (on $1 leaderboard, $2 season and the
   * parameters after them) in one round trip, each with the rank reads show: its stored rank less
   * the withdrawn rows ranked above it. A stored rank R is the position of the first row holding its
   * score, so those are the withdrawn rows before position R, counted on the withdrawn index: once
   * for the best rank among the entries, plus those between the best and the worst rank, listed.
   * Undefined when the season is not archived.
   */
  private async withPlayers<Extra extends object = object>(
    name: string,
    entries: string,
    params: unknown[],
  ): Promise<{ season: ArchivedSeason; rows: (EntryRow & Extra)[] } | undefined> {
    const { rows } = await this.db.query<
      SeasonRow & { entries: (EntryRow & Extra)[]; withdrawn_below: number; withdrawn_between: number[] }
    >({
      name,
      text: `WITH e AS (${entries}), span AS (SELECT min(rank) AS best, max(rank) AS worst FROM e)
       SELECT ${SEASON_COLUMNS},
              (SELECT coalesce(json_agg(e ORDER BY e.position), '[]') FROM e) AS entries,
              (SELECT count(*)::int ${WITHDRAWN_ROWS} AND w.position < (SELECT best FROM span)) AS withdrawn_below,
              (SELECT coalesce(array_agg(w.position ORDER BY w.position), '{}') ${WITHDRAWN_ROWS}
               AND w.position >= (SELECT best FROM span) AND w.position < (SELECT worst FROM span)) AS withdrawn_between
       FROM leaderboard_seasons s WHERE s.leaderboard_internal_id = $1 AND s.season = $2`,
      values: params,
    });
    const row = rows[0];
    if (!row) return undefined;
    const withdrawnAbove = (rank: number) => row.withdrawn_below + countBelow(row.withdrawn_between, rank);
    return { season: toSeason(row), rows: row.entries.map((entry) => ({ ...entry, rank: entry.rank - withdrawnAbove(entry.rank) })) };
  }

  /**
   * The season's row and its clan entries matching `where`, in one round trip (archived clan
   * standings are never moderated). The entries come as one JSON array: rows repeating the season's
   * timestamps cost twice the API CPU of two queries on a page of 100 (node-postgres parses each
   * date), the array half of it.
   */
  private async withClans(
    name: string,
    where: string,
    params: unknown[],
  ): Promise<{ season: ArchivedSeason; rows: EntryRow[] } | undefined> {
    const { rows } = await this.db.query<SeasonRow & { entries: EntryRow[] }>({
      name,
      text: `SELECT ${SEASON_COLUMNS},
              (SELECT coalesce(json_agg(e ORDER BY e.position), '[]')
               FROM (SELECT ${CLAN_COLUMNS} FROM season_clan_entries WHERE leaderboard_internal_id = $1 AND season = $2 AND ${where}) e) AS entries
       FROM leaderboard_seasons s WHERE s.leaderboard_internal_id = $1 AND s.season = $2`,
      values: params,
    });
    return rows[0] && { season: toSeason(rows[0]), rows: rows[0].entries };
  }
}

/**
 * A page size or range written into a statement's text (and name): with LIMIT as a parameter, the
 * generic plan assumes a tenth of the season and looks dearer than a custom one, so PostgreSQL
 * planned every page anew (docs/performance.md, archived reads). The API bounds both (1-100, 1-50);
 * this refuses anything else rather than make statements without end.
 */
function bound(count: number): number {
  if (!Number.isInteger(count) || count < 0 || count > 1000) throw new RangeError(`not a page size: ${count}`);
  return count;
}

/** How many of the ascending positions are below `rank`. */
function countBelow(positions: number[], rank: number): number {
  let low = 0;
  let high = positions.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (positions[middle]! < rank) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Serialises a game's moderation of archives (ban, unban, erasure: exclusive) with the archive of
 * its seasons (shared, from the rows' insertion to the commit): the archive stores each row as the
 * players table stands once no moderation is under way, and a moderation coming after finds the
 * rows written. $1 is the game id.
 */
const MODERATION_LOCK = "hashtext('season-entries moderation'), hashtext($1)";

/** The withdrawn rows of the season $2 of the leaderboard $1, on their partial index, as `w`. */
const WITHDRAWN_ROWS = 'FROM season_entries w WHERE w.leaderboard_internal_id = $1 AND w.season = $2 AND w.withdrawn IS NOT NULL';

interface SeasonRow {
  season: number;
  started_at: Date;
  ended_at: Date;
  total: number;
  clan_total: number;
}

/** A season's row as `s`, its total as reads show it: the stored total less the withdrawn rows. */
const SEASON_COLUMNS = `s.season, s.started_at, s.ended_at, s.clan_total,
  s.total - (SELECT count(*)::int FROM season_entries w
             WHERE w.leaderboard_internal_id = s.leaderboard_internal_id AND w.season = s.season AND w.withdrawn IS NOT NULL) AS total`;

const SEASON_SELECT = `SELECT ${SEASON_COLUMNS} FROM leaderboard_seasons s`;

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

/** Rows an archive writes or deletes in one paced step: ~0.1 s of PostgreSQL's time on a small machine. */
const ARCHIVE_SLICE = 5000;

function archiveStatement(text: string, values?: unknown[]): QueryConfig {
  // node-postgres reads query_timeout per query too; its types declare it on the client only.
  return { text, values, query_timeout: ARCHIVE_STATEMENT_TIMEOUT_MS } as QueryConfig;
}
