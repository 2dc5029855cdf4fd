import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import type { Rankings } from '../live/rankings.js';
import type { PlayerService } from '../players/player-service.js';

export interface EntryResult {
  leaderboardId: string;
  season: number;
  playerId: string;
  entered: boolean;
  /** Seats taken in the season after the change. */
  players: number;
  maxPlayers: number | null;
}

/**
 * Entering a board's current season and withdrawing from it (docs/competitions.md, part 3): one
 * script in the board's slot decides against the seats taken, so `max_players` is never passed.
 */
export class EntryService {
  constructor(
    private readonly deps: {
      leaderboards: LeaderboardService;
      players: PlayerService;
      rankings: Rankings;
    },
  ) {}

  /** A game client's entry or withdrawal (the token's player). */
  async fromClient(gameId: string, playerId: string, leaderboardId: string, action: 'enter' | 'withdraw'): Promise<EntryResult> {
    return this.change(gameId, playerId, leaderboardId, action).catch((error: unknown) =>
      this.deps.players.rethrowForToken(gameId, playerId, error),
    );
  }

  /** A game server's entry or withdrawal of one of its players. */
  async fromServer(gameId: string, playerId: string, leaderboardId: string, action: 'enter' | 'withdraw'): Promise<EntryResult> {
    await this.deps.players.get(gameId, playerId);
    return this.change(gameId, playerId, leaderboardId, action);
  }

  private async change(gameId: string, playerId: string, leaderboardId: string, action: 'enter' | 'withdraw'): Promise<EntryResult> {
    const arrivedAt = Date.now();
    const board = await this.deps.leaderboards.get(gameId, leaderboardId);
    const { season, players, entered } = await this.deps.rankings.enter(board, playerId, action, arrivedAt);
    return { leaderboardId: board.id, season, playerId, entered, players, maxPlayers: board.maxPlayers };
  }
}
