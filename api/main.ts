import cluster from 'node:cluster';
import type { Server } from 'node:http';
import { loadConfigOrExit, type Config } from '../engine/config.js';
import { ensureDatabase, migrate } from '../engine/db.js';
import { createEngine } from '../engine/engine.js';
import { stopWhenLauncherGone } from '../engine/launcher-link.js';
import { createLogger, type Logger } from '../engine/logger.js';
import { RestartPolicy } from '../engine/restart-policy.js';
import { createApp } from './app.js';
import { createHttpServer } from './server.js';

/**
 * The API entry point. The primary prepares the database and Redis once (migrations, the dataset
 * check, the demo game), then serves, or forks WEB_CONCURRENCY processes that share the port.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel).child({ process: 'api' });
  if (cluster.isPrimary) {
    await prepare(config, logger);
    if (config.webConcurrency > 1) return forkServers(config, logger);
  }
  await serve(config, logger);
}

async function prepare(config: Readonly<Config>, logger: Logger): Promise<void> {
  await ensureDatabase(config.databaseUrl);
  await migrate(config.databaseUrl, logger);
  // A lost or new Redis asked for a rebuild when the engine checked its dataset. The API serves at
  // once all the same: a board without its live state is rebuilt on its first touch, before it
  // answers, and the worker's walk brings back the others, the most recently active first.
  const engine = await createEngine(config, logger);
  try {
    if (config.createDemoGame) {
      const demo = await engine.games.ensureDemo();
      // The first run: show the admin token too, unless it came from the environment.
      if (demo) printDemo(config, demo, config.adminToken ? undefined : engine.adminToken.value);
    } else if (engine.adminToken.generated) {
      process.stdout.write(`ADMIN_TOKEN (generated, stored in the database): ${engine.adminToken.value}\n`);
    }
  } finally {
    await engine.close();
  }
}

function printDemo(
  config: Readonly<Config>,
  demo: { gameId: string; publishableKey: string; secretKey: string; leaderboardId: string },
  generatedAdminToken: string | undefined,
): void {
  const lines = [
    '',
    'Demo game created (the secret key is shown only now):',
    `  game_id          ${demo.gameId}`,
    `  Publishable-Key  ${demo.publishableKey}`,
    `  Secret-Key       ${demo.secretKey}`,
    `  leaderboard      ${demo.leaderboardId}`,
    ...(generatedAdminToken ? [`  ADMIN_TOKEN      ${generatedAdminToken}  (generated, stored in the database)`] : []),
    `  API              ${config.baseUrl}   reference: ${config.baseUrl}/docs`,
    `  Dashboard        ${config.appUrl}/dashboard   (sign in with the Secret-Key or the ADMIN_TOKEN)`,
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

/**
 * Keeps WEB_CONCURRENCY API processes running: one that dies is replaced after a pause
 * (RestartPolicy); when they keep crashing, the primary stops the rest and exits 1, so whatever
 * supervises it (npm start, systemd, the orchestrator) sees the failure.
 */
function forkServers(config: Readonly<Config>, logger: Logger): void {
  const policy = new RestartPolicy();
  let stopping = false;
  for (let i = 0; i < config.webConcurrency; i += 1) cluster.fork();
  const stop = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    const pause = policy.afterCrash();
    if (pause === undefined) {
      logger.error({ pid: worker.process.pid, code, signal }, `API process exited, ${RestartPolicy.limit}: giving up`);
      process.exitCode = 1;
      stop();
      return;
    }
    logger.error({ pid: worker.process.pid, code, signal, restartInMs: pause }, 'API process exited; starting another');
    setTimeout(() => {
      if (!stopping) cluster.fork();
    }, pause);
  });
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  stopWhenLauncherGone(stop);
}

async function serve(config: Readonly<Config>, logger: Logger): Promise<void> {
  const engine = await createEngine(config, logger);
  const app = createApp(engine);
  const server: Server = createHttpServer(app, config).listen(config.port);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  logger.info({ port: config.port }, 'API listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'API stopping: finishing requests in flight');
    server.close();
    server.closeIdleConnections();
    // Live streams never finish by themselves: their clients reconnect to another process.
    engine.live.endAll();
    const forced = setTimeout(() => server.closeAllConnections(), 10_000).unref();
    await new Promise<void>((resolve) => server.once('close', resolve));
    clearTimeout(forced);
    await engine.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  // Forked API processes are node:cluster's: they end with their primary by themselves.
  if (cluster.isPrimary) stopWhenLauncherGone(() => void stop('launcher gone'));
}

main().catch((error: unknown) => {
  process.stderr.write(`API failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
