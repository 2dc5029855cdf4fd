import type { RunInTransaction } from '../db.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { Invalidator } from '../invalidator.js';
import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import { GameService } from './game-service.js';
import type { GameStore } from './game-store.js';

/** Games: creation (the demo game included), settings and keys. */
export function createGames(deps: {
  store: GameStore;
  leaderboards: LeaderboardService;
  invalidator: Invalidator;
  transact: RunInTransaction;
  audit: AuditStore;
}): GameService {
  return new GameService(deps);
}
