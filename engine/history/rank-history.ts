import { NotFoundError, ValidationError } from '../errors.js';
import type { Leaderboard } from '../leaderboards/leaderboard-store.js';
import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import type { BestRank, Rankings } from '../live/rankings.js';
import type { PlayerService } from '../players/player-service.js';
import type { HistoryPoint, RankSnapshotStore } from './rank-snapshot-store.js';

/** At most this many points per answer (a year and more of days). */
export const MAX_HISTORY_POINTS = 400;

export interface RankHistory {
  leaderboard: Leaderboard;
  playerId: string;
  /** The best rank the player's reports reached this season, and when. */
  bestRank: BestRank | null;
  /** Oldest first. */
  points: HistoryPoint[];
}

/** How far back, and over how many boards, support's view of a player draws their history. */
export const RECENT_HISTORY = { days: 90, boards: 12 } as const;

/** A player's rank history on a board (docs/history.md part 4): their best rank this season and their daily snapshots. */
export class RankHistoryReads {
  constructor(
    private readonly deps: {
      leaderboards: LeaderboardService;
      players: PlayerService;
      rankings: Rankings;
      store: RankSnapshotStore;
    },
  ) {}

  /** `own`: the player reads it with their token (a shadow-banned player then sees theirs, docs/review.md part 6). */
  async of(
    gameId: string,
    leaderboardId: string,
    playerId: string,
    range: { from?: string; to?: string },
    own = false,
  ): Promise<RankHistory> {
    if (range.from !== undefined && range.to !== undefined && range.from > range.to) {
      throw new ValidationError('`from` must not come after `to`.', [{ field: 'from', message: 'must be on or before `to`' }]);
    }
    const [leaderboard, player] = await Promise.all([
      this.deps.leaderboards.get(gameId, leaderboardId),
      this.deps.players.get(gameId, playerId),
    ]);
    // A banned player is absent from every read of the game's boards, their history too.
    if (player.banKind === 'ban' || (player.banKind === 'shadow' && !own)) {
      throw new NotFoundError('record_not_found', `Player '${playerId}' has no history to show on leaderboard '${leaderboardId}'.`);
    }
    const [bestRank, points] = await Promise.all([
      this.deps.rankings.bestRankOf(leaderboard, playerId),
      this.deps.store.historyOf(leaderboard.internalId, playerId, range, MAX_HISTORY_POINTS),
    ]);
    return { leaderboard, playerId, bestRank, points };
  }

  /**
   * Support's view (the dashboard's player page): the player's daily ranks over the last
   * RECENT_HISTORY.days on the given boards of the game, at most RECENT_HISTORY.boards of them, in
   * one query; boards without a point are left out.
   */
  async recentOf(
    gameId: string,
    playerId: string,
    leaderboardIds: string[],
    now = new Date(),
  ): Promise<{ leaderboardId: string; points: HistoryPoint[] }[]> {
    const wanted = new Set(leaderboardIds);
    const boards = (await this.deps.leaderboards.all(gameId)).filter((board) => wanted.has(board.id)).slice(-RECENT_HISTORY.boards);
    if (boards.length === 0) return [];
    const since = new Date(now.getTime() - (RECENT_HISTORY.days - 1) * 86_400_000).toISOString().slice(0, 10);
    const rows = await this.deps.store.recentOf(
      playerId,
      boards.map((board) => board.internalId),
      since,
      RECENT_HISTORY.days * RECENT_HISTORY.boards,
    );
    return boards.flatMap((board) => {
      const points = rows
        .filter((row) => row.internalId === board.internalId)
        .map(({ day, season, rank, score }) => ({ day, season, rank, score }));
      return points.length === 0 ? [] : [{ leaderboardId: board.id, points }];
    });
  }
}
