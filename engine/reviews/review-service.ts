import { ConflictError, NotFoundError } from '../errors.js';
import type { RunInTransaction } from '../db.js';
import type { Actor, AuditStore } from '../audit/audit-store.js';
import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import type { Rankings, ReportOutcome } from '../live/rankings.js';
import type { PersistenceMarks } from '../persistence/marks.js';
import type { LiveChanges } from '../events/live-feed.js';
import type { ModerationService } from '../moderation/moderation-service.js';
import type { Review, ReviewStore } from './review-store.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A decided review: the hold as it was, and the decision. */
export interface DecidedReview extends Review {
  decision: 'approved' | 'rejected';
  decidedAt: Date;
}

/**
 * The review queue (docs/review.md): held scores listed oldest first, approved (applied as a report
 * made at that moment, by the board's rule) or rejected (dropped, the player banned if asked). A
 * decision runs under the hold's row lock: Redis applies it, then PostgreSQL records it with its
 * audit entry, so a second decision waits and finds the first (409).
 */
export class ReviewService {
  constructor(
    private readonly deps: {
      store: ReviewStore;
      transact: RunInTransaction;
      audit: AuditStore;
      leaderboards: LeaderboardService;
      rankings: Rankings;
      marks: PersistenceMarks;
      live: LiveChanges;
      moderation: ModerationService;
    },
  ) {}

  async pending(
    gameId: string,
    leaderboardId: string | undefined,
    limit: number,
    offset: number,
  ): Promise<{ reviews: Review[]; total: number }> {
    const board = leaderboardId === undefined ? undefined : await this.deps.leaderboards.get(gameId, leaderboardId);
    return this.deps.store.pending(gameId, board?.internalId, limit, offset);
  }

  async approve(gameId: string, reviewId: string, actor: Actor): Promise<DecidedReview> {
    let applied: { outcome: ReportOutcome | undefined; board: Awaited<ReturnType<LeaderboardService['get']>> } | undefined;
    const decided = await this.decide(gameId, reviewId, 'approved', actor, async (review) => {
      const board = await this.deps.leaderboards.get(gameId, review.leaderboardId);
      applied = { outcome: await this.deps.rankings.approveHeld(board, review.playerId, review.heldUs), board };
    });
    // As a report's answer would: persistence, live streams, player.overtaken (an approval is a report made now).
    // No outcome: an earlier approval applied the hold and failed to commit its decision, possibly
    // before asking for its persistence job and telling live streams, so this one does both; the
    // players it overtook are not known any more, so no player.overtaken goes out for it.
    const { outcome, board } = applied!;
    if (!outcome || outcome.needsPersistence) await this.deps.marks.requestJobs([board.internalId]);
    if (!outcome || outcome.topChanged) this.deps.live.changed([board]);
    if (outcome && outcome.overtaken.length > 0) {
      this.deps.live.overtaken(board, {
        season: outcome.season,
        by: decided.playerId,
        score: Number(outcome.best),
        players: outcome.overtaken,
      });
    }
    return decided;
  }

  async reject(gameId: string, reviewId: string, ban: { reason: string | null } | null, actor: Actor): Promise<DecidedReview> {
    const decided = await this.decide(gameId, reviewId, 'rejected', actor, async (review) => {
      await this.deps.rankings.rejectHeld({ internalId: review.leaderboardInternalId }, review.playerId, review.heldUs);
    });
    if (ban) await this.deps.moderation.ban(gameId, decided.playerId, ban.reason, actor);
    return decided;
  }

  private async decide(
    gameId: string,
    reviewId: string,
    decision: 'approved' | 'rejected',
    actor: Actor,
    apply: (review: Review) => Promise<void>,
  ): Promise<DecidedReview> {
    const unknown = new NotFoundError('review_not_found', `No review '${reviewId}' in this game.`);
    if (!UUID.test(reviewId)) throw unknown;
    return this.deps.transact(async (client) => {
      const review = await this.deps.store.in(client).lock(gameId, reviewId);
      if (!review) throw unknown;
      if (review.decision) throw new ConflictError(`Review '${reviewId}' was ${review.decision} already.`);
      await apply(review);
      const decidedAt = await this.deps.store.in(client).decide(reviewId, decision, actor);
      await this.deps.audit.in(client).record({
        gameId,
        actor,
        action: decision === 'approved' ? 'review.approve' : 'review.reject',
        target: reviewId,
        details: { leaderboard_id: review.leaderboardId, season: review.season, player_id: review.playerId, score: review.score },
      });
      return { ...review, decision, decidedAt };
    });
  }
}
