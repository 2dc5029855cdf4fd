import type { ScenarioRun } from './load.js';
import type { BacklogFigures } from './worker-figures.js';
import type { MemoryFigures, RankReadCost } from './redis-figures.js';
import type { BenchOptions } from './options.js';

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
    peakRssMb: number;
  };
  apiPeakRssMb: { processes: number; mb: number }[];
  memory: { individual?: MemoryFigures; clan?: MemoryFigures };
  rankRead: { small?: RankReadCost & { rps: number | null }; large?: RankReadCost & { rps: number | null } };
  /** --cluster: the same service scenarios (1 API process) on a 3-master Redis Cluster, after the single-Redis ones. */
  cluster?: ClusterResults;
}

export interface ClusterResults {
  /** REDIS_CLUSTER_NODES the service was given. */
  nodes: string;
  seedSeconds: number;
  runs: ScenarioRun[];
  worker: { report: BenchResults['worker']['report'] };
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
  return results.runs.find((r) => r.target === 'bare' && r.method === run.method && r.processes === run.processes);
}

export function apiRun(results: BenchResults, label: string, processes: number): ScenarioRun | undefined {
  return results.runs.find((r) => r.target === 'api' && r.label === label && r.processes === processes);
}
