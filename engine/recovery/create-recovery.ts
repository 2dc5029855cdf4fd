import type { LeaderboardStore } from '../leaderboards/leaderboard-store.js';
import type { Rankings } from '../live/rankings.js';
import type { RedisClient } from '../live/redis.js';
import type { Logger } from '../logger.js';
import type { ScoreStore } from '../persistence/score-store.js';
import type { SeatStore } from '../persistence/seat-store.js';
import type { PlayerStore } from '../players/player-store.js';
import type { ResetSchedules } from '../seasons/reset-schedules.js';
import type { ReviewStore } from '../reviews/review-store.js';
import { BoardPreparation } from './board-preparation.js';
import { BoardRecovery, Rebuild } from './rebuild.js';

/**
 * Bringing boards' live state back from PostgreSQL: one board on its first touch (recovery, which
 * the live layer is given), or a walk over many (rebuild).
 */
export function createRecovery(deps: {
  redis: RedisClient;
  prefix: string;
  leaderboards: LeaderboardStore;
  players: PlayerStore;
  scores: ScoreStore;
  seats: SeatStore;
  reviews: ReviewStore;
  rankings: Rankings;
  schedules: ResetSchedules;
  /** Asks whether Redis lost its whole dataset (true when it did: a rebuild walk is then asked for). */
  detectLoss: () => Promise<boolean>;
  logger: Logger;
}) {
  const preparation = new BoardPreparation(deps);
  const recovery = new BoardRecovery({ ...deps, preparation });
  return { recovery, rebuild: new Rebuild({ ...deps, recovery, preparation }) };
}
