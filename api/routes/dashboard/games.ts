import Joi from 'joi';
import { NotFoundError } from '../../../engine/errors.js';
import { endpoint } from '../endpoint.js';
import { name, object, wholeNumber } from '../schemas.js';
import { html } from '../../html.js';
import { dashboardPage, dataTable, href, pageReply, postButton, postForm, screenOf, seeOther } from './view.js';
import { offsetPager } from './pager.js';
import { csrfField } from '../../middleware/dashboard-session.js';

const PAGE = 50;

/** The admin's game picker: every game (paged, oldest first), a button to work on one, and "Create game". */
export const gamesPageEndpoint = endpoint({
  method: 'get',
  path: '/dashboard/games',
  operationId: 'listDashboardGames',
  tag: 'Dashboard',
  summary: 'The admin’s game picker',
  description: 'Every game, oldest first, 50 a page, each with an "Open" button; and a form to create a game.',
  credentials: 'dashboardAdmin',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  query: object({ offset: wholeNumber(0, Number.MAX_SAFE_INTEGER, 0) }),
  lenientQuery: true,
  responses: { 200: { content: 'text/html', description: 'The page' } },
  errors: [],
  async handler({ query, app, req, res }) {
    const offset = Math.max(0, Number.parseInt(String(query.offset ?? '0'), 10) || 0);
    const { total, games } = await app.engine.games.list(offset, PAGE);
    const screen = screenOf(app, req, res);
    const rows = games.map(
      (game) =>
        html`<tr>
          <td>${game.name}</td>
          <td><code>${game.id}</code></td>
          <td>${game.createdAt.toISOString().slice(0, 10)}</td>
          <td>${postButton(screen, `/games/${encodeURIComponent(game.id)}/open`, `Open ${game.name}`)}</td>
        </tr>`,
    );
    const body = html`<section class="card">
        <h2>Games (${total})</h2>
        ${dataTable(['Name', 'Id', 'Created', { hidden: 'Open' }], rows)}
        ${offsetPager('Game pages', { offset, limit: PAGE, total }, (at) => href(screen, `/games?offset=${at}`))}
      </section>
      <section class="card narrow">
        <h2>Create game</h2>
        ${postForm(
          screen,
          '/games',
          html`<label for="game-name">Name</label>
            <input id="game-name" name="name" required maxlength="100" />
            <button type="submit" class="button primary">Create game</button>`,
          html`class="stack"`,
        )}
      </section>`;
    return pageReply(dashboardPage(screen, { title: 'Games', body }));
  },
});

export const createGameEndpoint = endpoint({
  method: 'post',
  path: '/dashboard/games',
  operationId: 'createDashboardGame',
  tag: 'Dashboard',
  summary: 'Create a game',
  description: 'Creates the game (as POST /api/v1/admin/games) and opens it: its secret key is shown once on Settings.',
  credentials: 'dashboardAdmin',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  body: object({ name: name.required().example('Discord bot'), ...csrfField }),
  responses: { 200: { content: 'text/html', description: 'The new game with its keys: the secret key shown this once' } },
  errors: [400],
  async handler({ body, app, req, res }) {
    const game = await app.engine.games.create(body.name, 'dashboard');
    app.sessions.choose(req, game.id);
    await app.engine.auditLog.signedIn(game.id, 'admin');
    // The secret key is in this answer only (never in the session): the page says to copy it now.
    const screen = screenOf(app, req, res, game);
    const body_ = html`<section class="card">
      <p class="notice ok" role="status">Created ${game.name}.</p>
      <dl class="keys">
        <dt>Game id</dt>
        <dd><code>${game.id}</code></dd>
        <dt>Publishable key</dt>
        <dd><code>${game.publishableKey}</code></dd>
        <dt>Secret key</dt>
        <dd><code class="secret" id="new-secret-key">${game.secretKey}</code></dd>
      </dl>
      <p><strong>Copy the secret key now: it is shown only this once.</strong></p>
      <p><a class="button primary" href="${href(screen, '/overview')}">Continue to the game</a></p>
    </section>`;
    return pageReply(dashboardPage(screen, { title: 'Game created', body: body_ }));
  },
});

export const openGameEndpoint = endpoint({
  method: 'post',
  path: '/dashboard/games/:game_id/open',
  operationId: 'updateDashboardGame',
  tag: 'Dashboard',
  summary: 'Work on a game',
  description: 'The admin picks the game the other pages show (audited in that game as dashboard.sign_in).',
  credentials: 'dashboardAdmin',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  params: object({ game_id: Joi.string().max(64).required().description('The game') }),
  body: object(csrfField),
  responses: { 303: { description: 'On to its Overview' } },
  errors: [404],
  notFound: ['game_not_found'],
  async handler({ params, app, req, res }) {
    const found = await app.engine.games.withKeyGeneration(params.game_id);
    if (!found) throw new NotFoundError('game_not_found', `No game has the id '${params.game_id}'.`);
    app.sessions.choose(req, found.game.id);
    await app.engine.auditLog.signedIn(found.game.id, 'admin');
    return seeOther(app, res, '/overview');
  },
});

export const gameEndpoints = [gamesPageEndpoint, createGameEndpoint, openGameEndpoint];
