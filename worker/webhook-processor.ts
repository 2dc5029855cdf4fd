import { DelayedError, type Job } from 'bullmq';
import type { WebhookDelivery } from '../engine/events/webhook-delivery.js';
import type { WebhookJob } from '../engine/events/webhook-queue.js';

/** Attempts one webhook may have in flight in this worker: a slow receiver holds these, never the others' (docs/events.md). */
export const ATTEMPTS_IN_FLIGHT_PER_WEBHOOK = 4;
/** A webhook at its cap has its next attempt tried again this much later. */
const BUSY_DELAY_MS = 1000;

/** The webhook queue's processor: one attempt per job, at most ATTEMPTS_IN_FLIGHT_PER_WEBHOOK per webhook at once. */
export function createWebhookProcessor(delivery: WebhookDelivery) {
  const inFlight = new Map<string, number>();
  return async (job: Job<WebhookJob>, token?: string): Promise<void> => {
    const { deliveryId, webhookId } = job.data;
    const busy = inFlight.get(webhookId) ?? 0;
    if (busy >= ATTEMPTS_IN_FLIGHT_PER_WEBHOOK) {
      await job.moveToDelayed(Date.now() + BUSY_DELAY_MS, token);
      throw new DelayedError();
    }
    inFlight.set(webhookId, busy + 1);
    try {
      await delivery.attempt(deliveryId);
    } finally {
      const left = (inFlight.get(webhookId) ?? 1) - 1;
      if (left === 0) inFlight.delete(webhookId);
      else inFlight.set(webhookId, left);
    }
  };
}
