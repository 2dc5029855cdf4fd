import { setTimeout } from 'node:timers/promises';
import { UnrecoverableError, type Job } from 'bullmq';
import type { RedisClient } from '../engine/redis.js';
import { Histogram, type Registry } from 'prom-client';
import { leaderboardKeys } from '../engine/keys.js';
import type { LeaderboardStore } from '../engine/leaderboards/leaderboard-store.js';
import type { PersistJobData, PersistenceQueue } from '../engine/persistence/persistence-queue.js';
import type { ScoreWriter } from '../engine/persistence/score-writer.js';
import { QUEUED_FLAG_TTL_MS, type Rankings } from '../engine/ranking/rankings.js';

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
  redis: RedisClient;
  keyPrefix: string;
  leaderboards: LeaderboardStore;
  rankings: Rankings;
  writer: ScoreWriter;
  queue: PersistenceQueue;
  registry: Registry;
}

/**
 * Persists one leaderboard's pending changes: claim the oldest marks with their current values,
 * upsert them, clear the marks whose values did not move meanwhile, repeat until none are left.
 */
export function createPersistProcessor({ redis, keyPrefix, leaderboards, rankings, writer, queue, registry }: Deps) {
  const lag = new Histogram({
    name: 'leaderboard_persistence_lag_seconds',
    help: 'Time from a score change in Redis to its write in PostgreSQL',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60],
    registers: [registry],
  });

  return async (job: Job<PersistJobData>): Promise<string> => {
    const internalId = job.data?.leaderboard;
    if (!Number.isSafeInteger(internalId)) throw new UnrecoverableError('malformed job: no leaderboard id');
    const board = await leaderboards.findByInternalId(internalId);
    if (!board) {
      // Deleted: whatever a report racing the deletion left in Redis goes too, and nothing is written.
      await rankings.drop({ internalId });
      return 'leaderboard deleted';
    }
    const k = leaderboardKeys(keyPrefix, internalId);
    const deadline = Date.now() + ROUND_BUDGET_MS;
    let written = 0;
    for (;;) {
      const [playerMarks, clanMarks] = await redis.persistClaim(
        k.dirty, k.scores, k.dirtyClans, k.clans, k.clanVersions, k.queued,
        PLAYERS_PER_ROUND, CLANS_PER_ROUND, QUEUED_FLAG_TTL_MS,
      );
      const players: string[] = [];
      const scores: string[] = [];
      const markedAt: number[] = [];
      for (let i = 0; i < playerMarks.length; i += 3) {
        if (playerMarks[i + 1] !== '') {
          players.push(playerMarks[i]!);
          scores.push(playerMarks[i + 1]!);
        }
        markedAt.push(Number(playerMarks[i + 2]));
      }
      const clans: { clanId: string; total: string; version: string }[] = [];
      for (let i = 0; i < clanMarks.length; i += 4) {
        clans.push({ clanId: clanMarks[i]!, total: clanMarks[i + 1]!, version: clanMarks[i + 2]! });
        markedAt.push(Number(clanMarks[i + 3]));
      }

      await writer.writeScores(internalId, board.sortOrder, players, scores);
      await writer.writeClanTotals(internalId, clans);
      const now = Date.now();
      for (const at of markedAt) lag.observe(Math.max(0, now - at) / 1000);
      written += players.length + clans.length;

      const ackArgs: string[] = [];
      for (let i = 0; i < playerMarks.length; i += 3) ackArgs.push(playerMarks[i]!, playerMarks[i + 1]!);
      for (const clan of clans) ackArgs.push(clan.clanId, clan.version);
      const left = await redis.persistAck(
        k.dirty, k.scores, k.dirtyClans, k.clanVersions, k.queued,
        playerMarks.length / 3, ...ackArgs,
      );
      if (left === 0) return `persisted ${written}`;
      if (Date.now() > deadline) {
        await queue.request([internalId]); // the queued flag is still held: continue in a fresh job
        return `persisted ${written}, continuing`;
      }
      if (playerMarks.length / 3 + clans.length < SMALL_ROUND) await setTimeout(GATHER_MS);
    }
  };
}
