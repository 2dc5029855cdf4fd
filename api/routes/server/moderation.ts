import Joi from 'joi';
import { endpoint } from '../endpoint.js';
import { playerDetailsView } from '../../views.js';
import { PlayerDetails } from '../responses.js';
import { banReason, leaderboardId, object, optional, playerId, season } from '../schemas.js';

const playerParams = object({ player_id: playerId.description("The service's player id") });

/** Moderation by the game server: remove a score, ban and unban a player. */
export const serverModerationEndpoints = [
  endpoint({
    method: 'delete',
    path: '/api/v1/server/leaderboards/:leaderboard_id/scores/:player_id',
    operationId: 'deleteScore',
    tag: 'Game server',
    summary: "Remove one player's score from a leaderboard's current season",
    description:
      'The score is gone at once from ranks, totals and clan totals, and from PostgreSQL once the worker has written the change (a persistence job already holding the old score cannot bring it back). The player may report again. 404 record_not_found when the player has no score. Recorded in the audit log as score.remove.',
    credentials: 'secretKey',
    params: object({
      leaderboard_id: leaderboardId.description('The leaderboard'),
      player_id: playerId.description("The service's player id"),
    }),
    query: object({ season }),
    responses: { 204: { description: 'Removed' } },
    errors: [400, 404],
    async handler({ caller, params, query, app }) {
      await app.engine.moderation.removeScore(caller.game.id, params.leaderboard_id, params.player_id, query.season, 'secret_key');
      return { status: 204 };
    },
  }),

  endpoint({
    method: 'post',
    path: '/api/v1/server/players/:player_id/ban',
    operationId: 'banPlayer',
    tag: 'Game server',
    summary: 'Ban a player: hidden from every read of every leaderboard, reports refused',
    description:
      "At once the player is absent from every read of every leaderboard of the game (lists, records, around_me, clan members, the web page, third-party reads and archived seasons), every clan total drops their scores, the others' ranks and totals close up, and their reports are refused with 403 player_banned. Nothing is deleted: an unban brings everything back. Banning a banned player changes nothing (the first ban's time and reason stay; a ban of the other kind changes only its kind). With `\"shadow\": true` (docs/review.md) others see the player as banned, but the player is not told: their client reports are answered as held scores, their own reads show their scores and ranks as if counted, their live streams stay open, and their own reward claim is 404 record_not_found (the game server's reports and claims for them are 403 player_banned). Recorded in the audit log as player.ban.",
    credentials: 'secretKey',
    params: playerParams,
    body: object({
      reason: optional(
        banReason
          .example('Impossible scores on speedrun')
          .description('Why, for the audit log and support: 1-500 characters, readable text'),
      ),
      shadow: optional(
        Joi.boolean().strict().example(false).description('A shadow ban: the player is not told (default false, an outright ban)'),
      ),
    }),
    responses: { 200: { schema: PlayerDetails } },
    errors: [400, 404],
    async handler({ caller, params, body, app }) {
      await app.engine.moderation.ban(caller.game.id, params.player_id, body.reason ?? null, 'secret_key', body.shadow ? 'shadow' : 'ban');
      return { status: 200, body: playerDetailsView(await app.engine.playerLookup.details(caller.game.id, params.player_id)) };
    },
  }),

  endpoint({
    method: 'delete',
    path: '/api/v1/server/players/:player_id/ban',
    operationId: 'unbanPlayer',
    tag: 'Game server',
    summary: 'Unban a player: every score and clan contribution comes back as it was',
    description:
      'Every score of the player (archived seasons included) and their clan contributions come back exactly as they were; their reports are accepted again. Unbanning a player who is not banned changes nothing. Recorded in the audit log as player.unban.',
    credentials: 'secretKey',
    params: playerParams,
    responses: { 200: { schema: PlayerDetails } },
    errors: [400, 404],
    async handler({ caller, params, app }) {
      await app.engine.moderation.unban(caller.game.id, params.player_id, 'secret_key');
      return { status: 200, body: playerDetailsView(await app.engine.playerLookup.details(caller.game.id, params.player_id)) };
    },
  }),

  endpoint({
    method: 'delete',
    path: '/api/v1/server/players/:player_id',
    operationId: 'deletePlayer',
    tag: 'Game server',
    summary: 'Erase a player (a data-protection request): every trace of them goes',
    description:
      'The player, their device binding, display name, aliases, clan membership, every score (live, PostgreSQL and archived seasons) and their avatar are gone; ranks, totals and clan totals close up at once; their tokens are refused with 401 invalid_token; a later signup with the same device_id is a new player. Again: 404 player_not_found. Recorded in the audit log as player.delete with the player id only.',
    credentials: 'secretKey',
    params: playerParams,
    responses: { 204: { description: 'Erased' } },
    errors: [400, 404],
    async handler({ caller, params, app }) {
      await app.engine.moderation.erase(caller.game.id, params.player_id, 'secret_key');
      return { status: 204 };
    },
  }),
];
