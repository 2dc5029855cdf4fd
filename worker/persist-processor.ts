import { setTimeout } from 'node:timers/promises';
import { UnrecoverableError, type Job } from 'bullmq';
import { Counter, Histogram, type Registry } from 'prom-client';
import type { PersistJobData } from '../engine/persistence/persistence-queue.js';
import type { Persister } from '../engine/persistence/persister.js';

const PLAYERS_PER_ROUND = 5000;
const CLANS_PER_ROUND = 1000;
/** A busy leaderboard hands its slot back after this long, so one hot board cannot starve others. */
const ROUND_BUDGET_MS = 1000;
/**
 * A round that found fewer changes than this waits GATHER_MS before claiming again, so that under a
 * steady stream each transaction carries hundreds of rows instead of a handful: per change, the
 * worker, PostgreSQL and Redis then spend a fraction of the CPU, at the price of at most GATHER_MS
 * more lag (the target is under a second).
 */
const SMALL_ROUND = 500;
const GATHER_MS = 100;

interface Deps {
  persister: Persister;
  registry: Registry;
}

/**
 * Persists one leaderboard's pending changes: claim the oldest marks with their current values,
 * upsert them, clear the marks whose values did not move meanwhile, repeat until none are left.
 */
export function createPersistProcessor({ persister, registry }: Deps) {
  const lag = new Histogram({
    name: 'leaderboard_persistence_lag_seconds',
    help: 'Time from a score change in Redis to its write in PostgreSQL',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
    registers: [registry],
  });
  const jobs = new Counter({
    name: 'leaderboard_persistence_jobs_total',
    help: 'Persistence jobs this worker process completed',
    registers: [registry],
  });

  return async (job: Job<PersistJobData>): Promise<string> => {
    // A job queued by an API still running the version before the field was renamed says
    // `leaderboard`: it is read too, so a rolling deploy never leaves a board waiting for the sweep.
    const internalId = job.data?.leaderboardInternalId ?? (job.data as { leaderboard?: unknown } | undefined)?.leaderboard;
    // Fails for good, since no retry can mend it. Nothing is lost with it: a job carries no changes,
    // only the board's id, and the marks it would have written stay in Redis until a job acks them;
    // the sweep queues a well-formed job for every board with marks once its queued flag expires.
    if (typeof internalId !== 'number' || !Number.isSafeInteger(internalId))
      throw new UnrecoverableError('malformed job: no leaderboardInternalId');
    const board = await persister.find(internalId);
    if (!board) {
      // Deleted: whatever a report racing the deletion left in Redis goes too, and nothing is written.
      await persister.dropLiveState(internalId);
      return 'leaderboard deleted';
    }
    // Ended seasons first: their archive is what PostgreSQL lacks longest.
    const archived = await persister.archiveEndedSeasons(board);
    // Records made before notify_top went back to 0 still become events, once per job rather than
    // once per round: boards that never notify (most) pay one empty XRANGE per job.
    if (board.notifyTop === 0) await persister.recordOvertaken(board);
    const deadline = Date.now() + ROUND_BUDGET_MS;
    let written = 0;
    for (;;) {
      const claimed = await persister.claim(board, PLAYERS_PER_ROUND, CLANS_PER_ROUND);
      written += await persister.write(board, claimed);
      const now = Date.now();
      for (const at of claimed.markedAt) lag.observe(Math.max(0, now - at) / 1000);

      const left = await persister.ack(board, claimed);
      if (board.notifyTop > 0) await persister.recordOvertaken(board);
      if (left === 0) break;
      if (Date.now() > deadline) {
        await persister.continueLater(internalId); // the queued flag is still held: continue in a fresh job
        jobs.inc();
        return `persisted ${written}, continuing`;
      }
      if (claimed.playerCount + claimed.clans.length < SMALL_ROUND) await setTimeout(GATHER_MS);
    }
    jobs.inc();
    return archived > 0 ? `archived ${archived} seasons, persisted ${written}` : `persisted ${written}`;
  };
}
