import type { Queryable, RunInTransaction } from '../db.js';
import type { HeldScore } from '../live/rankings.js';
import type { WebhookEvents } from '../events/webhook-events.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { ReviewStore } from './review-store.js';

/**
 * Puts a held score the report script answered into PostgreSQL before the report is answered
 * (docs/review.md), so every answered hold survives a lost Redis; a hold that begins records
 * `score.held` in the same transaction (docs/events.md), for the webhooks that want it.
 */
export class HeldScores {
  constructor(private readonly deps: { store: ReviewStore; transact: RunInTransaction; events: WebhookEvents; audit: AuditStore }) {}

  async record(
    board: { id: string; internalId: number; gameId: string },
    season: number,
    playerId: string,
    held: HeldScore,
  ): Promise<void> {
    const attempts = await this.deps.transact(async (client) => {
      const store = this.deps.store.in(client);
      const archived = await store.seasonArchived(board.internalId, season);
      const written = await store.write(board.internalId, season, playerId, held);
      // Answered just before its season ended, written after the archive rejected the season's
      // holds: rejected as they were (docs/review.md part 5).
      if (archived) {
        await rejectEnded(client, this.deps.store, this.deps.audit, board, season);
        return [];
      }
      // A shadow ban's hold names the player in no event (docs/review.md part 6).
      if (!written?.began || held.reason === 'shadow') return [];
      return this.deps.events.record(client, {
        gameId: board.gameId,
        type: 'score.held',
        leaderboard: board,
        data: async () => ({
          review_id: written.reviewId,
          leaderboard_id: board.id,
          season,
          player_id: playerId,
          score: Number(held.score),
          previous_score: held.previousScore,
          reason: held.reason,
          held_at: held.heldAt.toISOString(),
        }),
      });
    });
    if (attempts.length > 0) await this.deps.events.queue(attempts);
  }
}

/** Rejects a board's undecided holds of an ended season, as the service (actor system), audited. */
export async function rejectEnded(
  client: Queryable,
  store: ReviewStore,
  audit: AuditStore,
  board: { id: string; gameId: string; internalId: number },
  season: number,
): Promise<void> {
  for (const { reviewId, playerId } of await store.in(client).rejectSeason(board.internalId, season)) {
    await audit.in(client).record({
      gameId: board.gameId,
      actor: 'system',
      action: 'review.reject',
      target: reviewId,
      details: { leaderboard_id: board.id, season, player_id: playerId, reason: 'season_ended' },
    });
  }
}
