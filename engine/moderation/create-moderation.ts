import type { RunInTransaction } from '../db.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { Invalidator } from '../invalidator.js';
import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import type { Rankings } from '../live/rankings.js';
import type { SeasonRotation } from '../live/season-rotation.js';
import type { ScoreStore } from '../persistence/score-store.js';
import type { SeatStore } from '../persistence/seat-store.js';
import type { PlayerStore } from '../players/player-store.js';
import type { SeasonArchiveStore } from '../seasons/season-archive-store.js';
import type { WebhookStore } from '../events/webhook-store.js';
import type { LiveChanges } from '../events/live-feed.js';
import type { ReviewStore } from '../reviews/review-store.js';
import { ModerationService } from './moderation-service.js';

/** Moderation: bans, unbans, removals and erasures, on every board and in the archives. */
export function createModeration(deps: {
  transact: RunInTransaction;
  players: PlayerStore;
  leaderboards: LeaderboardService;
  rankings: Rankings;
  rotation: SeasonRotation;
  scores: ScoreStore;
  seats: SeatStore;
  archives: SeasonArchiveStore;
  webhooks: WebhookStore;
  reviews: ReviewStore;
  audit: AuditStore;
  invalidator: Invalidator;
  live: LiveChanges;
}): ModerationService {
  return new ModerationService(deps);
}
