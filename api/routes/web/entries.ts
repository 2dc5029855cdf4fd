import Joi from 'joi';
import { webEntryView } from '../../views.js';
import { endpoint } from '../endpoint.js';
import { WebEntries } from '../responses.js';
import { leaderboardParams, limit, object, offset, oneOf, season } from '../schemas.js';
import { readRows } from './rows.js';

/**
 * The page's "more" data: further entries as JSON, authenticated by the page's own token. Errors
 * are the API's JSON errors, since the page's script (not a person) reads them.
 */
export const entriesEndpoint = endpoint({
  method: 'get',
  path: '/leaderboards/:leaderboard_id/entries',
  operationId: 'getWebPageEntries',
  tag: 'Web page',
  summary: "The page's further entries, as JSON",
  description:
    'What the page loads for "more": authenticated by the page\'s own token, entries best first with is_viewer marking the viewer (or their clan). With season, that season\'s entries, an ended one as it stood at its reset (the page passes the season it shows, so "more" stays in it); a season that never existed or is no longer kept is 404 season_not_found. view=clans on an individual leaderboard is 400 not_a_clan_leaderboard.',
  credentials: 'pageToken',
  servedFromAppUrl: true,
  rateLimit: 'web',
  params: leaderboardParams,
  query: object({
    // Checked before validation (by the credential): by now it is the viewer's token.
    token: Joi.string().description('The anonymous player token'),
    offset,
    limit,
    view: oneOf('players', 'clans').default('players').description('players (default) or clans').example('players').example('clans'),
    season,
  }),
  responses: { 200: { schema: WebEntries } },
  errors: [400, 401, 404, 429],
  async handler({ params, query, caller: { viewer }, app: { engine } }) {
    const { leaderboard, view, total, rows } = await readRows(
      engine,
      viewer,
      params.leaderboard_id,
      query.view,
      query.offset,
      query.limit,
      query.season,
    );
    return {
      status: 200,
      body: {
        leaderboard_id: leaderboard.id,
        view,
        total,
        limit: query.limit,
        offset: query.offset,
        entries: rows.map((row) => webEntryView(engine.config.baseUrl, row)),
      },
    };
  },
});
