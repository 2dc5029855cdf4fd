import type { RunInTransaction } from '../db.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { Invalidator } from '../invalidator.js';
import type { Rankings } from '../live/rankings.js';
import type { SeasonRotation } from '../live/season-rotation.js';
import type { BoardRecovery } from '../recovery/rebuild.js';
import type { ResetSchedules } from '../seasons/reset-schedules.js';
import type { SeasonArchiveStore } from '../seasons/season-archive-store.js';
import { LeaderboardService } from './leaderboard-service.js';
import type { LeaderboardStore } from './leaderboard-store.js';

/** Leaderboards: their settings in PostgreSQL (cached per process) and their live state's creation. */
export function createLeaderboards(deps: {
  store: LeaderboardStore;
  rankings: Rankings;
  rotation: SeasonRotation;
  recovery: BoardRecovery;
  invalidator: Invalidator;
  archives: SeasonArchiveStore;
  schedules: ResetSchedules;
  transact: RunInTransaction;
  audit: AuditStore;
}): LeaderboardService {
  return new LeaderboardService(deps);
}
