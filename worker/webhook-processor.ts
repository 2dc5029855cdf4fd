import { DelayedError, type Job } from 'bullmq';
import type { WebhookDelivery } from '../engine/events/webhook-delivery.js';
import type { WebhookJob } from '../engine/events/webhook-queue.js';

/** Attempts one webhook may have in flight in this worker: a slow receiver holds these, never the others' (docs/events.md). */
export const ATTEMPTS_IN_FLIGHT_PER_WEBHOOK = 4;
/** And one game's webhooks together: a game's slow receivers leave most of the worker to the other games. */
export const ATTEMPTS_IN_FLIGHT_PER_GAME = 16;
/** A webhook at its cap has its next attempt tried again this much later. */
const BUSY_DELAY_MS = 1000;

/**
 * The webhook queue's processor: one attempt per job, at most ATTEMPTS_IN_FLIGHT_PER_WEBHOOK per
 * webhook and ATTEMPTS_IN_FLIGHT_PER_GAME per game at once; an attempt over either waits a moment.
 */
export function createWebhookProcessor(delivery: WebhookDelivery) {
  const inFlight = new Map<string, number>();
  const count = (key: string, by: number) => {
    const left = (inFlight.get(key) ?? 0) + by;
    if (left === 0) inFlight.delete(key);
    else inFlight.set(key, left);
  };
  return async (job: Job<WebhookJob>, token?: string): Promise<void> => {
    const { deliveryId, webhookId, gameId } = job.data;
    const webhookKey = `w:${webhookId}`;
    const gameKey = `g:${gameId}`;
    if ((inFlight.get(webhookKey) ?? 0) >= ATTEMPTS_IN_FLIGHT_PER_WEBHOOK || (inFlight.get(gameKey) ?? 0) >= ATTEMPTS_IN_FLIGHT_PER_GAME) {
      // A second or so later, spread, so waiting attempts do not all come back at once.
      await job.moveToDelayed(Date.now() + BUSY_DELAY_MS * (1 + Math.random()), token);
      throw new DelayedError();
    }
    count(webhookKey, 1);
    count(gameKey, 1);
    try {
      await delivery.attempt(deliveryId);
    } finally {
      count(webhookKey, -1);
      count(gameKey, -1);
    }
  };
}
