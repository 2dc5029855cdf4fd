import { BOARDS } from './fixtures.js';
import { missingRun, runScenario } from './load.js';
import type { BenchOptions } from './options.js';
import { stop, type Started } from './processes.js';
import type { BenchResults } from './results.js';
import { createThirdPartyKey } from './third-party-key.js';
import { BARE_SCENARIOS, selectScenarios, type Scenario, type ScenarioContext } from './scenarios.js';
import { startApi, startBare, type RungBoards, type ServiceSetup } from './service.js';
import { sidesInTurn } from './rounds.js';
import { lagQuantile, readyzPending, scrapeLag, timeUntilDrained, watchPending } from './worker-figures.js';

const timing = (options: BenchOptions) => ({ duration: options.duration, warmup: options.warmup, connections: options.connections });
/** report_score's variants are judged on throughput alone: under --quick a shorter smoke run of each. */
const variantTiming = (options: BenchOptions) => (options.quick ? { ...timing(options), duration: 2 } : timing(options));

/**
 * The ceiling: the bare app's GET and POST with `processes` processes; then the rungs on
 * `rungBoards`, each scenario's Redis scripts and PostgreSQL query without the API's layers (the
 * bare GET plus the rank read script, the bare POST plus the report script, …), which split each
 * scenario's cost into what the design needs and what the API adds.
 */
export async function barePhase(
  setup: ServiceSetup,
  options: BenchOptions,
  ctx: ScenarioContext,
  results: BenchResults,
  processes: number,
  worker: Started,
  rungBoards: RungBoards,
): Promise<void> {
  const bare = await startBare(setup, processes, rungBoards);
  try {
    for (const scenario of BARE_SCENARIOS) {
      results.runs.push(
        await runScenario(setup.barePort, scenario, ctx, timing(options), { processes, target: 'bare' }, { server: bare, worker }),
      );
    }
  } finally {
    await stop(bare);
  }
}

/**
 * Every service scenario against the API with `processes` processes (the worker already running).
 * The report scenario also yields the worker's lag and the time to drain after it. report_score's
 * variants (score rules, metadata, Idempotency-Key) run with 1 process, unless `variants` is false
 * and --only does not name them.
 */
export async function apiPhase(
  setup: ServiceSetup,
  options: BenchOptions,
  ctx: ScenarioContext,
  results: BenchResults,
  processes: number,
  worker: Started,
  variants = true,
): Promise<void> {
  const api = await startApi(setup, processes);
  const watched = { server: api, worker };
  try {
    ctx.apiKey ??= await createThirdPartyKey(setup, ctx);
    const pending = () => readyzPending(setup.apiPort);
    const selected = selectScenarios(options.only, processes, variants);
    const reports = selected.filter((s) => s.kind === 'report' || s.variant);
    // Compared in alternating rounds, the variants' first round also fills the table: no run of its own.
    const inRounds = processes === 1 && reports.length > 1 && reports.some((s) => s.kind === 'report');
    for (const scenario of selected) {
      if (scenario.variant && inRounds) continue;
      const meta = { processes, target: 'api' as const };
      if (scenario.kind === 'third-party-page' && !ctx.apiKey) {
        results.runs.push(missingRun(scenario, meta, 'POST /api/v1/server/third_party_keys is missing'));
        continue;
      }
      if (scenario.kind !== 'report') {
        const times = scenario.variant ? variantTiming(options) : timing(options);
        results.runs.push(await runScenario(setup.apiPort, scenario, ctx, times, meta, watched));
        if (scenario.method === 'POST') await timeUntilDrained(pending, 60_000); // start the next one clean
        continue;
      }
      const before = await scrapeLag(setup.workerMetricsPort);
      const watcher = watchPending(pending);
      const run = await runScenario(setup.apiPort, scenario, ctx, timing(options), meta, watched);
      const drained = timeUntilDrained(pending, 60_000);
      const maxPending = await watcher.stop();
      const drainMs = await drained;
      const after = await scrapeLag(setup.workerMetricsPort);
      results.runs.push(run);
      const p99 = lagQuantile(before, after, 0.99);
      results.worker.report.push({
        processes,
        lagP50: lagQuantile(before, after, 0.5).seconds,
        lagP99: p99.seconds,
        observations: p99.observations,
        maxPending,
        drainMs,
      });
    }
    if (inRounds) results.variantRounds = await variantRounds(setup, options, ctx, results, reports, watched, pending);
    if (processes === 1 && selected.some((s) => s.kind === 'record')) await rankReadOverHttp(setup, options, ctx, results, watched);
    const underLoad = results.runs.filter((run) => run.target === 'api' && run.processes === processes);
    results.apiPeakRssMb.push({ processes, mb: Math.max(0, ...underLoad.map((run) => run.rssMb ?? 0)) });
  } finally {
    await stop(api);
  }
}

/**
 * report_score and its variants in alternating rounds (the order turns each round, so a drift of the
 * machine falls on every side): a variant is judged on the median of its rounds' ratios to the plain
 * report, not on one run minutes apart from it. Each variant's run of the first round is its row of
 * the table, right after the plain report's.
 */
async function variantRounds(
  setup: ServiceSetup,
  options: BenchOptions,
  ctx: ScenarioContext,
  results: BenchResults,
  sides: Scenario[],
  watched: { server: Started; worker: Started },
  pending: () => Promise<number | null>,
): Promise<NonNullable<BenchResults['variantRounds']>> {
  const rounds: NonNullable<BenchResults['variantRounds']> = [];
  const tableRows = new Map<Scenario, BenchResults['runs'][number]>();
  for (let round = 0; round < (options.quick ? 2 : 3); round++) {
    const runs: Record<string, { rps: number; errors: number }> = {};
    for (const scenario of sidesInTurn(sides, round)) {
      process.stderr.write(`  variant round ${round + 1}: ${scenario.label}\n`);
      const run = await runScenario(setup.apiPort, scenario, ctx, variantTiming(options), { processes: 1, target: 'api' }, watched);
      runs[scenario.label] = { rps: run.rps, errors: run.errors };
      if (round === 0 && scenario.variant) tableRows.set(scenario, run);
      await timeUntilDrained(pending, 60_000);
    }
    rounds.push(runs);
  }
  const plain = results.runs.findIndex(
    (run) => run.target === 'api' && run.processes === 1 && sides.some((s) => s.kind === 'report' && s.label === run.label),
  );
  results.runs.splice(plain + 1, 0, ...sides.flatMap((side) => tableRows.get(side) ?? []));
  return rounds;
}

/** The same record read on the small board and on the big one, on the same players. */
async function rankReadOverHttp(
  setup: ServiceSetup,
  options: BenchOptions,
  ctx: ScenarioContext,
  results: BenchResults,
  watched: { server: Started; worker: Started },
): Promise<void> {
  for (const [size, board] of [
    ['small', BOARDS.small],
    ['large', BOARDS.main],
  ] as const) {
    const scenario: Scenario = {
      label: `record read, ${board} board, first ${options.smallBoard} players`,
      kind: 'record',
      method: 'GET',
      board,
      players: options.smallBoard,
    };
    const run = await runScenario(setup.apiPort, scenario, ctx, timing(options), { processes: 1, target: 'api' }, watched);
    results.runs.push(run);
    results.rankRead[size] = { entries: 0, serverMicros: 0, wallMicros: 0, ...results.rankRead[size], rps: run.missing ? null : run.rps };
  }
}
