import { playerView } from '../../views.js';
import { endpoint } from '../endpoint.js';
import { Player } from '../responses.js';
import { aliasChanges, clanId, displayName, nullable, object, optional, playerId } from '../schemas.js';

/** Player metadata, managed by the game server. */
export const serverPlayerEndpoints = [
  endpoint({
    method: 'patch',
    path: '/api/v1/server/players/:player_id',
    operationId: 'updatePlayer',
    tag: 'Game server',
    summary: "Set a player's display name, clan (null leaves it) and aliases (null removes one)",
    description:
      "Joining or leaving a clan moves the player's best scores between clan totals at once. An alias held by another player is 409 already_exists.",
    credentials: 'secretKey',
    params: object({ player_id: playerId.description("The service's player id") }),
    body: object({
      display_name: optional(displayName),
      clan_id: optional(nullable(clanId)),
      aliases: optional(aliasChanges.example({ steam: '76561198000000000' })),
    }),
    responses: { 200: { schema: Player } },
    errors: [404, 409],
    async handler({ caller, params, body, app }) {
      const { profile, aliases } = await app.engine.players.update(
        caller.game.id,
        params.player_id,
        {
          ...(body.display_name !== undefined && { displayName: body.display_name }),
          ...(body.clan_id !== undefined && { clanId: body.clan_id }),
          ...(body.aliases !== undefined && { aliases: body.aliases }),
        },
        'secret_key',
      );
      return { status: 200, body: playerView(profile, aliases) };
    },
  }),
];
