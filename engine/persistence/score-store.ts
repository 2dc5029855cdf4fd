import type { Queryable } from '../db.js';
import type { PersistedScore, SortOrder, UpdateStrategy } from '../live/types.js';

/**
 * One persisted entry: its score, metadata (JSON, '' for none), version ('' on plain best boards),
 * tiebreakers (comma-separated, '' for none), when it was reached (ms, '' but on 'earliest' boards)
 * and the player's best rank this season ('<rank>:<ms>', '' for none).
 */
export interface StoredScore {
  playerId: string;
  score: string;
  metadata: string;
  version: string;
  tiebreakers: string;
  achievedAt: string;
  bestRank: string;
}

/**
 * Persisted scores and clan totals of each leaderboard's current season (an ended season's rows go
 * once it is archived). Writes are multi-row upserts that are harmless to replay and to run in any
 * order: a best score only ever moves the better way (GREATEST, or LEAST when lower is better), a
 * latest or sum score, a score written after its removal and a clan total only replace one with an
 * older version, and a removal deletes only a row older than itself.
 */
export class ScoreStore {
  constructor(private readonly db: Queryable) {}

  /** The same store inside a transaction: every query goes through its client. */
  in(client: Queryable): ScoreStore {
    return new ScoreStore(client);
  }

  /** Deletes every current-season score of the player (an erasure; player ids are unique across games). */
  async deletePlayer(playerId: string): Promise<void> {
    await this.db.query('DELETE FROM scores WHERE player_id = $1', [playerId]);
  }

  async writeScores(
    leaderboardInternalId: number,
    season: number,
    rule: { order: SortOrder; strategy: UpdateStrategy },
    entries: StoredScore[],
  ): Promise<void> {
    const better = rule.order === 'asc' ? '>' : '<';
    // An entry with a version (every latest or sum entry; a best one written since its removal)
    // replaces only an older version, so a job that claimed the removed score cannot bring it back;
    // a best one also a worse score of the same version (it improved since). Metadata follows.
    const versioned = entries.filter((e) => e.version !== '');
    await this.upsertScores(
      leaderboardInternalId,
      season,
      versioned,
      `score = EXCLUDED.score, metadata = EXCLUDED.metadata, version = EXCLUDED.version, tiebreakers = EXCLUDED.tiebreakers,
         achieved_at = EXCLUDED.achieved_at, updated_at = now()
       WHERE scores.version < EXCLUDED.version${
         rule.strategy === 'best' ? ` OR (scores.version = EXCLUDED.version AND scores.score ${better} EXCLUDED.score)` : ''
       }`,
    );
    // A best score only ever improves (its metadata changes with it), whatever version its row has.
    const unversioned = entries.filter((e) => e.version === '');
    await this.upsertScores(
      leaderboardInternalId,
      season,
      unversioned,
      `score = EXCLUDED.score, metadata = EXCLUDED.metadata, updated_at = now() WHERE scores.score ${better} EXCLUDED.score`,
    );
  }

  private async upsertScores(leaderboardInternalId: number, season: number, entries: StoredScore[], replaces: string): Promise<void> {
    if (entries.length === 0) return;
    const [ranks, rankTimes] = bestRankColumns(entries);
    // Tiebreakers travel as their comma-separated text ('' for none), parsed to float8[] here: a
    // two-dimensional array parameter would need every row to hold as many. The best rank rides
    // along, as writeBestRanks would write it, so a row written here is not written again there
    // (one tuple version, not two: docs/performance.md).
    await this.db.query(
      `INSERT INTO scores (leaderboard_internal_id, season, player_id, score, metadata, version, tiebreakers, achieved_at,
                           best_rank, best_rank_at)
       SELECT $1, $2, u.player_id, u.score, u.metadata::json, u.version,
              CASE WHEN u.tiebreakers = '' THEN NULL ELSE string_to_array(u.tiebreakers, ',')::float8[] END,
              CASE WHEN u.achieved_at = '' THEN NULL ELSE timestamptz 'epoch' + u.achieved_at::bigint * interval '1 millisecond' END,
              u.rank, timestamptz 'epoch' + u.rank_at * interval '1 millisecond'
       FROM unnest($3::text[], $4::float8[], $5::text[], $6::bigint[], $7::text[], $8::text[], $9::int[], $10::bigint[])
         AS u (player_id, score, metadata, version, tiebreakers, achieved_at, rank, rank_at)
       ON CONFLICT (leaderboard_internal_id, season, player_id) DO UPDATE SET
         best_rank = EXCLUDED.best_rank, best_rank_at = EXCLUDED.best_rank_at, ${replaces}`,
      [
        leaderboardInternalId,
        season,
        entries.map((e) => e.playerId),
        entries.map((e) => e.score),
        entries.map((e) => e.metadata || null),
        entries.map((e) => e.version || '0'),
        entries.map((e) => e.tiebreakers),
        entries.map((e) => e.achievedAt),
        ranks,
        rankTimes,
      ],
    );
  }

  /**
   * Writes best ranks ('<rank>:<ms>', '' for none) onto the players' rows, as claimed, where the
   * rows do not hold them yet (writeScores wrote them on every row it wrote). Redis keeps each
   * player's best of the whole season (not only what PostgreSQL lacks), and a board's jobs run one
   * at a time, so the claimed value is the one to hold: also after a removal, which starts it over,
   * claimed together with the report that followed (the row then stays, with its old rank).
   */
  async writeBestRanks(leaderboardInternalId: number, season: number, ranks: { playerId: string; bestRank: string }[]): Promise<void> {
    if (ranks.length === 0) return;
    const [values, times] = bestRankColumns(ranks);
    await this.db.query(
      `UPDATE scores s SET best_rank = u.rank, best_rank_at = timestamptz 'epoch' + u.at * interval '1 millisecond'
       FROM unnest($3::text[], $4::int[], $5::bigint[]) AS u (player_id, rank, at)
       WHERE s.leaderboard_internal_id = $1 AND s.season = $2 AND s.player_id = u.player_id
         AND s.best_rank IS DISTINCT FROM u.rank`,
      [leaderboardInternalId, season, ranks.map((r) => r.playerId), values, times],
    );
  }

  /** Deletes removed scores whose rows are older than their removal (a later score has a later version). */
  async deleteScores(leaderboardInternalId: number, season: number, removed: { playerId: string; version: string }[]): Promise<void> {
    if (removed.length === 0) return;
    await this.db.query(
      `DELETE FROM scores s USING unnest($3::text[], $4::bigint[]) AS u (player_id, version)
       WHERE s.leaderboard_internal_id = $1 AND s.season = $2 AND s.player_id = u.player_id AND s.version < u.version`,
      [leaderboardInternalId, season, removed.map((r) => r.playerId), removed.map((r) => r.version)],
    );
  }

  async writeClanTotals(
    leaderboardInternalId: number,
    season: number,
    totals: { clanId: string; total: string; version: string }[],
  ): Promise<void> {
    const present = totals.filter((t) => t.total !== '');
    const removed = totals.filter((t) => t.total === '');
    if (present.length > 0) {
      await this.db.query(
        `INSERT INTO clan_scores (leaderboard_internal_id, season, clan_id, score, version)
         SELECT $1, $2, u.clan_id, u.score, u.version FROM unnest($3::text[], $4::float8[], $5::bigint[]) AS u (clan_id, score, version)
         ON CONFLICT (leaderboard_internal_id, season, clan_id) DO UPDATE
           SET score = EXCLUDED.score, version = EXCLUDED.version, updated_at = now()
           WHERE clan_scores.version < EXCLUDED.version`,
        [leaderboardInternalId, season, present.map((t) => t.clanId), present.map((t) => t.total), present.map((t) => t.version)],
      );
    }
    if (removed.length > 0) {
      await this.db.query(
        `DELETE FROM clan_scores c USING unnest($3::text[], $4::bigint[]) AS u (clan_id, version)
         WHERE c.leaderboard_internal_id = $1 AND c.season = $2 AND c.clan_id = u.clan_id AND c.version < u.version`,
        [leaderboardInternalId, season, removed.map((t) => t.clanId), removed.map((t) => t.version)],
      );
    }
  }

  /** Which of these boards hold persisted scores in the given season (one query for a page of boards). */
  async boardsHoldingScores(boards: readonly { internalId: number; season: number }[]): Promise<Set<number>> {
    const { rows } = await this.db.query<{ id: number }>(
      `SELECT b.id FROM unnest($1::int[], $2::int[]) AS b(id, season)
       WHERE EXISTS (SELECT 1 FROM scores s WHERE s.leaderboard_internal_id = b.id AND s.season = b.season)`,
      [boards.map((b) => b.internalId), boards.map((b) => b.season)],
    );
    return new Set(rows.map((row) => row.id));
  }

  /**
   * A season's persisted scores with their metadata (JSON, '' for none), tiebreakers and the time
   * each was reached, a page at a time in player order.
   */
  async *scorePages(leaderboardInternalId: number, season: number, pageSize = 10_000): AsyncGenerator<PersistedScore[]> {
    let after = '';
    for (;;) {
      const { rows } = await this.db.query<{
        player_id: string;
        score: number;
        metadata: string | null;
        tiebreakers: number[] | null;
        achieved_at: string | null;
        best_rank: number | null;
        best_rank_at: string | null;
      }>(
        `SELECT player_id, score, metadata::text AS metadata, tiebreakers,
                (extract(epoch FROM achieved_at) * 1000)::bigint AS achieved_at,
                best_rank, (extract(epoch FROM best_rank_at) * 1000)::bigint AS best_rank_at
         FROM scores WHERE leaderboard_internal_id = $1 AND season = $2 AND player_id > $3 ORDER BY player_id LIMIT $4`,
        [leaderboardInternalId, season, after, pageSize],
      );
      if (rows.length === 0) return;
      yield rows.map((row) => ({
        playerId: row.player_id,
        score: row.score,
        metadata: row.metadata ?? '',
        tiebreakers: row.tiebreakers ?? [],
        achievedAt: row.achieved_at === null ? null : Number(row.achieved_at),
        bestRank: row.best_rank === null ? '' : `${row.best_rank}:${row.best_rank_at ?? 0}`,
      }));
      after = rows[rows.length - 1]!.player_id;
    }
  }
}

/** The best ranks ('<rank>:<ms>', '' for none) as two columns: ranks and their times in ms, null for none. */
function bestRankColumns(ranks: { bestRank: string }[]): [(number | null)[], (number | null)[]] {
  const [values, times] = [[] as (number | null)[], [] as (number | null)[]];
  for (const { bestRank } of ranks) {
    const [rank, at] = bestRank === '' ? [null, null] : bestRank.split(':').map(Number);
    values.push(rank ?? null);
    times.push(at ?? null);
  }
  return [values, times];
}
