import type { Queryable } from '../db.js';
import type { SortOrder } from '../leaderboards/leaderboard-store.js';

/**
 * Persisted best scores and clan totals of each leaderboard's current season (an ended season's rows
 * go once it is archived). Writes are multi-row upserts that are harmless to replay: a best score
 * only ever moves the better way (GREATEST, or LEAST when lower is better), and a clan total only
 * replaces one with an older version.
 */
export class ScoreStore {
  constructor(private readonly db: Queryable) {}

  async writeScores(leaderboardInternalId: number, season: number, order: SortOrder, players: string[], scores: string[]): Promise<void> {
    if (players.length === 0) return;
    const better = order === 'asc' ? 'LEAST' : 'GREATEST';
    const improves = order === 'asc' ? '>' : '<';
    await this.db.query(
      `INSERT INTO scores (leaderboard_internal_id, season, player_id, score)
       SELECT $1, $2, u.player_id, u.score FROM unnest($3::text[], $4::float8[]) AS u (player_id, score)
       ON CONFLICT (leaderboard_internal_id, season, player_id) DO UPDATE
         SET score = ${better}(scores.score, EXCLUDED.score), updated_at = now()
         WHERE scores.score ${improves} EXCLUDED.score`,
      [leaderboardInternalId, season, players, scores],
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

  /** A season's persisted best scores, player -> score, a page at a time in player order. */
  async *scorePages(leaderboardInternalId: number, season: number, pageSize = 10_000): AsyncGenerator<[string, number][]> {
    let after = '';
    for (;;) {
      const { rows } = await this.db.query<{ player_id: string; score: number }>(
        `SELECT player_id, score FROM scores WHERE leaderboard_internal_id = $1 AND season = $2 AND player_id > $3
         ORDER BY player_id LIMIT $4`,
        [leaderboardInternalId, season, after, pageSize],
      );
      if (rows.length === 0) return;
      yield rows.map((row) => [row.player_id, row.score]);
      after = rows[rows.length - 1]!.player_id;
    }
  }
}
