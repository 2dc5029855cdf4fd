import { createServer } from 'node:net';
import path from 'node:path';
import { projectRoot } from '../../engine/paths.js';
import { BENCH_PREFIX } from './fixtures.js';
import { startNode, waitForHttp, waitUntilSettled, type Started } from './processes.js';
import { nodeFlags } from '../node-flags.js';

/** The environment the service gets in production, pointed at the bench's database and key prefix. */
export interface ServiceSetup {
  redisUrl: string;
  /** Seed nodes (host:port,...) of a Redis Cluster: when set, the service uses it instead of redisUrl. */
  redisClusterNodes?: string;
  databaseUrl: string;
  apiPort: number;
  barePort: number;
  workerMetricsPort: number;
  adminToken: string;
  tokenSecret: string;
  logDir: string;
  /** When set, the API and the worker write V8 CPU profiles here. */
  profileDir?: string;
}

const dist = (...parts: string[]) => path.join(projectRoot, 'dist', ...parts);
const profiling = (setup: ServiceSetup) => (setup.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${setup.profileDir}`] : []);

export function serviceEnv(setup: ServiceSetup, webConcurrency = 1): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(setup.apiPort),
    BASE_URL: `http://127.0.0.1:${setup.apiPort}`,
    APP_URL: `http://127.0.0.1:${setup.apiPort}`,
    REDIS_URL: setup.redisUrl,
    ...(setup.redisClusterNodes && { REDIS_CLUSTER_NODES: setup.redisClusterNodes }),
    DATABASE_URL: setup.databaseUrl,
    REDIS_KEY_PREFIX: BENCH_PREFIX,
    LOG_LEVEL: 'warn',
    WEB_CONCURRENCY: String(webConcurrency),
    ADMIN_TOKEN: setup.adminToken,
    TOKEN_SECRET: setup.tokenSecret,
    WORKER_METRICS_PORT: String(setup.workerMetricsPort),
    DEMO_GAME: '0',
    // --only events delivers webhooks to a receiver in the bench process, on 127.0.0.1.
    WEBHOOK_ALLOW_HTTP: '1',
    WEBHOOK_ALLOW_PRIVATE: '1',
    // The recount's cost is measured on its own (recountCost); a periodic one falling on another
    // scenario would be measured as that scenario's. Workers still recount once at start.
    RECONCILE_INTERVAL_SECONDS: '86400',
    // Limits are off so they measure nothing but the service's own work.
    RATE_LIMIT_SIGNUPS_PER_IP_PER_MINUTE: '0',
    RATE_LIMIT_REPORTS_PER_PLAYER_PER_SECOND: '0',
    RATE_LIMIT_THIRD_PARTY_PER_KEY_PER_SECOND: '0',
    RATE_LIMIT_WEB_PER_IP_PER_MINUTE: '0',
  };
}

/** The API; `root` names another checkout's build to run instead (--compare). */
export async function startApi(setup: ServiceSetup, processes: number, root = projectRoot): Promise<Started> {
  const name = root === projectRoot ? `api-${processes}` : `api-${processes}-${path.basename(root)}`;
  const entry = path.join(root, 'dist', 'api', 'main.js');
  const api = startNode(
    `API x${processes}`,
    [...profiling(setup), ...nodeFlags('api'), entry],
    serviceEnv(setup, processes),
    logFile(setup, name),
  );
  await waitForHttp(`http://127.0.0.1:${setup.apiPort}/readyz`, api);
  await waitUntilSettled(api, processes > 1 ? processes : 0);
  return api;
}

/** Resolves once the worker's metrics port answers, which it opens after connecting to both stores. */
export async function startWorker(setup: ServiceSetup, name = 'worker'): Promise<Started> {
  const worker = startNode(name, [...profiling(setup), dist('worker', 'main.js')], serviceEnv(setup), logFile(setup, name));
  await waitForHttp(`http://127.0.0.1:${setup.workerMetricsPort}/metrics`, worker);
  return worker;
}

/** Internal ids of the boards the rungs read and write: the main board and the server batch's boards. */
export interface RungBoards {
  main: number;
  server: number[];
}

/** The bare app; with `rungBoards` it also serves the rungs (the engine's scripts alone) on those boards. */
export async function startBare(setup: ServiceSetup, processes: number, rungBoards?: RungBoards): Promise<Started> {
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    BARE_PORT: String(setup.barePort),
    BARE_PROCESSES: String(processes),
    ...(rungBoards && {
      BARE_REPORT_BOARD: String(rungBoards.main),
      BARE_SERVER_BOARDS: rungBoards.server.join(','),
      REDIS_URL: setup.redisUrl,
      REDIS_KEY_PREFIX: BENCH_PREFIX,
      DATABASE_URL: setup.databaseUrl,
    }),
  };
  const bare = startNode(`bare x${processes}`, [dist('scripts', 'bench', 'bare-app.js')], env, logFile(setup, `bare-${processes}`));
  await waitForHttp(`http://127.0.0.1:${setup.barePort}/healthz`, bare);
  await waitUntilSettled(bare, processes > 1 ? processes : 0);
  return bare;
}

function logFile(setup: ServiceSetup, name: string): string {
  return path.join(setup.logDir, `${name}.log`);
}

/** A free loopback port, so the bench never collides with a dev server left running. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
