import type { Actor, AuditStore } from '../audit/audit-store.js';
import { randomId } from '../credentials.js';
import type { Queryable, RunInTransaction } from '../db.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { newWebhookSecret } from './signature.js';
import { checkUrlSyntax, UrlRefused, type UrlPolicy } from './url-guard.js';
import type { WebhookQueue } from './webhook-queue.js';
import type { Delivery, EventType, Webhook, WebhookStore } from './webhook-store.js';

/** Webhooks per game (docs/events.md). */
export const MAX_WEBHOOKS = 20;
/** Attempts one webhook may have waiting; tests and redeliveries beyond them are refused (409), so a caller cannot queue unbounded work. */
export const MAX_PENDING_ATTEMPTS = 100;
/** How long the secret a rotation replaced still signs, beside the new one. */
const PREVIOUS_SECRET_MS = 86_400_000;

export const newWebhookId = () => `wh_${randomId(9)}`;
export const newEventId = () => `msg_${randomId(18)}`;

/** A URL as the audit log and delivery views show it: without its query string, which may hold a token. */
export function shownUrl(url: string): string {
  const parsed = new URL(url);
  parsed.search = '';
  return parsed.toString();
}

export interface WebhookSettings {
  url: string;
  events: EventType[];
  leaderboardIds: string[] | null;
}

/**
 * A game's webhooks, for the game server (docs/events.md): registered with a secret shown once,
 * changed, rotated and removed (each change audited), tested, and their deliveries listed and sent
 * again. Deliveries themselves run in the worker (WebhookDelivery).
 */
export class WebhookService {
  constructor(
    private readonly deps: {
      store: WebhookStore;
      queue: WebhookQueue;
      audit: AuditStore;
      transact: RunInTransaction;
      policy: UrlPolicy;
      /** A leaderboard of the game, or leaderboard_not_found. */
      leaderboards: { get(gameId: string, leaderboardId: string): Promise<unknown> };
    },
  ) {}

  async create(gameId: string, settings: WebhookSettings, actor: Actor): Promise<Webhook & { secret: string }> {
    this.checkUrl(settings.url);
    await this.checkLeaderboards(gameId, settings.leaderboardIds);
    const secret = newWebhookSecret();
    const webhook = await this.deps.transact(async (client) => {
      const inserted = await this.deps.store.in(client).insert({ id: newWebhookId(), gameId, ...settings, secret }, MAX_WEBHOOKS);
      if (!inserted) throw new ConflictError(`A game has at most ${MAX_WEBHOOKS} webhooks; delete one first.`);
      await this.deps.audit
        .in(client)
        .record({ gameId, actor, action: 'webhook.create', target: inserted.id, details: auditDetails(inserted) });
      return inserted;
    });
    return { ...webhook, secret };
  }

  list(gameId: string, offset: number, limit: number): Promise<{ total: number; webhooks: Webhook[] }> {
    return this.deps.store.pageByGame(gameId, offset, limit);
  }

  async update(gameId: string, id: string, change: Partial<WebhookSettings & { enabled: boolean }>, actor: Actor): Promise<Webhook> {
    if (change.url !== undefined) this.checkUrl(change.url);
    // The webhook first: a request naming another game's webhook hears of that, not of the leaderboards.
    await this.get(gameId, id);
    await this.checkLeaderboards(gameId, change.leaderboardIds);
    return this.deps.transact(async (client) => {
      const updated = await this.deps.store.in(client).update(gameId, id, change);
      if (!updated) throw notFound(id);
      await this.deps.audit.in(client).record({ gameId, actor, action: 'webhook.update', target: id, details: auditDetails(updated) });
      return updated;
    });
  }

  async delete(gameId: string, id: string, actor: Actor): Promise<void> {
    await this.deps.transact(async (client) => {
      const deleted = await this.deps.store.in(client).delete(gameId, id);
      if (!deleted) throw notFound(id);
      await this.deps.audit.in(client).record({ gameId, actor, action: 'webhook.delete', target: id, details: auditDetails(deleted) });
    });
  }

  /** A new secret, shown once; the one it replaces signs too for a day, so receivers can switch without a gap. */
  async rotateSecret(gameId: string, id: string, actor: Actor): Promise<Webhook & { secret: string }> {
    const secret = newWebhookSecret();
    const webhook = await this.deps.transact(async (client) => {
      const rotated = await this.deps.store.in(client).rotateSecret(gameId, id, secret, new Date(Date.now() + PREVIOUS_SECRET_MS));
      if (!rotated) throw notFound(id);
      await this.deps.audit.in(client).record({ gameId, actor, action: 'webhook.rotate_secret', target: id });
      return rotated;
    });
    return { ...webhook, secret };
  }

  /** Queues a `webhook.test` event for this webhook alone (enabled or not: a disabled one records why it was not sent). */
  async sendTest(gameId: string, id: string): Promise<{ eventId: string }> {
    const eventId = newEventId();
    const timestamp = new Date();
    const body = JSON.stringify({ type: 'webhook.test', timestamp: timestamp.toISOString(), sequence: null, data: { webhook_id: id } });
    const attempts = await this.deps.transact(async (client) => {
      const store = await this.locked(client, gameId, id);
      await roomFor(store, id);
      return store.recordEvent({ id: eventId, gameId, type: 'webhook.test', body }, [id]);
    });
    await this.deps.queue.add(attempts.map((attemptId) => ({ id: attemptId, webhookId: id, gameId, at: timestamp })));
    return { eventId };
  }

  /** The webhook's attempts, newest first, `limit` at a time; `nextBefore` is null on the last page. */
  async deliveries(
    gameId: string,
    id: string,
    before: number | undefined,
    limit: number,
  ): Promise<{ deliveries: Delivery[]; nextBefore: number | null }> {
    await this.get(gameId, id);
    return this.deps.store.deliveries(id, before, limit);
  }

  /**
   * Sends an attempt's event again, under the same webhook-id: a new attempt, numbered after the
   * event's last, unless one is already waiting (that one is sent now, so no two retry chains run).
   */
  async redeliver(gameId: string, id: string, deliveryId: number): Promise<{ eventId: string; attempt: number }> {
    const at = new Date();
    const { eventId, attempt, attemptId } = await this.deps.transact(async (client) => {
      const store = await this.locked(client, gameId, id);
      const delivery = await store.delivery(id, deliveryId);
      if (!delivery) throw new NotFoundError('delivery_not_found', `Webhook '${id}' has no delivery ${deliveryId}.`);
      const { last, pending } = await store.attemptsOf(delivery.eventId, id);
      if (pending) return { eventId: delivery.eventId, attempt: pending.attempt, attemptId: pending.id };
      await roomFor(store, id);
      const [added] = await store.addAttempts(delivery.eventId, [{ webhookId: id, attempt: last + 1 }], at);
      return { eventId: delivery.eventId, attempt: last + 1, attemptId: added! };
    });
    await this.deps.queue.sendNow({ id: attemptId, webhookId: id, gameId, at });
    return { eventId, attempt };
  }

  /** The store in `client`, with the webhook's row locked until the transaction ends (webhook_not_found if it is not the game's). */
  private async locked(client: Queryable, gameId: string, id: string): Promise<WebhookStore> {
    const store = this.deps.store.in(client);
    if (!(await store.lock(gameId, id))) throw notFound(id);
    return store;
  }

  /** The game's webhook, or webhook_not_found. */
  async get(gameId: string, id: string): Promise<Webhook> {
    const webhook = await this.deps.store.find(gameId, id);
    if (!webhook) throw notFound(id);
    return webhook;
  }

  /** Every named leaderboard is the game's (a board named by mistake would never send anything). */
  private async checkLeaderboards(gameId: string, leaderboardIds: string[] | null | undefined): Promise<void> {
    for (const leaderboardId of leaderboardIds ?? []) await this.deps.leaderboards.get(gameId, leaderboardId);
  }

  private checkUrl(url: string): void {
    try {
      checkUrlSyntax(url, this.deps.policy);
    } catch (error) {
      if (error instanceof UrlRefused)
        throw new ValidationError('The webhook URL is not allowed.', [{ field: 'url', message: error.message }]);
      throw error;
    }
  }
}

/** Room for one more waiting attempt of the webhook, or 409. */
async function roomFor(store: WebhookStore, id: string): Promise<void> {
  if ((await store.pendingCount(id)) >= MAX_PENDING_ATTEMPTS) {
    throw new ConflictError(`Webhook '${id}' has ${MAX_PENDING_ATTEMPTS} attempts waiting; wait for them first.`);
  }
}

function notFound(id: string): NotFoundError {
  return new NotFoundError('webhook_not_found', `This game has no webhook '${id}'.`);
}

/** What the audit log keeps of a webhook: never its secret, and its URL without the query string. */
function auditDetails(webhook: Webhook): Record<string, unknown> {
  return { url: shownUrl(webhook.url), events: webhook.events, leaderboard_ids: webhook.leaderboardIds, enabled: webhook.enabled };
}
