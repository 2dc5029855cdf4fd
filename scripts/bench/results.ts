import type { LeagueFigures } from './league-figures.js';
import type { AvatarSizeCost } from './avatar-figures.js';
import type { ScenarioRun } from './load.js';
import type { BacklogFigures, RecountFigures } from './worker-figures.js';
import type { IdempotencyCost, MemoryFigures, RankReadCost } from './redis-figures.js';
import type { BenchOptions } from './options.js';
import type { ManyBoardsFigures } from './many-boards.js';
import type { RecoveryFigures } from './recovery-figures.js';
import type { ComparisonResults } from './compare.js';
import type { ModerationFigures } from './moderation-figures.js';
import type { SeasonFigures } from './season-figures.js';
import type { TieFigures } from './ties-figures.js';
import type { EventFigures } from './event-figures.js';
import type { ReviewFigures } from './review-figures.js';
import type { HistoryFigures } from './history-figures.js';
import { BARE_GET_LABEL, BARE_POST_LABEL, RUNGS } from './scenarios.js';

/** Everything one bench run measured; written whole as JSON, summarised as markdown. */
export interface BenchResults {
  startedAt: string;
  options: BenchOptions;
  /** Load average before and after: other work on the machine skews every figure. */
  machine: { cpus: number; node: string; redis: string; postgres: string; loadAverage: { start: number; end: number } };
  seedSeconds: number;
  runs: ScenarioRun[];
  worker: {
    report: { processes: number; lagP50: number; lagP99: number; observations: number; maxPending: number; drainMs: number | null }[];
    backlog?: BacklogFigures;
    /** One recount of every clan total, as a worker runs it every RECONCILE_INTERVAL_SECONDS. */
    recount?: RecountFigures;
    peakRssMb: number;
  };
  apiPeakRssMb: { processes: number; mb: number }[];
  memory: { individual?: MemoryFigures; clan?: MemoryFigures };
  /** An individual board whose every entry carries METADATA_BYTES of metadata (beside memory.individual). */
  metadataMemory?: MemoryFigures;
  /** The Redis records one report with an Idempotency-Key leaves for their lifetime. */
  idempotency?: IdempotencyCost;
  rankRead: { small?: RankReadCost & { rps: number | null }; large?: RankReadCost & { rps: number | null } };
  /**
   * report_score and its variants (1 API process) again in alternating rounds, each round every side
   * once in an order that turns: what the variants are judged on. Per round, label -> its run.
   */
  variantRounds?: Record<string, { rps: number; errors: number }>[];
  /** --compare: the service scenarios on another revision's API and on this one, in alternating rounds. */
  comparison?: ComparisonResults;
  /** 100,000 leaderboards: what idle ones cost, and the lag with reports spread over 1,000. */
  manyBoards?: ManyBoardsFigures;
  /** A lost dataset at 100,000 boards: the first touch of a board not yet rebuilt, and the time to full recovery. */
  recovery?: RecoveryFigures;
  /** Avatar requests of distinct sizes against the same requests at one size (a cold avatar cache). */
  avatarSizes?: AvatarSizeCost;
  /** --only seasons: a 1,000,000-entry board's reset, its archive, and the archived season's reads against live ones. */
  seasons?: SeasonFigures;
  /** --only moderation: ban/unban on 10 boards of 1,000,000 entries; reads with 1% of players banned against none. */
  moderation?: ModerationFigures;
  /** --only ties: report_score on tie-breaking boards and list ranks, in alternating rounds; bytes per entry. */
  ties?: TieFigures;
  /** --only league: a 100,000-player league's season end, its moves and archive, report_score meanwhile. */
  league?: LeagueFigures;
  /** --only events: report_score with three webhooks wanting player.overtaken against none, and their deliveries per second. */
  events?: EventFigures;
  /** --only review: report_score on a board judging review rules against none. */
  review?: ReviewFigures;
  /** --only history: a 100,000-entry daily snapshot's time and size, and a page with rank_change against one without. */
  history?: HistoryFigures;
  /** --cluster: the service scenarios (1 API process) on the single Redis and on a Redis Cluster, in alternating rounds. */
  cluster?: ClusterResults;
}

export interface ClusterResults {
  /** REDIS_CLUSTER_NODES the service was given. */
  nodes: string;
  /** Masters, replicas and persistence of the cluster. */
  topology: string;
  seedSeconds: number;
  /** Each round runs the scenarios on the single Redis, then on the cluster. */
  rounds: { single: ScenarioRun[]; cluster: ScenarioRun[]; clusterLag: BenchResults['worker']['report'] }[];
}

export function emptyResults(options: BenchOptions): BenchResults {
  return {
    startedAt: new Date().toISOString(),
    options,
    machine: { cpus: 0, node: process.version, redis: '', postgres: '', loadAverage: { start: 0, end: 0 } },
    seedSeconds: 0,
    runs: [],
    worker: { report: [], peakRssMb: 0 },
    apiPeakRssMb: [],
    memory: {},
    rankRead: {},
  };
}

/** The bare app's run on the same method and process count: what a scenario is compared with. */
export function bareFor(results: BenchResults, run: { method: string; processes: number }): ScenarioRun | undefined {
  const label = run.method === 'GET' ? BARE_GET_LABEL : BARE_POST_LABEL;
  return results.runs.find((r) => r.target === 'bare' && r.label === label && r.processes === run.processes);
}

/** The scenario's rung (the bare app making the same Redis and PostgreSQL calls) at the same process count, if measured. */
export function rungFor(results: BenchResults, run: { label: string; processes: number }): ScenarioRun | undefined {
  const label = RUNGS[run.label];
  return results.runs.find((r) => r.target === 'bare' && r.label === label && r.processes === run.processes && !r.missing);
}

export function apiRun(results: BenchResults, label: string, processes: number): ScenarioRun | undefined {
  return results.runs.find((r) => r.target === 'api' && r.label === label && r.processes === processes);
}

/** --cluster: per round, the scenario's run on the single Redis and on the cluster (rounds where either is missing are left out). */
export function clusterPairs(results: BenchResults, label: string): [single: ScenarioRun, cluster: ScenarioRun][] {
  const pairs: [ScenarioRun, ScenarioRun][] = [];
  for (const round of results.cluster?.rounds ?? []) {
    const single = round.single.find((r) => r.label === label);
    const cluster = round.cluster.find((r) => r.label === label);
    if (single && cluster && !single.missing && !cluster.missing && single.rps > 0) pairs.push([single, cluster]);
  }
  return pairs;
}
