import { claimedRewardView } from '../../views.js';
import { CLAIM_RULES } from '../client/rewards.js';
import { endpoint } from '../endpoint.js';
import { ClaimedReward } from '../responses.js';
import { leaderboardId, object, playerId, seasonNumber } from '../schemas.js';

/** The game server claims a player's reward (audited). */
export const serverRewardEndpoints = [
  endpoint({
    method: 'post',
    path: '/api/v1/server/leaderboards/:leaderboard_id/seasons/:season/claims/:player_id',
    operationId: 'claimPlayerReward',
    tag: 'Game server',
    summary: "Claim a player's reward of an ended season",
    description: `${CLAIM_RULES} Recorded in the audit log as player.claim.`,
    credentials: 'secretKey',
    params: object({
      leaderboard_id: leaderboardId.description('The leaderboard'),
      season: seasonNumber,
      player_id: playerId.description("The service's player id"),
    }),
    responses: { 200: { schema: ClaimedReward } },
    // It reads no body, but a body sent anyway is still checked (400 invalid_json, 413, 415).
    errors: [400, 403, 404, 409, 413, 415],
    notFound: ['leaderboard_not_found', 'season_not_found', 'player_not_found'],
    async handler({ caller, params, app }) {
      const claim = await app.engine.claims.claim(caller.game.id, params.leaderboard_id, params.season, params.player_id, 'secret_key');
      return { status: 200, body: claimedRewardView(claim) };
    },
  }),
];
