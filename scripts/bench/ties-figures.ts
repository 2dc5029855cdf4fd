import type { Redis } from 'ioredis';
import type { Engine } from '../../engine/engine.js';
import type { BenchParts } from './engine-parts.js';
import { BOARDS } from './fixtures.js';
import { compareSides, sideRatios, type SideComparison, type SideRatio } from './rounds.js';
import type { BenchOptions } from './options.js';
import { memoryPerEntry, type MemoryFigures } from './redis-figures.js';
import { REPORT_LABEL, type Scenario, type ScenarioContext } from './scenarios.js';
import { seedTiedBoard } from './seed.js';
import type { ServiceSetup } from './service.js';

/** The tie-breaking boards, beside the main board (tie_break 'shared', no tiebreakers). */
export const TIED_BOARDS = { earliest: 'earliest', tiebreakers: 'tiebreakers' } as const;

export interface TieFigures {
  entries: number;
  /** Redis bytes per entry of the main board and of each tie-breaking board, the same players on each. */
  memory: { shared: MemoryFigures; earliest: MemoryFigures; tiebreakers: MemoryFigures };
  /** Sides compared in alternating rounds: the first side of each comparison is what the others are judged against. */
  comparisons: SideComparison[];
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
  const comparisons: SideComparison[] = [];
  // An API of its own per comparison, so that --profile writes one profile for each.
  for (const scenarios of [reports, reads]) comparisons.push(await compareSides(setup, options, ctx, scenarios));
  return { entries: options.players, memory, comparisons };
}

/**
 * Per compared side: its req/s in each round and the first side's (`against`), the median of its
 * per-round ratios to the first side, and its target.
 */
export function tieRatios(figures: TieFigures): SideRatio[] {
  return sideRatios(figures.comparisons, TIE_TARGETS);
}
