import Joi from 'joi';
import { AuthenticationError } from '../../../engine/errors.js';
import { refundAttempt } from '../../middleware/rate-limit.js';
import { endpoint } from '../endpoint.js';
import { object, optional } from '../schemas.js';
import { html } from '../../html.js';
import { dashboardPage, href, notice, pageReply, postForm, screenOf, seeOther, type Screen } from './view.js';
import { csrfField } from '../../middleware/dashboard-session.js';

/**
 * The sign-in page: one form, one "Sign in" button. Most people enter the game's secret key; the operator
 * enters the admin token (in its own field, or in the secret key's: either is understood).
 */
export function signInPage(screen: Screen, error?: string): string {
  const body = html`${notice(error, 'error')}
    <section class="card narrow">
      ${postForm(
        screen,
        '/sign-in',
        html`<label for="secret-key">Secret key</label>
          <input
            id="secret-key"
            name="secret_key"
            type="password"
            autocomplete="current-password"
            maxlength="256"
            spellcheck="false"
            aria-describedby="secret-key-hint"
          />
          <p id="secret-key-hint" class="hint">The game's secret key (sk_…), as the game's server sends it.</p>
          <label for="admin-token">Admin token</label>
          <input
            id="admin-token"
            name="admin_token"
            type="password"
            autocomplete="off"
            maxlength="256"
            spellcheck="false"
            aria-describedby="admin-token-hint"
          />
          <p id="admin-token-hint" class="hint">Operators only, instead of a secret key: then pick a game or create one.</p>
          <button type="submit" class="button primary">Sign in</button>`,
        html`class="stack"`,
      )}
    </section>`;
  return dashboardPage(screen, { title: 'Sign in', body });
}

const credential = optional(Joi.string().trim().max(256).empty(''));

export const dashboardRootEndpoint = endpoint({
  method: 'get',
  path: '/dashboard',
  operationId: 'getDashboard',
  tag: 'Dashboard',
  summary: 'The dashboard: on to its Overview, the game picker or sign-in',
  description: 'Redirects (303) to the Overview of the chosen game, the admin’s game picker, or the sign-in page.',
  credentials: 'none',
  servedFromAppUrl: true,
  responses: { 303: { description: 'On to the right page' } },
  errors: [],
  handler({ app, req, res }) {
    const signedIn = req.session?.signedIn;
    const path = !signedIn ? '/sign-in' : signedIn.gameId ? '/overview' : '/games';
    return seeOther(app, res, path);
  },
});

export const signInPageEndpoint = endpoint({
  method: 'get',
  path: '/dashboard/sign-in',
  operationId: 'getDashboardSignIn',
  tag: 'Dashboard',
  summary: 'The sign-in page',
  description: 'A "Secret key" password field, an "Admin token" field for operators, and one "Sign in" button.',
  credentials: 'none',
  servedFromAppUrl: true,
  responses: { 200: { content: 'text/html', description: 'The page' } },
  errors: [],
  handler({ app, req, res }) {
    // A session of its own from the first page on, so the form's CSRF token is bound to something.
    req.session.signingIn = true;
    return pageReply(signInPage(screenOf(app, req, res)));
  },
});

export const signInEndpoint = endpoint({
  method: 'post',
  path: '/dashboard/sign-in',
  operationId: 'createDashboardSession',
  tag: 'Dashboard',
  summary: 'Sign in',
  description:
    'With secret_key: signs in to that game (audited as dashboard.sign_in). With admin_token (or the admin token given as secret_key): signs in as the operator, who picks a game next. A wrong key answers the sign-in page again with an error (401). Failed attempts are rate limited per IP (a success gives its attempt back).',
  credentials: 'none',
  servedFromAppUrl: true,
  rateLimit: 'dashboardSignIn',
  body: object({ secret_key: credential, admin_token: credential, ...csrfField }),
  responses: { 303: { description: 'Signed in: on to the Overview (or the game picker)' } },
  errors: [401, 429],
  async handler({ body, app, req, res }) {
    const { secret_key: secretKey, admin_token: adminToken } = body;
    if (secretKey === undefined && adminToken === undefined) {
      throw new AuthenticationError('invalid_key', "Enter the game's secret key (or, as the operator, the admin token).");
    }
    if (secretKey !== undefined) {
      const game = await app.sessions.signInWithSecretKey(req, secretKey);
      if (game) {
        await Promise.all([app.engine.auditLog.signedIn(game.id, 'secret_key'), refundAttempt(res)]);
        return seeOther(app, res, '/overview');
      }
    }
    // The admin token is understood in either field: the sign-in page has one button for both.
    for (const token of [adminToken, secretKey]) {
      if (token !== undefined && (await app.sessions.signInWithAdminToken(req, token))) {
        await refundAttempt(res);
        return seeOther(app, res, '/games');
      }
    }
    // The dashboard's error pages answer this one with the sign-in page and the message (401).
    throw secretKey === undefined
      ? new AuthenticationError(
          'invalid_admin_token',
          'Invalid admin token: it is wrong, or ADMIN_TOKEN has changed. Check it and try again.',
        )
      : new AuthenticationError('invalid_key', 'Invalid secret key: it is wrong, or it was rotated. Check it and try again.');
  },
});

export const signOutEndpoint = endpoint({
  method: 'post',
  path: '/dashboard/sign-out',
  operationId: 'deleteDashboardSession',
  tag: 'Dashboard',
  summary: 'Sign out',
  description: 'Ends the session (its Redis entry is deleted) and goes back to the sign-in page.',
  credentials: 'none',
  servedFromAppUrl: true,
  body: object(csrfField),
  responses: { 303: { description: 'Signed out: on to the sign-in page' } },
  errors: [],
  async handler({ app, req, res }) {
    if (req.session?.signedIn) await app.sessions.signOut(req);
    res.clearCookie('lb_dashboard', { path: href(app, '') });
    return seeOther(app, res, '/sign-in');
  },
});

export const signInEndpoints = [dashboardRootEndpoint, signInPageEndpoint, signInEndpoint, signOutEndpoint];
