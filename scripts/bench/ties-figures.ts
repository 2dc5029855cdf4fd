import type { Redis } from 'ioredis';
import type { Engine } from '../../engine/engine.js';
import type { BenchParts } from './engine-parts.js';
import { BOARDS } from './fixtures.js';
import { runScenario, type ScenarioRun } from './load.js';
import { median } from './median.js';
import { sidesInTurn } from './rounds.js';
import type { BenchOptions } from './options.js';
import { stop } from './processes.js';
import { memoryPerEntry, type MemoryFigures } from './redis-figures.js';
import { REPORT_LABEL, type Scenario, type ScenarioContext } from './scenarios.js';
import { seedTiedBoard } from './seed.js';
import { startApi, type ServiceSetup } from './service.js';
import { createThirdPartyKey } from './third-party-key.js';

/** The tie-breaking boards, beside the main board (tie_break 'shared', no tiebreakers). */
export const TIED_BOARDS = { earliest: 'earliest', tiebreakers: 'tiebreakers' } as const;

export interface TieFigures {
  entries: number;
  /** Redis bytes per entry of the main board and of each tie-breaking board, the same players on each. */
  memory: { shared: MemoryFigures; earliest: MemoryFigures; tiebreakers: MemoryFigures };
  /** Sides compared in alternating rounds: the first side of each comparison is what the others are judged against. */
  comparisons: TieComparison[];
}

export interface TieComparison {
  /** The side the others are judged against, then the others. */
  sides: string[];
  /** Each round runs every side once, in an order that turns from round to round. */
  rounds: Record<string, ScenarioRun>[];
}

/** What a side of a comparison is, and what it must reach of the comparison's first side. */
export const TIE_TARGETS: Record<string, number> = {
  [`${REPORT_LABEL}, earliest board`]: 0.9,
  [`${REPORT_LABEL}, 4 tiebreakers`]: 0.9,
  'third-party list ranks of 100 ids': 1,
};

/**
 * Ties at the main board's size: an 'earliest' board and a board with 4 tiebreakers (two each way)
 * of the same players, then, with 1 API process, report_score on each of them against the main
 * ('shared') board, and the ranks of a list of 100 ids against the page of 100, in alternating
 * rounds (the order turns each round, so a drift of the machine falls on every side). Also Redis
 * bytes per entry of each board. Starts its own API; none may be running.
 */
export async function tieFigures(
  setup: ServiceSetup,
  options: BenchOptions,
  engine: Engine,
  parts: BenchParts,
  redis: Redis,
  ctx: ScenarioContext,
): Promise<TieFigures> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const put = async (id: string, settings: Parameters<Engine['leaderboards']['put']>[2]) =>
    (await engine.leaderboards.put(ctx.gameId, id, { type: 'individual', ...settings }, 'system')).leaderboard;
  const earliest = await put(TIED_BOARDS.earliest, { tieBreak: 'earliest' });
  const tiebreakers = await put(TIED_BOARDS.tiebreakers, {
    tiebreakers: [
      { name: 'time left', sortOrder: 'desc' },
      { name: 'deaths', sortOrder: 'asc' },
      { name: 'kills', sortOrder: 'desc' },
      { name: 'moves', sortOrder: 'asc' },
    ],
  });
  log(`  seeding the ${TIED_BOARDS.earliest} and ${TIED_BOARDS.tiebreakers} boards with ${options.players} players each`);
  const started = Date.now();
  await seedTiedBoard(parts.pool, parts.rankings, earliest, options.players, 11);
  await seedTiedBoard(parts.pool, parts.rankings, tiebreakers, options.players, 12);
  log(`  seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const main = await engine.leaderboards.get(ctx.gameId, BOARDS.main);
  const memory = {
    shared: await memoryPerEntry(redis, parts, main),
    earliest: await memoryPerEntry(redis, parts, earliest),
    tiebreakers: await memoryPerEntry(redis, parts, tiebreakers),
  };

  const reports: Scenario[] = [
    { label: REPORT_LABEL, kind: 'report', method: 'POST', board: BOARDS.main },
    { label: `${REPORT_LABEL}, earliest board`, kind: 'report-earliest', method: 'POST', board: TIED_BOARDS.earliest },
    { label: `${REPORT_LABEL}, 4 tiebreakers`, kind: 'report-tiebreakers', method: 'POST', board: TIED_BOARDS.tiebreakers },
  ];
  const reads: Scenario[] = [
    { label: 'third-party page of 100', kind: 'third-party-page', method: 'GET', board: BOARDS.main },
    { label: 'third-party list ranks of 100 ids', kind: 'list-ranks', method: 'GET', board: BOARDS.main },
  ];
  const comparisons: TieComparison[] = [];
  // An API of its own per comparison, so that --profile writes one profile for each.
  for (const scenarios of [reports, reads]) comparisons.push(await compareSides(setup, options, ctx, scenarios));
  return { entries: options.players, memory, comparisons };
}

/**
 * Runs `scenarios` on 1 API process of their own in alternating rounds, each round every side once,
 * starting one further along each round (so a drift of the machine falls on every side).
 */
export async function compareSides(
  setup: ServiceSetup,
  options: BenchOptions,
  ctx: ScenarioContext,
  scenarios: Scenario[],
): Promise<TieComparison> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const timing = { duration: options.duration, warmup: options.warmup, connections: options.connections };
  const rounds = options.quick ? 2 : 4;
  const api = await startApi(setup, 1);
  try {
    ctx.apiKey ??= await createThirdPartyKey(setup, ctx);
    const comparison: TieComparison = { sides: scenarios.map((s) => s.label), rounds: [] };
    // One untimed pass over every side first: a new process compiles its code paths during its
    // first run, which would otherwise always fall on round 1's first side.
    for (const scenario of scenarios) {
      log(`  warming up: ${scenario.label}`);
      await runScenario(
        setup.apiPort,
        scenario,
        ctx,
        { ...timing, duration: timing.warmup },
        { processes: 1, target: 'api' },
        { server: api },
      );
    }
    for (let round = 0; round < rounds; round++) {
      const runs: Record<string, ScenarioRun> = {};
      for (const scenario of sidesInTurn(scenarios, round)) {
        log(`  round ${round + 1} of ${rounds}: ${scenario.label}`);
        runs[scenario.label] = await runScenario(setup.apiPort, scenario, ctx, timing, { processes: 1, target: 'api' }, { server: api });
      }
      comparison.rounds.push(runs);
    }
    return comparison;
  } finally {
    await stop(api);
  }
}

/**
 * Per compared side: its req/s in each round and the first side's (`against`), the median of its
 * per-round ratios to the first side, and its target.
 */
export function tieRatios(figures: TieFigures): SideRatio[] {
  return sideRatios(figures.comparisons, TIE_TARGETS);
}

export interface SideRatio {
  label: string;
  against: string;
  rps: number[];
  againstRps: number[];
  ratios: number[];
  ratio: number;
  minimum: number;
}

/** Each compared side against its comparison's first side, judged on `targets` (a label's minimum ratio; 1 when absent). */
export function sideRatios(comparisons: TieComparison[], targets: Record<string, number>): SideRatio[] {
  return comparisons.flatMap(({ sides, rounds }) => {
    const [first, ...others] = sides;
    return others.map((label) => {
      const ratios = rounds.map((runs) => runs[label]!.rps / runs[first!]!.rps);
      return {
        label,
        against: first!,
        rps: rounds.map((runs) => runs[label]!.rps),
        againstRps: rounds.map((runs) => runs[first!]!.rps),
        ratios,
        ratio: median(ratios),
        minimum: targets[label] ?? 1,
      };
    });
  });
}
