import type { ErrorRequestHandler } from 'express';
import { RateLimitedError } from '../../../engine/errors.js';
import type { Logger } from '../../../engine/logger.js';
import { statusOf, toAppError } from '../../middleware/errors.js';
import type { Assets } from './asset-files.js';
import { html } from '../../html.js';
import { closeHref, hidesCloseButton, pageHref, sendHtml } from './html.js';
import { closeButton, shell } from './layout.js';

const PAGES: Record<number, { title: string; message: string }> = {
  401: {
    title: 'Sign-in needed',
    message:
      'This link is missing its player token, or the token is not valid. Close this page and open the leaderboard again from the game.',
  },
  404: {
    title: 'Leaderboard not found',
    message: 'This leaderboard does not exist (or no longer exists) in this game.',
  },
  429: {
    title: 'Too many requests',
    message: 'This leaderboard was opened too often from your network in the last minute. Please wait a moment and try again.',
  },
  503: {
    title: 'Back in a moment',
    message: 'The leaderboard cannot be reached right now. Please try again shortly.',
  },
  500: {
    title: 'Something went wrong',
    message: 'The leaderboard could not be shown. Please try again later.',
  },
};

/** The leaderboard exists but not the season asked for: a 404 that offers the current season instead. */
const SEASON_NOT_FOUND = {
  title: 'Season not found',
  message: 'This leaderboard has no such season: it never existed, or it is no longer kept.',
  onward: 'Show the current season',
};

/**
 * The page's errors, as pages a player can read (the API's JSON would mean nothing to them), each
 * still offering the close control so the webview never traps its player.
 */
export function htmlErrors(assets: Assets, logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const appError = toAppError(error);
    const code = statusOf(appError.code);
    // A malformed leaderboard id, or one that is not even valid percent-encoding, names no leaderboard.
    const status = error instanceof URIError || code === 400 ? 404 : PAGES[code] ? code : 500;
    if (status >= 500) logger.error({ err: error, reqId: res.locals.requestId }, 'web page failed');
    if (res.headersSent) return;
    if (error instanceof RateLimitedError) res.setHeader('Retry-After', String(error.retryAfterSeconds));
    if (status === 503) res.setHeader('Retry-After', '1');
    const seasonMissing = appError.code === 'season_not_found';
    const { title, message } = seasonMissing ? SEASON_NOT_FOUND : PAGES[status]!;
    const onward = seasonMissing
      ? html`\n<p><a class="onward" href="${pageHref(req.originalUrl, { season: null })}">${SEASON_NOT_FOUND.onward}</a></p>`
      : html``;
    const close = hidesCloseButton(req.query.hideCloseButton) ? null : closeHref(req.originalUrl);
    const body = html`<main class="message-page">
<header class="bar">${closeButton(close)}</header>
<section class="message">
<p class="message-code">${status}</p>
<h1>${title}</h1>
<p>${message}</p>${onward}
</section>
</main>`;
    sendHtml(res, status, shell({ title, css: assets.url('page.css'), icon: assets.url('favicon.svg'), body }));
  };
}
