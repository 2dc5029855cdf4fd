import type { RunInTransaction } from '../db.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { Invalidator } from '../invalidator.js';
import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import type { Rankings } from '../live/rankings.js';
import type { PlayerStore } from '../players/player-store.js';
import { ClanService } from './clan-service.js';
import type { ClanStore } from './clan-store.js';

/** Clans: their rows (cached per process) and the clan totals their members' moves change. */
export function createClans(deps: {
  store: ClanStore;
  players: PlayerStore;
  transact: RunInTransaction;
  leaderboards: LeaderboardService;
  rankings: Rankings;
  invalidator: Invalidator;
  audit: AuditStore;
}): ClanService {
  return new ClanService(deps);
}
