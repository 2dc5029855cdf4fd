import type { Queryable } from '../db.js';
import type { HeldScore } from '../live/rankings.js';

/** A held score awaiting a decision, as the review queue lists it (docs/review.md). */
export interface Review {
  reviewId: string;
  leaderboardInternalId: number;
  leaderboardId: string;
  gameId: string;
  season: number;
  playerId: string;
  displayName: string | null;
  heldUs: string;
  score: number;
  previousScore: number | null;
  metadata: object | null;
  /** A listed review's is a rule's; a shadow ban's holds are never listed (docs/review.md part 6). */
  reason: Exclude<HeldScore['reason'], 'shadow'>;
  heldAt: Date;
  decision: 'approved' | 'rejected' | null;
  decidedAt: Date | null;
}

interface ReviewRow {
  review_id: string;
  leaderboard_internal_id: string;
  leaderboard_id: string;
  game_id: string;
  season: number;
  player_id: string;
  display_name: string | null;
  held_us: string;
  score: number;
  previous_score: number | null;
  metadata: object | null;
  reason: Review['reason'];
  held_at: Date;
  decision: 'approved' | 'rejected' | null;
  decided_at: Date | null;
}

const SELECT = `SELECT r.review_id, r.leaderboard_internal_id, l.leaderboard_id, l.game_id, r.season, r.player_id,
                       p.display_name, r.held_us, r.score, r.previous_score, r.metadata, r.reason, r.held_at,
                       r.decision, r.decided_at
                FROM reviews r
                JOIN leaderboards l ON l.internal_id = r.leaderboard_internal_id
                JOIN players p ON p.id = r.player_id`;

function reviewOf(row: ReviewRow): Review {
  return {
    reviewId: row.review_id,
    leaderboardInternalId: Number(row.leaderboard_internal_id),
    leaderboardId: row.leaderboard_id,
    gameId: row.game_id,
    season: row.season,
    playerId: row.player_id,
    displayName: row.display_name,
    heldUs: row.held_us,
    score: row.score,
    previousScore: row.previous_score,
    metadata: row.metadata,
    reason: row.reason,
    heldAt: row.held_at,
    decision: row.decision,
    decidedAt: row.decided_at,
  };
}

/**
 * Held scores in PostgreSQL (docs/review.md): written by the API before it answers a held report,
 * so every answered hold survives a lost Redis; decided under the row's lock, so a second decision
 * finds the first.
 */
export class ReviewStore {
  constructor(private readonly db: Queryable) {}

  in(client: Queryable): ReviewStore {
    return new ReviewStore(client);
  }

  /**
   * Writes a hold as Redis answered it. A later version replaces an earlier one; a decided row and
   * a newer version are left alone, so concurrent writes of one hold may land in any order. The
   * row written and whether this write began the hold; undefined when it changed nothing.
   */
  async write(
    leaderboardInternalId: number,
    season: number,
    playerId: string,
    held: HeldScore,
  ): Promise<{ reviewId: string; began: boolean } | undefined> {
    const { rows } = await this.db.query<{ review_id: string; began: boolean }>(
      `INSERT INTO reviews (leaderboard_internal_id, season, player_id, held_us, version, reason, score, tiebreakers,
                            amount, previous_score, metadata, held_at, achieved_at_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (leaderboard_internal_id, season, player_id, held_us) DO UPDATE
         SET version = EXCLUDED.version, score = EXCLUDED.score, tiebreakers = EXCLUDED.tiebreakers,
             amount = EXCLUDED.amount, metadata = EXCLUDED.metadata, achieved_at_ms = EXCLUDED.achieved_at_ms
         WHERE reviews.version < EXCLUDED.version AND reviews.decision IS NULL
       RETURNING review_id, xmax = 0 AS began`,
      [
        leaderboardInternalId,
        season,
        playerId,
        held.heldUs,
        held.version,
        held.reason,
        Number(held.score),
        held.tiebreakers,
        held.amount,
        held.previousScore,
        held.metadata === '' ? null : held.metadata,
        held.heldAt,
        held.achievedAt ?? null,
      ],
    );
    return rows[0] && { reviewId: rows[0].review_id, began: rows[0].began };
  }

  /**
   * Whether the board's season is archived, with the board's row share-locked until the transaction
   * ends: the archive (which rejects the season's holds) locks it to write, so it falls wholly before
   * or after.
   */
  async seasonArchived(leaderboardInternalId: number, season: number): Promise<boolean> {
    const { rows } = await this.db.query<{ archived: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM leaderboard_seasons WHERE leaderboard_internal_id = $1 AND season = $2) AS archived
       FROM leaderboards WHERE internal_id = $1 FOR SHARE`,
      [leaderboardInternalId, season],
    );
    return rows[0]?.archived ?? true;
  }

  /** A game's undecided holds of current seasons (of one board, when given), oldest first, and how many there are. */
  async pending(
    gameId: string,
    leaderboardInternalId: number | undefined,
    limit: number,
    offset: number,
  ): Promise<{ reviews: Review[]; total: number }> {
    // Holds of an ended season wait for its archive to reject them (docs/review.md part 5), and a
    // shadow ban's are nobody's to decide (part 6): not listed.
    const where = `WHERE l.game_id = $1 AND r.decision IS NULL AND r.season >= l.season AND r.reason <> 'shadow'
                     AND ($2::bigint IS NULL OR r.leaderboard_internal_id = $2)`;
    const [rows, count] = await Promise.all([
      this.db.query<ReviewRow>(`${SELECT} ${where} ORDER BY r.held_at, r.review_id LIMIT $3 OFFSET $4`, [
        gameId,
        leaderboardInternalId ?? null,
        limit,
        offset,
      ]),
      this.db.query<{ total: string }>(
        `SELECT count(*) AS total FROM reviews r JOIN leaderboards l ON l.internal_id = r.leaderboard_internal_id ${where}`,
        [gameId, leaderboardInternalId ?? null],
      ),
    ]);
    return { reviews: rows.rows.map(reviewOf), total: Number(count.rows[0]!.total) };
  }

  /**
   * One of the game's reviews, its row locked until the transaction ends; undefined when unknown (a
   * shadow ban's holds are no review, docs/review.md part 6).
   */
  async lock(gameId: string, reviewId: string): Promise<Review | undefined> {
    const { rows } = await this.db.query<ReviewRow>(
      `${SELECT} WHERE r.review_id = $1 AND l.game_id = $2 AND r.reason <> 'shadow' FOR UPDATE OF r`,
      [reviewId, gameId],
    );
    return rows[0] && reviewOf(rows[0]);
  }

  async decide(reviewId: string, decision: 'approved' | 'rejected', actor: string): Promise<Date> {
    const { rows } = await this.db.query<{ decided_at: Date }>(
      `UPDATE reviews SET decision = $2, decided_at = now(), decided_by = $3 WHERE review_id = $1 RETURNING decided_at`,
      [reviewId, decision, actor],
    );
    return rows[0]!.decided_at;
  }

  /** Rejects a season's undecided holds on a board (its end, docs/review.md): the rejected ones. */
  async rejectSeason(leaderboardInternalId: number, season: number): Promise<{ reviewId: string; playerId: string }[]> {
    const { rows } = await this.db.query<{ review_id: string; player_id: string }>(
      `UPDATE reviews SET decision = 'rejected', decided_at = now(), decided_by = 'system'
       WHERE leaderboard_internal_id = $1 AND season = $2 AND decision IS NULL
       RETURNING review_id, player_id`,
      [leaderboardInternalId, season],
    );
    return rows.map((row) => ({ reviewId: row.review_id, playerId: row.player_id }));
  }

  /** Rejects the player's undecided shadow-ban holds (their shadow ban ended, docs/review.md part 6). */
  async dropShadowed(playerId: string, actor: string): Promise<void> {
    await this.db.query(
      `UPDATE reviews SET decision = 'rejected', decided_at = now(), decided_by = $2
       WHERE player_id = $1 AND reason = 'shadow' AND decision IS NULL`,
      [playerId, actor],
    );
  }

  /** Of these boards, those with an undecided hold (a rebuild reads only theirs). */
  async boardsHolding(leaderboardInternalIds: number[]): Promise<Set<number>> {
    const { rows } = await this.db.query<{ id: string }>(
      `SELECT DISTINCT leaderboard_internal_id AS id FROM reviews WHERE leaderboard_internal_id = ANY($1) AND decision IS NULL`,
      [leaderboardInternalIds],
    );
    return new Set(rows.map((row) => Number(row.id)));
  }

  /** A board's undecided holds of a season, as Redis keeps them (for a rebuild). */
  async heldOf(leaderboardInternalId: number, season: number): Promise<{ playerId: string; held: HeldScore }[]> {
    const { rows } = await this.db.query<{
      player_id: string;
      held_us: string;
      version: number;
      reason: HeldScore['reason'];
      held_at: Date;
      score: number;
      tiebreakers: number[];
      amount: number | null;
      previous_score: number | null;
      metadata: object | null;
      achieved_at_ms: string | null;
    }>(
      `SELECT player_id, held_us, version, reason, held_at, score, tiebreakers, amount, previous_score, metadata, achieved_at_ms
       FROM reviews WHERE leaderboard_internal_id = $1 AND season = $2 AND decision IS NULL`,
      [leaderboardInternalId, season],
    );
    return rows.map((row) => ({
      playerId: row.player_id,
      held: {
        heldUs: row.held_us,
        version: row.version,
        reason: row.reason,
        heldAt: row.held_at,
        score: String(row.score),
        tiebreakers: row.tiebreakers,
        achievedAt: row.achieved_at_ms === null ? undefined : Number(row.achieved_at_ms),
        amount: row.amount,
        previousScore: row.previous_score,
        metadata: row.metadata === null ? '' : JSON.stringify(row.metadata),
      },
    }));
  }
}
