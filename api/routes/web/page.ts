import type { RequestHandler } from 'express';
import type { Engine } from '../../../engine/engine.js';
import type { View } from '../../../engine/ranking/rankings.js';
import type { Assets } from './assets.js';
import { queryToken } from './entries.js';
import { closeHref, hidesCloseButton, rawQuery, sendHtml } from './html.js';
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

/** Endpoint 5: the leaderboard page for a game's webview, rendered on the server. */
export function pageRoute(engine: Engine, assets: Assets, base: string): RequestHandler {
  return async (req, res) => {
    const token = queryToken(req.query.token);
    const viewer = engine.credentials.viewer(token);
    const leaderboard = await engine.leaderboards.get(viewer.gameId, String(req.params.leaderboard_id));
    // An unknown view, or clans on an individual leaderboard, shows the players: a page never fails on it.
    const view: View = req.query.view === 'clans' && leaderboard.type === 'clan' ? 'clans' : 'players';
    const [first, viewerRow] = await Promise.all([
      readRows(engine, viewer, leaderboard.id, view, 0, PAGE_SIZE),
      readViewerRow(engine, viewer, leaderboard.id, view),
    ]);
    const html = renderPage({
      ...first,
      viewerRow,
      next: PAGE_SIZE,
      pageSize: PAGE_SIZE,
      token: token!,
      base,
      css: assets.url('page.css'),
      icon: assets.url('favicon.svg'),
      script: assets.url('page.js'),
      close: hidesCloseButton(req.query.hideCloseButton) ? null : closeHref(req.originalUrl),
      tabs: leaderboard.type === 'clan' ? { players: viewHref(req.originalUrl, 'players'), clans: viewHref(req.originalUrl, 'clans') } : null,
    });
    sendHtml(res, 200, html);
  };
}
