import { NotFoundError } from '../../../engine/errors.js';
import { clanMembersView, clanRecordView, playerRecordView, rankHistoryView } from '../../views.js';
import { LIST_RANKS, leaderboardPage, listRanks, seasonList } from '../shared-reads.js';
import { keyStream, LIVE_RESPONSES, LIVE_STREAM } from '../live-streams.js';
import { endpoint } from '../endpoint.js';
import { ClanMembers, ClanRecord, LeaderboardPage, ListRanks, PlayerOrClanRecord, RankHistory, SeasonList } from '../responses.js';
import {
  aliasId,
  aliasIdList,
  aliasType,
  clanId,
  flag,
  historyRange,
  leaderboardId,
  leaderboardParams,
  limit,
  listQuery,
  object,
  offset,
  optional,
  liveLimit,
  pageQuery,
  playerIdList,
  season,
} from '../schemas.js';

const clanParams = object({ leaderboard_id: leaderboardId.description('The leaderboard'), clan_id: clanId.description('The clan') });
const clanFlag = flag.description('true: the clans view (clan leaderboards only)').example(true).example(false);

/** Read-only access for outside integrations (Api-Key), each key limited per second. */
export const thirdPartyEndpoints = [
  endpoint({
    method: 'get',
    path: '/api/v1/third_party/leaderboards/:leaderboard_id',
    operationId: 'getThirdPartyLeaderboard',
    tag: 'Third party',
    summary: 'A page of a leaderboard: players, or clans with clan=true',
    description:
      'Best first; tied entries share a rank and keep one fixed order. clan=true on an individual leaderboard is 400 not_a_clan_leaderboard.',
    credentials: 'thirdParty',
    rateLimit: 'thirdParty',
    params: leaderboardParams,
    query: pageQuery,
    responses: { 200: { schema: LeaderboardPage } },
    errors: [400, 404],
    handler: ({ caller, params, query, app }) => leaderboardPage(app, caller.game.id, params.leaderboard_id, query),
  }),

  endpoint({
    method: 'get',
    path: '/api/v1/third_party/leaderboards/:leaderboard_id/live',
    operationId: 'watchThirdPartyLeaderboard',
    tag: 'Third party',
    summary: 'Watch the first entries of a leaderboard live (Server-Sent Events)',
    description: LIVE_STREAM,
    credentials: 'thirdParty',
    rateLimit: 'thirdParty',
    params: leaderboardParams,
    query: object({ limit: liveLimit }),
    responses: LIVE_RESPONSES,
    errors: [400, 404, 429],
    handler: ({ caller, params, query, app, req, res }) => keyStream(app, caller.game.id, req, res, params.leaderboard_id, query.limit),
  }),

  endpoint({
    method: 'get',
    path: '/api/v1/third_party/leaderboards/:leaderboard_id/player/:alias_id',
    operationId: 'getRecordByAlias',
    tag: 'Third party',
    summary: "A player's record by player id or alias, or with clan=true their clan's record",
    description:
      "The player named by `alias_id`: their player id, or, with `alias_type`, an alias the game server set (e.g. a Steam or Discord id). With clan=true, the record of the player's clan on a clan leaderboard.",
    credentials: 'thirdParty',
    rateLimit: 'thirdParty',
    params: object({
      leaderboard_id: leaderboardId.description('The leaderboard'),
      alias_id: aliasId.description('The player id, or an alias with alias_type'),
    }),
    query: object({
      alias_type: optional(
        aliasType.description('e.g. steam, discord; absent: alias_id is the player id').example('steam').example('discord'),
      ),
      clan: clanFlag,
      season,
    }),
    responses: { 200: { schema: PlayerOrClanRecord, description: 'The player record (a ClanRecord with clan=true)' } },
    errors: [400, 404],
    // The leaderboard and the player are looked up together: whichever is missing first answers.
    notFound: ['leaderboard_not_found', 'player_not_found'],
    async handler({ caller, params: { leaderboard_id, alias_id }, query: { alias_type, clan, season }, app }) {
      const { engine } = app;
      const gameId = caller.game.id;
      const playerId = await engine.players.playerNamed(gameId, alias_type, alias_id);
      if (!clan)
        return {
          status: 200,
          body: playerRecordView(engine.config.baseUrl, await engine.scores.record(gameId, leaderboard_id, playerId, season)),
        };
      const player = await engine.players.get(gameId, playerId);
      if (!player.clanId) throw new NotFoundError('clan_not_found', `Player '${playerId}' is not in a clan.`);
      return { status: 200, body: clanRecordView(await engine.reader.clanRecord(gameId, leaderboard_id, player.clanId, season)) };
    },
  }),

  endpoint({
    method: 'get',
    path: '/api/v1/third_party/leaderboards/:leaderboard_id/player/:alias_id/history',
    operationId: 'getRankHistoryByAlias',
    tag: 'Third party',
    summary: "A player's rank history by player id or alias",
    description:
      'The player named by `alias_id` (their player id, or with `alias_type` an alias the game server set): their best rank this season and their daily rank snapshots on the leaderboard (docs/history.md), oldest first, at most 400. 404 record_not_found for a banned player.',
    credentials: 'thirdParty',
    rateLimit: 'thirdParty',
    params: object({
      leaderboard_id: leaderboardId.description('The leaderboard'),
      alias_id: aliasId.description('The player id, or an alias with alias_type'),
    }),
    query: object({
      ...historyRange,
      alias_type: optional(aliasType.description('e.g. steam, discord; absent: alias_id is the player id').example('discord')),
    }),
    responses: { 200: { schema: RankHistory } },
    errors: [400, 404],
    notFound: ['leaderboard_not_found', 'player_not_found'],
    async handler({ caller, params: { leaderboard_id, alias_id }, query: { alias_type, from, to }, app }) {
      const { engine } = app;
      const gameId = caller.game.id;
      const playerId = await engine.players.playerNamed(gameId, alias_type, alias_id);
      return { status: 200, body: rankHistoryView(await engine.history.of(gameId, leaderboard_id, playerId, { from, to })) };
    },
  }),

  endpoint({
    method: 'get',
    path: '/api/v1/third_party/leaderboards/:leaderboard_id/clans/:clan_id',
    operationId: 'getClanRecord',
    tag: 'Third party',
    summary: "A clan's record",
    description: "The clan's total (the sum of its members' best scores), rank among clans and member count on a clan leaderboard.",
    credentials: 'thirdParty',
    rateLimit: 'thirdParty',
    params: clanParams,
    query: object({ season }),
    responses: { 200: { schema: ClanRecord } },
    errors: [400, 404],
    async handler({ caller, params, query, app }) {
      return {
        status: 200,
        body: clanRecordView(await app.engine.reader.clanRecord(caller.game.id, params.leaderboard_id, params.clan_id, query.season)),
      };
    },
  }),

  endpoint({
    method: 'get',
    path: '/api/v1/third_party/leaderboards/:leaderboard_id/clans/:clan_id/members',
    operationId: 'listClanMembers',
    tag: 'Third party',
    summary: "A clan's members, best first; members without a score last",
    description:
      "The clan's members with their scores, ranks on the leaderboard and ranks within the clan, best first; members without a score come last.",
    credentials: 'thirdParty',
    rateLimit: 'thirdParty',
    params: clanParams,
    query: object({ limit, offset, season }),
    responses: { 200: { schema: ClanMembers } },
    errors: [400, 404],
    async handler({ caller, params, query: { limit, offset, season }, app }) {
      const members = await app.engine.reader.clanMembers(caller.game.id, params.leaderboard_id, params.clan_id, offset, limit, season);
      return { status: 200, body: clanMembersView(app.engine.config.baseUrl, members, limit, offset) };
    },
  }),

  endpoint({
    method: 'get',
    path: '/api/v1/third_party/leaderboards/:leaderboard_id/seasons',
    operationId: 'listThirdPartySeasons',
    tag: 'Third party',
    summary: "A leaderboard's seasons, newest first",
    description: 'The current season and every archived season still kept, newest first; read any of them with `?season=N`.',
    credentials: 'thirdParty',
    rateLimit: 'thirdParty',
    params: leaderboardParams,
    query: listQuery,
    responses: { 200: { schema: SeasonList } },
    errors: [400, 404],
    handler: ({ caller, params, query, app }) => seasonList(app, caller.game.id, params.leaderboard_id, query),
  }),

  endpoint({
    method: 'get',
    path: '/api/v1/third_party/leaderboards/:leaderboard_id/ranks',
    operationId: 'getThirdPartyListRanks',
    tag: 'Third party',
    summary: 'The ranks of a list of players, by player id or by alias (a Discord server’s members)',
    description: `${LIST_RANKS} Name the players with player_ids, or with alias_type and alias_ids (one alias_ids parameter per id, as an alias id may hold a comma); not both.`,
    credentials: 'thirdParty',
    rateLimit: 'thirdParty',
    params: leaderboardParams,
    query: object({
      player_ids: optional(playerIdList),
      alias_type: optional(aliasType.description('The type of alias_ids, e.g. discord or steam').example('discord')),
      alias_ids: optional(aliasIdList.description('Alias ids of alias_type, one parameter each').example(['190255011201417216'])),
      season,
    })
      .xor('player_ids', 'alias_ids')
      .and('alias_type', 'alias_ids')
      .messages({
        'object.xor': 'give either player_ids or alias_type with alias_ids, not both',
        'object.missing': 'give player_ids, or alias_type with alias_ids',
        'object.and': 'alias_type and alias_ids go together',
      }),
    responses: { 200: { schema: ListRanks } },
    errors: [400, 404],
    handler({ caller, params, query: { player_ids, alias_type, alias_ids, season }, app, req }) {
      const listed = alias_ids ? { aliasType: alias_type!, aliasIds: alias_ids } : { playerIds: player_ids! };
      return listRanks(app, req, caller.game.id, params.leaderboard_id, listed, season);
    },
  }),
];
