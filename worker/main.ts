import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'bullmq';
import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { loadConfigOrExit } from '../engine/config.js';
import { ensureDatabase, migrate } from '../engine/db.js';
import { createPersistenceEngine } from '../engine/engine.js';
import { stopWhenLauncherGone } from '../engine/launcher-link.js';
import { queuePrefix } from '../engine/live/keys.js';
import { createLogger, type Logger } from '../engine/logger.js';
import { PERSIST_QUEUE } from '../engine/persistence/persistence-queue.js';
import { DatasetMismatchError } from '../engine/persistence/dataset.js';
import { createRedis, redisTarget } from '../engine/live/redis.js';
import { createPersistProcessor } from './persist-processor.js';
import { createWebhookProcessor } from './webhook-processor.js';
import { WEBHOOK_QUEUE, webhookQueuePrefix } from '../engine/events/webhook-queue.js';

const SWEEP_INTERVAL_MS = 2000;
/** A requested rebuild walk starts within this long (and one in progress is carried on by another worker). */
const REBUILD_INTERVAL_MS = 500;
/** Scheduled resets are looked for this often, so each happens within a second or so of its time. */
const SCHEDULER_INTERVAL_MS = 1000;
/** How often a worker looks whether the fleet's clan recount is due (it runs once per RECONCILE_INTERVAL_SECONDS). */
const RECONCILE_CHECK_MS = 60_000;
/** Webhook attempts in flight per worker: most of their time is waiting on receivers (up to 10 s each). */
const WEBHOOK_CONCURRENCY = 64;
/** How often a worker looks for webhook attempts whose job was lost (the API died before queueing it). */
const WEBHOOK_SWEEP_MS = 30_000;
/** How often a worker looks for windows that closed without their `leaderboard.closed` recorded. */
const CLOSE_CHECK_MS = 2_000;
/** How often a worker looks whether the day's rank snapshots are due (from RANK_SNAPSHOT_HOUR_UTC). */
const SNAPSHOT_CHECK_MS = 60_000;
/** Audit entries past AUDIT_RETENTION_DAYS are pruned this often (and once at start); retention is in days, so hourly is plenty. */
const AUDIT_PRUNE_INTERVAL_MS = 3_600_000;

/** The persistence worker: its own process, scaled separately from the API. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel).child({ process: 'worker' });
  await ensureDatabase(config.databaseUrl);
  await migrate(config.databaseUrl, logger);
  const engine = await createPersistenceEngine(config, logger);
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const connection = createRedis(redisTarget(config), { role: 'queue' });
  const processor = createPersistProcessor({ persister: engine.persister, registry });
  // One worker per queue shard, sharing this process's concurrency.
  const perShard = Math.max(1, Math.ceil(config.workerConcurrency / config.persistQueueShards));
  const workers = Array.from(
    { length: config.persistQueueShards },
    (_, shard) =>
      new Worker(PERSIST_QUEUE, processor, {
        connection,
        prefix: queuePrefix(config.redisKeyPrefix, shard),
        concurrency: perShard,
        // A job whose worker died is found within lockDuration + stalledInterval (< 10 s) and run
        // again; it never fails for good because of that (BullMQ's defaults: 30 s and one retry).
        lockDuration: 4000,
        stalledInterval: 3000,
        maxStalledCount: 1_000_000,
        settings: { backoffStrategy: (attemptsMade: number) => Math.min(200 * 2 ** attemptsMade, 5000) },
      }),
  );
  for (const worker of workers) {
    worker.on('failed', (job, error) =>
      logger.warn(
        { err: error, leaderboardInternalId: job?.data?.leaderboardInternalId, attempts: job?.attemptsMade },
        'persistence job failed; will retry',
      ),
    );
    worker.on('error', (error) => logger.warn({ err: error }, 'worker connection error'));
  }

  // Webhook deliveries (docs/events.md): one job per attempt, outcomes in PostgreSQL.
  const webhookWorker = new Worker(WEBHOOK_QUEUE, createWebhookProcessor(engine.webhookDelivery), {
    connection,
    prefix: webhookQueuePrefix(config.redisKeyPrefix),
    concurrency: WEBHOOK_CONCURRENCY,
    // An attempt whose worker died is found within lockDuration + stalledInterval and made again (at
    // least once); BullMQ renews the lock while an attempt waits on its receiver (10 s at most).
    lockDuration: 10_000,
    stalledInterval: 5_000,
    maxStalledCount: 1_000_000,
    settings: { backoffStrategy: (attemptsMade: number) => Math.min(1000 * 2 ** attemptsMade, 60_000) },
  });
  webhookWorker.on('failed', (job, error) =>
    logger.warn({ err: error, deliveryId: job?.data?.deliveryId }, 'webhook job failed; will retry'),
  );
  webhookWorker.on('error', (error) => logger.warn({ err: error }, 'webhook worker connection error'));

  new Gauge({
    name: 'leaderboard_persistence_queue_jobs',
    help: 'Persistence jobs by state',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      for (const [state, n] of Object.entries(await engine.maintenance.jobCounts())) this.set({ state }, n);
    },
  });
  new Gauge({
    name: 'leaderboard_pending_persistence',
    help: 'Score changes accepted but not yet written to PostgreSQL',
    registers: [registry],
    async collect() {
      this.set(await engine.maintenance.pendingPersistence());
    },
  });
  const metricsServer = await serveMetrics(registry, config.workerMetricsPort, logger);

  // A Redis that restarted (replaying its AOF) or a promoted replica may lack the last writes,
  // persisted ones included: after a reconnection or a cluster node dropping out, merge every
  // persisted best score back (merging never lowers one).
  let mergeEverything = false;
  engine.onRedisReconnect(() => {
    mergeEverything = true;
  });

  // Every few seconds: notice what Redis lost, and re-queue persistence that lost its job.
  const sweeper = every(SWEEP_INTERVAL_MS, 'sweep', logger, async () => {
    const all = mergeEverything;
    mergeEverything = false;
    try {
      if (all) {
        await engine.maintenance.requestRebuild();
        logger.warn('Redis reconnected: merging persisted scores back');
      }
      await engine.maintenance.sweep();
    } catch (error) {
      if (error instanceof DatasetMismatchError) {
        logger.fatal(error.message);
        process.exit(1);
      }
      if (all) mergeEverything = true; // the cluster may still be settling: ask again next round
      throw error;
    }
  });

  // A requested rebuild walk (a lost dataset, a reconnection): apart from the sweep, which it could hold up for minutes.
  const rebuilder = every(REBUILD_INTERVAL_MS, 'rebuild', logger, () => engine.maintenance.rebuild());

  // Scheduled season resets: any number of workers may look; each reset happens once (its script
  // ends the season only while its scheduled instant is due).
  const scheduler = every(SCHEDULER_INTERVAL_MS, 'scheduled resets', logger, () => engine.seasons.runDueResets());

  // Clan totals are moved by deltas; a scheduled recount repairs any drift (floating-point included).
  // One recount per interval over all workers, so starting or adding workers does not repeat it.
  const reconcileMs = config.reconcileIntervalSeconds * 1000;
  const reconciler = every(Math.min(reconcileMs, RECONCILE_CHECK_MS), 'clan reconciliation', logger, async () => {
    const repairs = await engine.maintenance.reconcileClansOncePer(reconcileMs);
    if (repairs) logger.warn({ repairs }, 'clan totals reconciled');
  });

  // Old audit entries go in batches; several workers pruning at once only delete the same rows once.
  const auditPruner = every(AUDIT_PRUNE_INTERVAL_MS, 'audit log pruning', logger, async () => {
    const deleted = await engine.maintenance.pruneAuditLog();
    if (deleted > 0) logger.info({ deleted, retentionDays: config.auditRetentionDays }, 'audit log pruned');
  });
  const webhookSweeper = every(WEBHOOK_SWEEP_MS, 'webhook sweep', logger, async () => {
    const requeued = await engine.webhookDelivery.requeueOverdue();
    if (requeued > 0) logger.warn({ requeued }, 'webhook attempts queued again (their jobs were lost)');
  });
  // A close is recorded within a couple of seconds of it (docs/events.md part 5).
  const closeRecorder = every(CLOSE_CHECK_MS, 'close events', logger, () => engine.closeEvents.recordDue());
  // Daily rank snapshots (docs/history.md): looked for each minute, taken once a day.
  const snapshotter = every(SNAPSHOT_CHECK_MS, 'rank snapshots', logger, () => engine.rankSnapshots.takeDue());
  const eventPruner = every(AUDIT_PRUNE_INTERVAL_MS, 'webhook event pruning', logger, () => engine.webhookDelivery.pruneEvents());
  logger.info({ concurrency: config.workerConcurrency }, 'worker ready');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker stopping');
    for (const timer of [sweeper, rebuilder, scheduler, reconciler, auditPruner, webhookSweeper, closeRecorder, eventPruner, snapshotter])
      timer.stop();
    await Promise.all([...workers, webhookWorker].map((worker) => worker.close()));
    metricsServer.close();
    await connection.quit().catch(() => undefined);
    await engine.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  stopWhenLauncherGone(() => void stop('launcher gone'));
}

/**
 * Runs `task` every `intervalMs` (the first round at once), never two rounds at once; a round that
 * fails is logged and the next one tries again.
 */
function every(intervalMs: number, what: string, logger: Logger, task: () => Promise<unknown>): { stop(): void } {
  let running = false;
  const round = async () => {
    if (running) return;
    running = true;
    try {
      await task();
    } catch (error) {
      logger.warn({ err: error }, `${what} failed; retrying on the next round`);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void round(), intervalMs);
  void round();
  return { stop: () => clearInterval(timer) };
}

/**
 * Prometheus metrics on the configured port. A second worker on the same host finds it taken: it
 * serves on a free port instead and says which, rather than failing to start.
 */
async function serveMetrics(registry: Registry, port: number, logger: Logger): Promise<Server> {
  const server = createServer((_req, res) => {
    registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
      () => res.writeHead(503).end(),
    );
  });
  const listen = (on: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(on, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  try {
    await listen(port);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    await listen(0);
    logger.warn(
      { port: (server.address() as AddressInfo).port },
      `metrics port ${port} is in use (another worker on this host?): serving metrics on the port given here; set WORKER_METRICS_PORT to choose one`,
    );
  }
  return server;
}

main().catch((error: unknown) => {
  process.stderr.write(`worker failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
