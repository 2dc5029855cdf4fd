import Joi from 'joi';
import type { Game } from '../../../engine/games/game-store.js';
import { shownUrl } from '../../../engine/events/webhook-service.js';
import { EVENT_TYPES, type Delivery, type Webhook } from '../../../engine/events/webhook-store.js';
import { html, type Html } from '../../html.js';
import { csrfField } from '../../middleware/dashboard-session.js';
import { endpoint } from '../endpoint.js';
import { beforeEntry, leaderboardId, object, oneOf, optional } from '../schemas.js';
import { ValidationError } from '../../../engine/errors.js';
import { pager } from './pager.js';
import {
  confirmButton,
  dashboardPage,
  dataTable,
  href,
  notice,
  pageReply,
  postButton,
  postForm,
  type Screen,
  screenOf,
  seeOther,
} from './view.js';

const day = (at: Date) => at.toISOString().slice(0, 19).replace('T', ' ');
const webhookParams = object({
  webhook_id: Joi.string()
    .pattern(/^[A-Za-z0-9_-]{1,128}$/)
    .required()
    .description('The webhook'),
});
const webhookPath = (webhook: Pick<Webhook, 'id'>) => `/settings/webhooks/${encodeURIComponent(webhook.id)}`;

/** Settings' Webhooks section (docs/events.md): each webhook with its actions, and the form that registers one. */
export async function webhooksSection(screen: Screen, game: Game): Promise<Html> {
  const { webhooks } = await screen.app.engine.webhooks.list(game.id, 0, 20);
  const row = (webhook: Webhook) =>
    html`<tr>
      <td><code>${shownUrl(webhook.url)}</code></td>
      <td>${webhook.events.join(', ')}</td>
      <td>${webhook.leaderboardIds ? webhook.leaderboardIds.join(', ') : html`<span class="muted">All</span>`}</td>
      <td>${webhook.enabled ? 'On' : html`<strong>Off</strong>`}</td>
      <td class="actions">
        <a class="button" href="${href(screen, webhookPath(webhook))}" aria-label="Deliveries of ${webhook.id}">Deliveries</a>
        ${postButton(screen, `${webhookPath(webhook)}/test`, 'Send test')}
        ${postButton(screen, `${webhookPath(webhook)}/${webhook.enabled ? 'disable' : 'enable'}`, webhook.enabled ? 'Turn off' : 'Turn on')}
        ${confirmButton(
          screen,
          `${webhookPath(webhook)}/delete`,
          { text: 'Delete', name: `Delete webhook ${webhook.id}` },
          'Delete this webhook? Nothing more is sent to it, and its delivery log goes with it.',
          'Yes, delete the webhook',
        )}
      </td>
    </tr>`;
  const choices = EVENT_TYPES.map(
    (type) =>
      html`<label class="check"
        ><input type="checkbox" name="events" value="${type}" ${type === 'webhook.test' ? html`` : html`checked`} /> ${type}</label
      >`,
  );
  return html`<section class="card" aria-labelledby="webhooks-title">
    <h2 id="webhooks-title"><a href="#webhooks-title">Webhooks</a></h2>
    <p class="hint">
      Events of this game are posted to each URL, signed by the Standard Webhooks scheme with its secret (shown once, when it is made). At
      most 20.
    </p>
    ${dataTable(
      ['URL', 'Events', 'Leaderboards', 'State', { hidden: 'Actions' }],
      webhooks.length > 0
        ? webhooks.map(row)
        : html`<tr>
            <td colspan="5" class="muted">No webhooks yet.</td>
          </tr>`,
    )}
    ${postForm(
      screen,
      '/settings/webhooks',
      html`<div class="stack">
          <label for="webhook-url">URL</label>
          <input id="webhook-url" name="url" type="url" required maxlength="2048" placeholder="https://" />
        </div>
        <fieldset class="stack">
          <legend>Events</legend>
          ${choices}
        </fieldset>
        <div class="stack">
          <label for="webhook-boards">Leaderboards (ids, separated by commas; empty for all)</label>
          <input id="webhook-boards" name="leaderboard_ids" maxlength="12900" />
        </div>
        <button type="submit" class="button primary">Add webhook</button>`,
      html`class="stack"`,
    )}
  </section>`;
}

const leaderboardIdList = Joi.array().items(leaderboardId).max(100);

/** The form's leaderboards field: ids separated by commas (1-100, as the API takes them), empty for every leaderboard. */
export function leaderboardIdsOf(text: string | undefined): string[] | null {
  const ids = [
    ...new Set(
      (text ?? '')
        .split(',')
        .map((id) => id.trim())
        .filter((id) => id !== ''),
    ),
  ];
  if (ids.length === 0) return null;
  const { error } = leaderboardIdList.validate(ids);
  if (error) throw new ValidationError('The leaderboards are not valid.', [{ field: 'leaderboard_ids', message: error.message }]);
  return ids;
}

function deliveryRow(screen: Screen, webhook: Webhook, delivery: Delivery): Html {
  return html`<tr>
    <td>${day(delivery.at)}</td>
    <td><code>${delivery.eventId}</code></td>
    <td>${delivery.type}</td>
    <td class="number">${delivery.attempt}</td>
    <td>${delivery.status}</td>
    <td class="number">${delivery.responseStatus ?? ''}</td>
    <td class="number">${delivery.durationMs === null ? '' : `${delivery.durationMs} ms`}</td>
    <td>${delivery.error ?? ''}</td>
    <td>
      ${postForm(
        screen,
        `${webhookPath(webhook)}/deliveries/${delivery.id}/redeliver`,
        html`<button type="submit" class="button" aria-label="Send event ${delivery.eventId} again (attempt ${delivery.id})">
          Redeliver
        </button>`,
        html`class="inline"`,
      )}
    </td>
  </tr>`;
}

export const webhookDeliveriesEndpoint = endpoint({
  method: 'get',
  path: '/dashboard/settings/webhooks/:webhook_id',
  operationId: 'getDashboardWebhookDeliveries',
  tag: 'Dashboard',
  summary: "A webhook's delivery log",
  description:
    'Every attempt to deliver an event to the webhook (as GET …/webhooks/:id/deliveries), newest first, 50 a page, each with Redeliver.',
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  params: webhookParams,
  query: object({ before: beforeEntry, done: optional(oneOf('redelivered')) }),
  lenientQuery: true,
  responses: { 200: { content: 'text/html', description: 'The page' } },
  errors: [404],
  async handler({ caller: { game }, params, query, app, req, res }) {
    const screen = screenOf(app, req, res, game);
    const before = Number.parseInt(String(query.before ?? ''), 10);
    const webhook = await app.engine.webhooks.get(game.id, params.webhook_id);
    const page = await app.engine.webhooks.deliveries(game.id, params.webhook_id, before > 0 ? before : undefined, 50);
    const older =
      page.nextBefore !== null
        ? { href: href(screen, `${webhookPath(webhook)}?before=${page.nextBefore}`), label: 'Older attempts' }
        : null;
    const body = html`${notice(query.done === 'redelivered' ? 'The event is queued to be sent again.' : undefined)}
      <section class="card" aria-labelledby="deliveries-title">
        <h2 id="deliveries-title">Deliveries to <code>${shownUrl(webhook.url)}</code></h2>
        <p><a href="${href(screen, '/settings#webhooks-title')}">Back to Settings</a></p>
        ${dataTable(
          [
            'At (UTC)',
            'Event',
            'Type',
            { label: 'Attempt', numeric: true },
            'Status',
            { label: 'HTTP', numeric: true },
            { label: 'Took', numeric: true },
            'Error',
            { hidden: 'Actions' },
          ],
          page.deliveries.length > 0
            ? page.deliveries.map((delivery) => deliveryRow(screen, webhook, delivery))
            : html`<tr>
                <td colspan="9" class="muted">No deliveries in the last 7 days.</td>
              </tr>`,
        )}
        ${pager('Delivery pages', null, older)}
      </section>`;
    return pageReply(dashboardPage(screen, { title: 'Webhook deliveries', section: 'Settings', body }));
  },
});

/** A webhook action from Settings: its effect, then back to Settings with what was done. */
function webhookAction(action: 'test' | 'enable' | 'disable' | 'delete', summary: string, description: string) {
  return endpoint({
    method: 'post',
    path: `/dashboard/settings/webhooks/:webhook_id/${action}`,
    operationId: `${action}DashboardWebhook`,
    tag: 'Dashboard',
    summary,
    description,
    credentials: 'dashboard',
    servedFromAppUrl: true,
    rateLimit: 'dashboard',
    params: webhookParams,
    body: object(csrfField),
    responses: { 303: { description: 'Back to Settings' } },
    errors: [404, 409],
    async handler({ caller: { game }, params, app, res }) {
      const { webhooks } = app.engine;
      if (action === 'test') await webhooks.sendTest(game.id, params.webhook_id);
      else if (action === 'delete') await webhooks.delete(game.id, params.webhook_id, 'dashboard');
      else await webhooks.update(game.id, params.webhook_id, { enabled: action === 'enable' }, 'dashboard');
      return seeOther(app, res, `/settings?done=webhook-${action}#webhooks-title`);
    },
  });
}

export const redeliverEndpoint = endpoint({
  method: 'post',
  path: '/dashboard/settings/webhooks/:webhook_id/deliveries/:delivery_id/redeliver',
  operationId: 'redeliverDashboardWebhookEvent',
  tag: 'Dashboard',
  summary: "Send an attempt's event again",
  description: 'Queues a new attempt of the event (as POST …/deliveries/:delivery_id/redeliver).',
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  params: object({
    webhook_id: webhookParams.extract('webhook_id'),
    delivery_id: Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER).required().description('An attempt of the webhook'),
  }),
  body: object(csrfField),
  responses: { 303: { description: 'Back to the delivery log' } },
  errors: [404, 409],
  async handler({ caller: { game }, params, app, res }) {
    await app.engine.webhooks.redeliver(game.id, params.webhook_id, params.delivery_id);
    return seeOther(app, res, `/settings/webhooks/${encodeURIComponent(params.webhook_id)}?done=redelivered`);
  },
});

export const webhookEndpoints = [
  webhookDeliveriesEndpoint,
  webhookAction('test', 'Send a webhook a test event', 'Queues a webhook.test event for the webhook (as POST …/webhooks/:id/test).'),
  webhookAction(
    'enable',
    'Turn a webhook on',
    'Resumes its deliveries (as PATCH …/webhooks/:id with enabled true; audited with actor dashboard).',
  ),
  webhookAction(
    'disable',
    'Turn a webhook off',
    'Stops its deliveries (as PATCH …/webhooks/:id with enabled false; audited with actor dashboard).',
  ),
  webhookAction(
    'delete',
    'Delete a webhook',
    'Removes the webhook and its delivery log (as DELETE …/webhooks/:id; audited with actor dashboard).',
  ),
  redeliverEndpoint,
];
