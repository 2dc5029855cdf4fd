import type { RunInTransaction } from '../db.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { LeaderboardStore } from '../leaderboards/leaderboard-store.js';
import type { SeasonRotation } from '../live/season-rotation.js';
import type { RedisClient } from '../live/redis.js';
import type { SeasonArchiveStore } from '../seasons/season-archive-store.js';
import { PersistenceMarks } from './marks.js';
import { PersistenceQueue } from './persistence-queue.js';
import { Persister } from './persister.js';
import type { ReviewStore } from '../reviews/review-store.js';
import type { ScoreStore } from './score-store.js';
import type { SeatStore } from './seat-store.js';
import type { LeagueMoves } from '../competitions/league-moves.js';
import type { Pace } from '../pace.js';
import type { WebhookEvents } from '../events/webhook-events.js';
import type { PlayerStore } from '../players/player-store.js';
import type { OvertakenEvents } from '../events/overtaken-events.js';

/**
 * The persistence protocol's two ends in every process: the queue shards and the marks (which the
 * live layer calls around a marking script, so they come before it).
 */
export function createPersistence(deps: { redis: RedisClient; queueConnection: RedisClient; prefix: string; shardCount: number }) {
  const queue = new PersistenceQueue({ connection: deps.queueConnection, prefix: deps.prefix, shardCount: deps.shardCount });
  const marks = new PersistenceMarks({ redis: deps.redis, prefix: deps.prefix, queue });
  return { queue, marks };
}

/** The worker's side: a persistence job's steps (claim, write, ack; archive an ended season). */
export function createPersister(deps: {
  leaderboards: LeaderboardStore;
  rotation: SeasonRotation;
  marks: PersistenceMarks;
  scores: ScoreStore;
  seats: SeatStore;
  archives: SeasonArchiveStore;
  leagueMoves: LeagueMoves;
  transact: RunInTransaction;
  audit: AuditStore;
  pace: Pace;
  events: WebhookEvents;
  players: PlayerStore;
  overtaken: OvertakenEvents;
  reviews: ReviewStore;
}): Persister {
  return new Persister(deps);
}
