import type { RedisClient } from './live/redis.js';
import type { Logger } from './logger.js';
import type { SystemStore } from './system-store.js';
import type { PersistenceMarks } from './persistence/marks.js';
import type { PersistenceQueue } from './persistence/persistence-queue.js';
import type { DatasetGuard } from './persistence/dataset.js';
import type { Rebuild } from './recovery/rebuild.js';
import { ClanReconciler } from './clans/reconcile.js';
import type { AuditStore } from './audit/audit-store.js';

export interface Readiness {
  redis: 'ok' | 'down';
  postgres: 'ok' | 'down';
  /** null when it could not be counted (a store down, or too slow). */
  pendingPersistence: number | null;
}

const withTimeout = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);

/**
 * What keeps the live state whole, for the worker, the probes and the operators' scripts: the
 * dataset check, rebuilds, the persistence sweep and the pending count, clan recounts. Every walk
 * goes a page at a time, and periodic work follows what changed, not what exists.
 */
export class Maintenance {
  constructor(
    private readonly deps: {
      redis: RedisClient;
      system: SystemStore;
      logger: Logger;
      dataset: DatasetGuard;
      marks: PersistenceMarks;
      queue: PersistenceQueue;
      rebuild: Rebuild;
      reconciler: ClanReconciler;
      audit: AuditStore;
      /** Audit entries older than this many days are pruned. */
      auditRetentionDays: number;
    },
  ) {}

  /** For /readyz: both stores answer, and the exact count of changes PostgreSQL has yet to get. */
  async readiness(): Promise<Readiness> {
    const { redis, system, marks } = this.deps;
    const [redisState, postgresState] = await Promise.all([
      withTimeout(redis.ping(), 1000).then(
        () => 'ok' as const,
        () => 'down' as const,
      ),
      withTimeout(system.ping(), 1000).then(
        () => 'ok' as const,
        () => 'down' as const,
      ),
    ]);
    const pendingPersistence = redisState === 'ok' ? await withTimeout(marks.pending(), 2000).catch(() => null) : null;
    return { redis: redisState, postgres: postgresState, pendingPersistence };
  }

  /** Changes accepted but not yet written to PostgreSQL, over every leaderboard (exact). */
  pendingPersistence(): Promise<number> {
    return this.deps.marks.pending();
  }

  /** Persistence jobs by state, over every queue shard. */
  jobCounts(): Promise<Record<'waiting' | 'active' | 'delayed' | 'failed', number>> {
    return this.deps.queue.counts();
  }

  /** Asks for every leaderboard to be merged back from PostgreSQL (done by the next rebuild). */
  requestRebuild(): Promise<void> {
    return this.deps.rebuild.request();
  }

  /** Carries out a requested rebuild; undefined when another process is at it. */
  rebuild(): Promise<number | undefined> {
    return this.deps.rebuild.run();
  }

  /**
   * The worker's periodic round: a node that lost its data (one read per node) asks for a rebuild
   * walk (run apart, by `rebuild`, so a long walk never holds this round up), and marks whose job
   * died are queued again (a visit per board with recent changes).
   */
  async sweep(): Promise<{ lost: boolean; requeued: number[] }> {
    const lost = await this.deps.dataset.detectLoss();
    if (lost) this.deps.logger.warn('Redis lost data (a dataset marker is gone): rebuilding from PostgreSQL');
    const { requeued } = await this.deps.marks.sweep();
    if (requeued.length > 0) this.deps.logger.warn({ leaderboards: requeued }, 're-queued persistence for leaderboards without a live job');
    return { lost, requeued };
  }

  /** Recounts every clan leaderboard's totals from its members; the number of repairs. */
  reconcileClans(): Promise<number> {
    return this.deps.reconciler.reconcileAll();
  }

  /** The worker's clan recount: once per `intervalMs` over every worker; undefined when another ran it within the interval. */
  reconcileClansOncePer(intervalMs: number): Promise<number | undefined> {
    return this.deps.reconciler.reconcileAllOncePer(intervalMs);
  }

  /** Deletes audit entries older than AUDIT_RETENTION_DAYS (by `now`); the number deleted. */
  async pruneAuditLog(now = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.deps.auditRetentionDays * 86_400_000);
    return this.deps.audit.pruneBefore(cutoff);
  }
}

/** The worker's maintenance rounds and the operators' commands, with the clan recount they run. */
export function createMaintenance(
  deps: Omit<ConstructorParameters<typeof Maintenance>[0], 'reconciler'> & ConstructorParameters<typeof ClanReconciler>[0],
): Maintenance {
  return new Maintenance({ ...deps, reconciler: new ClanReconciler(deps) });
}
