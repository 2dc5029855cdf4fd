import { adminEndpoints } from './admin/index.js';
import { clientLeaderboardEndpoints } from './client/leaderboards.js';
import { clientPlayerEndpoints } from './client/players.js';
import { clientRewardEndpoints } from './client/rewards.js';
import { clientEntryEndpoints } from './client/entries.js';
import { clientGroupEndpoints } from './client/groups.js';
import { serverGroupEndpoints } from './server/groups.js';
import { thirdPartyGroupEndpoints } from './third-party/groups.js';
import { clientScoreEndpoints } from './client/scores.js';
import { dashboardEndpoints } from './dashboard/index.js';
import { documentationEndpoints } from './documentation/index.js';
import type { AnyEndpoint } from './endpoint.js';
import type { RouteGroup } from './mount.js';
import { operationEndpoints } from './operations/index.js';
import { serverAuditLogEndpoints } from './server/audit-log.js';
import { serverClanEndpoints } from './server/clans.js';
import { serverLeaderboardEndpoints } from './server/leaderboards.js';
import { serverModerationEndpoints } from './server/moderation.js';
import { serverReviewEndpoints } from './server/reviews.js';
import { serverPlayerEndpoints } from './server/players.js';
import { serverRewardEndpoints } from './server/rewards.js';
import { serverEntryEndpoints } from './server/entries.js';
import { serverScoreEndpoints } from './server/scores.js';
import { serverThirdPartyKeyEndpoints } from './server/third-party-keys.js';
import { serverWebhookEndpoints } from './server/webhooks.js';
import { signupEndpoints } from './signup/index.js';
import { thirdPartyEndpoints } from './third-party/index.js';
import { webEndpoints } from './web/index.js';

/**
 * Every endpoint, by resource file, in the routers that serve them. Each group is one router under
 * its prefix, so a request only walks the routes that can match it; the hottest come first (score
 * reports and record reads). A new endpoint goes into its resource file's list; a new resource file
 * adds its list here.
 */
export const ROUTE_GROUPS: RouteGroup[] = [
  {
    prefix: '/api/v1/client',
    endpoints: [
      ...clientScoreEndpoints,
      ...clientLeaderboardEndpoints,
      ...clientPlayerEndpoints,
      ...clientRewardEndpoints,
      ...clientEntryEndpoints,
      ...clientGroupEndpoints,
    ],
  },
  {
    prefix: '/api/v1/server',
    endpoints: [
      ...serverScoreEndpoints,
      ...serverLeaderboardEndpoints,
      ...serverClanEndpoints,
      ...serverPlayerEndpoints,
      ...serverModerationEndpoints,
      ...serverReviewEndpoints,
      ...serverRewardEndpoints,
      ...serverEntryEndpoints,
      ...serverGroupEndpoints,
      ...serverThirdPartyKeyEndpoints,
      ...serverWebhookEndpoints,
      ...serverAuditLogEndpoints,
    ],
  },
  { prefix: '/api/v1/third_party', endpoints: [...thirdPartyEndpoints, ...thirdPartyGroupEndpoints] },
  { prefix: '/api/v1/signup', endpoints: signupEndpoints },
  // Every path under /api/v1/admin asks for the admin token, an unknown one too.
  { prefix: '/api/v1/admin', endpoints: adminEndpoints, guard: 'admin' },
  { prefix: '/dashboard', endpoints: dashboardEndpoints },
  { prefix: '', endpoints: [...webEndpoints, ...operationEndpoints, ...documentationEndpoints] },
];

export const ENDPOINTS: AnyEndpoint[] = ROUTE_GROUPS.flatMap((group) => group.endpoints);
