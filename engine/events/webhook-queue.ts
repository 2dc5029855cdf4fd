import { Queue } from 'bullmq';
import type { RedisClient } from '../live/redis.js';

export const WEBHOOK_QUEUE = 'webhooks';

/** One attempt to wake up for; the webhook's and game's ids let the worker cap their attempts in flight. */
export interface WebhookJob {
  deliveryId: number;
  webhookId: string;
  gameId: string;
}

/** An attempt to queue: its id, its webhook and game, and when it is due. */
export interface QueuedAttempt {
  id: number;
  webhookId: string;
  gameId: string;
  at: Date;
}

/** The queue's keys share one hash tag (BullMQ needs one Cluster slot), apart from the persistence queues'. */
export function webhookQueuePrefix(prefix: string): string {
  return `${prefix}:{wh}`;
}

/**
 * Webhook deliveries, one job per attempt (docs/events.md): the attempt's row in PostgreSQL is the
 * truth, the job only wakes the worker at its time. The job id is the attempt's, so queueing one
 * twice (the worker's sweep finding it overdue) runs it once.
 */
export class WebhookQueue {
  readonly queue: Queue<WebhookJob>;

  constructor({ connection, prefix }: { connection: RedisClient; prefix: string }) {
    this.queue = new Queue(WEBHOOK_QUEUE, {
      connection,
      prefix: webhookQueuePrefix(prefix),
      // An attempt whose job fails (PostgreSQL down) runs again; its HTTP outcome never fails the job.
      defaultJobOptions: { attempts: 1_000_000, backoff: { type: 'capped' }, removeOnComplete: true, removeOnFail: 1000 },
    });
  }

  async add(attempts: QueuedAttempt[]): Promise<void> {
    if (attempts.length === 0) return;
    await this.queue.addBulk(
      attempts.map(({ id, webhookId, gameId, at }) => ({
        name: 'deliver',
        data: { deliveryId: id, webhookId, gameId },
        opts: { jobId: `attempt-${id}`, delay: Math.max(0, at.getTime() - Date.now()) },
      })),
    );
  }

  /** Makes the attempt now: its waiting job is moved up, or a job is queued if it has none. */
  async sendNow(attempt: QueuedAttempt): Promise<void> {
    const job = await this.queue.getJob(`attempt-${attempt.id}`);
    if (job && (await job.isDelayed())) await job.promote();
    else if (!job) await this.add([{ ...attempt, at: new Date() }]);
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
