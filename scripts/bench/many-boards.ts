import type { Redis } from 'ioredis';
import type { Engine } from '../../engine/engine.js';
import type { BenchParts } from './engine-parts.js';
import { runScenario, type ScenarioRun } from './load.js';
import type { BenchOptions } from './options.js';
import { peakRssMb, sleep, stop, type Started } from './processes.js';
import { commandsProcessed } from './redis-figures.js';
import type { ScenarioContext } from './scenarios.js';
import { startApi, type ServiceSetup } from './service.js';
import { lagQuantile, scrapeLag } from './worker-figures.js';

export const MANY_GAMES = 100;
export const BOARDS_PER_GAME = 1000;
/** Boards of the seeded game that the active part reports to (`many-0` … `many-999`). */
const ACTIVE_BOARDS = 1000;

export interface ManyBoardsFigures {
  boards: number;
  games: number;
  idleSeconds: number;
  /** Commands Redis processed per second while the service (API and worker) sat idle. */
  idleCommandsPerSecond: number;
  readyz: ScenarioRun;
  apiRssMb: number;
  workerRssMb: number;
  reports: ScenarioRun;
  lagP99: number;
  lagObservations: number;
}

/**
 * What idle leaderboards cost: 100,000 of them over 100 games (the seeded game's 1,000 named
 * `many-<i>`, the rest in 99 other games), the API and the worker running. Idle, Redis's own count of
 * processed commands says what the service sends; /readyz is probed as a load balancer would, only
 * harder; then reports spread over 1,000 of the boards give the worker's lag.
 */
export async function manyBoardsFigures(
  setup: ServiceSetup,
  options: BenchOptions,
  engine: Engine,
  parts: BenchParts,
  redis: Redis,
  ctx: ScenarioContext,
  worker: Started,
): Promise<ManyBoardsFigures> {
  const otherGames = await Promise.all(Array.from({ length: MANY_GAMES - 1 }, (_, i) => engine.games.create(`many ${i}`, 'system')));
  // Made a day ago, as a deployment's boards were: the reports below then move their boards' activity
  // (the worker's writes do, at most once a minute), which a lost dataset's walk follows. Activity
  // is kept to the millisecond, as the engine writes it: the walk's cursor is a JavaScript Date.
  // Every tenth board of the other games is a clan board. The seeded game's are all individual: a clan
  // board holds the memberships of every clan member of its game, and this game has the seeded
  // players (a million clan members on each of 100 boards is not what this scenario measures).
  await parts.pool.query(
    `INSERT INTO leaderboards (game_id, leaderboard_id, name, type, sort_order, created_at, active_at)
     SELECT g.game_id, 'many-' || i, 'Level ' || i,
            CASE WHEN i % 10 = 0 AND g.game_id <> $3 THEN 'clan' ELSE 'individual' END, 'desc',
            now() - interval '1 day', date_trunc('milliseconds', now() - interval '1 day')
     FROM unnest($1::text[]) AS g (game_id), generate_series(0, $2::int - 1) AS i`,
    [[ctx.gameId, ...otherGames.map((game) => game.id)], BOARDS_PER_GAME, ctx.gameId],
  );
  // Written straight into PostgreSQL, the boards have no live state yet. The ones the reports go to
  // get it now, as a board created through the API gets it at creation (a read's first touch
  // prepares a board), so the reports below measure reports, not first touches.
  for (let i = 0; i < ACTIVE_BOARDS; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, ACTIVE_BOARDS - i) }, (_, j) => engine.reader.page(ctx.gameId, `many-${i + j}`, 'players', 0, 1)),
    );
  }
  const api = await startApi(setup, 1);
  try {
    await sleep(3000); // a sweep or two after start-up
    const idleSeconds = options.quick ? 5 : 20;
    const before = await commandsProcessed(redis);
    await sleep(idleSeconds * 1000);
    const idleCommandsPerSecond = ((await commandsProcessed(redis)) - before - 1) / idleSeconds; // less this INFO itself

    const timing = { duration: options.duration, warmup: options.warmup, connections: 10 };
    const meta = { processes: 1, target: 'api' as const };
    const readyz = await runScenario(
      setup.apiPort,
      { label: '/readyz, 100,000 leaderboards', kind: 'readyz', method: 'GET', board: '' },
      ctx,
      timing,
      meta,
      { server: api, worker },
    );
    const apiRssMb = peakRssMb(api);

    const lagBefore = await scrapeLag(setup.workerMetricsPort);
    const reports = await runScenario(
      setup.apiPort,
      {
        label: 'client report_score over 1,000 of 100,000 leaderboards',
        kind: 'report',
        method: 'POST',
        board: 'many',
        boards: ACTIVE_BOARDS,
      },
      ctx,
      { ...timing, connections: options.connections },
      meta,
      { server: api, worker },
    );
    await sleep(2000);
    const lag = lagQuantile(lagBefore, await scrapeLag(setup.workerMetricsPort), 0.99);
    return {
      boards: MANY_GAMES * BOARDS_PER_GAME,
      games: MANY_GAMES,
      idleSeconds,
      idleCommandsPerSecond,
      readyz,
      apiRssMb,
      workerRssMb: peakRssMb(worker),
      reports,
      lagP99: lag.seconds,
      lagObservations: lag.observations,
    };
  } finally {
    await stop(api);
  }
}
