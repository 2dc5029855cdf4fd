import type { Queryable } from '../db.js';

/** A board's day of snapshot: its date (UTC, 'YYYY-MM-DD'), the season it holds and how many entries. */
export interface SnapshotDay {
  day: string;
  season: number;
  entries: number;
}

/** One day of a player's rank history. */
export interface HistoryPoint {
  day: string;
  season: number;
  rank: number;
  score: number;
}

/** One snapshotted entry. */
export interface SnapshotRank {
  playerId: string;
  rank: number;
  score: number;
}

/**
 * Daily rank snapshots in PostgreSQL (docs/history.md): a day row per board and day, the day's
 * entries under it. A day is claimed and its entries written in one transaction, so a day is
 * taken once, whole, whichever worker takes it.
 */
export class RankSnapshotStore {
  constructor(private readonly db: Queryable) {}

  in(client: Queryable): RankSnapshotStore {
    return new RankSnapshotStore(client);
  }

  /**
   * Boards to snapshot on `day`: holding scores, none taken that day yet, and their scores reached PostgreSQL since
   * their last snapshot (active_at moves at most once a minute: a minute's slack). Most recently
   * active first; `skipped` are left out (boards that could not be read this round).
   */
  async dueBoards(day: string, limit: number, skipped: number[]): Promise<number[]> {
    const result = await this.db.query<{ internal_id: number }>(
      `SELECT l.internal_id FROM leaderboards l
       WHERE NOT (l.internal_id = ANY($3::bigint[]))
         AND EXISTS (SELECT 1 FROM scores s WHERE s.leaderboard_internal_id = l.internal_id)
         AND NOT EXISTS (SELECT 1 FROM rank_snapshot_days d WHERE d.leaderboard_internal_id = l.internal_id AND d.day = $1)
         AND l.active_at >= COALESCE(
               (SELECT d.taken_at FROM rank_snapshot_days d WHERE d.leaderboard_internal_id = l.internal_id ORDER BY d.day DESC LIMIT 1),
               '-infinity') - interval '1 minute'
       ORDER BY l.active_at DESC, l.internal_id DESC
       LIMIT $2`,
      [day, limit, skipped],
    );
    return result.rows.map((row) => row.internal_id);
  }

  /** Claims the board's day (false: taken already, or by a transaction that committed meanwhile). */
  async claimDay(internalId: number, day: string, season: number): Promise<boolean> {
    const result = await this.db.query(
      `INSERT INTO rank_snapshot_days (leaderboard_internal_id, day, season, entries) VALUES ($1, $2, $3, 0)
       ON CONFLICT DO NOTHING`,
      [internalId, day, season],
    );
    return result.rowCount === 1;
  }

  /**
   * Writes entries of a claimed day; players erased meanwhile are left out. A player read twice (a
   * rank that moved between two pages of the read) keeps the first.
   */
  async writeRanks(internalId: number, day: Omit<SnapshotDay, 'entries'>, ranks: SnapshotRank[]): Promise<number> {
    if (ranks.length === 0) return 0;
    const result = await this.db.query(
      `INSERT INTO rank_snapshots (leaderboard_internal_id, day, player_id, season, rank, score)
       SELECT $1, $2, u.player_id, $3, u.rank, u.score
       FROM unnest($4::text[], $5::int[], $6::float8[]) AS u (player_id, rank, score)
       JOIN players p ON p.id = u.player_id
       ON CONFLICT DO NOTHING`,
      [internalId, day.day, day.season, ranks.map((r) => r.playerId), ranks.map((r) => r.rank), ranks.map((r) => r.score)],
    );
    return result.rowCount ?? 0;
  }

  async setEntries(internalId: number, day: string, entries: number): Promise<void> {
    await this.db.query('UPDATE rank_snapshot_days SET entries = $3 WHERE leaderboard_internal_id = $1 AND day = $2', [
      internalId,
      day,
      entries,
    ]);
  }

  /** Drops the days before `day` with their entries; how many days went. */
  async pruneBefore(day: string): Promise<number> {
    const result = await this.db.query('DELETE FROM rank_snapshot_days WHERE day < $1', [day]);
    return result.rowCount ?? 0;
  }

  /** The board's latest snapshot, or undefined before its first. */
  async latest(internalId: number): Promise<SnapshotDay | undefined> {
    const result = await this.db.query<{ day: string; season: number; entries: number }>(
      `SELECT day::text AS day, season, entries FROM rank_snapshot_days WHERE leaderboard_internal_id = $1 ORDER BY day DESC LIMIT 1`,
      [internalId],
    );
    return result.rows[0];
  }

  /** The board's whole snapshot of `day`: its player ids in byte order (ASCII: JavaScript's order too), with their ranks. */
  async snapshotOf(internalId: number, day: string): Promise<{ playerIds: string[]; ranks: number[] }> {
    const result = await this.db.query<{ player_id: string; rank: number }>(
      `SELECT player_id, rank FROM rank_snapshots WHERE leaderboard_internal_id = $1 AND day = $2 ORDER BY player_id COLLATE "C"`,
      [internalId, day],
    );
    return { playerIds: result.rows.map((row) => row.player_id), ranks: result.rows.map((row) => row.rank) };
  }

  /**
   * The player's snapshots on the board between `from` and `to` (inclusive days, either open): the
   * newest `most` of them, oldest first.
   */
  async historyOf(internalId: number, playerId: string, range: { from?: string; to?: string }, most: number): Promise<HistoryPoint[]> {
    const result = await this.db.query<HistoryPoint>(
      `SELECT day, season, rank, score FROM (
         SELECT day::text AS day, season, rank, score FROM rank_snapshots
         WHERE player_id = $1 AND leaderboard_internal_id = $2
           AND ($3::date IS NULL OR day >= $3::date) AND ($4::date IS NULL OR day <= $4::date)
         ORDER BY day DESC LIMIT $5
       ) newest ORDER BY day`,
      [playerId, internalId, range.from ?? null, range.to ?? null, most],
    );
    return result.rows;
  }

  /**
   * The player's snapshots on the given boards from `since` (a day, inclusive) on, by board then day:
   * at most `most` rows in all (the newest boards' first when cut).
   */
  async recentOf(playerId: string, internalIds: number[], since: string, most: number): Promise<(HistoryPoint & { internalId: number })[]> {
    const result = await this.db.query<HistoryPoint & { internalId: number }>(
      `SELECT leaderboard_internal_id AS "internalId", day::text AS day, season, rank, score FROM rank_snapshots
       WHERE player_id = $1 AND leaderboard_internal_id = ANY($2::bigint[]) AND day >= $3::date
       ORDER BY leaderboard_internal_id DESC, day LIMIT $4`,
      [playerId, internalIds, since, most],
    );
    return result.rows;
  }

  /** The ranks the given players held in the board's snapshot of `day` (absent: not in it). */
  async ranksAt(internalId: number, day: string, playerIds: string[]): Promise<Map<string, number>> {
    const result = await this.db.query<{ player_id: string; rank: number }>(
      `SELECT player_id, rank FROM rank_snapshots
       WHERE leaderboard_internal_id = $1 AND day = $2 AND player_id = ANY($3::text[])`,
      [internalId, day, playerIds],
    );
    return new Map(result.rows.map((row) => [row.player_id, row.rank]));
  }
}
