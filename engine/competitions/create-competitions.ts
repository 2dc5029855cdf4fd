import type { AuditStore } from '../audit/audit-store.js';
import type { Queryable, RunInTransaction } from '../db.js';
import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import type { SeasonRotation } from '../live/season-rotation.js';
import type { ScoreService } from '../scores/score-service.js';
import { ClaimService } from './claim-service.js';
import { ClaimStore } from './claim-store.js';
import { RewardReads } from './reward-reads.js';

/** Rewards: what records of closed seasons show (before the score service), then claims (after it). */
export function createRewardReads(pool: Queryable): { store: ClaimStore; reads: RewardReads } {
  const store = new ClaimStore(pool);
  return { store, reads: new RewardReads(store) };
}

export function createClaims(deps: {
  store: ClaimStore;
  rewards: RewardReads;
  leaderboards: LeaderboardService;
  rotation: SeasonRotation;
  scores: ScoreService;
  transact: RunInTransaction;
  audit: AuditStore;
}): ClaimService {
  return new ClaimService(deps);
}
