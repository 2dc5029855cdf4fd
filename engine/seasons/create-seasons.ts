import type { RunInTransaction } from '../db.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { LeaderboardStore } from '../leaderboards/leaderboard-store.js';
import type { RedisClient } from '../live/redis.js';
import type { SeasonRotation } from '../live/season-rotation.js';
import type { Logger } from '../logger.js';
import { ResetSchedules } from './reset-schedules.js';
import type { SeasonArchiveStore } from './season-archive-store.js';
import { SeasonService } from './season-service.js';

/** Seasons: the boards' reset schedules in Redis, and resets, season lists and scheduled resets. */
export function createSeasons(deps: {
  redis: RedisClient;
  prefix: string;
  rotation: SeasonRotation;
  leaderboards: LeaderboardStore;
  archives: SeasonArchiveStore;
  transact: RunInTransaction;
  audit: AuditStore;
  logger: Logger;
  /** Tells every process that leaderboards changed (their cached season). */
  announce: () => Promise<void>;
}) {
  const schedules = new ResetSchedules({ redis: deps.redis, prefix: deps.prefix, rotation: deps.rotation });
  return { schedules, service: new SeasonService({ ...deps, schedules }) };
}
