import Joi from 'joi';
import type { Game } from '../../../engine/games/game-store.js';
import type { ThirdPartyKey } from '../../../engine/auth/third-party-key-store.js';
import { endpoint } from '../endpoint.js';
import { name, object, oneOf, optional, webhookUrl, wholeNumber } from '../schemas.js';
import { html, type Html } from '../../html.js';
import { confirmButton, dashboardPage, dataTable, href, notice, pageReply, postForm, type Screen, screenOf, seeOther } from './view.js';
import { offsetPager } from './pager.js';
import { csrfField } from '../../middleware/dashboard-session.js';
import { EVENT_TYPES } from '../../../engine/events/webhook-store.js';
import { leaderboardIdsOf, webhookEndpoints, webhooksSection } from './webhooks.js';

const PAGE = 50;
const day = (at: Date) => at.toISOString().slice(0, 16).replace('T', ' ');
/** What a change redirects with (`?done=`): fixed words, so a link cannot put any text on the page. */
const DONE = new Map([
  ['revoked', 'The key was revoked: it is refused from now on.'],
  ['webhook-test', 'A test event is queued for the webhook: its delivery shows in the webhook’s deliveries.'],
  ['webhook-enable', 'The webhook is on: events are sent to it again.'],
  ['webhook-disable', 'The webhook is off: nothing is sent to it until it is turned on.'],
  ['webhook-delete', 'The webhook was deleted.'],
]);

interface Revealed {
  /** A key shown this once, right after it was made. */
  label: string;
  value: string;
  id: string;
}

/** Settings: External Service Settings (third-party keys) and API keys (publishable key, secret key rotation). */
async function settingsPage(screen: Screen, game: Game, offset: number, shown: { revealed?: Revealed; done?: string }): Promise<string> {
  const { total, keys } = await screen.app.engine.thirdPartyKeys.list(game.id, offset, PAGE);
  const row = (key: ThirdPartyKey) =>
    html`<tr>
      <td>${key.name}</td>
      <td><code>${key.id}</code></td>
      <td>${day(key.createdAt)}</td>
      <td>${key.revokedAt ? `Revoked ${day(key.revokedAt)}` : html`<span class="muted">Active</span>`}</td>
      <td>
        ${
          key.revokedAt
            ? html``
            : confirmButton(
                screen,
                `/settings/keys/${encodeURIComponent(key.id)}/revoke`,
                'Revoke',
                'Revoke this key? Whatever uses it is refused from now on; this cannot be undone.',
                'Yes, revoke the key',
              )
        }
      </td>
    </tr>`;
  const revealed: Html = shown.revealed
    ? html`<div class="notice ok" role="status">
        <p>${shown.revealed.label}: <code class="secret" id="${shown.revealed.id}">${shown.revealed.value}</code></p>
        <p><strong>Copy it now: it is shown only this once.</strong></p>
      </div>`
    : html``;
  const body = html`${notice(shown.done)}${revealed}
    <section class="card" aria-labelledby="external-title">
      <h2 id="external-title"><a href="#external-title">External Service Settings</a></h2>
      <p class="hint">Third-party keys give bots and other integrations read-only access (the Api-Key header).</p>
      ${dataTable(
        ['Name', 'Key id', 'Created (UTC)', 'Revoked (UTC)', { hidden: 'Actions' }],
        keys.length > 0
          ? keys.map(row)
          : html`<tr>
              <td colspan="5" class="muted">No third-party keys yet.</td>
            </tr>`,
      )}
      ${offsetPager('Key pages', { offset, limit: PAGE, total }, (at) => href(screen, `/settings?offset=${at}`))}
      ${postForm(
        screen,
        '/settings/keys',
        html`<div class="stack"><label for="key-name">Name</label> <input id="key-name" name="name" required maxlength="100" /></div>
          <button type="submit" class="button primary">Create key</button>`,
        html`class="row"`,
      )}
    </section>
    ${await webhooksSection(screen, game)}
    <section class="card" aria-labelledby="api-keys-title">
      <h2 id="api-keys-title"><a href="#api-keys-title">API keys</a></h2>
      <dl class="keys">
        <dt>Game id</dt>
        <dd><code>${game.id}</code></dd>
        <dt>Publishable key</dt>
        <dd><code id="publishable-key">${game.publishableKey}</code></dd>
        <dt>Secret key</dt>
        <dd class="muted">
          Shown only when it is made. Rotating it stops the current key at once and signs out every other dashboard session of this game.
        </dd>
      </dl>
      ${confirmButton(
        screen,
        '/settings/secret-key/rotate',
        'Rotate secret key',
        'Rotate the secret key? The game server must switch to the new key: the current one is refused from now on.',
        'Yes, rotate the secret key',
      )}
    </section>`;
  return dashboardPage(screen, { title: 'Settings', section: 'Settings', body });
}

export const settingsPageEndpoint = endpoint({
  method: 'get',
  path: '/dashboard/settings',
  operationId: 'getDashboardSettings',
  tag: 'Dashboard',
  summary: 'Settings',
  description:
    'External Service Settings (third-party keys: name, created, revoked; create; revoke), Webhooks (add, test, turn on or off, delete, deliveries) and API keys (publishable key; rotate the secret key).',
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  query: object({ offset: wholeNumber(0, Number.MAX_SAFE_INTEGER, 0), done: optional(oneOf(...DONE.keys())) }),
  lenientQuery: true,
  responses: { 200: { content: 'text/html', description: 'The page' } },
  errors: [],
  async handler({ caller: { game }, query, app, req, res }) {
    const offset = Math.max(0, Number.parseInt(String(query.offset ?? '0'), 10) || 0);
    // The query is read leniently (as sent): a Map holds only its own words, no prototype's.
    const done = DONE.get(String(query.done));
    return pageReply(await settingsPage(screenOf(app, req, res, game), game, offset, { done }));
  },
});

export const createKeyEndpoint = endpoint({
  method: 'post',
  path: '/dashboard/settings/keys',
  operationId: 'createDashboardThirdPartyKey',
  tag: 'Dashboard',
  summary: 'Create a third-party key',
  description: 'Creates the key (as POST /api/v1/server/third_party_keys, audited with actor dashboard) and shows it this once.',
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  body: object({ name: name.required().example('Discord bot'), ...csrfField }),
  responses: { 200: { content: 'text/html', description: 'Settings, with the new key shown this once' } },
  errors: [400],
  async handler({ caller: { game }, body, app, req, res }) {
    const key = await app.engine.thirdPartyKeys.create(game.id, body.name, 'dashboard');
    // In this answer only: the key is never stored but as a hash, nor kept in the session.
    const revealed = { label: 'New third-party key', value: key.apiKey, id: 'new-api-key' };
    return pageReply(await settingsPage(screenOf(app, req, res, game), game, 0, { revealed }));
  },
});

export const revokeKeyEndpoint = endpoint({
  method: 'post',
  path: '/dashboard/settings/keys/:key_id/revoke',
  operationId: 'revokeDashboardThirdPartyKey',
  tag: 'Dashboard',
  summary: 'Revoke a third-party key',
  description: 'Revokes the key (refused by every API process within 1 second; audited with actor dashboard).',
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  params: object({ key_id: Joi.string().max(64).required().description('The key') }),
  body: object(csrfField),
  responses: { 303: { description: 'Back to Settings' } },
  errors: [404],
  async handler({ caller: { game }, params, app, res }) {
    await app.engine.thirdPartyKeys.revoke(game.id, params.key_id, 'dashboard');
    return seeOther(app, res, '/settings?done=revoked');
  },
});

export const rotateSecretKeyEndpoint = endpoint({
  method: 'post',
  path: '/dashboard/settings/secret-key/rotate',
  operationId: 'rotateDashboardSecretKey',
  tag: 'Dashboard',
  summary: 'Rotate the secret key',
  description:
    'Issues a new secret key and shows it this once. The old key is refused at once; this session goes on with the new key, and every other dashboard session of the game ends.',
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  body: object(csrfField),
  responses: { 200: { content: 'text/html', description: 'Settings, with the new secret key shown this once' } },
  errors: [],
  async handler({ caller: { game }, app, req, res }) {
    const { secretKey, generation } = await app.engine.games.rotateSecretKey(game.id, 'dashboard');
    app.sessions.keepAfterRotation(req, generation);
    const revealed = { label: 'New secret key', value: secretKey, id: 'new-secret-key' };
    return pageReply(await settingsPage(screenOf(app, req, res, game), game, 0, { revealed }));
  },
});

export const createWebhookEndpoint = endpoint({
  method: 'post',
  path: '/dashboard/settings/webhooks',
  operationId: 'createDashboardWebhook',
  tag: 'Dashboard',
  summary: 'Add a webhook',
  description: 'Registers the webhook (as POST /api/v1/server/webhooks, audited with actor dashboard) and shows its secret this once.',
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  body: object({
    url: webhookUrl.required(),
    events: Joi.array()
      .items(oneOf(...EVENT_TYPES))
      .single()
      .min(1)
      .unique()
      .required()
      .example(['season.ended']),
    leaderboard_ids: optional(Joi.string().allow('').max(12_900).description('Leaderboard ids separated by commas; empty for all')),
    ...csrfField,
  }),
  responses: { 200: { content: 'text/html', description: 'Settings, with the new secret shown this once' } },
  errors: [400, 404, 409],
  async handler({ caller: { game }, body, app, req, res }) {
    const webhook = await app.engine.webhooks.create(
      game.id,
      { url: body.url, events: body.events, leaderboardIds: leaderboardIdsOf(body.leaderboard_ids) },
      'dashboard',
    );
    const revealed = { label: 'Signing secret of the new webhook', value: webhook.secret, id: 'new-webhook-secret' };
    return pageReply(await settingsPage(screenOf(app, req, res, game), game, 0, { revealed }));
  },
});

export const settingsEndpoints = [
  settingsPageEndpoint,
  createKeyEndpoint,
  revokeKeyEndpoint,
  rotateSecretKeyEndpoint,
  createWebhookEndpoint,
  ...webhookEndpoints,
];
