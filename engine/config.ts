import { isIP } from 'node:net';
import Joi from 'joi';

/**
 * The service's whole configuration, read from the environment once and checked at start-up.
 * Nothing else reads process.env: a bad value stops the process with one line naming the variable.
 */
export interface Config {
  port: number;
  baseUrl: string;
  appUrl: string;
  redisUrl: string;
  /** Seed nodes of a Redis Cluster; when set, REDIS_URL is not used. */
  redisClusterNodes: { host: string; port: number }[] | undefined;
  /** Persistence queues, each under its own hash tag, so a cluster spreads them over its nodes. */
  persistQueueShards: number;
  databaseUrl: string;
  redisKeyPrefix: string;
  adminToken: string | undefined;
  tokenSecret: string | undefined;
  tokenTtlSeconds: number | undefined;
  webConcurrency: number;
  workerConcurrency: number;
  workerMetricsPort: number;
  reconcileIntervalSeconds: number;
  rateLimits: {
    signupsPerIpPerMinute: number;
    reportsPerPlayerPerSecond: number;
    thirdPartyPerKeyPerSecond: number;
    webPerIpPerMinute: number;
    /** Every dashboard request, per IP. */
    dashboardPerIpPerMinute: number;
    /** Dashboard sign-in attempts, per IP. */
    dashboardSignInsPerIpPerMinute: number;
  };
  playerCacheSize: number;
  logLevel: string;
  createDemoGame: boolean;
  /** Express's 'trust proxy': the number of proxies in front, or their addresses and subnets. */
  trustProxy: number | string[];
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Open connections per API process; 0 is no cap. */
  maxConnections: number;
  /** Live leaderboard streams per API process (503 beyond). */
  maxLiveConnections: number;
  /** Bearer token of the API's /metrics; unset, /metrics is not served. */
  metricsToken: string | undefined;
  minDeviceIdLength: number;
  /** How long a report sent with an Idempotency-Key is remembered (its first answer replayed). */
  idempotencyTtlSeconds: number;
  /** Audit log entries are kept this many days, then pruned by the worker. */
  auditRetentionDays: number;
  /** The daily rank snapshots (docs/history.md): from which UTC hour, how many first entries, kept how many days (0: none taken). */
  rankSnapshots: { hourUtc: number; top: number; keepDays: number };
  /** Which webhook URLs are refused (docs/events.md): http:// and private addresses only when allowed. */
  webhookPolicy: { allowHttp: boolean; allowPrivate: boolean };
  /** The share of the wall clock a season's archive and league moves work in the worker (the rest it waits). */
  archiveCpuShare: number;
  /** Empty a Redis that holds another dataset's keys and rebuild it, instead of refusing to start. */
  rebuildOnDatasetMismatch: boolean;
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY in the forms of Express's 'trust proxy' that say which hops to trust: a hop count, or
 * a comma-separated list of proxy addresses, subnets and Express's names (loopback, linklocal,
 * uniquelocal). Anything that trusts every hop (true, a /0 subnet) is refused: the client writes the
 * left of X-Forwarded-For, so it could pick its own IP and walk past the per-IP limits.
 */
function trustProxy(value: string, helpers: Joi.CustomHelpers): number | string[] | Joi.ErrorReport {
  if (value === 'false') return 0;
  if (/^\d{1,2}$/.test(value)) return Number(value);
  if (value === 'true') return helpers.error('trustProxy.all');
  const entries = value.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (PROXY_NAMES.has(entry)) continue;
    const [address = '', bits, ...rest] = entry.split('/');
    const version = isIP(address);
    if (version === 0 || rest.length > 0) return helpers.error('trustProxy.form');
    if (bits === undefined) continue;
    if (!/^\d{1,3}$/.test(bits) || Number(bits) > (version === 4 ? 32 : 128)) return helpers.error('trustProxy.form');
    if (Number(bits) === 0) return helpers.error('trustProxy.all');
  }
  return entries;
}

const schema = Joi.object({
  PORT: Joi.number().integer().min(0).max(65535).default(3000),
  BASE_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  APP_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  REDIS_URL: Joi.string()
    .uri({ scheme: ['redis', 'rediss'] })
    .default('redis://127.0.0.1:6379'),
  REDIS_CLUSTER_NODES: Joi.string()
    .pattern(/^[A-Za-z0-9.-]+:\d{1,5}(,[A-Za-z0-9.-]+:\d{1,5})*$/)
    .messages({
      'string.pattern.base': 'must be host:port[,host:port...]',
    }),
  PERSIST_QUEUE_SHARDS: Joi.number().integer().min(1).max(64).default(4),
  DATABASE_URL: Joi.string()
    .uri({ scheme: ['postgres', 'postgresql'] })
    .default('postgres://postgres@127.0.0.1:5432/leaderboard'),
  REDIS_KEY_PREFIX: Joi.string()
    .pattern(/^[A-Za-z0-9_-]{1,32}$/)
    .default('lb'),
  ADMIN_TOKEN: Joi.string().min(16).max(256),
  TOKEN_SECRET: Joi.string().min(16).max(256),
  TOKEN_TTL_SECONDS: Joi.number().integer().min(1),
  WEB_CONCURRENCY: Joi.number().integer().min(1).max(64).default(1),
  WORKER_CONCURRENCY: Joi.number().integer().min(1).max(256).default(16),
  WORKER_METRICS_PORT: Joi.number().integer().min(0).max(65535).default(9465),
  RECONCILE_INTERVAL_SECONDS: Joi.number().integer().min(1).default(600),
  RATE_LIMIT_SIGNUPS_PER_IP_PER_MINUTE: Joi.number().integer().min(0).default(600),
  RATE_LIMIT_REPORTS_PER_PLAYER_PER_SECOND: Joi.number().integer().min(0).default(20),
  RATE_LIMIT_THIRD_PARTY_PER_KEY_PER_SECOND: Joi.number().integer().min(0).default(50),
  RATE_LIMIT_WEB_PER_IP_PER_MINUTE: Joi.number().integer().min(0).default(3000),
  RATE_LIMIT_DASHBOARD_PER_IP_PER_MINUTE: Joi.number().integer().min(0).default(1200),
  RATE_LIMIT_DASHBOARD_SIGNINS_PER_IP_PER_MINUTE: Joi.number().integer().min(0).default(10),
  PLAYER_CACHE_SIZE: Joi.number().integer().min(0).default(10_000),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  DEMO_GAME: Joi.boolean().truthy('1').falsy('0').default(true),
  TRUST_PROXY: Joi.string().trim().custom(trustProxy).default(0).messages({
    'trustProxy.all':
      'must not trust every hop (a client could then choose its own IP): give the number of proxies in front of the service, or their addresses or subnets',
    'trustProxy.form': 'must be a hop count (e.g. 1) or a comma-separated list of proxy addresses or subnets (e.g. 10.0.0.0/8, loopback)',
  }),
  // Node refuses a header timeout longer than the request timeout.
  HEADERS_TIMEOUT_MS: Joi.number()
    .integer()
    .min(1)
    .max(Joi.ref('REQUEST_TIMEOUT_MS'))
    .default(10_000)
    .messages({ 'number.max': 'must not be longer than REQUEST_TIMEOUT_MS' }),
  REQUEST_TIMEOUT_MS: Joi.number().integer().min(1).default(30_000),
  MAX_CONNECTIONS: Joi.number().integer().min(0).default(0),
  MAX_LIVE_CONNECTIONS: Joi.number().integer().min(1).max(1_000_000).default(10_000),
  METRICS_TOKEN: Joi.string().min(16).max(256),
  MIN_DEVICE_ID_LENGTH: Joi.number().integer().min(1).max(128).default(1),
  IDEMPOTENCY_TTL_SECONDS: Joi.number()
    .integer()
    .min(1)
    .max(30 * 86_400)
    .default(86_400),
  AUDIT_RETENTION_DAYS: Joi.number().integer().min(1).max(36_500).default(365),
  RANK_SNAPSHOT_HOUR_UTC: Joi.number().integer().min(0).max(23).default(0),
  RANK_SNAPSHOT_TOP: Joi.number().integer().min(1).max(100_000).default(10_000),
  RANK_HISTORY_DAYS: Joi.number().integer().min(0).max(3650).default(400),
  WEBHOOK_ALLOW_HTTP: Joi.boolean().truthy('1').falsy('0').default(false),
  WEBHOOK_ALLOW_PRIVATE: Joi.boolean().truthy('1').falsy('0').default(false),
  ARCHIVE_CPU_SHARE: Joi.number().greater(0).max(1).default(0.2),
  REBUILD_ON_DATASET_MISMATCH: Joi.boolean().truthy('1').falsy('0').default(false),
}).unknown(true);

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const { value, error } = schema.validate(env, { abortEarly: true, convert: true });
  if (error) {
    const detail = error.details[0];
    const variable = detail?.path.join('.') ?? 'environment';
    throw new ConfigError(`Invalid configuration: ${variable}: ${detail?.message ?? error.message}`);
  }
  const port: number = value.PORT;
  const baseUrl = stripSlash(value.BASE_URL ?? `http://localhost:${port}`);
  return Object.freeze({
    port,
    baseUrl,
    appUrl: stripSlash(value.APP_URL ?? baseUrl),
    redisUrl: value.REDIS_URL,
    redisClusterNodes: value.REDIS_CLUSTER_NODES?.split(',').map((node: string) => {
      const [host, port] = node.split(':');
      return { host: host!, port: Number(port) };
    }),
    persistQueueShards: value.PERSIST_QUEUE_SHARDS,
    databaseUrl: value.DATABASE_URL,
    redisKeyPrefix: value.REDIS_KEY_PREFIX,
    adminToken: value.ADMIN_TOKEN,
    tokenSecret: value.TOKEN_SECRET,
    tokenTtlSeconds: value.TOKEN_TTL_SECONDS,
    webConcurrency: value.WEB_CONCURRENCY,
    workerConcurrency: value.WORKER_CONCURRENCY,
    workerMetricsPort: value.WORKER_METRICS_PORT,
    reconcileIntervalSeconds: value.RECONCILE_INTERVAL_SECONDS,
    rateLimits: Object.freeze({
      signupsPerIpPerMinute: value.RATE_LIMIT_SIGNUPS_PER_IP_PER_MINUTE,
      reportsPerPlayerPerSecond: value.RATE_LIMIT_REPORTS_PER_PLAYER_PER_SECOND,
      thirdPartyPerKeyPerSecond: value.RATE_LIMIT_THIRD_PARTY_PER_KEY_PER_SECOND,
      webPerIpPerMinute: value.RATE_LIMIT_WEB_PER_IP_PER_MINUTE,
      dashboardPerIpPerMinute: value.RATE_LIMIT_DASHBOARD_PER_IP_PER_MINUTE,
      dashboardSignInsPerIpPerMinute: value.RATE_LIMIT_DASHBOARD_SIGNINS_PER_IP_PER_MINUTE,
    }),
    playerCacheSize: value.PLAYER_CACHE_SIZE,
    logLevel: value.LOG_LEVEL,
    createDemoGame: value.DEMO_GAME,
    trustProxy: value.TRUST_PROXY,
    rebuildOnDatasetMismatch: value.REBUILD_ON_DATASET_MISMATCH,
    headersTimeoutMs: value.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: value.REQUEST_TIMEOUT_MS,
    maxConnections: value.MAX_CONNECTIONS,
    maxLiveConnections: value.MAX_LIVE_CONNECTIONS,
    metricsToken: value.METRICS_TOKEN,
    minDeviceIdLength: value.MIN_DEVICE_ID_LENGTH,
    idempotencyTtlSeconds: value.IDEMPOTENCY_TTL_SECONDS,
    auditRetentionDays: value.AUDIT_RETENTION_DAYS,
    rankSnapshots: { hourUtc: value.RANK_SNAPSHOT_HOUR_UTC, top: value.RANK_SNAPSHOT_TOP, keepDays: value.RANK_HISTORY_DAYS },
    archiveCpuShare: value.ARCHIVE_CPU_SHARE,
    webhookPolicy: { allowHttp: value.WEBHOOK_ALLOW_HTTP, allowPrivate: value.WEBHOOK_ALLOW_PRIVATE },
  });
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** For entry points: the configuration, or one line naming the bad variable and exit code 1. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
