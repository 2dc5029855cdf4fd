import { playerDetailsView, playerSearchView, playerView } from '../../views.js';
import { COUNT_AHEAD } from '../../../engine/players/player-lookup.js';
import { endpoint } from '../endpoint.js';
import { Player, PlayerDetails, PlayerSearch } from '../responses.js';
import { aliasChanges, clanId, displayName, limit, nullable, object, offset, optional, playerId, playerSearch } from '../schemas.js';

const playerParams = object({ player_id: playerId.description("The service's player id") });

/** Player metadata, managed by the game server; support's lookup and search. */
export const serverPlayerEndpoints = [
  endpoint({
    method: 'get',
    path: '/api/v1/server/players/:player_id',
    operationId: 'getPlayer',
    tag: 'Game server',
    summary: 'A player with their ban state and their score and rank on every leaderboard',
    description:
      "For support: the player's profile and aliases, whether they are banned (since when, why), when they signed up, and their score and live rank on each leaderboard of the game where they hold one in the current season.",
    credentials: 'secretKey',
    params: playerParams,
    responses: { 200: { schema: PlayerDetails } },
    errors: [400, 404],
    async handler({ caller, params, app }) {
      return { status: 200, body: playerDetailsView(await app.engine.playerLookup.details(caller.game.id, params.player_id)) };
    },
  }),

  endpoint({
    method: 'get',
    path: '/api/v1/server/players',
    operationId: 'listPlayers',
    tag: 'Game server',
    summary: 'Find players by id, alias id or the start of their display name',
    description: `Matches the player whose id is \`search\`, the players holding it as an alias id (any alias type), and the players whose display name starts with it (case-insensitive; \`%\` and \`_\` are plain characters). In that order: the exact id, then exact aliases, then name matches by name; each player once. Name matches are counted up to ${COUNT_AHEAD} past the page, so a short prefix shared by most of a game costs what its page costs: when more match, \`total_exact\` is false and \`total\` is a lower bound (paging on while offset + limit < total reaches every match).`,
    credentials: 'secretKey',
    query: object({ search: playerSearch, limit, offset }),
    responses: { 200: { schema: PlayerSearch } },
    errors: [400],
    async handler({ caller, query: { search, limit, offset }, app }) {
      const found = await app.engine.playerLookup.search(caller.game.id, search, offset, limit);
      return { status: 200, body: playerSearchView(found, limit, offset) };
    },
  }),

  endpoint({
    method: 'patch',
    path: '/api/v1/server/players/:player_id',
    operationId: 'updatePlayer',
    tag: 'Game server',
    summary: "Set a player's display name, clan (null leaves it) and aliases (null removes one)",
    description:
      "Joining or leaving a clan moves the player's best scores between clan totals at once. An alias held by another player is 409 already_exists.",
    credentials: 'secretKey',
    params: playerParams,
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
