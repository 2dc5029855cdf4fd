import { runScenario, type ScenarioRun } from './load.js';
import { median } from './median.js';
import type { BenchOptions } from './options.js';
import { stop } from './processes.js';
import type { Scenario, ScenarioContext } from './scenarios.js';
import { startApi, type ServiceSetup } from './service.js';
import { createThirdPartyKey } from './third-party-key.js';

/**
 * The sides of alternating rounds, in the order of round `round`: every side runs once a round, each
 * round starting one further along, so a drift of the machine during the comparison falls on every
 * side alike (report_score's variants, the ties' comparisons).
 */
export function sidesInTurn<T>(sides: T[], round: number): T[] {
  const start = round % sides.length;
  return [...sides.slice(start), ...sides.slice(0, start)];
}

export interface SideComparison {
  /** The side the others are judged against, then the others. */
  sides: string[];
  /** Each round runs every side once, in an order that turns from round to round. */
  rounds: Record<string, ScenarioRun>[];
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
): Promise<SideComparison> {
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const timing = { duration: options.duration, warmup: options.warmup, connections: options.connections };
  const rounds = options.quick ? 2 : 4;
  const api = await startApi(setup, 1);
  try {
    ctx.apiKey ??= await createThirdPartyKey(setup, ctx);
    const comparison: SideComparison = { sides: scenarios.map((s) => s.label), rounds: [] };
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
export function sideRatios(comparisons: SideComparison[], targets: Record<string, number>): SideRatio[] {
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
