import { performance } from 'node:perf_hooks';
import type { Redis } from 'ioredis';
import type { Engine } from '../../engine/engine.js';
import { leaderboardKeys } from '../../engine/live/keys.js';
import type { BenchParts } from './engine-parts.js';
import { BENCH_PREFIX, BOARDS, playerId } from './fixtures.js';
import { runScenario, type ScenarioRun } from './load.js';
import type { BenchOptions } from './options.js';
import { sleep, stop, type Started } from './processes.js';
import type { ScenarioContext } from './scenarios.js';
import { seedBoard } from './seed.js';
import { startApi, startWorker, type ServiceSetup } from './service.js';
import { readyzPending, timeUntilDrained } from './worker-figures.js';
import { load, num, pct, seconds, type SeasonRow } from './season-rows.js';

const LEAGUE_BOARD = 'league';
const LEAGUE = { size: 50, tiers: ['bronze', 'silver', 'gold'], promote: 5, relegate: 5 };
const LEAGUE_PLAYERS = 100_000;
/** The load around the season's end: short, so that the moves and the archive span most of it. */
const LOAD_SECONDS = 3;
const TIMEOUT_MS = 5 * 60_000;

export interface LeagueFigures {
  players: number;
  groups: number;
  resetMs: number;
  /** From the reset's answer until every group had moved (the `:moves` mark gone). */
  movesMs: number | null;
  /** From the reset's answer until PostgreSQL had the season, its groups and tiers. */
  archiveMs: number | null;
  /** Players above the lowest tier after the moves (each group: 5 up, 5 down, 40 stay in the middle one). */
  tieredAfter: number;
  reportsBefore: ScenarioRun;
  reportsDuring: ScenarioRun;
  duringLoadEndedMs: number;
}

/**
 * A league's season end (docs/competitions.md, part 6): 100,000 players in groups of 50, all in the
 * middle tier and scored, reset with the worker running; the time until every group has moved and
 * until the archive (with its groups and tiers) is in PostgreSQL, and client report_score on the
 * main board in the seconds before the reset and right after it, while the moves and the archive
 * run. Starts its own API and worker; none may be running.
 */
export async function leagueFigures(
  setup: ServiceSetup,
  options: BenchOptions,
  engine: Engine,
  parts: BenchParts,
  redis: Redis,
  ctx: ScenarioContext,
): Promise<LeagueFigures> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const players = Math.min(options.players, LEAGUE_PLAYERS);
  const groups = Math.floor(players / LEAGUE.size);
  const board = (await engine.leaderboards.put(ctx.gameId, LEAGUE_BOARD, { type: 'individual', groups: LEAGUE }, 'system')).leaderboard;
  log(`  seeding '${LEAGUE_BOARD}': ${players} entries in ${groups} groups of ${LEAGUE.size}, all in the middle tier`);
  await seedBoard(parts.pool, redis, board, players, 6);
  const keys = leaderboardKeys(BENCH_PREFIX, board.internalId);
  for (let first = 1; first <= groups; first += 1000) {
    const pipeline = redis.pipeline();
    for (let g = first; g < Math.min(first + 1000, groups + 1); g++) {
      const members = Array.from({ length: LEAGUE.size }, (_, i) => playerId((g - 1) * LEAGUE.size + i));
      pipeline.hset(keys.groups, String(g), `1:${LEAGUE.size}`, `m${g}`, members.join(' '));
      pipeline.hset(keys.tiers, ...members.flatMap((member) => [member, '1']));
    }
    await pipeline.exec();
  }
  await redis.hset(keys.groups, 'n', groups);

  const api = await startApi(setup, 1);
  let worker: Started | undefined;
  try {
    worker = await startWorker(setup, 'worker-league');
    const watched = { server: api, worker };
    const meta = { processes: 1, target: 'api' as const };
    const reports = (when: string) => ({
      label: `client report_score on '${BOARDS.main}', ${when}`,
      kind: 'report' as const,
      method: 'POST' as const,
      board: BOARDS.main,
    });
    await timeUntilDrained(() => readyzPending(setup.apiPort), 60_000);
    log('  report_score before the season end');
    const timing = { duration: LOAD_SECONDS, warmup: options.warmup, connections: options.connections };
    const reportsBefore = await runScenario(setup.apiPort, reports('before the season end'), ctx, timing, meta, watched);
    await timeUntilDrained(() => readyzPending(setup.apiPort), 60_000);

    const started = performance.now();
    const response = await fetch(`http://127.0.0.1:${setup.apiPort}/api/v1/server/leaderboards/${LEAGUE_BOARD}/reset`, {
      method: 'POST',
      headers: { 'secret-key': ctx.secretKey },
    });
    const resetAt = performance.now();
    if (response.status !== 200) throw new Error(`resetting '${LEAGUE_BOARD}' answered ${response.status}: ${await response.text()}`);
    const watching = watchSeasonEnd(parts, redis, board.internalId, resetAt);
    // No warm-up: the load starts with the moves.
    const reportsDuring = await runScenario(setup.apiPort, reports('during the season end'), ctx, { ...timing, warmup: 0 }, meta, watched);
    const duringLoadEndedMs = performance.now() - resetAt;
    const { movesMs, archiveMs } = await watching;
    log(`  moves done ${seconds(movesMs)}, archive in PostgreSQL ${seconds(archiveMs)} after the reset`);
    return {
      players,
      groups,
      resetMs: resetAt - started,
      movesMs,
      archiveMs,
      tieredAfter: await redis.hlen(keys.tiers),
      reportsBefore,
      reportsDuring,
      duringLoadEndedMs,
    };
  } finally {
    if (worker) await stop(worker);
    await stop(api);
  }
}

async function watchSeasonEnd(
  parts: BenchParts,
  redis: Redis,
  internalId: number,
  resetAt: number,
): Promise<Pick<LeagueFigures, 'movesMs' | 'archiveMs'>> {
  const tiers = leaderboardKeys(BENCH_PREFIX, internalId).tiers;
  let movesMs: number | null = null;
  let archiveMs: number | null = null;
  while (performance.now() - resetAt < TIMEOUT_MS && (movesMs === null || archiveMs === null)) {
    if (movesMs === null && (await redis.hexists(tiers, ':moves')) === 0) movesMs = performance.now() - resetAt;
    if (archiveMs === null) {
      const { rowCount } = await parts.pool.query('SELECT 1 FROM leaderboard_seasons WHERE leaderboard_internal_id = $1 AND season = 1', [
        internalId,
      ]);
      if (rowCount !== 0) archiveMs = performance.now() - resetAt;
    }
    await sleep(20);
  }
  return { movesMs, archiveMs };
}

/** The league scenario as rows: what the table prints and the targets judge. */
export function leagueRows(figures: LeagueFigures): SeasonRow[] {
  const before = figures.reportsBefore;
  const during = figures.reportsDuring;
  // The comparison holds only while the season's end was still at work when the load ended.
  const covered = figures.archiveMs === null || figures.archiveMs > figures.duringLoadEndedMs;
  const ratio = during.rps / before.rps;
  const expectedTiered = figures.players - figures.groups * LEAGUE.relegate;
  return [
    {
      figure: `reset of a ${num(figures.players)}-player league (${num(figures.groups)} groups of ${LEAGUE.size})`,
      measured: `${figures.resetMs.toFixed(1)} ms`,
      comparedWith: '',
      ratio: '',
    },
    {
      figure: 'every group moved (5 up, 5 down each), from the reset’s answer',
      measured: seconds(figures.movesMs),
      comparedWith: `${num(figures.tieredAfter)} players above the lowest tier after (expected ${num(expectedTiered)})`,
      ratio: '',
      target: 'every move applied, once',
      pass: figures.movesMs !== null && figures.tieredAfter === expectedTiered,
    },
    {
      figure: 'archive with groups and tiers in PostgreSQL, from the reset’s answer',
      measured: seconds(figures.archiveMs),
      comparedWith: `the load below ended at ${seconds(figures.duringLoadEndedMs)}`,
      ratio: '',
    },
    {
      figure: `client report_score on the main board during the season end: req/s${covered ? '' : ' (the season end finished before the load did)'}`,
      measured: load(during),
      comparedWith: `before: ${load(before)}`,
      ratio: pct(ratio),
      target: 'report_score req/s during a 100,000-player league’s season end within 10% of before',
      pass: !before.missing && !during.missing ? ratio >= 0.9 : undefined,
    },
  ];
}
