import { leaderboardView } from '../../views.js';
import { LIST_RANKS, listRanks, seasonList } from '../shared-reads.js';
import { endpoint } from '../endpoint.js';
import { Leaderboard, LeaderboardList, ListRanks, SeasonList, SeasonReset } from '../responses.js';
import { settingsBody, settingsOf } from '../leaderboard-settings.js';
import { leaderboardParams, listQuery, object, playerIdList, season } from '../schemas.js';

/** Leaderboard management for the game server. */
export const serverLeaderboardEndpoints = [
  endpoint({
    method: 'put',
    path: '/api/v1/server/leaderboards/:leaderboard_id',
    operationId: 'upsertLeaderboard',
    tag: 'Game server',
    summary: 'Create or update a leaderboard',
    description:
      "All fields optional; defaults: name = the id, type individual, sort_order desc, client_reports true, no bounds, no reset schedule, 52 archived seasons kept, update_strategy best. 201 created, 200 updated. Changing type, sort_order or update_strategy once scores exist (archived seasons included) is 409 conflict. A bad cron expression or time zone is 400 validation_failed. opens_at and closes_at (ISO 8601, or null) set a one-off window for the current season: reports are accepted from opens_at until closes_at (either may be null: open-ended) and refused with 403 leaderboard_closed outside it; state says upcoming, open or closed. Once closed the season is final, readable as it stood, until the next reset, which clears the window; changing the window of a closed season is 409 conflict. closes_at must be later than opens_at, and a one-off window does not go with a reset_schedule (400). With a reset_schedule, open_seconds instead opens every season for that long from its start (60 up to the shortest time between the schedule's runs over the next 366 days, daylight saving included; 400 otherwise); the body then shows the current season's opens_at and closes_at.",
    credentials: 'secretKey',
    params: leaderboardParams,
    body: settingsBody,
    responses: {
      201: { schema: Leaderboard, description: 'Created (200 with the same body when updated)' },
      200: { schema: Leaderboard, description: 'Also 200' },
    },
    errors: [404, 409],
    async handler({ caller, params, body, app }) {
      const { leaderboard, created } = await app.engine.leaderboards.put(
        caller.game.id,
        params.leaderboard_id,
        settingsOf(body),
        'secret_key',
      );
      return { status: created ? 201 : 200, body: leaderboardView(leaderboard) };
    },
  }),

  endpoint({
    method: 'get',
    path: '/api/v1/server/leaderboards/:leaderboard_id',
    operationId: 'getServerLeaderboard',
    tag: 'Game server',
    summary: 'Read one leaderboard: its settings, season and next reset',
    description:
      'The body PUT answers: every setting, the current season and when it started, and the next scheduled reset. Read as stored now, so a change is seen at once whichever API process made it. 404 leaderboard_not_found when the game has no such leaderboard.',
    credentials: 'secretKey',
    params: leaderboardParams,
    responses: { 200: { schema: Leaderboard } },
    errors: [400, 404],
    async handler({ caller, params, app }) {
      return { status: 200, body: leaderboardView(await app.engine.leaderboards.read(caller.game.id, params.leaderboard_id)) };
    },
  }),

  endpoint({
    method: 'get',
    path: '/api/v1/server/leaderboards',
    operationId: 'listLeaderboards',
    tag: 'Game server',
    summary: "The game's leaderboards, oldest first, a page at a time",
    description: "The game's leaderboards with their settings, oldest first, `limit` at a time from `offset`, with `total`.",
    credentials: 'secretKey',
    query: listQuery,
    responses: { 200: { schema: LeaderboardList } },
    errors: [400],
    async handler({ caller, query: { limit, offset }, app }) {
      const { total, leaderboards } = await app.engine.leaderboards.list(caller.game.id, offset, limit);
      return { status: 200, body: { leaderboards: leaderboards.map(leaderboardView), total, limit, offset } };
    },
  }),

  endpoint({
    method: 'delete',
    path: '/api/v1/server/leaderboards/:leaderboard_id',
    operationId: 'deleteLeaderboard',
    tag: 'Game server',
    summary: 'Delete a leaderboard and all its scores, for good',
    description:
      'Removes the leaderboard, its scores and clan totals. Final: persistence jobs still queued for it never bring its scores back, and a leaderboard created later under the same id starts empty.',
    credentials: 'secretKey',
    params: leaderboardParams,
    responses: { 204: { description: 'Deleted' } },
    errors: [400, 404],
    async handler({ caller, params, app }) {
      await app.engine.leaderboards.delete(caller.game.id, params.leaderboard_id, 'secret_key');
      return { status: 204 };
    },
  }),

  endpoint({
    method: 'post',
    path: '/api/v1/server/leaderboards/:leaderboard_id/reset',
    operationId: 'resetLeaderboard',
    tag: 'Game server',
    summary: 'End the current season now and start the next one',
    description:
      'One instant: every report answered before it counts in the ended season, every later one in the new season, which starts empty (clan totals too; memberships stay). The ended season is archived by the worker and stays readable with `?season=N`.',
    credentials: 'secretKey',
    params: leaderboardParams,
    responses: { 200: { schema: SeasonReset } },
    // It reads no body, but a body sent anyway is still checked (400 invalid_json, 413, 415).
    errors: [400, 404, 413, 415],
    async handler({ caller, params, app }) {
      const board = await app.engine.leaderboards.get(caller.game.id, params.leaderboard_id);
      const reset = (await app.engine.seasons.reset(board, 'secret_key'))!;
      return { status: 200, body: { leaderboard_id: board.id, season: reset.season, archived_season: reset.archivedSeason } };
    },
  }),

  endpoint({
    method: 'get',
    path: '/api/v1/server/leaderboards/:leaderboard_id/seasons',
    operationId: 'listSeasons',
    tag: 'Game server',
    summary: "A leaderboard's seasons, newest first",
    description:
      'The current season and every archived season still kept, newest first, with when each started and ended and its ranked players.',
    credentials: 'secretKey',
    params: leaderboardParams,
    query: listQuery,
    responses: { 200: { schema: SeasonList } },
    errors: [400, 404],
    handler: ({ caller, params, query, app }) => seasonList(app, caller.game.id, params.leaderboard_id, query),
  }),

  endpoint({
    method: 'get',
    path: '/api/v1/server/leaderboards/:leaderboard_id/ranks',
    operationId: 'getServerListRanks',
    tag: 'Game server',
    summary: 'The ranks of a list of players (a party, a guild, a match)',
    description: LIST_RANKS,
    credentials: 'secretKey',
    params: leaderboardParams,
    query: object({ player_ids: playerIdList, season }),
    responses: { 200: { schema: ListRanks } },
    errors: [400, 404],
    handler: ({ caller, params, query, app, req }) =>
      listRanks(app, req, caller.game.id, params.leaderboard_id, { playerIds: query.player_ids }, query.season),
  }),
];
