import Joi from 'joi';
import { ValidationError } from '../../../engine/errors.js';
import { aroundView, competitionView } from '../../views.js';
import { LIST_RANKS, leaderboardPage, listRanks } from '../shared-reads.js';
import { LIVE_RESPONSES, LIVE_STREAM, playerStream } from '../live-streams.js';
import { endpoint } from '../endpoint.js';
import { AroundMe, CompetitionList, LeaderboardPage, ListRanks } from '../responses.js';
import {
  leaderboardParams,
  liveLimit,
  MAX_LISTED_PLAYERS,
  object,
  offset,
  oneOf,
  optional,
  pageQuery,
  playerIdList,
  season,
  wholeNumber,
} from '../schemas.js';

const range = wholeNumber(1, 50, 5).description('1-50 (default 5)').example(5).example(50);
/** Each listed board costs the page one Redis script (the caller's part): a page is at most 100. */
const competitionLimit = wholeNumber(1, 100, 20).description('Page size, 1-100 (default 20)').example(20);

/** Leaderboard reads for game clients: a page (as for third parties) and the entries around the player. */
export const clientLeaderboardEndpoints = [
  endpoint({
    method: 'get',
    path: '/api/v1/client/leaderboards',
    operationId: 'listCompetitions',
    tag: 'Game client',
    summary: 'The competitions a player can find: the game’s listed leaderboards',
    description:
      'The game’s leaderboards with listed true, oldest first, `limit` (1-100, default 20) at a time from `offset`, with `total`; `state` keeps those upcoming, open or closed now. Each with its window, season, the players holding a score this season, and whether the token’s player is one of them.',
    credentials: 'gameClient',
    query: object({
      state: optional(oneOf('upcoming', 'open', 'closed').description('Only the boards in this state now').example('open')),
      limit: competitionLimit,
      offset,
    }),
    responses: { 200: { schema: CompetitionList } },
    errors: [400],
    async handler({ caller, query, app }) {
      const { total, leaderboards } = await app.engine.leaderboards.listed(caller.game.id, query.state, query.offset, query.limit);
      const seats = await Promise.all(leaderboards.map((board) => app.engine.leaderboards.seatOf(board, caller.playerId)));
      return {
        status: 200,
        body: {
          leaderboards: leaderboards.map((board, i) => competitionView(board, seats[i]!)),
          total,
          limit: query.limit,
          offset: query.offset,
        },
      };
    },
  }),

  endpoint({
    method: 'get',
    path: '/api/v1/client/leaderboards/:leaderboard_id/live',
    operationId: 'watchLeaderboard',
    tag: 'Game client',
    summary: 'Watch the first entries of a leaderboard live (Server-Sent Events)',
    description: `The player's token in Anonymous-Authorization, or in ?token= (EventSource sends no headers); no Publishable-Key needed. A banned player is 403 player_banned. ${LIVE_STREAM} On a board with notify_top, the stream also gets an event \`overtaken\` whenever a report passes its player within the first notify_top ranks: \`{leaderboard_id, season, player_id, previous_rank, rank, by: {player_id, display_name, score}}\` (player.overtaken's data without aliases).`,
    credentials: 'playerToken',
    params: leaderboardParams,
    query: object({
      token: optional(Joi.string().description('The anonymous player token, for EventSource (else Anonymous-Authorization)')),
      limit: liveLimit,
    }),
    responses: LIVE_RESPONSES,
    errors: [400, 401, 403, 404, 429],
    handler: ({ caller, params, query, app, req, res }) => playerStream(app, caller.viewer, params.leaderboard_id, query.limit, req, res),
  }),

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
    refusesErasedItself: true,
    params: leaderboardParams,
    query: object({ range, season }),
    responses: { 200: { schema: AroundMe } },
    errors: [400, 404],
    async handler({ caller, params, query, app }) {
      // The player's own read: a held score of theirs shows (docs/review.md).
      const page = await app.engine.reader.around(caller.game.id, params.leaderboard_id, caller.playerId, query.range, query.season, true);
      return { status: 200, body: aroundView(app.engine.config.baseUrl, page) };
    },
  }),

  endpoint({
    method: 'get',
    path: '/api/v1/client/leaderboards/:leaderboard_id/ranks',
    operationId: 'getListRanks',
    tag: 'Game client',
    summary: 'The ranks of a list of players (friends, rivals), the token’s player always among them',
    description: `${LIST_RANKS} The token's player is always in the list and counts within the 100; without player_ids, the list is that player alone.`,
    credentials: 'gameClient',
    params: leaderboardParams,
    query: object({ player_ids: optional(playerIdList.description('Player ids, comma-separated; the token’s player is added')), season }),
    responses: { 200: { schema: ListRanks } },
    errors: [400, 404],
    handler({ caller, params, query, app, req }) {
      const playerIds = [...new Set([caller.playerId, ...(query.player_ids ?? [])])];
      if (playerIds.length > MAX_LISTED_PLAYERS) {
        const message = `must name at most ${MAX_LISTED_PLAYERS - 1} players besides the token's own`;
        throw new ValidationError(`player_ids ${message}.`, [{ field: 'player_ids', message }]);
      }
      return listRanks(app, req, caller.game.id, params.leaderboard_id, { playerIds }, query.season, caller.playerId);
    },
  }),
];
