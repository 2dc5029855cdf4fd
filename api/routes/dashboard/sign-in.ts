import Joi from 'joi';
import { AuthenticationError } from '../../../engine/errors.js';
import { endpoint } from '../endpoint.js';
import { object, optional } from '../schemas.js';
import { dashboardPage, href, html, notice, pageReply, postForm, screenOf, seeOther, type Screen } from './view.js';
import { csrfField } from './session.js';

/** The sign-in page: the secret key (most people), or the admin token behind a disclosure. */
export function signInPage(screen: Screen, error?: string): string {
  const body = html`${notice(error, 'error')}
    <section class="card narrow">
      <h2>Sign in with the game's secret key</h2>
      ${postForm(
        screen,
        '/sign-in',
        html`<label for="secret-key">Secret key</label>
          <input
            id="secret-key"
            name="secret_key"
            type="password"
            autocomplete="current-password"
            required
            maxlength="256"
            spellcheck="false"
          />
          <button type="submit" class="button primary">Sign in</button>`,
        html`class="stack"`,
      )}
    </section>
    <section class="card narrow">
      <details>
        <summary>Sign in as the operator (admin token)</summary>
        ${postForm(
          screen,
          '/sign-in',
          html`<label for="admin-token">Admin token</label>
            <input id="admin-token" name="admin_token" type="password" autocomplete="off" required maxlength="256" spellcheck="false" />
            <button type="submit" class="button">Sign in with the admin token</button>`,
          html`class="stack"`,
        )}
      </details>
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
  description: 'A "Secret key" password field and a "Sign in" button; the admin token in a second form.',
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
    'With secret_key: signs in to that game (audited as dashboard.sign_in). With admin_token: signs in as the operator, who picks a game next. A wrong key answers the sign-in page again with an error (401). Rate limited per IP.',
  credentials: 'none',
  servedFromAppUrl: true,
  rateLimit: 'dashboardSignIn',
  body: object({ secret_key: credential, admin_token: credential, ...csrfField }),
  responses: { 303: { description: 'Signed in: on to the Overview (or the game picker)' } },
  errors: [401, 429],
  async handler({ body, app, req, res }) {
    const { engine } = app;
    if (body.secret_key !== undefined) {
      const game = await app.sessions.signInWithSecretKey(req, body.secret_key);
      if (game) {
        await engine.auditLog.signedIn(game.id, 'secret_key');
        return seeOther(app, res, '/overview');
      }
    } else if (body.admin_token !== undefined && (await app.sessions.signInWithAdminToken(req, body.admin_token))) {
      return seeOther(app, res, '/games');
    }
    // The dashboard's error pages answer this one with the sign-in page and the message (401).
    const which = body.admin_token !== undefined && body.secret_key === undefined ? 'admin token' : 'secret key';
    throw new AuthenticationError(
      which === 'admin token' ? 'invalid_admin_token' : 'invalid_key',
      `That ${which} is not valid. Check it and try again.`,
    );
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
