import { seasonEntryView } from '../../views.js';
import { endpoint } from '../endpoint.js';
import { Entry } from '../responses.js';
import { leaderboardId, object } from '../schemas.js';

/** Entering a season and withdrawing from it (docs/competitions.md, part 3). */
export const ENTRY_RULES =
  'On a leaderboard with join_required, max_players or max_attempts (409 conflict on others). Entering takes a seat in the current season, upcoming or open (409 conflict once it has closed); it is idempotent; 409 leaderboard_full when max_players seats are taken (a seat is held by entering or by a score, banned players keep theirs). Withdrawing gives the seat back before the player’s first report of the season (409 conflict after it, or once the season has closed); withdrawing a player not entered changes nothing. 403 player_banned for a banned player.';

const params = object({ leaderboard_id: leaderboardId.description('The leaderboard') });

export const clientEntryEndpoints = [
  endpoint({
    method: 'post',
    path: '/api/v1/client/leaderboards/:leaderboard_id/entry',
    operationId: 'enterSeason',
    tag: 'Game client',
    summary: 'Enter the token’s player in the current season',
    description: ENTRY_RULES,
    credentials: 'gameClient',
    params,
    responses: { 200: { schema: Entry } },
    // It reads no body, but a body sent anyway is still checked (400 invalid_json, 413, 415).
    errors: [400, 403, 404, 409, 413, 415],
    notFound: ['leaderboard_not_found'],
    async handler({ caller, params, app }) {
      const entry = await app.engine.entries.fromClient(caller.game.id, caller.playerId, params.leaderboard_id, 'enter');
      return { status: 200, body: seasonEntryView(entry) };
    },
  }),
  endpoint({
    method: 'delete',
    path: '/api/v1/client/leaderboards/:leaderboard_id/entry',
    operationId: 'withdrawEntry',
    tag: 'Game client',
    summary: 'Withdraw the token’s player from the current season before a first report',
    description: ENTRY_RULES,
    credentials: 'gameClient',
    params,
    responses: { 200: { schema: Entry } },
    errors: [400, 403, 404, 409],
    notFound: ['leaderboard_not_found'],
    async handler({ caller, params, app }) {
      const entry = await app.engine.entries.fromClient(caller.game.id, caller.playerId, params.leaderboard_id, 'withdraw');
      return { status: 200, body: seasonEntryView(entry) };
    },
  }),
];
