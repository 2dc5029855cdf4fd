import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Redis } from 'ioredis';
import type { Engine } from '../../engine/engine.js';
import type { Leaderboard } from '../../engine/leaderboards/leaderboard-store.js';
import type { BenchParts } from './engine-parts.js';
import { REPORTED_SCORE_CEILING, playerId } from './fixtures.js';
import { sleep } from './processes.js';
import { commandsProcessed } from './redis-figures.js';

/** Cumulative bucket counts of the worker's lag histogram, by upper bound in seconds. */
export type LagBuckets = Map<number, number>;

export async function scrapeLag(metricsPort: number): Promise<LagBuckets> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const buckets: LagBuckets = new Map();
  for (const match of text.matchAll(/^leaderboard_persistence_lag_seconds_bucket\{le="([^"]+)"\} (\d+)/gm)) {
    buckets.set(match[1] === '+Inf' ? Infinity : Number(match[1]), Number(match[2]));
  }
  return buckets;
}

/** The upper bound of the bucket holding quantile q of the observations made between two scrapes. */
export function lagQuantile(before: LagBuckets, after: LagBuckets, q: number): { seconds: number; observations: number } {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const delta = (le: number) => (after.get(le) ?? 0) - (before.get(le) ?? 0);
  const observations = delta(Infinity);
  const bound = bounds.find((le) => delta(le) >= q * observations) ?? Infinity;
  return { seconds: observations === 0 ? 0 : bound, observations };
}

/** `pending_persistence` from the API's readiness endpoint (null while it cannot tell). */
export async function readyzPending(apiPort: number): Promise<number | null> {
  const response = await fetch(`http://127.0.0.1:${apiPort}/readyz`, { signal: AbortSignal.timeout(3000) }).catch(() => undefined);
  if (!response) return null;
  const body = (await response.json()) as { pending_persistence?: number | null };
  return body.pending_persistence ?? null;
}

/** Samples the backlog while a scenario runs and reports the largest value seen. */
export function watchPending(read: () => Promise<number | null>, everyMs = 250): { stop: () => Promise<number> } {
  let max = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      max = Math.max(max, (await read()) ?? 0);
      await sleep(everyMs);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return max;
    },
  };
}

/** Milliseconds until the backlog reads 0, or null if it has not within the timeout. */
export async function timeUntilDrained(read: () => Promise<number | null>, timeoutMs: number): Promise<number | null> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if ((await read()) === 0) return Date.now() - started;
    await sleep(20);
  }
  return null;
}

export interface BacklogFigures {
  changes: number;
  queueMs: number;
  /** From the worker's spawn to an empty backlog, start-up included. */
  totalMs: number | null;
  /** Changes per second once the worker was writing (start-up excluded). */
  rate: number | null;
}

/**
 * With the worker stopped, queues `count` distinct improvements through the engine's own report
 * path (Rankings.report, then one persistence job), then starts the worker and times the drain.
 */
export async function backlogDrain(
  engine: Engine,
  parts: BenchParts,
  board: Leaderboard,
  count: number,
  startWorker: () => Promise<unknown>,
): Promise<BacklogFigures> {
  const queued = Date.now();
  let needsJob = false;
  for (let from = 0; from < count; from += 5000) {
    const indexes = Array.from({ length: Math.min(5000, count - from) }, (_, i) => from + i);
    const outcomes = await Promise.all(indexes.map((i) => parts.rankings.report(board, playerId(i), REPORTED_SCORE_CEILING + i)));
    needsJob ||= outcomes.some((outcome) => outcome.needsPersistence);
  }
  if (needsJob) await parts.marks.requestJobs([board.internalId]);
  const queueMs = Date.now() - queued;

  const pending = () => engine.maintenance.pendingPersistence();
  const initial = await pending();
  const spawned = Date.now();
  let firstDrop: { at: number; left: number } | undefined;
  let failed = false;
  const worker = startWorker().catch((error: unknown) => {
    failed = true;
    throw error;
  });
  const watch = async (): Promise<number | null> => {
    while (!failed && Date.now() - spawned < 600_000) {
      const left = await pending();
      if (left === 0) return Date.now();
      if (!firstDrop && left < initial) firstDrop = { at: Date.now(), left };
      await sleep(20);
    }
    return null;
  };
  const doneAt = await watch();
  await worker;
  if (doneAt === null) return { changes: initial, queueMs, totalMs: null, rate: null };
  // Drained within one poll of starting: only the end-to-end figure is left to go by.
  const rate =
    firstDrop && doneAt > firstDrop.at ? firstDrop.left / ((doneAt - firstDrop.at) / 1000) : initial / ((doneAt - spawned) / 1000);
  return { changes: initial, queueMs, totalMs: doneAt - spawned, rate };
}

export interface RecountFigures {
  /** Members of the clan boards recounted (the seeded clan board holds every player). */
  members: number;
  seconds: number;
  cpuSeconds: number;
  redisCommands: number;
  /** The longest the recount held the event loop, which a worker's persistence jobs share. */
  eventLoopMaxMs: number;
  rssGrowthMb: number;
}

/**
 * One recount of every clan total, run in this process as a worker runs it (nothing drifted, so
 * nothing is repaired): its time, CPU, Redis commands, longest event-loop stall and memory.
 */
export async function recountCost(engine: Engine, redis: Redis, members: number): Promise<RecountFigures> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 100);
  const commandsBefore = await commandsProcessed(redis);
  const cpu = process.cpuUsage();
  const started = Date.now();
  loop.enable();
  try {
    await engine.maintenance.reconcileClans();
  } finally {
    loop.disable();
    clearInterval(sampler);
  }
  const seconds = (Date.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return {
    members,
    seconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    redisCommands: (await commandsProcessed(redis)) - commandsBefore - 1, // less the INFO before it
    eventLoopMaxMs: loop.max / 1e6,
    rssGrowthMb: (rssPeak - rssBefore) / 1e6,
  };
}
