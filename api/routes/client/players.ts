import { playerView } from '../../views.js';
import { endpoint } from '../endpoint.js';
import { Player } from '../responses.js';
import { displayName, object } from '../schemas.js';

/** A player renames themself. */
export const clientPlayerEndpoints = [
  endpoint({
    method: 'patch',
    path: '/api/v1/client/players/me',
    operationId: 'updateMyPlayer',
    tag: 'Game client',
    summary: 'Set the player’s display name',
    description:
      'Sets the display name shown on every leaderboard (NFC-normalised, 1-32 characters, at least one visible character). Answers the player with their clan and aliases.',
    credentials: 'gameClient',
    body: object({ display_name: displayName.example('Ada') }),
    responses: { 200: { schema: Player } },
    errors: [404],
    async handler({ caller, body, app }) {
      const player = await app.engine.players.rename(caller.game.id, caller.playerId, body.display_name);
      const aliases = await app.engine.players.aliasesOf(player.id);
      return { status: 200, body: playerView(player, aliases) };
    },
  }),
];
