import { auditLogEndpoints } from './audit-log.js';
import { gameEndpoints } from './games.js';
import { leaderboardsEndpoints } from './leaderboards/index.js';
import { overviewEndpoints } from './overview.js';
import { playersEndpoints } from './players.js';
import { reviewsEndpoints } from './reviews.js';
import { settingsEndpoints } from './settings.js';
import { signInEndpoints } from './sign-in.js';

/**
 * The dashboard (README, "The dashboard"): server-rendered pages and form posts behind a session
 * cookie, one file (or folder) per section. Built from route descriptors like the API, so the auth matrix and
 * the fuzzer reach them, but left out of the OpenAPI document.
 */
export const dashboardEndpoints = [
  ...signInEndpoints,
  ...gameEndpoints,
  ...overviewEndpoints,
  ...leaderboardsEndpoints,
  ...playersEndpoints,
  ...reviewsEndpoints,
  ...auditLogEndpoints,
  ...settingsEndpoints,
];
