import { deleteLeaderboardEndpoint, leaderboardPageEndpoint, resetLeaderboardEndpoint, updateLeaderboardEndpoint } from './board.js';
import { removeScoreEndpoint } from './entries.js';
import { createLeaderboardEndpoint, leaderboardsPageEndpoint } from './list.js';

/**
 * The Leaderboards section: the list with "Create leaderboard" (list.ts), a board's page with its
 * settings, seasons, reset and delete (board.ts), its entries with a player search and "Remove
 * score" (entries.ts), and the settings form both use (form.ts).
 */
export const leaderboardsEndpoints = [
  leaderboardsPageEndpoint,
  createLeaderboardEndpoint,
  leaderboardPageEndpoint,
  updateLeaderboardEndpoint,
  removeScoreEndpoint,
  resetLeaderboardEndpoint,
  deleteLeaderboardEndpoint,
];
