import type { Engine } from '../../engine/engine.js';
import type { BenchParts } from './engine-parts.js';
import { BOARDS } from './fixtures.js';
import type { BenchOptions } from './options.js';
import { REPORT_LABEL, type Scenario, type ScenarioContext } from './scenarios.js';
import { seedTiedBoard } from './seed.js';
import type { ServiceSetup } from './service.js';
import { compareSides, sideRatios, type SideComparison, type SideRatio } from './rounds.js';

/** A board of every player whose review rules judge every client report (docs/review.md) and hold none. */
export const REVIEW_BOARD = 'review';
/** Each rule set far beyond what the bench's reports reach: every rule is judged, none catches. */
const RULES = { above: 1e300, maxGainPerSecond: 1e300, outlierFactor: 1e6 };
const REVIEW_LABEL = `${REPORT_LABEL}, review rules above, max_gain_per_second and outlier_factor (none held)`;

export interface ReviewFigures {
  entries: number;
  comparison: SideComparison;
}

/**
 * Review rules at the main board's size: report_score on a board judging all three rules against
 * the main board (no rules), in alternating rounds. No report is held, so both sides rank every
 * report: what is measured is the judging (the first entry read, the kept score's time written).
 */
export async function reviewFigures(
  setup: ServiceSetup,
  options: BenchOptions,
  engine: Engine,
  parts: BenchParts,
  ctx: ScenarioContext,
): Promise<ReviewFigures> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const board = (await engine.leaderboards.put(ctx.gameId, REVIEW_BOARD, { type: 'individual', review: RULES }, 'system')).leaderboard;
  log(`  seeding the ${REVIEW_BOARD} board with ${options.players} players`);
  await seedTiedBoard(parts.pool, parts.rankings, board, options.players, 19);
  const scenarios: Scenario[] = [
    { label: REPORT_LABEL, kind: 'report', method: 'POST', board: BOARDS.main },
    { label: REVIEW_LABEL, kind: 'report', method: 'POST', board: REVIEW_BOARD },
  ];
  return { entries: options.players, comparison: await compareSides(setup, options, ctx, scenarios) };
}

/** The judged report against the plain one: >= 90%. */
export function reviewRatios(figures: ReviewFigures): SideRatio[] {
  return sideRatios([figures.comparison], { [REVIEW_LABEL]: 0.9 });
}
