import { performance } from 'node:perf_hooks';
import type { Redis } from 'ioredis';
import type { Engine } from '../../engine/engine.js';
import { leaderboardKeys, endedSeasonKeys } from '../../engine/live/keys.js';
import type { Leaderboard } from '../../engine/leaderboards/leaderboard-store.js';
import type { BenchParts } from './engine-parts.js';
import { BENCH_PREFIX, BOARDS } from './fixtures.js';
import { alternatingRounds, runScenario, type ScenarioRun } from './load.js';
import type { BenchOptions } from './options.js';
import { createThirdPartyKey } from './third-party-key.js';
import { sleep, stop, type Started } from './processes.js';
import type { Scenario, ScenarioContext } from './scenarios.js';
import { seedBoard } from './seed.js';
import { startApi, startWorker, type ServiceSetup } from './service.js';
import { readyzPending, timeUntilDrained } from './worker-figures.js';

/** The board the scenario resets, and the boards whose resets only add latency samples. */
const SEASON_BOARD = 'seasons';
const SAMPLE_BOARD = 'reset-sample';
const ARCHIVE_TIMEOUT_MS = 5 * 60_000;

export interface SeasonFigures {
  entries: number;
  /** Each reset's answer time as the caller saw it (ms): the measured board's first, then the samples'. */
  resetMs: number[];
  /** From the reset's answer until PostgreSQL had the season's row (null: not within the timeout). */
  archiveMs: number | null;
  /** From the reset's answer until the archive's transaction began (the worker picking the job up). */
  archiveStartMs: number | null;
  /** From the reset's answer until Redis no longer listed the season as awaiting its archive. */
  redisDroppedMs: number | null;
  reportsBefore: ScenarioRun;
  reportsDuring: ScenarioRun;
  /** When the load during the archive ended, from the reset's answer: the archive ran through it when archiveMs is later. */
  duringLoadEndedMs: number;
  /** Alternating rounds of the same read on the archived season and on the live board of the same size. */
  reads: { label: string; rounds: { archived: ScenarioRun; live: ScenarioRun }[] }[];
}

/**
 * Seasons on a board of `options.players` entries (all the seeded players, both stores): the reset's
 * answer time (that board's, then more on copies of it reset with no worker running and deleted
 * unarchived, for a median), the time until its archive is in PostgreSQL, report_score on the board
 * in the seconds before the reset and while the archive runs, then the archived season's page of 100
 * and record read against the same reads on the live main board (as large), in alternating rounds.
 * Starts its own API and worker; none may be running.
 */
export async function seasonFigures(
  setup: ServiceSetup,
  options: BenchOptions,
  engine: Engine,
  parts: BenchParts,
  redis: Redis,
  ctx: ScenarioContext,
): Promise<SeasonFigures> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const samples = options.quick ? 2 : 4;
  const put = async (id: string) => (await engine.leaderboards.put(ctx.gameId, id, { type: 'individual' }, 'system')).leaderboard;
  const board = await put(SEASON_BOARD);
  const sampleBoards: Leaderboard[] = [];
  for (let i = 0; i < samples; i++) sampleBoards.push(await put(`${SAMPLE_BOARD}-${i}`));
  log(`  seeding '${SEASON_BOARD}' with ${options.players} entries`);
  await seedBoard(parts.pool, redis, board, options.players, 4);

  const api = await startApi(setup, 1);
  let worker: Started | undefined;
  try {
    ctx.apiKey ??= await createThirdPartyKey(setup, ctx);
    const http = serverClient(setup, ctx);
    await http.get(`/api/v1/server/leaderboards/${SEASON_BOARD}/seasons`); // a warm connection for the timed resets

    log(`  ${samples} resets of copies of the board (no worker running; each deleted unarchived)`);
    const sampleMs: number[] = [];
    const live = leaderboardKeys(BENCH_PREFIX, board.internalId).scores;
    for (const sample of sampleBoards) {
      await redis.copy(live, leaderboardKeys(BENCH_PREFIX, sample.internalId).scores);
      sampleMs.push((await http.reset(sample.id)).ms);
      await engine.leaderboards.delete(ctx.gameId, sample.id, 'system'); // its ended season's keys go with it
    }

    worker = await startWorker(setup, 'worker-seasons');
    const watched = { server: api, worker };
    const timing = { duration: options.duration, warmup: options.warmup, connections: options.connections };
    const meta = { processes: 1, target: 'api' as const };
    const reports = (when: string): Scenario => ({
      label: `client report_score on '${SEASON_BOARD}', ${when}`,
      kind: 'report',
      method: 'POST',
      board: SEASON_BOARD,
    });
    const pending = () => readyzPending(setup.apiPort);
    await timeUntilDrained(pending, 60_000); // the deleted boards' jobs
    log('  report_score before the reset');
    const reportsBefore = await runScenario(setup.apiPort, reports('before the reset'), ctx, timing, meta, watched);
    await timeUntilDrained(pending, 60_000); // the archive starts at once, not after a persistence round

    const reset = await http.reset(SEASON_BOARD);
    log(`  reset answered in ${reset.ms.toFixed(1)} ms; report_score while the archive runs`);
    const archive = watchArchive(parts, redis, board, reset.at);
    const reportsDuring = await runScenario(setup.apiPort, reports('during the archive'), ctx, timing, meta, watched);
    const duringLoadEndedMs = performance.now() - reset.at;
    const archived = await archive;
    log(
      archived.archiveMs === null
        ? '  the archive did not complete'
        : `  archive in PostgreSQL ${(archived.archiveMs / 1000).toFixed(1)} s after the reset (load ended at ${(duringLoadEndedMs / 1000).toFixed(1)} s)`,
    );

    // Without its archive, season 1 would be read from Redis: nothing to compare.
    const reads = archived.archiveMs === null ? [] : await archivedVsLive(setup, options, ctx, watched);
    return {
      entries: options.players,
      resetMs: [reset.ms, ...sampleMs],
      ...archived,
      reportsBefore,
      reportsDuring,
      duringLoadEndedMs,
      reads,
    };
  } finally {
    if (worker) await stop(worker);
    await stop(api);
  }
}

/** The archived season's reads against the live board's, in alternating rounds. */
async function archivedVsLive(
  setup: ServiceSetup,
  options: BenchOptions,
  ctx: ScenarioContext,
  watched: { server: Started; worker: Started },
): Promise<SeasonFigures['reads']> {
  const timing = { duration: options.duration, warmup: options.warmup, connections: options.connections };
  const meta = { processes: 1, target: 'api' as const };
  const reads = await alternatingRounds(options.quick ? 2 : 3, { a: 'archived season', b: 'live board' }, ({ label, kind }, state) => {
    const scenario: Scenario =
      state === 'a'
        ? { label: `${label}, archived season 1`, kind, method: 'GET', board: SEASON_BOARD, season: 1 }
        : { label: `${label}, live board`, kind, method: 'GET', board: BOARDS.main };
    return runScenario(setup.apiPort, scenario, ctx, timing, meta, watched);
  });
  return reads.map(({ label, rounds }) => ({ label, rounds: rounds.map(({ a, b }) => ({ archived: a, live: b })) }));
}

/**
 * Polls until PostgreSQL has season 1's row and Redis no longer lists it as awaiting its archive.
 * The row's archived_at is the transaction's start (now() in PostgreSQL), so it also tells when the
 * worker began.
 */
async function watchArchive(
  parts: BenchParts,
  redis: Redis,
  board: Leaderboard,
  resetAt: number,
): Promise<Pick<SeasonFigures, 'archiveMs' | 'archiveStartMs' | 'redisDroppedMs'>> {
  const startedAtWall = Date.now() - (performance.now() - resetAt);
  const endedSeasons = leaderboardKeys(BENCH_PREFIX, board.internalId).endedSeasons;
  let archiveMs: number | null = null;
  let archiveStartMs: number | null = null;
  let redisDroppedMs: number | null = null;
  while (performance.now() - resetAt < ARCHIVE_TIMEOUT_MS && (archiveMs === null || redisDroppedMs === null)) {
    if (archiveMs === null) {
      const { rows } = await parts.pool.query<{ archived_at: Date }>(
        'SELECT archived_at FROM leaderboard_seasons WHERE leaderboard_internal_id = $1 AND season = 1',
        [board.internalId],
      );
      if (rows[0]) {
        archiveMs = performance.now() - resetAt;
        archiveStartMs = Math.max(0, rows[0].archived_at.getTime() - startedAtWall);
      }
    }
    if (redisDroppedMs === null && (await redis.hexists(endedSeasons, '1')) === 0) {
      const keysLeft = await redis.exists(endedSeasonKeys(BENCH_PREFIX, board.internalId, 1).scores);
      if (keysLeft === 0) redisDroppedMs = performance.now() - resetAt;
    }
    await sleep(100);
  }
  return { archiveMs, archiveStartMs, redisDroppedMs };
}

/** Secret-Key calls the scenario makes itself, on one kept-alive connection. */
function serverClient(setup: ServiceSetup, ctx: ScenarioContext) {
  const base = `http://127.0.0.1:${setup.apiPort}`;
  const headers = { 'secret-key': ctx.secretKey };
  return {
    async get(path: string): Promise<void> {
      const response = await fetch(base + path, { headers });
      if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    },
    /** POST …/reset; `ms` the answer's time as the caller saw it, `at` when it came (performance.now()). */
    async reset(leaderboardId: string): Promise<{ ms: number; at: number }> {
      const started = performance.now();
      const response = await fetch(`${base}/api/v1/server/leaderboards/${leaderboardId}/reset`, { method: 'POST', headers });
      const body = await response.text();
      const at = performance.now();
      if (response.status !== 200) throw new Error(`resetting '${leaderboardId}' answered ${response.status}: ${body}`);
      return { ms: at - started, at };
    },
  };
}
