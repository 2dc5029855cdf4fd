import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { runner } from 'node-pg-migrate';
import pg from 'pg';
import { projectRoot, sqlDir } from '../../engine/paths.js';
import { BENCH_BEFORE_DATABASE, databaseUrlFor } from './fixtures.js';
import { runScenario, type ScenarioRun } from './load.js';
import type { BenchOptions } from './options.js';
import { stop, type Started } from './processes.js';
import { median } from './median.js';
import { dropBenchDatabase } from './seed.js';
import { SERVICE_SCENARIOS, type ScenarioContext } from './scenarios.js';
import { freePort, startApi, type ServiceSetup } from './service.js';
import { readyzPending, timeUntilDrained } from './worker-figures.js';

export interface ComparisonResults {
  /** The git revision compared with this build, and its commit. */
  revision: string;
  commit: string;
  /** Each round runs the scenarios on both builds; the order alternates from round to round. */
  rounds: { before: ScenarioRun[]; after: ScenarioRun[] }[];
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/**
 * Checks out and builds another revision beside this one (.artifacts/bench/compare/<commit>), sharing
 * node_modules when the lockfiles agree. Its API runs against this run's data; only the API differs.
 */
export function buildRevision(revision: string): { root: string; commit: string } {
  const commit = execFileSync('git', ['rev-parse', '--verify', `${revision}^{commit}`], { cwd: projectRoot, encoding: 'utf8' }).trim();
  const root = path.join(projectRoot, '.artifacts', 'bench', 'compare', commit.slice(0, 12));
  if (!existsSync(root)) execFileSync('git', ['worktree', 'add', '--detach', root, commit], { cwd: projectRoot, stdio: 'ignore' });
  if (!existsSync(path.join(root, 'node_modules'))) {
    const lock = (dir: string) => readFileSync(path.join(dir, 'package-lock.json'), 'utf8');
    if (lock(root) === lock(projectRoot)) symlinkSync(path.join(projectRoot, 'node_modules'), path.join(root, 'node_modules'));
    else execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: root, stdio: 'inherit' });
  }
  execFileSync(path.join(root, 'node_modules', '.bin', 'tsc'), ['-p', '.'], { cwd: root, stdio: 'inherit' });
  return { root, commit };
}

/**
 * The compared revision reads the same data at its own schema: a copy of the bench database (taken
 * while nothing is connected to it) with the migrations that revision does not know rolled back
 * through their down sections. It keeps the dataset identity, so it serves the same Redis.
 */
export async function databaseForRevision(databaseUrl: string, root: string): Promise<string> {
  const known = new Set(readdirSync(path.join(root, 'sql')));
  const unknown = readdirSync(sqlDir).filter((file) => file.endsWith('.sql') && !known.has(file));
  const copyUrl = databaseUrlFor(databaseUrl, BENCH_BEFORE_DATABASE);
  await dropBenchDatabase(copyUrl);
  const admin = new pg.Client({ connectionString: databaseUrlFor(databaseUrl, 'postgres') });
  await admin.connect();
  try {
    const source = new URL(databaseUrl).pathname.slice(1);
    // Autovacuum may still be visiting the freshly seeded tables: PostgreSQL refuses a busy template.
    for (let attempt = 1; ; attempt += 1) {
      try {
        await admin.query(`CREATE DATABASE "${BENCH_BEFORE_DATABASE}" TEMPLATE "${source}" STRATEGY FILE_COPY`);
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== '55006' || attempt === 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  } finally {
    await admin.end();
  }
  if (unknown.length > 0) {
    log(`  rolling back ${unknown.join(', ')} in the copy for ${path.basename(root)}`);
    await runner({
      databaseUrl: copyUrl,
      dir: sqlDir,
      migrationsTable: 'pgmigrations',
      direction: 'down',
      count: unknown.length,
      log: () => {},
    });
  }
  return copyUrl;
}

/**
 * Both APIs up at once (the idle one costs nothing), driven in alternating rounds: before, after,
 * after, before, … so a drift of the machine's speed falls on both. The worker is this build's.
 */
export async function compareBuilds(
  setup: ServiceSetup,
  options: BenchOptions,
  ctx: ScenarioContext,
  worker: Started,
  revision: string,
  { root, commit }: { root: string; commit: string },
  beforeDatabaseUrl: string,
): Promise<ComparisonResults> {
  const beforeSetup = { ...setup, apiPort: await freePort(), databaseUrl: beforeDatabaseUrl };
  const builds: { name: 'before' | 'after'; setup: ServiceSetup; api: Started }[] = [
    { name: 'before', setup: beforeSetup, api: await startApi(beforeSetup, 1, root) },
    { name: 'after', setup, api: await startApi(setup, 1) },
  ];
  const kinds = options.only.length > 0 ? options.only : ['report', 'record'];
  const scenarios = SERVICE_SCENARIOS.filter((s) => kinds.includes(s.kind));
  const timing = { duration: options.duration, warmup: options.warmup, connections: options.connections };
  const rounds: ComparisonResults['rounds'] = [];
  try {
    for (let round = 1; round <= options.compareRounds; round += 1) {
      const runs = { before: [] as ScenarioRun[], after: [] as ScenarioRun[] };
      for (const build of round % 2 === 1 ? builds : [...builds].reverse()) {
        log(
          `Round ${round} of ${options.compareRounds}: ${build.name === 'before' ? `${revision} (${commit.slice(0, 12)})` : 'this build'}`,
        );
        for (const scenario of scenarios) {
          runs[build.name].push(
            await runScenario(build.setup.apiPort, scenario, ctx, timing, { processes: 1, target: 'api' }, { server: build.api, worker }),
          );
          if (scenario.method === 'POST') await timeUntilDrained(() => readyzPending(setup.apiPort), 60_000);
        }
      }
      rounds.push(runs);
    }
  } finally {
    await Promise.all(builds.map((build) => stop(build.api)));
  }
  return { revision, commit, rounds };
}

/** Per scenario: median req/s and CPU per request of each build, and the median of the rounds' ratios. */
export function comparisonRows(comparison: ComparisonResults) {
  const labels = [...new Set(comparison.rounds.flatMap((round) => round.after.map((run) => run.label)))];
  return labels.map((label) => {
    const pairs = comparison.rounds
      .map((round) => [round.before.find((r) => r.label === label), round.after.find((r) => r.label === label)] as const)
      .filter(
        (pair): pair is readonly [ScenarioRun, ScenarioRun] =>
          !!pair[0] && !!pair[1] && !pair[0].missing && !pair[1].missing && pair[0].rps > 0,
      );
    return {
      label,
      rounds: pairs.length,
      beforeRps: median(pairs.map(([before]) => before.rps)),
      afterRps: median(pairs.map(([, after]) => after.rps)),
      beforeCpu: median(pairs.map(([before]) => before.cpuMicros ?? 0)),
      afterCpu: median(pairs.map(([, after]) => after.cpuMicros ?? 0)),
      ratio: median(pairs.map(([before, after]) => after.rps / before.rps)),
      perRound: pairs.map(([before, after]) => after.rps / before.rps),
    };
  });
}
