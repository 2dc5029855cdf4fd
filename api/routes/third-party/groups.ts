import { leagueGroupView } from '../../views.js';
import { GROUP_RULES } from '../client/groups.js';
import { endpoint } from '../endpoint.js';
import { LeagueGroup } from '../responses.js';
import { aliasId, aliasType, groupId, leaderboardId, object, optional, season } from '../schemas.js';

/** Bots read a league's groups: one by its id, or a player's (docs/competitions.md, part 6). */
export const thirdPartyGroupEndpoints = [
  endpoint({
    method: 'get',
    path: '/api/v1/third_party/leaderboards/:leaderboard_id/groups/:group_id',
    operationId: 'getThirdPartyGroup',
    tag: 'Third party',
    summary: 'One league group, ranked within itself',
    description: `${GROUP_RULES} 404 group_not_found for a group the season does not have.`,
    credentials: 'thirdParty',
    rateLimit: 'thirdParty',
    params: object({ leaderboard_id: leaderboardId.description('The leaderboard'), group_id: groupId }),
    query: object({ season }),
    responses: { 200: { schema: LeagueGroup } },
    errors: [400, 404],
    notFound: ['leaderboard_not_found', 'group_not_found'],
    async handler({ caller, params, query, app }) {
      const group = await app.engine.leagues.group(caller.game.id, params.leaderboard_id, params.group_id, query.season);
      return { status: 200, body: leagueGroupView(app.engine.config.baseUrl, group) };
    },
  }),
  endpoint({
    method: 'get',
    path: '/api/v1/third_party/leaderboards/:leaderboard_id/player/:alias_id/group',
    operationId: 'getGroupByAlias',
    tag: 'Third party',
    summary: "A player's league group, by player id or alias",
    description: `${GROUP_RULES} The player named by \`alias_id\`: their player id, or, with \`alias_type\`, an alias the game server set. 404 record_not_found when the player is in no group.`,
    credentials: 'thirdParty',
    rateLimit: 'thirdParty',
    params: object({
      leaderboard_id: leaderboardId.description('The leaderboard'),
      alias_id: aliasId.description('The player id, or an alias with alias_type'),
    }),
    query: object({
      alias_type: optional(aliasType.description('e.g. steam, discord; absent: alias_id is the player id').example('steam')),
      season,
    }),
    responses: { 200: { schema: LeagueGroup } },
    errors: [400, 404],
    notFound: ['leaderboard_not_found', 'player_not_found'],
    async handler({ caller, params: { leaderboard_id, alias_id }, query: { alias_type, season }, app }) {
      const { engine } = app;
      const gameId = caller.game.id;
      const playerId = await engine.players.playerNamed(gameId, alias_type, alias_id);
      await engine.players.get(gameId, playerId);
      const group = await engine.leagues.groupOf(gameId, leaderboard_id, playerId, season);
      return { status: 200, body: leagueGroupView(engine.config.baseUrl, group) };
    },
  }),
];
