import Joi from 'joi';
import type { View } from '../../../engine/ranking/rankings.js';
import { endpoint } from '../endpoint.js';
import { documentedAs, leaderboardParams, object, optional } from '../schemas.js';
import { closeHref, hidesCloseButton, rawQuery, setPageHeaders } from './html.js';
import { renderPage } from './page-view.js';
import { readRows, readViewerRow } from './rows.js';

// 50 rows keep the first page well under 50 KiB even with long names; more arrive on demand.
const PAGE_SIZE = 50;

/** The page's own URL with another view: the same parameters, so the token and close setting stay. */
function viewHref(originalUrl: string, view: View): string {
  const params = new URLSearchParams(rawQuery(originalUrl));
  params.delete('sdk_action');
  params.set('view', view);
  return `?${params.toString()}`;
}

const trueOrFalse = { type: 'string', enum: ['true', 'false', '1', '0'] };

/** The leaderboard page for a game's webview, rendered on the server. */
export const pageEndpoint = endpoint({
  method: 'get',
  path: '/leaderboards/:leaderboard_id',
  operationId: 'getWebPage',
  tag: 'Web page',
  summary: 'The leaderboard page for a webview (served from APP_URL)',
  description:
    'HTML, under its own strict Content-Security-Policy. The top 50 entries with more on demand (from the entries endpoint below), the viewer\'s row highlighted and pinned at the bottom while out of view, and a players/clans switch on clan leaderboards. Unless hideCloseButton=true (or 1), a "Close" button navigates to this URL with sdk_action=close_window added: the host app closes the webview on that navigation. A missing or bad token gives an HTML 401 page, an unknown leaderboard an HTML 404 page.',
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
    404: 'An HTML page: the leaderboard is unknown in the token’s game',
    429: 'An HTML page: too many requests from this IP; see Retry-After',
    500: 'An HTML page: internal error',
    503: 'An HTML page: Redis or PostgreSQL unreachable; see Retry-After',
  },
  async handler({ params, query, caller: { viewer }, app: { engine, assets, base }, req, res }) {
    const leaderboard = await engine.leaderboards.get(viewer.gameId, params.leaderboard_id);
    // An unknown view, or clans on an individual leaderboard, shows the players: a page never fails on it.
    const view: View = query.view === 'clans' && leaderboard.type === 'clan' ? 'clans' : 'players';
    const [first, viewerRow] = await Promise.all([
      readRows(engine, viewer, leaderboard.id, view, 0, PAGE_SIZE),
      readViewerRow(engine, viewer, leaderboard.id, view),
    ]);
    const html = renderPage({
      ...first,
      viewerRow,
      next: PAGE_SIZE,
      pageSize: PAGE_SIZE,
      token: query.token,
      base,
      css: assets.url('page.css'),
      icon: assets.url('favicon.svg'),
      script: assets.url('page.js'),
      close: hidesCloseButton(query.hideCloseButton) ? null : closeHref(req.originalUrl),
      tabs:
        leaderboard.type === 'clan' ? { players: viewHref(req.originalUrl, 'players'), clans: viewHref(req.originalUrl, 'clans') } : null,
    });
    setPageHeaders(res);
    return { status: 200, body: html };
  },
});
