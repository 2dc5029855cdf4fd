import { OPTIONAL_SCENARIOS, SERVICE_SCENARIOS } from './scenarios.js';

/** Command-line options of `npm run bench`; everything else is fixed so runs stay comparable. */
export interface BenchOptions {
  quick: boolean;
  /** Run the API and the worker under --cpu-prof (profiles in .artifacts/bench/profiles/). */
  profile: boolean;
  /**
   * Service scenarios to run (kinds, e.g. report,record); all when empty. For profiling one path.
   * Optional scenarios (`seasons`) run only when named here; naming only them skips the usual run.
   */
  only: string[];
  /**
   * Instead of the usual run, compare the service scenarios (1 API process) on the single Redis and on
   * a throwaway 3-master Redis Cluster (scripts/redis-cluster.ts), in alternating rounds.
   */
  cluster: boolean;
  /** --cluster: alternating single/cluster rounds; the comparison takes the median of their ratios. */
  clusterRounds: number;
  /**
   * --compare REV: instead of the usual run, the service scenarios (report_score and record read
   * unless --only names others) on the API built from git revision REV and on this one, in
   * alternating rounds, both running against the same data and worker.
   */
  compare: string | undefined;
  compareRounds: number;
  players: number;
  /** Measured seconds per scenario, after the warm-up. */
  duration: number;
  warmup: number;
  connections: number;
  /** Distinct players in the backlog the worker must drain (capped at the board size). */
  backlog: number;
  /** Entries of the small board the rank read is compared against. */
  smallBoard: number;
}

export function parseOptions(argv: string[]): BenchOptions {
  let quick = false;
  let profile = false;
  let cluster = false;
  let only: string[] = [];
  let players: number | undefined;
  let compare: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--quick') quick = true;
    else if (arg === '--profile') profile = true;
    else if (arg === '--cluster') cluster = true;
    else if (arg === '--only' || arg.startsWith('--only=')) {
      only = (arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : (argv[(i += 1)] ?? '')).split(',').filter(Boolean);
      const kinds = [...SERVICE_SCENARIOS.map((s) => s.kind as string), ...OPTIONAL_SCENARIOS];
      const unknown = only.filter((kind) => !kinds.includes(kind));
      if (unknown.length > 0) throw new Error(`--only: unknown scenario ${unknown.join(', ')}; the kinds are ${kinds.join(', ')}.`);
    } else if (arg === '--compare' || arg.startsWith('--compare=')) {
      compare = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[(i += 1)];
      if (!compare || !/^[\w./~^-]+$/.test(compare)) throw new Error(`--compare needs a git revision, not '${compare ?? ''}'.`);
    } else if (arg === '--players' || arg.startsWith('--players=')) {
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[(i += 1)];
      players = Number(value);
      if (!Number.isInteger(players) || players < 1000 || players > 50_000_000) {
        throw new Error(`--players must be a whole number from 1000 to 50000000, not '${value}'.`);
      }
    } else {
      throw new Error(`Unknown option '${arg}'. Use --quick, --players N, --profile, --cluster, --compare REV, --only KIND[,KIND].`);
    }
  }
  const boardSize = players ?? (quick ? 50_000 : 1_000_000);
  return {
    quick,
    profile,
    only,
    cluster,
    clusterRounds: quick ? 2 : 5,
    compare,
    compareRounds: quick ? 2 : 4,
    players: boardSize,
    duration: quick ? 3 : 10,
    warmup: quick ? 1 : 3,
    connections: 50,
    backlog: Math.min(200_000, boardSize),
    smallBoard: Math.min(10_000, boardSize),
  };
}
