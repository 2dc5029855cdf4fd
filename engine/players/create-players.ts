import type { RunInTransaction } from '../db.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { ClanStore } from '../clans/clan-store.js';
import type { Invalidator } from '../invalidator.js';
import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import type { Rankings } from '../live/rankings.js';
import type { TokenCodec } from '../tokens.js';
import type { AliasStore } from './alias-store.js';
import { PlayerLookup } from './player-lookup.js';
import { PlayerService } from './player-service.js';
import type { PlayerStore } from './player-store.js';

/** Players: sign-up, profiles (cached per process), names and clans; support's lookup and search. */
export function createPlayers(deps: {
  transact: RunInTransaction;
  store: PlayerStore;
  aliases: AliasStore;
  clans: ClanStore;
  leaderboards: LeaderboardService;
  rankings: Rankings;
  tokens: TokenCodec;
  invalidator: Invalidator;
  audit: AuditStore;
  cacheSize: number;
}) {
  return { service: new PlayerService(deps), lookup: new PlayerLookup(deps) };
}
