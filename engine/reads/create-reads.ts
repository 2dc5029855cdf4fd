import type { ClanService } from '../clans/clan-service.js';
import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import type { Rankings } from '../live/rankings.js';
import type { PlayerService } from '../players/player-service.js';
import type { SeasonArchiveStore } from '../seasons/season-archive-store.js';
import type { RankChanges } from '../history/rank-changes.js';
import { LeaderboardReader } from './leaderboard-reader.js';
import { SeasonReads } from './season-reads.js';

/** Reads of any season (Redis, or the archive) and the pages, neighbours and clan views built on them. */
export function createReads(deps: {
  rankings: Rankings;
  archives: SeasonArchiveStore;
  leaderboards: LeaderboardService;
  players: PlayerService;
  clans: ClanService;
  rankChanges: RankChanges;
}) {
  const seasons = new SeasonReads(deps);
  return { seasons, reader: new LeaderboardReader({ ...deps, seasons }) };
}
