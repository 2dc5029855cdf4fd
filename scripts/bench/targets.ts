import { median } from './median.js';
import { apiRun, bareFor, clusterPairs, rungFor, type BenchResults } from './results.js';
import { REPORT_LABEL, SERVICE_SCENARIOS } from './scenarios.js';
import { comparisonRows } from './compare.js';
import { seasonRows } from './season-rows.js';
import type { SideRatio } from './rounds.js';
import { tieRatios } from './ties-figures.js';
import { eventRatios } from './event-figures.js';
import { historyRatios } from './history-figures.js';
import { reviewRatios } from './review-figures.js';
import { coresOf } from './load.js';

export interface TargetCheck {
  target: string;
  measured: string;
  status: 'PASS' | 'FAIL' | 'n/a';
}

const pct = (x: number) => `${Math.round(x * 100)}%`;
const check = (target: string, measured: string, pass: boolean | undefined): TargetCheck => ({
  target,
  measured,
  status: pass === undefined ? 'n/a' : pass ? 'PASS' : 'FAIL',
});

/** The performance targets the service holds itself to, each judged against this run's figures. */
export function evaluateTargets(results: BenchResults): TargetCheck[] {
  if (results.cluster) return clusterChecks(results); // a --cluster run measures that comparison only
  if (results.comparison) return comparisonChecks(results);
  const seasons = [
    ...(results.seasons ? seasonChecks(results) : []),
    ...tieChecks(results),
    ...eventChecks(results),
    ...historyChecks(results),
    ...reviewChecks(results),
  ];
  if (results.runs.length === 0) return seasons; // --only named optional scenarios alone
  const checks: TargetCheck[] = [];
  const ratio = (label: string, processes: number, minimum: number) => {
    const run = apiRun(results, label, processes);
    const bare = run && bareFor(results, run);
    const target = `${label} >= ${pct(minimum)} of bare ${run?.method ?? ''} req/s (${processesLabel(processes)})`;
    if (!run || !bare || run.missing) return check(target, run?.missing ? 'endpoint missing' : 'not measured', undefined);
    const r = run.rps / bare.rps;
    // The rung between: how far the design's own Redis and PostgreSQL calls (no API layers) get.
    const rung = rungFor(results, run);
    const split = rung ? `; its rung alone ${pct(rung.rps / bare.rps)}` : '';
    return check(target, `${pct(r)} (${Math.round(run.rps)} vs ${Math.round(bare.rps)}${split})`, r >= minimum);
  };
  // Against its rung: what the API's own layers (credentials, validation, lookups, views, logging) cost.
  const rungRatio = (label: string, processes: number, minimum: number) => {
    const run = apiRun(results, label, processes);
    const rung = run && rungFor(results, run);
    const target = `${label} >= ${pct(minimum)} of its rung's req/s (${processesLabel(processes)})`;
    if (!run || !rung || run.missing) return check(target, run?.missing ? 'endpoint missing' : 'not measured', undefined);
    const r = run.rps / rung.rps;
    const cpu = run.cpuMicros && rung.cpuMicros ? `; CPU ${Math.round(run.cpuMicros)} vs ${Math.round(rung.cpuMicros)} us/req` : '';
    return check(target, `${pct(r)} (${Math.round(run.rps)} vs ${Math.round(rung.rps)}${cpu})`, r >= minimum);
  };
  const p99 = (processes: number) => {
    const run = apiRun(results, 'client report_score', processes);
    const bare = run && bareFor(results, run);
    const target = `client report_score p99 <= 2x bare POST p99 (${processesLabel(processes)})`;
    if (!run || !bare || run.missing) return check(target, 'not measured', undefined);
    return check(target, `${run.p99} ms vs ${bare.p99} ms`, run.p99 <= 2 * bare.p99);
  };
  for (const processes of [1, 2]) checks.push(ratio('client report_score', processes, 0.75), p99(processes));
  checks.push(ratio('player record read', 1, 0.75), ratio('around_me', 1, 0.6), ratio('third-party page of 100', 1, 0.4));
  // With 1 process the API and its rung are each held by one event loop; with 2, both by the
  // machine's cores (docs/performance.md): judged at both.
  for (const processes of [1, 2]) {
    checks.push(
      rungRatio(REPORT_LABEL, processes, 0.9),
      rungRatio('player record read', processes, 0.9),
      rungRatio('third-party page of 100', processes, 0.8),
      rungRatio('around_me', processes, 0.8),
      rungRatio('server report_scores (5 boards)', processes, 0.8),
    );
  }
  checks.push(...SCALED.map((label) => scalingCheck(results, label)));
  checks.push(...variantChecks(results));

  checks.push(
    ...workerChecks(results),
    ...memoryChecks(results),
    ...rankReadChecks(results),
    ...manyBoardsChecks(results),
    ...avatarChecks(results),
    ...seasons,
  );
  return checks;
}

/** The scenarios run with 1 and 2 API processes. */
const SCALED = [REPORT_LABEL, 'server report_scores (5 boards)', 'player record read', 'third-party page of 100', 'around_me'];

/**
 * Two API processes serve >= 1.6x what one does, where the machine's cores allow it: when the run
 * with 2 processes had 90% of the machine's CPUs in use (the API, Redis, PostgreSQL, the load
 * generator, the worker and other work together), a tenth of the CPUs or less was left for more, and
 * a shortfall cannot be judged on this machine: n/a, with the cores as measured (docs/performance.md).
 */
function scalingCheck(results: BenchResults, label: string): TargetCheck {
  const [one, two] = [apiRun(results, label, 1), apiRun(results, label, 2)];
  const target = `${label}: 2 API processes >= 1.6x 1 process's req/s, where the cores allow`;
  const cores = two && coresOf(two);
  if (!one || !two || one.missing || two.missing || one.rps <= 0 || !cores) return check(target, 'not measured', undefined);
  const scaled = two.rps / one.rps;
  const cpus = results.machine.cpus;
  const full = cores.all >= 0.9 * cpus;
  const used =
    `with 2 processes the run used ${cores.all.toFixed(2)} of ${cpus} cores (API ${cores.server.toFixed(2)}, ` +
    `Redis ${cores.redis.toFixed(2)}, PostgreSQL ${cores.postgres.toFixed(2)}, load generator ${cores.driver.toFixed(2)}, ` +
    `worker ${cores.worker.toFixed(2)}, other ${cores.other.toFixed(2)})${full ? ': none to spare' : ''}`;
  return check(target, `${scaled.toFixed(2)}x; ${used}`, scaled >= 1.6 ? true : full ? undefined : false);
}

/**
 * report_score's variants (latest and sum boards, metadata, an Idempotency-Key) within 10% of the
 * plain best-score report_score, 1 API process: the median of the ratios of the alternating rounds
 * (variantRounds), or of the one run each when there were none. Only the variants that ran.
 */
function variantChecks(results: BenchResults): TargetCheck[] {
  const plain = apiRun(results, REPORT_LABEL, 1);
  return SERVICE_SCENARIOS.filter((s) => s.variant).flatMap((scenario) => {
    const run = apiRun(results, scenario.label, 1);
    if (!run) return [];
    const target = `${scenario.label} >= 90% of ${REPORT_LABEL} req/s (1 API process)`;
    if (run.missing || !plain || plain.missing) return [check(target, run.missing ? 'endpoint missing' : 'not measured', undefined)];
    const rounds = (results.variantRounds ?? []).flatMap((round) => {
      const [side, against] = [round[scenario.label], round[REPORT_LABEL]];
      return side && against ? [{ ratio: side.rps / against.rps, errors: side.errors }] : [];
    });
    const errors = run.errors + rounds.reduce((sum, round) => sum + round.errors, 0);
    const errorNote = errors > 0 ? `; ${errors} errors` : '';
    if (rounds.length === 0) {
      const r = run.rps / plain.rps;
      return [check(target, `${pct(r)} (${Math.round(run.rps)} vs ${Math.round(plain.rps)}${errorNote})`, r >= 0.9 && errors === 0)];
    }
    const r = median(rounds.map((round) => round.ratio));
    const measured = `${pct(r)} median of ${rounds.length} alternating rounds (${rounds.map((round) => pct(round.ratio)).join(', ')})${errorNote}`;
    return [check(`${target}, alternating rounds`, measured, r >= 0.9 && errors === 0)];
  });
}

/** Idle leaderboards cost (almost) nothing: background and probe work follow what changed. */
function manyBoardsChecks(results: BenchResults): TargetCheck[] {
  const many = results.manyBoards;
  if (!many) return [];
  const n = many.boards.toLocaleString('en-US');
  return [
    check(
      `Redis commands/s from the idle service < 100 (${n} leaderboards)`,
      many.idleCommandsPerSecond.toFixed(1),
      many.idleCommandsPerSecond < 100,
    ),
    check(`/readyz p99 < 20 ms (${n} leaderboards)`, `${many.readyz.p99} ms`, many.readyz.missing ? undefined : many.readyz.p99 < 20),
    check(
      `PostgreSQL lag p99 < 1 s, reports over 1,000 of ${n} leaderboards`,
      `<= ${many.lagP99} s (${many.lagObservations} writes)`,
      many.lagObservations > 0 ? many.lagP99 < 1 : undefined,
    ),
    check(`API RSS <= 200 MB with ${n} leaderboards`, `${many.apiRssMb.toFixed(0)} MB`, many.apiRssMb <= 200),
  ];
}

/** --only seasons: the reset's answer, report_score during the archive, archived reads against live ones. */
function seasonChecks(results: BenchResults): TargetCheck[] {
  return seasonRows(results.seasons!).flatMap((row) =>
    row.target === undefined
      ? []
      : [check(row.target, `${row.measured} vs ${row.comparedWith}${row.ratio && ` (${row.ratio})`}`, row.pass)],
  );
}

/** A flood of distinct avatar sizes costs about what the same flood at one size does. */
function avatarChecks(results: BenchResults): TargetCheck[] {
  const avatars = results.avatarSizes;
  if (!avatars) return [];
  const target = `${avatars.requests} avatar requests of distinct sizes within 2x of ${avatars.requests} of one size (cold cache)`;
  return [
    check(
      target,
      `${Math.round(avatars.distinctMs)} vs ${Math.round(avatars.equalMs)} ms (${avatars.ratio.toFixed(2)}x)`,
      avatars.ratio <= 2,
    ),
  ];
}

/** --cluster only: report_score on the Redis Cluster within 15% of the single Redis (median of the rounds' ratios). */
function clusterChecks(results: BenchResults): TargetCheck[] {
  const pairs = clusterPairs(results, 'client report_score');
  const target = 'client report_score req/s on Redis Cluster within 15% of single Redis (1 API process)';
  if (pairs.length === 0) return [check(target, 'not measured', undefined)];
  const r = median(pairs.map(([single, cluster]) => cluster.rps / single.rps));
  const rounds = pairs.map(([single, cluster]) => `${Math.round(cluster.rps)} vs ${Math.round(single.rps)}`).join(', ');
  return [check(target, `${pct(r)} median of ${pairs.length} rounds (req/s cluster vs single: ${rounds})`, r >= 0.85)];
}

/** --compare: this build within 5% of the other revision on every scenario compared (median of the rounds' ratios). */
function comparisonChecks(results: BenchResults): TargetCheck[] {
  return comparisonRows(results.comparison!).map((row) =>
    check(
      `${row.label} req/s within 5% of ${results.comparison!.revision}`,
      `${pct(row.ratio)} median of ${row.rounds} rounds (${row.perRound.map(pct).join(', ')})`,
      row.rounds > 0 ? row.ratio >= 0.95 : undefined,
    ),
  );
}

const processesLabel = (n: number) => `${n} API process${n > 1 ? 'es' : ''}`;

function workerChecks(results: BenchResults): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const backlog = results.worker.backlog;
  checks.push(
    check(
      'worker drains a backlog at >= 15,000 changes/s',
      backlog?.rate ? `${Math.round(backlog.rate)} changes/s (${backlog.changes} changes)` : 'not measured',
      backlog?.rate ? backlog.rate >= 15_000 : undefined,
    ),
  );
  const recount = results.worker.recount;
  if (recount) {
    checks.push(
      check(
        `a clan recount holds the worker's event loop < 500 ms (${recount.members.toLocaleString('en-US')} members)`,
        `${Math.round(recount.eventLoopMaxMs)} ms`,
        recount.eventLoopMaxMs < 500,
      ),
    );
  }
  for (const lag of results.worker.report) {
    const n = processesLabel(lag.processes);
    checks.push(
      check(
        `PostgreSQL lag p99 < 1 s during report_score (${n})`,
        `<= ${lag.lagP99} s (${lag.observations} writes)`,
        lag.observations > 0 ? lag.lagP99 < 1 : undefined,
      ),
      check(
        `pending_persistence 0 within 2 s after report_score (${n})`,
        lag.drainMs === null ? 'never' : `${lag.drainMs} ms`,
        lag.drainMs !== null && lag.drainMs <= 2000,
      ),
    );
  }
  return checks;
}

function memoryChecks(results: BenchResults): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const [name, memory] of Object.entries(results.memory)) {
    if (!memory) continue;
    checks.push(check(`Redis <= 128 bytes per ranked entry (${name} board)`, `${memory.perEntry.toFixed(1)} B`, memory.perEntry <= 128));
  }
  const apiRss = Math.max(0, ...results.apiPeakRssMb.map((r) => r.mb));
  checks.push(check('API RSS <= 200 MB under load (peak, per process)', `${apiRss.toFixed(0)} MB`, apiRss > 0 ? apiRss <= 200 : undefined));
  return checks;
}

/** Redis's own time per read (the rank's cost itself) and the HTTP record read on the same players. */
function rankReadChecks(results: BenchResults): TargetCheck[] {
  const { small, large } = results.rankRead;
  if (!small || !large) return [];
  const target = (how: string) => `rank read cost at ${large.entries} within 1.5x of at ${small.entries} (${how})`;
  const redisRatio = large.serverMicros / small.serverMicros;
  const checks = [
    check(
      target('Redis time per read'),
      `${large.serverMicros.toFixed(1)} vs ${small.serverMicros.toFixed(1)} us (${redisRatio.toFixed(2)}x)`,
      redisRatio <= 1.5,
    ),
  ];
  if (small.rps && large.rps) {
    const httpRatio = small.rps / large.rps;
    checks.push(
      check(
        target('HTTP record read'),
        `${Math.round(large.rps)} vs ${Math.round(small.rps)} req/s (${httpRatio.toFixed(2)}x)`,
        httpRatio <= 1.5,
      ),
    );
  }
  return checks;
}

/** --only events: report_score with three webhooks wanting player.overtaken >= 90% of none. */
function eventChecks(results: BenchResults): TargetCheck[] {
  return results.events ? sideChecks(eventRatios(results.events)) : [];
}

/** --only review: report_score on a board judging review rules >= 90% of none. */
function reviewChecks(results: BenchResults): TargetCheck[] {
  return results.review ? sideChecks(reviewRatios(results.review)) : [];
}

/** --only history: a page of 100 with rank_change >= 90% of one without. */
function historyChecks(results: BenchResults): TargetCheck[] {
  return results.history ? sideChecks(historyRatios(results.history)) : [];
}

/** --only ties: report_score on tie-breaking boards >= 90% of a shared board's; list ranks of 100 >= the page of 100. */
function tieChecks(results: BenchResults): TargetCheck[] {
  return results.ties ? sideChecks(tieRatios(results.ties)) : [];
}

/** Sides compared in alternating rounds, each judged on the median of its rounds' ratios. */
function sideChecks(ratios: SideRatio[]): TargetCheck[] {
  return ratios.map((r) =>
    check(
      `${r.label} >= ${pct(r.minimum)} of ${r.against} req/s (alternating rounds)`,
      `${pct(r.ratio)} median of ${r.ratios.length} rounds (${r.ratios.map(pct).join(', ')})`,
      r.ratio >= r.minimum,
    ),
  );
}
