import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import type { RedisClient } from '../live/redis.js';
import type { SeasonRotation } from '../live/season-rotation.js';
import type { Logger } from '../logger.js';
import type { PersistenceMarks } from '../persistence/marks.js';
import type { PlayerStore } from '../players/player-store.js';
import { GameStats } from './game-stats.js';
import { ReportCounter } from './report-counter.js';

/** The dashboard's activity figures: reports per minute, and each game's counts. */
export function createActivity(deps: {
  redis: RedisClient;
  prefix: string;
  logger: Logger;
  players: PlayerStore;
  leaderboards: LeaderboardService;
  rotation: SeasonRotation;
  marks: PersistenceMarks;
}) {
  return { reportCounter: new ReportCounter(deps), gameStats: new GameStats(deps) };
}
