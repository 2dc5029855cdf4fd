import Joi from 'joi';
import { EVENT_TYPES, type EventType } from '../../../engine/events/webhook-store.js';
import { deliveryView, webhookView } from '../../views.js';
import { endpoint } from '../endpoint.js';
import { DeliveryList, RedeliveryQueued, Webhook, WebhookCreated, WebhookList, WebhookTestQueued } from '../responses.js';
import { beforeEntry, leaderboardId, limit, listQuery, nullable, object, oneOf, optional, webhookUrl } from '../schemas.js';

const url = webhookUrl;
const events = Joi.array<EventType[]>()
  .items(oneOf(...EVENT_TYPES))
  .min(1)
  .max(EVENT_TYPES.length)
  .unique()
  .description('The event types to send it, at least one')
  .example(['player.overtaken', 'season.ended']);
const leaderboardIds = nullable(Joi.array<string[]>().items(leaderboardId).min(1).max(100).unique())
  .description('The leaderboards whose events it is sent (1-100); null or absent for every leaderboard of the game')
  .example(null);
const webhookId = Joi.string()
  .pattern(/^[A-Za-z0-9_-]{1,128}$/)
  .description('The webhook')
  .example('wh_3hXo0T1c2qZr');
const webhookParams = object({ webhook_id: webhookId });

/** The game's webhooks (docs/events.md): registered, changed, rotated, removed, tested, and their deliveries. */
export const serverWebhookEndpoints = [
  endpoint({
    method: 'post',
    path: '/api/v1/server/webhooks',
    operationId: 'createWebhook',
    tag: 'Game server',
    summary: 'Register a webhook (its secret shown once)',
    description:
      "Events of the game are posted to `url`, signed by the Standard Webhooks scheme with the `secret` answered here once. At most 20 webhooks per game (409 beyond). Audited, without the secret and the URL's query string.",
    credentials: 'secretKey',
    body: object({ url, events, leaderboard_ids: optional(leaderboardIds) }),
    responses: { 201: { schema: WebhookCreated } },
    errors: [404, 409],
    async handler({ caller, body, app }) {
      const webhook = await app.engine.webhooks.create(
        caller.game.id,
        { url: body.url, events: body.events, leaderboardIds: body.leaderboard_ids ?? null },
        'secret_key',
      );
      return { status: 201, body: { ...webhookView(webhook), secret: webhook.secret } };
    },
  }),

  endpoint({
    method: 'get',
    path: '/api/v1/server/webhooks',
    operationId: 'listWebhooks',
    tag: 'Game server',
    summary: "The game's webhooks (without their secrets), oldest first, a page at a time",
    description: "The game's webhooks, oldest first, `limit` at a time from `offset`; never their secrets.",
    credentials: 'secretKey',
    query: listQuery,
    responses: { 200: { schema: WebhookList } },
    errors: [400],
    async handler({ caller, query: { limit, offset }, app }) {
      const { total, webhooks } = await app.engine.webhooks.list(caller.game.id, offset, limit);
      return { status: 200, body: { webhooks: webhooks.map(webhookView), total, limit, offset } };
    },
  }),

  endpoint({
    method: 'patch',
    path: '/api/v1/server/webhooks/:webhook_id',
    operationId: 'updateWebhook',
    tag: 'Game server',
    summary: 'Change a webhook: its URL, events, leaderboards, or turn it on or off',
    description:
      'Changes the fields given; the others stay. Turning a webhook back on (`enabled: true`) also forgets its failed deliveries, so it has 3 days again before it is turned off. Audited.',
    credentials: 'secretKey',
    params: webhookParams,
    body: object({
      url: optional(url),
      events: optional(events),
      leaderboard_ids: optional(leaderboardIds),
      enabled: optional(Joi.boolean().description('False stops its deliveries; true resumes them')),
    }).min(1),
    responses: { 200: { schema: Webhook } },
    errors: [400, 404],
    async handler({ caller, params, body, app }) {
      const webhook = await app.engine.webhooks.update(
        caller.game.id,
        params.webhook_id,
        { url: body.url, events: body.events, leaderboardIds: body.leaderboard_ids, enabled: body.enabled },
        'secret_key',
      );
      return { status: 200, body: webhookView(webhook) };
    },
  }),

  endpoint({
    method: 'delete',
    path: '/api/v1/server/webhooks/:webhook_id',
    operationId: 'deleteWebhook',
    tag: 'Game server',
    summary: 'Remove a webhook, with its delivery log',
    description: 'Removes the webhook; nothing more is delivered to it. Audited.',
    credentials: 'secretKey',
    params: webhookParams,
    responses: { 204: { description: 'Removed' } },
    errors: [400, 404],
    async handler({ caller, params, app }) {
      await app.engine.webhooks.delete(caller.game.id, params.webhook_id, 'secret_key');
      return { status: 204 };
    },
  }),

  endpoint({
    method: 'post',
    path: '/api/v1/server/webhooks/:webhook_id/secret',
    operationId: 'rotateWebhookSecret',
    tag: 'Game server',
    summary: 'A new signing secret (shown once); the old one also signs for 24 hours',
    description:
      'Deliveries carry two signatures for the next 24 hours, one by each secret, so the receiver can switch to the new secret without missing a delivery. Audited, without either secret.',
    credentials: 'secretKey',
    params: webhookParams,
    responses: { 200: { schema: WebhookCreated } },
    errors: [400, 404, 413, 415],
    async handler({ caller, params, app }) {
      const webhook = await app.engine.webhooks.rotateSecret(caller.game.id, params.webhook_id, 'secret_key');
      return { status: 200, body: { ...webhookView(webhook), secret: webhook.secret } };
    },
  }),

  endpoint({
    method: 'post',
    path: '/api/v1/server/webhooks/:webhook_id/test',
    operationId: 'testWebhook',
    tag: 'Game server',
    summary: 'Send the webhook a webhook.test event',
    description:
      'Queues a `webhook.test` event for this webhook alone; its delivery shows in the delivery log like any other (a turned-off webhook records it as failed, `webhook_disabled`). 409 while the webhook has 100 attempts waiting.',
    credentials: 'secretKey',
    params: webhookParams,
    responses: { 202: { schema: WebhookTestQueued } },
    errors: [400, 404, 409, 413, 415],
    async handler({ caller, params, app }) {
      const { eventId } = await app.engine.webhooks.sendTest(caller.game.id, params.webhook_id);
      return { status: 202, body: { event_id: eventId } };
    },
  }),

  endpoint({
    method: 'get',
    path: '/api/v1/server/webhooks/:webhook_id/deliveries',
    operationId: 'listWebhookDeliveries',
    tag: 'Game server',
    summary: "The webhook's delivery attempts, newest first, a page at a time",
    description:
      'Every attempt to deliver an event to this webhook in the last 7 days, newest first, `limit` at a time. Pass `next_before` as `before` for the next page; it is null on the last one.',
    credentials: 'secretKey',
    params: webhookParams,
    query: object({ limit, before: beforeEntry }),
    responses: { 200: { schema: DeliveryList } },
    errors: [400, 404],
    async handler({ caller, params, query, app }) {
      const page = await app.engine.webhooks.deliveries(caller.game.id, params.webhook_id, query.before, query.limit);
      return { status: 200, body: { deliveries: page.deliveries.map(deliveryView), next_before: page.nextBefore } };
    },
  }),

  endpoint({
    method: 'post',
    path: '/api/v1/server/webhooks/:webhook_id/deliveries/:delivery_id/redeliver',
    operationId: 'redeliverWebhookEvent',
    tag: 'Game server',
    summary: "Send an attempt's event again",
    description:
      "Sends the event again under the same `webhook-id` (a receiver that has it already can tell), whatever became of the attempt named: a new attempt, numbered after the event's last, or, when one is already waiting for its retry, that one at once. 409 while the webhook has 100 attempts waiting.",
    credentials: 'secretKey',
    params: object({
      webhook_id: webhookId,
      delivery_id: Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER).description('An attempt of the webhook').example(5120),
    }),
    responses: { 202: { schema: RedeliveryQueued } },
    errors: [400, 404, 409, 413, 415],
    async handler({ caller, params, app }) {
      const { eventId, attempt } = await app.engine.webhooks.redeliver(caller.game.id, params.webhook_id, params.delivery_id);
      return { status: 202, body: { event_id: eventId, attempt } };
    },
  }),
];
