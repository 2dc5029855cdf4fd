import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AuditStore } from '../audit/audit-store.js';
import type { RunInTransaction } from '../db.js';
import type { Logger } from '../logger.js';
import { webhookSignature } from './signature.js';
import { resolveUrl, UrlRefused, type UrlPolicy } from './url-guard.js';
import type { WebhookQueue } from './webhook-queue.js';
import type { DeliveryError, WebhookStore } from './webhook-store.js';

/**
 * Waits before each retry, after a failed attempt (docs/events.md): 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h, 10 h, so the last of the 8 attempts comes about 27.6 hours after the first.
 */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
/** A webhook whose every delivery failed for this long is turned off. */
export const DISABLE_AFTER_MS = 3 * 86_400_000;
const TIMEOUT_MS = 10_000;
/** Events and their attempts are kept this long. */
const EVENT_RETENTION_MS = 7 * 86_400_000;
/** At most this much of a receiver's answer is read (its status is all a delivery needs). */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Makes one attempt to deliver an event to a webhook, in the worker: signs the stored body, posts
 * it to the address the URL check resolved (never resolved again, redirects not followed, proxies
 * ignored), and writes the outcome with the next attempt, or turns the webhook off on 410 Gone or
 * after DISABLE_AFTER_MS of failures (audited, actor system).
 */
export class WebhookDelivery {
  constructor(
    private readonly deps: {
      store: WebhookStore;
      queue: WebhookQueue;
      audit: AuditStore;
      transact: RunInTransaction;
      policy: UrlPolicy;
      logger: Logger;
    },
  ) {}

  async attempt(deliveryId: number): Promise<void> {
    const pending = await this.deps.store.pendingAttempt(deliveryId);
    if (!pending) return; // made already (a job run twice), or its webhook or event is gone
    const { delivery, webhook, body } = pending;
    const started = performance.now();
    const outcome = webhook.enabled
      ? await post(
          webhook.url,
          this.deps.policy,
          body,
          {
            'content-type': 'application/json',
            'user-agent': 'leaderboard-service-webhooks',
            'webhook-id': delivery.eventId,
            'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
          },
          webhook.secrets,
        )
      : { status: null, error: 'webhook_disabled' as const };
    const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    const gone = outcome.status === 410;
    const failingFor = webhook.failingSince ? Date.now() - webhook.failingSince.getTime() : 0;
    const retryIn = RETRY_DELAYS_MS[delivery.attempt - 1];
    const next = await this.deps.transact(async (client) => {
      const store = this.deps.store.in(client);
      const written = await store.finishAttempt(deliveryId, {
        status: delivered ? 'delivered' : 'failed',
        responseStatus: outcome.status,
        durationMs: Math.round(performance.now() - started),
        error: delivered ? null : (outcome.error ?? 'http_status'),
      });
      if (!written || delivered || !webhook.enabled) return [];
      if (gone || failingFor >= DISABLE_AFTER_MS) {
        if (await store.disable(webhook.id)) {
          await this.deps.audit.in(client).record({
            gameId: webhook.gameId,
            actor: 'system',
            action: 'webhook.disable',
            target: webhook.id,
            details: { reason: gone ? 'gone' : 'failing' },
          });
        }
        return [];
      }
      if (retryIn === undefined) return [];
      const at = new Date(Date.now() + retryIn);
      const [id] = await store.addAttempts(delivery.eventId, [{ webhookId: webhook.id, attempt: delivery.attempt + 1 }], at);
      return [{ id: id!, webhookId: webhook.id, gameId: webhook.gameId, at }];
    });
    // Queued after the commit; lost only if this process dies in between, and then the sweep queues it.
    await this.deps.queue.add(next);
  }

  /** Events (with their attempts) older than 7 days go; the number deleted. */
  pruneEvents(): Promise<number> {
    return this.deps.store.pruneBefore(new Date(Date.now() - EVENT_RETENTION_MS));
  }

  /** Queues again the attempts left pending a minute past their time (their job was lost); how many. */
  async requeueOverdue(): Promise<number> {
    const overdue = await this.deps.store.overdueAttempts(new Date(Date.now() - 60_000), 1000);
    await this.deps.queue.add(overdue);
    return overdue.length;
  }
}

/**
 * Posts the body to the URL's checked address: its status, or why there was none. The whole attempt,
 * name resolution included, has TIMEOUT_MS; the outcome is decided when the status line arrives,
 * and no more than MAX_RESPONSE_BYTES of the answer is read before the connection is closed.
 */
async function post(
  url: string,
  policy: UrlPolicy,
  body: string,
  headers: Record<string, string>,
  secrets: string[],
): Promise<{ status: number | null; error: DeliveryError | null }> {
  const deadline = AbortSignal.timeout(TIMEOUT_MS);
  let target: Awaited<ReturnType<typeof resolveUrl>>;
  try {
    target = await resolveUrl(url, policy);
  } catch (error) {
    if (error instanceof UrlRefused) return { status: null, error: error.reason };
    throw error;
  }
  if (deadline.aborted) return { status: null, error: 'timeout' };
  const signed = {
    ...headers,
    'webhook-signature': webhookSignature(secrets, headers['webhook-id']!, Number(headers['webhook-timestamp']), body),
  };
  // The connection goes to the address checked above, whatever a second resolution would say.
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const request = client.request(target.url, { method: 'POST', headers: signed, lookup, agent: false, signal: deadline }, (response) => {
      resolve({ status: response.statusCode ?? null, error: null });
      // Read a little (some servers wait for their answer to be taken), then close.
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_RESPONSE_BYTES) response.destroy();
      });
      response.on('error', () => undefined);
      response.on('end', () => request.destroy());
    });
    request.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ status: null, error: error.name === 'AbortError' || error.name === 'TimeoutError' ? 'timeout' : 'connection_failed' }),
    );
    request.end(body);
  });
}
