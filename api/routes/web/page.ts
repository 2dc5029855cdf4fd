import Joi from 'joi';
import type { Engine } from '../../../engine/engine.js';
import type { Leaderboard } from '../../../engine/leaderboards/leaderboard-store.js';
import type { Standings } from '../../../engine/live/types.js';
import { endpoint } from '../endpoint.js';
import { documentedAs, leaderboardParams, MAX_SEASON, object, optional, season as seasonQuery } from '../schemas.js';
import { closeHref, hidesCloseButton, pageHref, setPageHeaders } from './html.js';
import { renderPage, type SeasonLink } from './page-view.js';
import { readRows, readViewerRow } from './rows.js';

// 50 rows keep the first page well under 50 KiB even with long names; more arrive on demand.
const PAGE_SIZE = 50;

const trueOrFalse = { type: 'string', enum: ['true', 'false', '1', '0'] };

/** The season the page shows: one the API's `season` would take, else (absent or odd) undefined, the current one. */
function askedSeason(value: unknown): number | undefined {
  const { value: asked, error } = seasonQuery.validate(value);
  return error ? undefined : asked;
}

/**
 * The switcher's seasons, latest first; undefined when the board has only the one (or the list
 * cannot be read right now: the page still shows its season, without the switcher).
 */
async function seasonLinks(
  engine: Engine,
  leaderboard: Leaderboard,
  shown: number | undefined,
  originalUrl: string,
): Promise<{ links: SeasonLink[]; current: number } | undefined> {
  // A board still in its first season has no other: no lookup for the most common page.
  if (leaderboard.season === 1 && shown === undefined) return undefined;
  const list = await engine.seasons.list(leaderboard).catch((error: unknown) => {
    engine.logger.warn({ err: error, leaderboardId: leaderboard.id }, 'web page: seasons not listed');
    return undefined;
  });
  if (!list || list.seasons.length < 2) return undefined;
  const current = list.currentSeason;
  const links = list.seasons.map(({ season }) => ({
    season,
    current: season === current,
    shown: season === (shown ?? current),
    // The current season's link names no number, so it stays the current one after a reset.
    href: pageHref(originalUrl, { season: season === current ? null : String(season) }),
  }));
  return { links, current };
}

/** The leaderboard page for a game's webview, rendered on the server. */
export const pageEndpoint = endpoint({
  method: 'get',
  path: '/leaderboards/:leaderboard_id',
  operationId: 'getWebPage',
  tag: 'Web page',
  summary: 'The leaderboard page for a webview (served from APP_URL)',
  description:
    'HTML, under its own strict Content-Security-Policy. The top 50 entries with more on demand (from the entries endpoint below), the viewer\'s row highlighted and pinned at the bottom while out of view, and a players/clans switch on clan leaderboards. With season, that season (an ended one as it stood at its reset); a leaderboard with more than one season shows a season switcher (links, latest first), and the view links and the close button keep the season. Unless hideCloseButton=true (or 1), a "Close" button navigates to this URL with sdk_action=close_window added: the host app closes the webview on that navigation. A missing or bad token gives an HTML 401 page, an unknown leaderboard or a season it does not have an HTML 404 page.',
  credentials: 'pageToken',
  servedFromAppUrl: true,
  rateLimit: 'web',
  params: leaderboardParams,
  // Documented, never refused: an odd value shows the default page.
  lenientQuery: true,
  query: object({
    token: Joi.string().description('The anonymous player token'),
    hideCloseButton: optional(documentedAs(Joi.any(), trueOrFalse).description('true hides the close button').example('true').example('0')),
    view: optional(
      documentedAs(Joi.any(), { enum: ['players', 'clans'] })
        .description('clans: the clan totals (clan leaderboards only; default players)')
        .example('clans')
        .example('players'),
    ),
    season: optional(
      documentedAs(Joi.any(), { type: 'integer', minimum: 1, maximum: MAX_SEASON })
        .description(
          'A season (1 is the first); default, or a value that is not a positive whole number: the current season. A season the leaderboard does not have (never existed, or no longer kept) gives the HTML 404 page',
        )
        .example(2)
        .example(1),
    ),
  }).unknown(true),
  responses: {
    200: {
      content: 'text/html',
      description: 'The page',
      example: '<!doctype html><html lang="en"><head><title>Weekly race</title>…</head><body>…</body></html>',
    },
  },
  errors: [401, 404, 429],
  htmlErrors: {
    401: 'An HTML page: the token is missing or not valid',
    404: 'An HTML page: the leaderboard is unknown in the token’s game, or it has no such season',
    429: 'An HTML page: too many requests from this IP; see Retry-After',
    500: 'An HTML page: internal error',
    503: 'An HTML page: Redis or PostgreSQL unreachable; see Retry-After',
  },
  async handler({ params, query, caller: { viewer }, app: { engine, assets, base }, req, res }) {
    const leaderboard = await engine.leaderboards.get(viewer.gameId, params.leaderboard_id);
    // An unknown view, or clans on an individual leaderboard, shows the players: a page never fails on it.
    const view: Standings = query.view === 'clans' && leaderboard.type === 'clan' ? 'clans' : 'players';
    const season = askedSeason(query.season);
    const [first, viewerRow, seasons] = await Promise.all([
      readRows(engine, viewer, leaderboard.id, view, 0, PAGE_SIZE, season),
      readViewerRow(engine, viewer, leaderboard.id, view, season),
      seasonLinks(engine, leaderboard, season, req.originalUrl),
    ]);
    // Links to another view keep the season shown (an odd value, which showed the current one, goes).
    const seasonChoice = { season: season === undefined ? null : String(season) };
    const html = renderPage({
      ...first,
      viewerRow,
      next: PAGE_SIZE,
      pageSize: PAGE_SIZE,
      token: query.token,
      viewerId: viewer.playerId,
      // The current season's players move live; an ended season and the clans' sums do not.
      live:
        view === 'players' && season === undefined
          ? `${base}/api/v1/client/leaderboards/${encodeURIComponent(leaderboard.id)}/live?${new URLSearchParams({ token: query.token, limit: String(PAGE_SIZE) }).toString()}`
          : null,
      base,
      css: assets.url('page.css'),
      icon: assets.url('favicon.svg'),
      script: assets.url('page.js'),
      close: hidesCloseButton(query.hideCloseButton) ? null : closeHref(req.originalUrl),
      tabs:
        leaderboard.type === 'clan'
          ? {
              players: pageHref(req.originalUrl, { view: 'players', ...seasonChoice }),
              clans: pageHref(req.originalUrl, { view: 'clans', ...seasonChoice }),
            }
          : null,
      season,
      pastSeason: season !== undefined && season !== (seasons?.current ?? leaderboard.season) ? season : null,
      seasons: seasons?.links ?? null,
    });
    setPageHeaders(res);
    return { status: 200, body: html };
  },
});
