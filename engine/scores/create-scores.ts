import type { ReportCounter } from '../activity/report-counter.js';
import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import type { Rankings } from '../live/rankings.js';
import type { RedisClient } from '../live/redis.js';
import type { PersistenceMarks } from '../persistence/marks.js';
import type { PlayerService } from '../players/player-service.js';
import type { SeasonReads } from '../reads/season-reads.js';
import { RetryRecords } from './retry-records.js';
import { ScoreService } from './score-service.js';
import type { RewardReads } from '../competitions/reward-reads.js';
import type { LeagueReads } from '../competitions/league-reads.js';
import type { LiveChanges } from '../events/live-feed.js';
import type { HeldScores } from '../reviews/held-scores.js';

/** Score reports (with their Idempotency-Key records) and player records. */
export function createScores(deps: {
  redis: RedisClient;
  prefix: string;
  idempotencyTtlSeconds: number;
  leaderboards: LeaderboardService;
  players: PlayerService;
  rankings: Rankings;
  seasons: SeasonReads;
  marks: PersistenceMarks;
  counter: ReportCounter;
  rewards: RewardReads;
  leagues: LeagueReads;
  live: LiveChanges;
  held: HeldScores;
}): ScoreService {
  const retries = new RetryRecords({ redis: deps.redis, prefix: deps.prefix, ttlSeconds: deps.idempotencyTtlSeconds });
  return new ScoreService({ ...deps, retries });
}
