import type { LeaderboardSettings } from '../leaderboards/leaderboard-store.js';

/** Whether a board keeps entries, seats and attempts (docs/competitions.md, part 3; a league's groups need them). */
export function hasEntryRules(board: Pick<LeaderboardSettings, 'joinRequired' | 'maxPlayers' | 'maxAttempts' | 'groups'>): boolean {
  return board.joinRequired || board.maxPlayers !== null || board.maxAttempts !== null || board.groups !== null;
}
