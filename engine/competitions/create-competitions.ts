import type { AuditStore } from '../audit/audit-store.js';
import type { Queryable, RunInTransaction } from '../db.js';
import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import type { SeasonRotation } from '../live/season-rotation.js';
import type { ScoreService } from '../scores/score-service.js';
import { ClaimService } from './claim-service.js';
import { ClaimStore } from './claim-store.js';
import { EntryService } from './entries.js';
import { LeagueReads } from './league-reads.js';
import { LeagueMoves } from './league-moves.js';
import type { Leaderboard } from '../leaderboards/leaderboard-store.js';
import type { SeasonArchiveStore } from '../seasons/season-archive-store.js';
import type { Rankings } from '../live/rankings.js';
import type { PlayerService } from '../players/player-service.js';
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

/** Entries, seats and attempts: entering and withdrawing (the report script enforces them). */
export function createEntries(deps: { leaderboards: LeaderboardService; players: PlayerService; rankings: Rankings }): EntryService {
  return new EntryService(deps);
}

/** League reads: groups ranked within themselves, with zones (also on league boards' records). */
export function createLeagueReads(deps: {
  leaderboards: LeaderboardService;
  players: PlayerService;
  rankings: Rankings;
  archives: SeasonArchiveStore;
}): LeagueReads {
  return new LeagueReads(deps);
}

/** League moves at a season's end, applied exactly once by whichever process gets there (the worker, or an API process). */
export function createLeagueMoves(deps: {
  rotation: SeasonRotation;
  find: (internalId: number) => Promise<Leaderboard | undefined>;
}): LeagueMoves {
  return new LeagueMoves(deps);
}
