import type { Config } from './config.js';
import { createPool, transactionsOn, withAdvisoryLock } from './db.js';
import { ReportCounter } from './activity/report-counter.js';
import { GameStats } from './activity/game-stats.js';
import { createRedis, redisTarget, waitForRedis, type RedisClient } from './live/redis.js';
import { invalidationChannel } from './live/keys.js';
import type { Logger } from './logger.js';
import { Invalidator } from './invalidator.js';
import { TokenCodec } from './tokens.js';
import { SystemStore } from './system-store.js';
import { GameStore } from './games/game-store.js';
import { GameService } from './games/game-service.js';
import { ThirdPartyKeyStore } from './auth/third-party-key-store.js';
import { CredentialResolver } from './auth/credential-resolver.js';
import { ThirdPartyKeyService } from './auth/third-party-key-service.js';
import { PlayerStore } from './players/player-store.js';
import { AliasStore } from './players/alias-store.js';
import { PlayerService } from './players/player-service.js';
import { PlayerLookup } from './players/player-lookup.js';
import { LeaderboardStore } from './leaderboards/leaderboard-store.js';
import { LeaderboardService } from './leaderboards/leaderboard-service.js';
import { createLive } from './live/create-live.js';
import { BoardPreparation } from './recovery/board-preparation.js';
import { RetryRecords } from './scores/retry-records.js';
import { ScoreService } from './scores/score-service.js';
import { LeaderboardReader } from './reads/leaderboard-reader.js';
import { ClanStore } from './clans/clan-store.js';
import { ClanService } from './clans/clan-service.js';
import { ClanReconciler } from './clans/reconcile.js';
import { PersistenceQueue } from './persistence/persistence-queue.js';
import { PersistenceMarks } from './persistence/marks.js';
import { ScoreStore } from './persistence/score-store.js';
import { Persister } from './persistence/persister.js';
import { DatasetGuard, DatasetMismatchError } from './persistence/dataset.js';
import { BoardRecovery, Rebuild } from './recovery/rebuild.js';
import { Maintenance } from './maintenance.js';
import { SeasonArchiveStore } from './seasons/season-archive-store.js';
import { ResetSchedules } from './seasons/reset-schedules.js';
import { SeasonService } from './seasons/season-service.js';
import { SeasonReads } from './reads/season-reads.js';
import { RateLimits } from './rate-limits.js';
import { AuditStore } from './audit/audit-store.js';
import { ModerationService } from './moderation/moderation-service.js';
import { AuditLog } from './audit/audit-log.js';

/** What the API uses: use-case services only, wired once per process. */
export interface Engine {
  config: Readonly<Config>;
  logger: Logger;
  credentials: CredentialResolver;
  games: GameService;
  thirdPartyKeys: ThirdPartyKeyService;
  players: PlayerService;
  /** Support's reads: a player with their scores everywhere, and player search. */
  playerLookup: PlayerLookup;
  leaderboards: LeaderboardService;
  scores: ScoreService;
  reader: LeaderboardReader;
  clans: ClanService;
  seasons: SeasonService;
  moderation: ModerationService;
  maintenance: Maintenance;
  rateLimits: RateLimits;
  auditLog: AuditLog;
  /** The admin token, and whether this service generated it (then main prints it once). */
  adminToken: { value: string; generated: boolean };
  /** Score reports per game and minute (the dashboard's chart). */
  reportCounter: ReportCounter;
  /** The dashboard Overview's counts per game, cached up to 60 s. */
  gameStats: GameStats;
  /** Signs the dashboard's session cookies and CSRF tokens: generated once, shared by every process. */
  dashboardSecret: string;
  /** The API's Redis connection, for what keeps its own keys there (the dashboard's sessions). */
  redis: RedisClient;
  close(): Promise<void>;
}

/** What the persistence worker uses: the job's steps and the maintenance rounds, nothing of the API. */
export interface PersistenceEngine {
  config: Readonly<Config>;
  logger: Logger;
  persister: Persister;
  /** Scheduled resets. */
  seasons: SeasonService;
  maintenance: Maintenance;
  /** Called whenever Redis comes back after a drop, or a cluster node leaves (not on the first connection). */
  onRedisReconnect(listener: () => void): void;
  close(): Promise<void>;
}

/**
 * The live rankings with their persistence marks and queue shards: the report path. The engines
 * build it once each; the bench's bare rungs build it alone.
 */
export function createRankingParts(redis: RedisClient, queueConnection: RedisClient, config: Readonly<Config>) {
  const queue = new PersistenceQueue(queueConnection, config.redisKeyPrefix, config.persistQueueShards);
  const marks = new PersistenceMarks(redis, config.redisKeyPrefix, queue);
  return { queue, marks, ...createLive({ redis, prefix: config.redisKeyPrefix, persistence: marks }) };
}

/**
 * The part both entry points share: connections, the ranking core, the stores it reads and the
 * maintenance service. Connects to both stores and checks that Redis belongs to this database
 * before anything is read or written (DatasetMismatchError otherwise, unless
 * REBUILD_ON_DATASET_MISMATCH is set).
 */
async function createCore(config: Readonly<Config>, logger: Logger) {
  const pool = createPool(config.databaseUrl);
  const target = redisTarget(config);
  const redis = createRedis(target, { role: 'request' });
  const queueConnection = createRedis(target, { role: 'producer' });
  const disconnect = async () => {
    await Promise.allSettled([redis.quit(), queueConnection.quit()]);
    await pool.end();
  };
  await Promise.all([waitForRedis(redis), waitForRedis(queueConnection)]);

  const prefix = config.redisKeyPrefix;
  const system = new SystemStore(pool);
  // Checked before anything else touches Redis (the queues write keys of their own on creation).
  // Processes starting together take turns: one claims an empty Redis while the others wait, since
  // a claim half done (its rebuild request written, its marker not yet) reads as another dataset's keys.
  const dataset = new DatasetGuard(redis, system, prefix);
  const datasetState = await withAdvisoryLock(pool, 'leaderboard:dataset', () =>
    dataset.verify({ replaceMismatch: config.rebuildOnDatasetMismatch }),
  ).catch(async (error: unknown) => {
    await disconnect();
    throw error;
  });
  if (datasetState === 'replaced')
    logger.warn('Redis held another dataset: its keys under this prefix were removed; rebuilding from PostgreSQL');
  if (datasetState === 'lost') logger.warn('Redis lost data (a dataset marker is gone): rebuilding from PostgreSQL');
  const stopWatchingDataset = dataset.watch(
    () => logger.warn('Redis lost data (a dataset marker is gone): rebuilding from PostgreSQL'),
    (error) =>
      error instanceof DatasetMismatchError
        ? logger.error({ err: error }, 'Redis now holds another dataset')
        : logger.debug({ err: error }, 'dataset marker not checked'),
  );

  const stores = {
    audit: new AuditStore(pool),
    leaderboards: new LeaderboardStore(pool),
    clans: new ClanStore(pool),
    players: new PlayerStore(pool),
    scores: new ScoreStore(pool),
    archives: new SeasonArchiveStore(pool),
  };
  const { queue, marks, rankings, rotation, recoverWith } = createRankingParts(redis, queueConnection, config);
  const schedules = new ResetSchedules(redis, prefix, rotation);
  const preparation = new BoardPreparation(rankings, stores.players, stores.scores, schedules);
  const recovery = new BoardRecovery({
    redis,
    prefix,
    leaderboards: stores.leaderboards,
    preparation,
    rankings,
    detectLoss: () => dataset.detectLoss(),
    logger,
  });
  // A board that lost its live state is rebuilt before anything reads or changes it.
  recoverWith((board) => recovery.recover(board));
  const invalidator = new Invalidator(redis, invalidationChannel(prefix), logger);
  const seasons = new SeasonService({
    rotation,
    leaderboards: stores.leaderboards,
    archives: stores.archives,
    schedules,
    transact: transactionsOn(pool),
    audit: stores.audit,
    logger,
    announce: () => invalidator.leaderboardsChanged(),
  });
  const rebuild = new Rebuild({ redis, prefix, leaderboards: stores.leaderboards, rankings, recovery, logger });
  const reconciler = new ClanReconciler({
    redis,
    prefix,
    leaderboards: stores.leaderboards,
    clans: stores.clans,
    players: stores.players,
    rankings,
  });
  const maintenance = new Maintenance({
    redis,
    system,
    logger,
    dataset,
    marks,
    queue,
    rebuild,
    reconciler,
    audit: stores.audit,
    auditRetentionDays: config.auditRetentionDays,
  });

  return {
    pool,
    redis,
    target,
    system,
    stores,
    marks,
    rankings,
    rotation,
    recovery,
    schedules,
    seasons,
    invalidator,
    maintenance,
    async close() {
      stopWatchingDataset();
      await queue.close();
      await disconnect();
    },
  };
}

export async function createEngine(config: Readonly<Config>, logger: Logger): Promise<Engine> {
  const core = await createCore(config, logger);
  const { pool, redis, system, stores, rankings, marks, invalidator } = core;
  const subscriber = createRedis(core.target, { role: 'subscriber' });
  // What must finish before the connections close (the last report counts).
  const closing: (() => Promise<void>)[] = [];
  const close = async () => {
    await Promise.allSettled(closing.map((step) => step()));
    subscriber.disconnect();
    await core.close();
  };
  try {
    const adminToken = await system.secret('admin_token', config.adminToken);
    const tokenSecret = await system.secret('token_secret', config.tokenSecret);
    const dashboardSecret = await system.secret('dashboard_secret', undefined);
    await invalidator.listen(subscriber);

    const transact = transactionsOn(pool);
    const tokens = new TokenCodec(tokenSecret.value, config.tokenTtlSeconds);
    const gameStore = new GameStore(pool);
    const keyStore = new ThirdPartyKeyStore(pool);
    const leaderboards = new LeaderboardService(
      stores.leaderboards,
      core.rotation,
      core.recovery,
      invalidator,
      { archives: stores.archives, schedules: core.schedules },
      { transact, log: stores.audit },
    );
    const seasonReads = new SeasonReads(rankings, stores.archives);
    const aliases = new AliasStore(pool);
    const players = new PlayerService(
      {
        transact,
        store: stores.players,
        aliases,
        clans: stores.clans,
        leaderboards,
        rankings,
        tokens,
        invalidator,
        audit: stores.audit,
      },
      config.playerCacheSize,
    );
    const clans = new ClanService(stores.clans, stores.players, transact, leaderboards, rankings, invalidator, stores.audit);
    const reportCounter = new ReportCounter(redis, config.redisKeyPrefix, logger);
    closing.push(() => reportCounter.close());
    return {
      config,
      logger,
      credentials: new CredentialResolver(gameStore, keyStore, tokens, adminToken.value, invalidator, async (playerId) => {
        return (await players.find(playerId))?.gameId;
      }),
      games: new GameService(gameStore, leaderboards, invalidator, transact, stores.audit),
      thirdPartyKeys: new ThirdPartyKeyService(keyStore, invalidator, transact, stores.audit),
      players,
      playerLookup: new PlayerLookup({ store: stores.players, aliases, leaderboards, rankings }),
      leaderboards,
      scores: new ScoreService(
        leaderboards,
        players,
        rankings,
        seasonReads,
        marks,
        new RetryRecords(redis, config.redisKeyPrefix, config.idempotencyTtlSeconds),
        reportCounter,
      ),
      reader: new LeaderboardReader(leaderboards, players, clans, seasonReads),
      clans,
      seasons: core.seasons,
      moderation: new ModerationService({
        transact,
        players: stores.players,
        leaderboards,
        rankings,
        rotation: core.rotation,
        scores: stores.scores,
        archives: stores.archives,
        audit: stores.audit,
        invalidator,
      }),
      maintenance: core.maintenance,
      rateLimits: new RateLimits(redis, config.redisKeyPrefix),
      auditLog: new AuditLog(stores.audit),
      adminToken,
      reportCounter,
      gameStats: new GameStats(stores.players, leaderboards, core.rotation, marks),
      dashboardSecret: dashboardSecret.value,
      redis,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The worker's engine: no credentials, tokens, secrets, caches or invalidation subscription. */
export async function createPersistenceEngine(config: Readonly<Config>, logger: Logger): Promise<PersistenceEngine> {
  const core = await createCore(config, logger);
  return {
    config,
    logger,
    persister: new Persister(
      core.stores.leaderboards,
      core.rotation,
      core.marks,
      core.stores.scores,
      core.stores.archives,
      transactionsOn(core.pool),
      core.stores.audit,
    ),
    seasons: core.seasons,
    maintenance: core.maintenance,
    onRedisReconnect(listener) {
      // The core waited for the first 'ready', so every one seen from here is a reconnection.
      core.redis.on('ready', listener);
      core.redis.on('-node', listener);
    },
    close: core.close,
  };
}
