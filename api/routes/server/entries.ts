import { seasonEntryView } from '../../views.js';
import { ENTRY_RULES } from '../client/entries.js';
import { endpoint } from '../endpoint.js';
import { Entry } from '../responses.js';
import { leaderboardId, object, playerId } from '../schemas.js';

const params = object({
  leaderboard_id: leaderboardId.description('The leaderboard'),
  player_id: playerId.description("The service's player id"),
});

/** The game server enters its players in a season, or withdraws them (docs/competitions.md, part 3). */
export const serverEntryEndpoints = [
  endpoint({
    method: 'put',
    path: '/api/v1/server/leaderboards/:leaderboard_id/entries/:player_id',
    operationId: 'enterPlayer',
    tag: 'Game server',
    summary: 'Enter a player in the current season',
    description: ENTRY_RULES,
    credentials: 'secretKey',
    params,
    responses: { 200: { schema: Entry } },
    // It reads no body, but a body sent anyway is still checked (400 invalid_json, 413, 415).
    errors: [400, 403, 404, 409, 413, 415],
    notFound: ['leaderboard_not_found', 'player_not_found'],
    async handler({ caller, params, app }) {
      const entry = await app.engine.entries.fromServer(caller.game.id, params.player_id, params.leaderboard_id, 'enter');
      return { status: 200, body: seasonEntryView(entry) };
    },
  }),
  endpoint({
    method: 'delete',
    path: '/api/v1/server/leaderboards/:leaderboard_id/entries/:player_id',
    operationId: 'withdrawPlayer',
    tag: 'Game server',
    summary: 'Withdraw a player from the current season before their first report',
    description: ENTRY_RULES,
    credentials: 'secretKey',
    params,
    responses: { 200: { schema: Entry } },
    errors: [400, 403, 404, 409],
    notFound: ['leaderboard_not_found', 'player_not_found'],
    async handler({ caller, params, app }) {
      const entry = await app.engine.entries.fromServer(caller.game.id, params.player_id, params.leaderboard_id, 'withdraw');
      return { status: 200, body: seasonEntryView(entry) };
    },
  }),
];
