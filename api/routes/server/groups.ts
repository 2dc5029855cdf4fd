import { groupListView, leagueGroupView } from '../../views.js';
import { GROUP_RULES } from '../client/groups.js';
import { endpoint } from '../endpoint.js';
import { GroupList, LeagueGroup } from '../responses.js';
import { groupId, leaderboardId, leaderboardParams, limit, object, offset, optional, season, tierName } from '../schemas.js';

/** The game server reads a league's groups (docs/competitions.md, part 6). */
export const serverGroupEndpoints = [
  endpoint({
    method: 'get',
    path: '/api/v1/server/leaderboards/:leaderboard_id/groups',
    operationId: 'listGroups',
    tag: 'Game server',
    summary: "A league's groups of a season, oldest first, a page at a time",
    description:
      "The season's groups (default: the current one; `?season=N` an archived one), of one tier or all, oldest first, each with its tier and players (the current season's: banned ones included; an archived season's: the members it ranked), `limit` at a time from `offset`. 404 group_not_found on a board without groups; 400 for a tier the league does not have.",
    credentials: 'secretKey',
    params: leaderboardParams,
    query: object({ tier: optional(tierName), season, limit, offset }),
    responses: { 200: { schema: GroupList } },
    errors: [400, 404],
    notFound: ['leaderboard_not_found'],
    async handler({ caller, params, query: { tier, season, limit, offset }, app }) {
      const page = await app.engine.leagues.groups(caller.game.id, params.leaderboard_id, tier, offset, limit, season);
      return { status: 200, body: groupListView(page, limit, offset) };
    },
  }),
  endpoint({
    method: 'get',
    path: '/api/v1/server/leaderboards/:leaderboard_id/groups/:group_id',
    operationId: 'getGroup',
    tag: 'Game server',
    summary: 'One league group, ranked within itself',
    description: `${GROUP_RULES} 404 group_not_found for a group the season does not have.`,
    credentials: 'secretKey',
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
];
