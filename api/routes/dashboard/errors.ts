import type { ErrorRequestHandler } from 'express';
import { RateLimitedError } from '../../../engine/errors.js';
import type { Logger } from '../../../engine/logger.js';
import { statusOf, toAppError } from '../../middleware/errors.js';
import type { AppContext } from '../endpoint.js';
import { ForgedRequest, isDashboard, SignInNeeded } from '../../middleware/dashboard-session.js';
import { signInPage } from './sign-in.js';
import { html } from '../../html.js';
import { dashboardPage, href, screenOf, type Screen } from './view.js';

const TITLES: Record<number, string> = {
  400: 'That did not work',
  401: 'Sign-in needed',
  403: 'Refused',
  404: 'Not found',
  409: 'Conflict',
  413: 'Too large',
  415: 'Not a form',
  429: 'Too many requests',
  500: 'Something went wrong',
  503: 'Back in a moment',
};

/**
 * The dashboard's errors as pages for a person: an ended session goes to sign-in (303); a forged or
 * expired form is a 403 page; every other error is the API's own (same code, same message, same
 * status), shown with its details and a way back.
 */
export function dashboardErrors(app: AppContext, logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (!isDashboard(req.path)) return next(error);
    if (res.headersSent) return;
    if (error instanceof SignInNeeded) {
      res.redirect(303, href(app, error.where === 'games' ? '/games' : '/sign-in'));
      return;
    }
    const forged = error instanceof ForgedRequest;
    const appError = forged ? undefined : toAppError(error);
    const status = forged ? 403 : statusOf(appError!.code);
    if (status >= 500) logger.error({ err: error, reqId: res.locals.requestId }, 'dashboard failed');
    if (appError instanceof RateLimitedError) res.setHeader('Retry-After', String(appError.retryAfterSeconds));
    if (status === 503) res.setHeader('Retry-After', '1');
    // A wrong key: the sign-in page again, with why.
    if (status === 401 && req.path === '/dashboard/sign-in') {
      res
        .status(401)
        .type('html')
        .send(signInPage(screenOf(app, req, res), appError!.message));
      return;
    }
    const message = forged ? (error as ForgedRequest).message : appError!.message;
    const details = appError?.details ?? [];
    const screen: Screen = { base: app.base, app, csrf: '', game: null, session: null, confirmations: 0 };
    const body = html`<section class="card error-page">
      <p class="error-code">${status}${appError ? html` · <code>${appError.code}</code>` : html``}</p>
      <p>${message}</p>
      ${
        details.length > 0
          ? html`<ul class="details">
              ${details.map((d) => html`<li><strong>${d.field}</strong>: ${d.message}</li>`)}
            </ul>`
          : html``
      }
      <p><a href="${href(app, '')}">Back to the dashboard</a></p>
    </section>`;
    res
      .status(status)
      .type('html')
      .send(dashboardPage(screen, { title: TITLES[status] ?? 'Something went wrong', body }));
  };
}
