import type { RunInTransaction } from '../db.js';
import type { HeldScore } from '../live/rankings.js';
import type { WebhookEvents } from '../events/webhook-events.js';
import type { ReviewStore } from './review-store.js';

/**
 * Puts a held score the report script answered into PostgreSQL before the report is answered
 * (docs/review.md), so every answered hold survives a lost Redis; a hold that begins records
 * `score.held` in the same transaction (docs/events.md), for the webhooks that want it.
 */
export class HeldScores {
  constructor(private readonly deps: { store: ReviewStore; transact: RunInTransaction; events: WebhookEvents }) {}

  async record(
    board: { id: string; internalId: number; gameId: string },
    season: number,
    playerId: string,
    held: HeldScore,
  ): Promise<void> {
    const attempts = await this.deps.transact(async (client) => {
      const written = await this.deps.store.in(client).write(board.internalId, season, playerId, held);
      if (!written?.began) return [];
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
