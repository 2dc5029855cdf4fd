import { claimedRewardView } from '../../views.js';
import { endpoint } from '../endpoint.js';
import { ClaimedReward } from '../responses.js';
import { leaderboardId, object, seasonNumber } from '../schemas.js';

/** A player claims the reward of a closed or archived season (docs/competitions.md, part 4). */
export const CLAIM_RULES =
  'Once the season has closed (its window) or ended (a reset), the reward of the rank the player is shown, by the leaderboard’s rewards bands as the season ended, is claimed once: the claim freezes rank and reward, and every later claim is 409 already_claimed, its details giving the first claim’s time (claimed_at). 409 conflict while the season is open; 403 player_banned for a banned player; 404 record_not_found without a rank or without a reward for it; 404 season_not_found for a season not reached yet or no longer kept.';

export const clientRewardEndpoints = [
  endpoint({
    method: 'post',
    path: '/api/v1/client/leaderboards/:leaderboard_id/seasons/:season/claim',
    operationId: 'claimReward',
    tag: 'Game client',
    summary: 'Claim the token’s player’s reward of an ended season',
    description: CLAIM_RULES,
    credentials: 'gameClient',
    params: object({ leaderboard_id: leaderboardId.description('The leaderboard'), season: seasonNumber }),
    responses: { 200: { schema: ClaimedReward } },
    // It reads no body, but a body sent anyway is still checked (400 invalid_json, 413, 415).
    errors: [400, 403, 404, 409, 413, 415],
    notFound: ['leaderboard_not_found', 'season_not_found'],
    async handler({ caller, params, app }) {
      const claim = await app.engine.claims.claim(caller.game.id, params.leaderboard_id, params.season, caller.playerId);
      return { status: 200, body: claimedRewardView(claim) };
    },
  }),
];
