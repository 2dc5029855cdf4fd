import { aroundView } from '../../views.js';
import { leaderboardPage } from '../shared-reads.js';
import { endpoint } from '../endpoint.js';
import { AroundMe, LeaderboardPage } from '../responses.js';
import { leaderboardParams, object, pageQuery, season, wholeNumber } from '../schemas.js';

const range = wholeNumber(1, 50, 5).description('1-50 (default 5)').example(5).example(50);

/** Leaderboard reads for game clients: a page (as for third parties) and the entries around the player. */
export const clientLeaderboardEndpoints = [
  endpoint({
    method: 'get',
    path: '/api/v1/client/leaderboards/:leaderboard_id',
    operationId: 'getLeaderboard',
    tag: 'Game client',
    summary: 'Read a page of a leaderboard (same body as the third-party endpoint)',
    description:
      "Players (or, with clan=true on a clan leaderboard, clans) in rank order from `offset`, at most `limit` of them, with the leaderboard's settings and `total` entries. Ranks are competition ranks: ties share a rank (1, 2, 2, 4).",
    credentials: 'gameClient',
    params: leaderboardParams,
    query: pageQuery,
    responses: { 200: { schema: LeaderboardPage } },
    errors: [400, 404],
    handler: ({ caller, params, query, app }) => leaderboardPage(app, caller.game.id, params.leaderboard_id, query),
  }),

  endpoint({
    method: 'get',
    path: '/api/v1/client/leaderboards/:leaderboard_id/around_me',
    operationId: 'getAroundMe',
    tag: 'Game client',
    summary: "The player's entry with up to `range` entries above and below",
    description:
      "The token's player with up to `range` entries above and below them, in rank order; 404 record_not_found while the player has no score here (that season, with `season`).",
    credentials: 'gameClient',
    params: leaderboardParams,
    query: object({ range, season }),
    responses: { 200: { schema: AroundMe } },
    errors: [400, 404],
    async handler({ caller, params, query, app }) {
      const page = await app.engine.reader.around(caller.game.id, params.leaderboard_id, caller.playerId, query.range, query.season);
      return { status: 200, body: aroundView(app.engine.config.baseUrl, page) };
    },
  }),
];
