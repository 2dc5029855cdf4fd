import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { loadConfig } from '../../engine/config.js';
import { ensureDatabase, migrate } from '../../engine/db.js';
import { createEngine, type Engine } from '../../engine/engine.js';
import { openBenchParts, type BenchParts } from './engine-parts.js';
import { createLogger } from '../../engine/logger.js';
import { projectRoot } from '../../engine/paths.js';
import { createRedis, waitForRedis } from '../../engine/live/redis.js';
import { startCluster, stopCluster } from '../redis-cluster.js';
import { ensureServices } from '../services.js';
import { avatarSizeCost } from './avatar-figures.js';
import { BENCH_CLUSTER_DATABASE, BENCH_DATABASE, BOARDS, databaseUrlFor, playerId } from './fixtures.js';
import { parseOptions, type BenchOptions } from './options.js';
import { apiPhase, barePhase } from './phases.js';
import { killAllNow, peakRssMb, stop, stopAll, waitUntilSettled } from './processes.js';
import { idempotencyCost, memoryPerEntry, rankReadCost } from './redis-figures.js';
import { BOARDS_PER_GAME, MANY_GAMES, manyBoardsFigures } from './many-boards.js';
import { recoveryFigures } from './recovery-figures.js';
import { buildRevision, compareBuilds, databaseForRevision } from './compare.js';
import { renderMarkdown, writeReport } from './report.js';
import { emptyResults, type BenchResults, type ClusterResults } from './results.js';
import { OPTIONAL_SCENARIOS, VARIANT_KINDS, type ScenarioContext } from './scenarios.js';
import { seasonFigures } from './season-figures.js';
import { moderationFigures } from './moderation-figures.js';
import { eventFigures } from './event-figures.js';
import { historyFigures } from './history-figures.js';
import { reviewFigures } from './review-figures.js';
import { tieFigures } from './ties-figures.js';
import { leagueFigures } from './league-figures.js';
import { dropBenchDatabase, resetBenchData, seed, type SeededGame } from './seed.js';
import { freePort, serviceEnv, startWorker, type ServiceSetup } from './service.js';
import { evaluateTargets } from './targets.js';
import { backlogDrain, recountCost } from './worker-figures.js';

/**
 * `npm run bench [-- --quick] [-- --players N]`: seeds the bench database and key prefix, measures
 * the bare Express ceiling and the service (API with 1 and 2 processes, worker apart), and writes
 * the table to .artifacts/bench/. Exits 0 whenever it completes, whatever the figures.
 *
 * `--cluster`: instead, the service scenarios (all, or those of --only) with 1 API process
 * on the single Redis and on a throwaway 3-master Redis Cluster (scripts/redis-cluster.ts, ports
 * 7100-7102) seeded the same way, in alternating rounds, side by side (see clusterComparison). The
 * cluster is stopped at the end, on error and on Ctrl-C too.
 */
const OUTPUT_DIR = path.join(projectRoot, '.artifacts', 'bench');
const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const results = emptyResults(options);
  const setup = await prepareSetup(options.profile);
  const redis = new Redis(setup.redisUrl, { lazyConnect: false });
  let engine: Engine | undefined;
  let parts: BenchParts | undefined;
  try {
    log(`Resetting ${BENCH_DATABASE} and the bench's Redis keys`);
    await resetBenchData(setup.databaseUrl, redis);
    await ensureDatabase(setup.databaseUrl);
    await migrate(setup.databaseUrl);
    results.machine = await machineInfo(redis, setup);
    const config = loadConfig(serviceEnv(setup));
    engine = await createEngine(config, createLogger('warn'));
    parts = await openBenchParts(config);
    await engine.maintenance.rebuild(); // the emptied Redis asked for one; nothing to merge yet

    const ruleBoards = runsVariants(options);
    const rules = ruleBoards ? ', latest, sum, metadata, windowed, entries' : '';
    log(`Seeding ${options.players} players (main, clan${rules} and ${options.smallBoard}-entry boards) into PostgreSQL and Redis`);
    const started = Date.now();
    const seeded = await seed(engine, parts.pool, redis, options.players, options.smallBoard, ruleBoards);
    results.seedSeconds = (Date.now() - started) / 1000;
    log(
      `  seeded in ${results.seedSeconds.toFixed(1)} s (PostgreSQL ${seeded.seconds.postgres.toFixed(1)} s, Redis ${seeded.seconds.redis.toFixed(1)} s, at the same time)`,
    );

    const ctx = scenarioContext(seeded, setup, options);
    if (options.cluster) {
      results.cluster = await clusterComparison(setup, options, ctx, redis);
    } else if (options.compare) {
      log(`Building ${options.compare} beside this checkout`);
      const revision = buildRevision(options.compare);
      // Nothing may be connected to the bench database while it is copied for the other revision.
      await parts.close();
      await engine.close();
      parts = engine = undefined;
      const beforeDatabaseUrl = await databaseForRevision(setup.databaseUrl, revision.root);
      const worker = await startWorker(setup);
      results.comparison = await compareBuilds(setup, options, ctx, worker, options.compare, revision, beforeDatabaseUrl);
      await stop(worker);
    } else {
      if (usualRun(options)) await usualScenarios(setup, options, ctx, results, engine, parts, redis, seeded);
      if (options.only.includes('seasons')) {
        log(`Seasons: reset of a ${options.players}-entry board, its archive, report_score meanwhile, archived reads vs live ones`);
        results.seasons = await seasonFigures(setup, options, engine, parts, redis, ctx);
      }
      if (options.only.includes('moderation')) {
        log(`Moderation: ban and unban on 10 boards of ${options.players} entries, reads with 1% of players banned vs none`);
        results.moderation = await moderationFigures(setup, options, engine, parts, redis, ctx);
      }
      if (options.only.includes('league')) {
        log('League: the season end of 100,000 players in groups of 50, its moves and archive, report_score meanwhile');
        results.league = await leagueFigures(setup, options, engine, parts, redis, ctx);
      }
      if (options.only.includes('ties')) {
        log(`Ties: report_score on an earliest board and on one with 4 tiebreakers vs a shared board, list ranks of 100 vs a page of 100`);
        const worker = await startWorker(setup, 'worker-ties');
        try {
          results.ties = await tieFigures(setup, options, engine, parts, redis, ctx);
        } finally {
          await stop(worker);
        }
      }
      if (options.only.includes('events')) {
        log('Events: report_score with three webhooks wanting player.overtaken (notify_top 100) vs none, deliveries per second');
        const worker = await startWorker(setup, 'worker-events');
        try {
          results.events = await eventFigures(setup, options, engine, parts, ctx);
        } finally {
          await stop(worker);
        }
      }
      if (options.only.includes('history')) {
        log(`History: the daily snapshot of a board's first 100,000 entries, a page of 100 with rank_change vs without`);
        results.history = await historyFigures(setup, options, engine, parts, ctx);
      }
      if (options.only.includes('review')) {
        log('Review: report_score on a board judging review rules (none held) vs none');
        results.review = await reviewFigures(setup, options, engine, parts, ctx);
      }
    }
    results.machine.loadAverage.end = os.loadavg()[0]!;
  } finally {
    await stopAll();
    await parts?.close().catch(() => undefined);
    await engine?.close().catch(() => undefined);
    if (clusterRunning) {
      log('Stopping the test Redis Cluster');
      stopCluster();
      clusterRunning = false;
    }
    // A million-entry board holds ~250 MB of the Redis that dev and tests share: give it back.
    await resetBenchData(setup.databaseUrl, redis).catch((error: unknown) => log(`could not remove the bench data: ${String(error)}`));
    redis.disconnect();
  }
  report(results);
}

/** Everything a run without --only measures (or with --only naming service scenarios): bare ceiling, service, worker, memory, many boards, avatars. */
async function usualScenarios(
  setup: ServiceSetup,
  options: BenchOptions,
  ctx: ScenarioContext,
  results: BenchResults,
  engine: Engine,
  parts: BenchParts,
  redis: Redis,
  seeded: SeededGame,
): Promise<void> {
  // Before any worker runs, so that none holds a clan board's recount lock meanwhile.
  log('Clan recount: every clan total, as the worker runs it');
  results.worker.recount = await recountCost(engine, redis, options.players);
  let worker = await startWorker(setup);
  // A starting worker recounts every clan total (20 s of CPU at 1M members): not in the ceiling's figures.
  await waitUntilSettled(worker, 0, 120_000);
  const rungBoards = { main: seeded.boards[BOARDS.main]!.internalId, server: BOARDS.server.map((id) => seeded.boards[id]!.internalId) };
  // The ceiling right before the service with the same process count: the machine's speed drifts.
  for (const processes of [1, 2]) {
    log(`Bare Express 5, ${processes} process(es)`);
    await barePhase(setup, options, ctx, results, processes, worker, rungBoards);
    log(`Service, ${processes} API process(es), worker apart`);
    await apiPhase(setup, options, ctx, results, processes, worker);
  }

  log('Rank read in Redis: small board vs main board, same players');
  const small = await rankReadCost(redis, parts, seeded.boards[BOARDS.small]!, options.smallBoard);
  const large = await rankReadCost(redis, parts, seeded.boards[BOARDS.main]!, options.smallBoard);
  results.rankRead.small = { ...small, rps: results.rankRead.small?.rps ?? null };
  results.rankRead.large = { ...large, rps: results.rankRead.large?.rps ?? null };

  log(`Backlog: worker stopped, ${options.backlog} distinct improvements queued, then the worker started`);
  results.worker.peakRssMb = peakRssMb(worker);
  await stop(worker);
  results.worker.backlog = await backlogDrain(engine, parts, seeded.boards[BOARDS.main]!, options.backlog, async () => {
    worker = await startWorker(setup, 'worker-backlog');
  });
  results.worker.peakRssMb = Math.max(results.worker.peakRssMb, peakRssMb(worker));

  results.memory.individual = await memoryPerEntry(redis, parts, seeded.boards[BOARDS.main]!);
  results.memory.clan = await memoryPerEntry(redis, parts, seeded.boards[BOARDS.clans]!);
  const metadataBoard = seeded.boards[BOARDS.metadata];
  if (metadataBoard) results.metadataMemory = await memoryPerEntry(redis, parts, metadataBoard);
  results.idempotency = await idempotencyCost(redis, parts.prefix, seeded.boards[BOARDS.main]!);

  log(`${MANY_GAMES * BOARDS_PER_GAME} leaderboards over ${MANY_GAMES} games: the idle service, /readyz, reports over 1,000 of them`);
  results.manyBoards = await manyBoardsFigures(setup, options, engine, parts, redis, ctx, worker);
  log('A lost dataset at 100,000 boards: first touches of boards not yet rebuilt, then the worker walking back to all of them');
  ({ figures: results.recovery, worker } = await recoveryFigures(setup, parts, redis, ctx, worker, () =>
    startWorker(setup, 'worker-recovery'),
  ));
  log('Avatars: 300 requests of distinct sizes vs the same 300 at one size, 10 players, cold avatar cache');
  const avatarPlayers = Array.from({ length: 10 }, (_, i) => playerId(i));
  results.avatarSizes = await avatarSizeCost(engine, avatarPlayers, { requests: 300, rounds: options.quick ? 1 : 3 });
  await stop(worker); // an optional scenario after this one starts its own
}

/**
 * Whether report_score's variants run, so their boards are seeded: in the usual run unless --only
 * leaves them out; in --cluster and --compare runs only when --only names them.
 */
function runsVariants(options: BenchOptions): boolean {
  if (options.only.length > 0) return options.only.some((kind) => VARIANT_KINDS.includes(kind));
  return !options.cluster && !options.compare;
}

/** Without --only, or with --only naming a service scenario; --only naming optional scenarios alone runs just them. */
function usualRun(options: BenchOptions): boolean {
  return options.only.length === 0 || options.only.some((kind) => !(OPTIONAL_SCENARIOS as readonly string[]).includes(kind));
}

let clusterRunning = false;

/**
 * --cluster: the same service scenarios with 1 API process on the single Redis and on a
 * throwaway 3-master Redis Cluster, both seeded and both with their worker running, in alternating
 * rounds (single, cluster, single, cluster…), so a drift of the machine's speed during the run falls
 * on both sides instead of on one. The cluster's masters keep the single Redis's persistence setting
 * and have no replicas: on one machine, replicas would only take CPU from the very processes being
 * compared (the failover test covers them). The caller stops the cluster.
 */
async function clusterComparison(
  setup: ServiceSetup,
  options: BenchOptions,
  singleCtx: ScenarioContext,
  single: Redis,
): Promise<ClusterResults> {
  const appendonly = ((await single.config('GET', 'appendonly')) as string[])[1] === 'yes';
  log(
    `Starting the test Redis Cluster (3 masters, no replicas, AOF ${appendonly ? 'everysec' : 'off'} like the single Redis; ports 7100-7102)`,
  );
  clusterRunning = true;
  const nodes = await startCluster({ replicas: false, appendonly });
  log(`  seed nodes ${nodes}`);
  // Its own database and worker metrics port: both services stay up for the whole comparison.
  const clusterSetup: ServiceSetup = {
    ...setup,
    redisClusterNodes: nodes,
    databaseUrl: databaseUrlFor(setup.databaseUrl, BENCH_CLUSTER_DATABASE),
    workerMetricsPort: await freePort(),
  };
  const seeds = nodes.split(',').map((node) => {
    const [host, port] = node.split(':');
    return { host: host!, port: Number(port) };
  });
  const client = createRedis({ cluster: seeds }, { role: 'queue' });
  let engine: Engine | undefined;
  let parts: BenchParts | undefined;
  try {
    await waitForRedis(client, 30_000);
    await dropBenchDatabase(clusterSetup.databaseUrl);
    await ensureDatabase(clusterSetup.databaseUrl);
    await migrate(clusterSetup.databaseUrl);
    const config = loadConfig(serviceEnv(clusterSetup));
    engine = await createEngine(config, createLogger('warn'));
    parts = await openBenchParts(config);
    await engine.maintenance.rebuild();
    log(`Seeding ${options.players} players into PostgreSQL and the Redis Cluster (one key per pipeline, so one slot each)`);
    const started = Date.now();
    const seeded = await seed(engine, parts.pool, client, options.players, options.smallBoard, runsVariants(options));
    const seedSeconds = (Date.now() - started) / 1000;
    log(
      `  seeded in ${seedSeconds.toFixed(1)} s (PostgreSQL ${seeded.seconds.postgres.toFixed(1)} s, Redis Cluster ${seeded.seconds.redis.toFixed(1)} s)`,
    );
    const clusterCtx = scenarioContext(seeded, setup, options);
    const singleWorker = await startWorker(setup);
    const clusterWorker = await startWorker(clusterSetup, 'worker-cluster');
    const rounds: ClusterResults['rounds'] = [];
    for (let round = 1; round <= options.clusterRounds; round += 1) {
      const onSingle = emptyResults(options);
      const onCluster = emptyResults(options);
      log(`Round ${round} of ${options.clusterRounds}: service on the single Redis, 1 API process`);
      await apiPhase(setup, options, singleCtx, onSingle, 1, singleWorker, false);
      log(`Round ${round} of ${options.clusterRounds}: service on the Redis Cluster, 1 API process`);
      await apiPhase(clusterSetup, options, clusterCtx, onCluster, 1, clusterWorker, false);
      rounds.push({ single: onSingle.runs, cluster: onCluster.runs, clusterLag: onCluster.worker.report });
    }
    await stop(clusterWorker);
    await stop(singleWorker);
    return { nodes, topology: `3 masters, no replicas, AOF ${appendonly ? 'everysec' : 'off'}`, seedSeconds, rounds };
  } finally {
    await parts?.close().catch(() => undefined);
    await engine?.close().catch(() => undefined);
    client.disconnect();
    await dropBenchDatabase(clusterSetup.databaseUrl).catch(() => undefined);
  }
}

function report(results: BenchResults): void {
  const checks = evaluateTargets(results);
  const markdown = renderMarkdown(results, checks);
  const files = writeReport(OUTPUT_DIR, results, checks, markdown);
  process.stdout.write(`\n${markdown}\n`);
  for (const c of checks) process.stdout.write(`${c.status.padEnd(4)}  ${c.target}: ${c.measured}\n`);
  process.stdout.write(`\nWritten: ${files.map((f) => path.relative(projectRoot, f)).join(', ')}\n`);
}

/** Redis and PostgreSQL as the other scripts find them, but always the bench's own database. */
async function prepareSetup(profile: boolean): Promise<ServiceSetup> {
  const env = { ...process.env };
  if (env.DATABASE_URL) env.DATABASE_URL = databaseUrlFor(env.DATABASE_URL, BENCH_DATABASE);
  const services = await ensureServices(BENCH_DATABASE, env, log);
  const logDir = path.join(OUTPUT_DIR, 'logs');
  mkdirSync(logDir, { recursive: true });
  if (profile) mkdirSync(path.join(OUTPUT_DIR, 'profiles'), { recursive: true });
  return {
    ...services,
    apiPort: await freePort(),
    barePort: await freePort(),
    workerMetricsPort: await freePort(),
    adminToken: randomBytes(24).toString('base64url'),
    tokenSecret: randomBytes(24).toString('base64url'),
    logDir,
    ...(profile && { profileDir: path.join(OUTPUT_DIR, 'profiles') }),
  };
}

async function machineInfo(redis: Redis, setup: ServiceSetup): Promise<BenchResults['machine']> {
  const info = await redis.info('server');
  const client = new pg.Client({ connectionString: setup.databaseUrl });
  await client.connect();
  try {
    const postgres = (await client.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
    return {
      cpus: os.availableParallelism(),
      node: process.version,
      redis: /redis_version:(\S+)/.exec(info)?.[1] ?? '?',
      postgres,
      loadAverage: { start: os.loadavg()[0]!, end: 0 },
    };
  } finally {
    await client.end();
  }
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log(`\n${signal}: stopping every process the bench started`);
    void stopAll().finally(() => {
      if (clusterRunning) stopCluster();
      process.exit(130);
    });
  });
}
process.on('exit', killAllNow);
process.on('exit', () => {
  if (clusterRunning) stopCluster(); // synchronous (redis-cli), so it runs from here
});

main().catch(async (error: unknown) => {
  log(`bench failed: ${error instanceof Error ? error.stack : String(error)}`);
  await stopAll();
  process.exit(1);
});

/** What the scenarios need of a seeded game: its keys, and the token secret of the service they call. */
function scenarioContext(seeded: SeededGame, setup: ServiceSetup, options: BenchOptions): ScenarioContext {
  return {
    gameId: seeded.gameId,
    publishableKey: seeded.publishableKey,
    secretKey: seeded.secretKey,
    apiKey: null,
    tokenSecret: setup.tokenSecret,
    players: options.players,
  };
}
