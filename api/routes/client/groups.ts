import { leagueGroupView } from '../../views.js';
import { endpoint } from '../endpoint.js';
import { LeagueGroup } from '../responses.js';
import { leaderboardParams, object, season } from '../schemas.js';

/** How a group read answers (docs/competitions.md, part 6). */
export const GROUP_RULES =
  "On a league board (groups): the group's members holding a score, ranked within the group by the board's order and tie rule (banned players left out), each with the zone the season's end would move them to as the group stands (promote, stay or relegate; at most half the group each way, players tied at a cut move together or not at all) while the season runs, and `moved_to`, the tier its end moved them to, once it has ended (its window closed, or archived: `?season=N` reads an archived season's groups as they ended, ranks closed up over players banned or erased since). 404 group_not_found on a board without groups.";

export const clientGroupEndpoints = [
  endpoint({
    method: 'get',
    path: '/api/v1/client/leaderboards/:leaderboard_id/group',
    operationId: 'getMyGroup',
    tag: 'Game client',
    summary: 'The token’s player’s league group',
    description: `${GROUP_RULES} 404 record_not_found when the player is in no group (they join one on entering or on their first report of the season).`,
    credentials: 'gameClient',
    params: leaderboardParams,
    query: object({ season }),
    responses: { 200: { schema: LeagueGroup } },
    errors: [400, 404],
    notFound: ['leaderboard_not_found'],
    async handler({ caller, params, query, app }) {
      const group = await app.engine.leagues.groupOf(caller.game.id, params.leaderboard_id, caller.playerId, query.season);
      return { status: 200, body: leagueGroupView(app.engine.config.baseUrl, group) };
    },
  }),
];
