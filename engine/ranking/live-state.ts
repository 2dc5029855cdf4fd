import type { Leaderboard } from '../leaderboards/leaderboard-store.js';
import type { PlayerStore } from '../players/player-store.js';
import type { ScoreStore } from '../persistence/score-store.js';
import type { Rankings } from './rankings.js';

/**
 * Brings a leaderboard's Redis state in line with PostgreSQL: clan memberships (on clan
 * leaderboards) and then every persisted best score, merged without lowering anything reported
 * since. Used for new leaderboards and by the rebuild (engine/rebuild.ts).
 * Atomic per chunk (one script, one slot), not as a whole: reports may land between chunks, and
 * that is safe because every step keeps the better score (ZADD GT/LT) and moves clan totals by
 * exact differences, the same way a report does.
 */
export class LiveState {
  constructor(
    private readonly rankings: Rankings,
    private readonly players: PlayerStore,
    private readonly scores: ScoreStore,
  ) {}

  async prepare(leaderboard: Leaderboard): Promise<void> {
    if (leaderboard.type === 'clan') {
      for await (const page of this.players.clanMemberships(leaderboard.gameId)) await this.rankings.setClans(leaderboard, page);
    }
    for await (const page of this.scores.scorePages(leaderboard.internalId)) await this.rankings.merge(leaderboard, page);
  }
}
