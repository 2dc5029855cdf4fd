import { LRUCache } from 'lru-cache';
import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import type { PersistenceMarks } from '../persistence/marks.js';
import type { PlayerStore } from '../players/player-store.js';
import type { SeasonRotation } from '../live/season-rotation.js';

export interface GameCounts {
  players: number;
  leaderboards: number;
  /** Players ranked on the current seasons, summed over the boards. */
  rankedEntries: number;
  /** Score changes accepted but not yet in PostgreSQL, over the game's boards. */
  pendingPersistence: number;
  /** When these were counted. */
  countedAt: Date;
}

/** Counted at most this often per game and process: a walk over every board is never paid per request. */
export const COUNTS_MAX_AGE_MS = 60_000;
// Boards counted at once (two small Redis reads each).
const CHUNK = 500;

/** The dashboard Overview's numbers for a game, counted from the stores and cached up to 60 s. */
export class GameStats {
  private readonly cache = new LRUCache<string, Promise<GameCounts>>({ max: 1000, ttl: COUNTS_MAX_AGE_MS });

  constructor(
    private readonly deps: {
      players: PlayerStore;
      leaderboards: LeaderboardService;
      rotation: SeasonRotation;
      marks: PersistenceMarks;
    },
  ) {}

  counts(gameId: string): Promise<GameCounts> {
    let counting = this.cache.get(gameId);
    if (!counting) {
      counting = this.count(gameId);
      this.cache.set(gameId, counting);
      // A failed count is not kept: the next request counts again.
      counting.catch(() => this.cache.delete(gameId));
    }
    return counting;
  }

  private async count(gameId: string): Promise<GameCounts> {
    const [players, boards] = await Promise.all([this.deps.players.countInGame(gameId), this.deps.leaderboards.all(gameId)]);
    let rankedEntries = 0;
    let pendingPersistence = 0;
    for (let i = 0; i < boards.length; i += CHUNK) {
      const chunk = boards.slice(i, i + CHUNK);
      const [ranked, pending] = await Promise.all([
        Promise.all(chunk.map(async (board) => (await this.deps.rotation.seasons(board)).total)),
        Promise.all(chunk.map((board) => this.deps.marks.pendingOf(board))),
      ]);
      rankedEntries += ranked.reduce((a, b) => a + b, 0);
      pendingPersistence += pending.reduce((a, b) => a + b, 0);
    }
    return { players, leaderboards: boards.length, rankedEntries, pendingPersistence, countedAt: new Date() };
  }
}
