import type { Config } from './config.js';
import { createPool, transactionsOn, withAdvisoryLock } from './db.js';
import { createActivity } from './activity/create-activity.js';
import type { ReportCounter } from './activity/report-counter.js';
import type { GameStats } from './activity/game-stats.js';
import { createRedis, redisTarget, waitForRedis, type RedisClient } from './live/redis.js';
import { invalidationChannel } from './live/keys.js';
import { createLive } from './live/create-live.js';
import type { Logger } from './logger.js';
import { Invalidator } from './invalidator.js';
import { LiveFeed } from './events/live-feed.js';
import { CloseEvents } from './events/close-events.js';
import { OvertakenEvents } from './events/overtaken-events.js';
import type { Page, PlayerEntry } from './reads/leaderboard-reader.js';
import { TokenCodec } from './tokens.js';
import { SystemStore } from './system-store.js';
import { GameStore } from './games/game-store.js';
import { createGames } from './games/create-games.js';
import type { GameService } from './games/game-service.js';
import { ThirdPartyKeyStore } from './auth/third-party-key-store.js';
import { createAuth } from './auth/create-auth.js';
import type { CredentialResolver } from './auth/credential-resolver.js';
import type { ThirdPartyKeyService } from './auth/third-party-key-service.js';
import { PlayerStore } from './players/player-store.js';
import { AliasStore } from './players/alias-store.js';
import { createPlayers } from './players/create-players.js';
import type { PlayerService } from './players/player-service.js';
import type { PlayerLookup } from './players/player-lookup.js';
import { LeaderboardStore } from './leaderboards/leaderboard-store.js';
import { createLeaderboards } from './leaderboards/create-leaderboards.js';
import type { LeaderboardService } from './leaderboards/leaderboard-service.js';
import { createScores } from './scores/create-scores.js';
import {
  createClaims,
  createEntries,
  createLeagueMoves,
  createLeagueReads,
  createRewardReads,
} from './competitions/create-competitions.js';
import type { LeagueReads } from './competitions/league-reads.js';
import type { ClaimService } from './competitions/claim-service.js';
import type { EntryService } from './competitions/entries.js';
import type { ScoreService } from './scores/score-service.js';
import { createReads } from './reads/create-reads.js';
import { RankSnapshotStore } from './history/rank-snapshot-store.js';
import { RankSnapshots } from './history/rank-snapshots.js';
import { RankChanges } from './history/rank-changes.js';
import { RankHistoryReads } from './history/rank-history.js';
import type { LeaderboardReader } from './reads/leaderboard-reader.js';
import { ClanStore } from './clans/clan-store.js';
import { createClans } from './clans/create-clans.js';
import type { ClanService } from './clans/clan-service.js';
import { createPersistence, createPersister } from './persistence/create-persistence.js';
import { pacedTo } from './pace.js';
import { WebhookDelivery } from './events/webhook-delivery.js';
import { WebhookEvents } from './events/webhook-events.js';
import { WebhookQueue } from './events/webhook-queue.js';
import { WebhookService } from './events/webhook-service.js';
import { WebhookStore } from './events/webhook-store.js';
import { ScoreStore } from './persistence/score-store.js';
import { SeatStore } from './persistence/seat-store.js';
import type { Persister } from './persistence/persister.js';
import { DatasetGuard, DatasetMismatchError } from './persistence/dataset.js';
import { createRecovery } from './recovery/create-recovery.js';
import { createMaintenance, type Maintenance } from './maintenance.js';
import { SeasonArchiveStore } from './seasons/season-archive-store.js';
import { createSeasons } from './seasons/create-seasons.js';
import type { SeasonService } from './seasons/season-service.js';
import { RateLimits } from './rate-limits.js';
import { AuditStore } from './audit/audit-store.js';
import { createAudit } from './audit/create-audit.js';
import type { AuditLog } from './audit/audit-log.js';
import { createModeration } from './moderation/create-moderation.js';
import type { ModerationService } from './moderation/moderation-service.js';
import { ReviewStore } from './reviews/review-store.js';
import { ReviewService } from './reviews/review-service.js';
import { HeldScores } from './reviews/held-scores.js';

/** What the API uses: use-case services only, wired once per process. */
export interface Engine {
  config: Readonly<Config>;
  logger: Logger;
  credentials: CredentialResolver;
  games: GameService;
  thirdPartyKeys: ThirdPartyKeyService;
  /** The game's webhooks (their deliveries run in the worker). */
  webhooks: WebhookService;
  players: PlayerService;
  /** Support's reads: a player with their scores everywhere, and player search. */
  playerLookup: PlayerLookup;
  /** A player's rank history on a board (docs/history.md). */
  history: RankHistoryReads;
  leaderboards: LeaderboardService;
  scores: ScoreService;
  /** Reward claims of closed and archived seasons. */
  claims: ClaimService;
  /** Entering and withdrawing from a season (boards with entry rules). */
  entries: EntryService;
  /** A league's groups, ranked within themselves. */
  leagues: LeagueReads;
  reader: LeaderboardReader;
  clans: ClanService;
  seasons: SeasonService;
  moderation: ModerationService;
  /** The review queue of held scores (docs/review.md). */
  reviews: ReviewService;
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
  /** This process's live leaderboard streams. */
  live: LiveFeed;
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
  /** Makes webhook delivery attempts (docs/events.md). */
  webhookDelivery: WebhookDelivery;
  /** Records `leaderboard.closed` when a board's window closes (docs/events.md part 5). */
  closeEvents: CloseEvents;
  /** Takes the daily rank snapshots (docs/history.md). */
  rankSnapshots: RankSnapshots;
  /** Called whenever Redis comes back after a drop, or a cluster node leaves (not on the first connection). */
  onRedisReconnect(listener: () => void): void;
  close(): Promise<void>;
}

/**
 * The live rankings with their persistence marks and queue shards: the report path. The engines
 * build it once each; the bench's bare rungs build it alone.
 */
export function createRankingParts(redis: RedisClient, queueConnection: RedisClient, config: Readonly<Config>) {
  const prefix = config.redisKeyPrefix;
  const { queue, marks } = createPersistence({ redis, queueConnection, prefix, shardCount: config.persistQueueShards });
  return { queue, marks, ...createLive({ redis, prefix, persistence: marks }) };
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
  const dataset = new DatasetGuard({ redis, system, prefix });
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
    seats: new SeatStore(pool),
    archives: new SeasonArchiveStore(pool),
    webhooks: new WebhookStore(pool),
    aliases: new AliasStore(pool),
    rankSnapshots: new RankSnapshotStore(pool),
    reviews: new ReviewStore(pool),
  };
  const transact = transactionsOn(pool);
  const webhookQueue = new WebhookQueue({ connection: queueConnection, prefix });
  const invalidator = new Invalidator({ publisher: redis, channel: invalidationChannel(prefix), logger });
  const { queue, marks, rankings, rotation, recoverWith, movesWith } = createRankingParts(redis, queueConnection, config);
  // A player joining a group of a league's new season first sees the last season's moves applied.
  const leagueMoves = createLeagueMoves({ rotation, find: (internalId) => stores.leaderboards.findByInternalId(internalId) });
  movesWith((board, season) => leagueMoves.apply(board, season));
  const seasons = createSeasons({
    redis,
    prefix,
    rotation,
    leaderboards: stores.leaderboards,
    archives: stores.archives,
    transact,
    audit: stores.audit,
    logger,
    announce: () => invalidator.leaderboardsChanged(),
  });
  const { recovery, rebuild } = createRecovery({
    redis,
    prefix,
    leaderboards: stores.leaderboards,
    players: stores.players,
    scores: stores.scores,
    seats: stores.seats,
    reviews: stores.reviews,
    rankings,
    schedules: seasons.schedules,
    detectLoss: () => dataset.detectLoss(),
    logger,
  });
  // A board that lost its live state is rebuilt before anything reads or changes it.
  recoverWith((board) => recovery.recover(board));
  const maintenance = createMaintenance({
    redis,
    prefix,
    system,
    logger,
    dataset,
    marks,
    queue,
    rebuild,
    leaderboards: stores.leaderboards,
    clans: stores.clans,
    players: stores.players,
    rankings,
    audit: stores.audit,
    auditRetentionDays: config.auditRetentionDays,
  });

  return {
    pool,
    redis,
    target,
    system,
    stores,
    transact,
    marks,
    rankings,
    rotation,
    recovery,
    seasons,
    leagueMoves,
    invalidator,
    maintenance,
    webhookQueue,
    async close() {
      stopWatchingDataset();
      await Promise.all([queue.close(), webhookQueue.close()]);
      await disconnect();
    },
  };
}

export async function createEngine(config: Readonly<Config>, logger: Logger): Promise<Engine> {
  const core = await createCore(config, logger);
  const { pool, redis, system, stores, transact, rankings, rotation, marks, invalidator } = core;
  const prefix = config.redisKeyPrefix;
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

    const tokens = new TokenCodec(tokenSecret.value, config.tokenTtlSeconds);
    const gameStore = new GameStore(pool);
    const aliases = stores.aliases;
    const audit = stores.audit;
    const leaderboards = createLeaderboards({
      store: stores.leaderboards,
      rankings,
      rotation,
      recovery: core.recovery,
      invalidator,
      archives: stores.archives,
      schedules: core.seasons.schedules,
      transact,
      audit,
    });
    const players = createPlayers({
      transact,
      store: stores.players,
      aliases,
      clans: stores.clans,
      leaderboards,
      rankings,
      tokens,
      invalidator,
      audit,
      cacheSize: config.playerCacheSize,
    });
    const clans = createClans({ store: stores.clans, players: stores.players, transact, leaderboards, rankings, invalidator, audit });
    const auth = createAuth({
      games: gameStore,
      thirdPartyKeys: new ThirdPartyKeyStore(pool),
      tokens,
      adminToken: adminToken.value,
      invalidator,
      transact,
      audit,
      gameOfPlayer: async (playerId) => (await players.service.find(playerId))?.gameId,
    });
    const activity = createActivity({ redis, prefix, logger, players: stores.players, leaderboards, rotation, marks });
    closing.push(() => activity.reportCounter.close());
    const reads = createReads({
      rankings,
      archives: stores.archives,
      leaderboards,
      players: players.service,
      clans,
      rankChanges: new RankChanges(stores.rankSnapshots),
    });
    const live = new LiveFeed({
      publisher: redis,
      subscriber,
      prefix,
      maxConnections: config.maxLiveConnections,
      invalidator,
      read: (board, limit) => reads.reader.page(board.gameId, board.leaderboardId, 'players', 0, limit) as Promise<Page<PlayerEntry>>,
      displayName: async (playerId) => (await players.service.find(playerId))?.displayName ?? null,
      logger,
    });
    closing.push(async () => live.endAll());
    const rewards = createRewardReads(pool);
    const leagues = createLeagueReads({ leaderboards, players: players.service, rankings, archives: stores.archives });
    const scores = createScores({
      rewards: rewards.reads,
      leagues,
      redis,
      prefix,
      idempotencyTtlSeconds: config.idempotencyTtlSeconds,
      leaderboards,
      players: players.service,
      rankings,
      seasons: reads.seasons,
      marks,
      counter: activity.reportCounter,
      live,
      held: new HeldScores({
        store: stores.reviews,
        transact,
        events: new WebhookEvents({ store: stores.webhooks, queue: core.webhookQueue }),
        audit,
      }),
    });
    const moderation = createModeration({
      transact,
      players: stores.players,
      leaderboards,
      rankings,
      rotation,
      scores: stores.scores,
      seats: stores.seats,
      archives: stores.archives,
      webhooks: stores.webhooks,
      reviews: stores.reviews,
      audit,
      invalidator,
      live,
    });
    return {
      config,
      logger,
      credentials: auth.credentials,
      games: createGames({ store: gameStore, leaderboards, invalidator, transact, audit }),
      thirdPartyKeys: auth.thirdPartyKeys,
      webhooks: new WebhookService({
        store: stores.webhooks,
        queue: core.webhookQueue,
        audit,
        transact,
        policy: config.webhookPolicy,
        leaderboards,
      }),
      players: players.service,
      playerLookup: players.lookup,
      leaderboards,
      scores,
      claims: createClaims({ store: rewards.store, rewards: rewards.reads, leaderboards, rotation, scores, transact, audit }),
      entries: createEntries({ leaderboards, players: players.service, rankings }),
      leagues,
      reader: reads.reader,
      history: new RankHistoryReads({
        leaderboards,
        players: players.service,
        rankings,
        store: stores.rankSnapshots,
      }),
      clans,
      seasons: core.seasons.service,
      moderation,
      reviews: new ReviewService({
        store: stores.reviews,
        transact,
        audit,
        leaderboards,
        rankings,
        marks,
        live,
        moderation,
      }),
      maintenance: core.maintenance,
      rateLimits: new RateLimits({ redis, keyPrefix: prefix }),
      auditLog: createAudit({ store: audit }),
      adminToken,
      reportCounter: activity.reportCounter,
      gameStats: activity.gameStats,
      dashboardSecret: dashboardSecret.value,
      redis,
      live,
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
  const events = new WebhookEvents({ store: core.stores.webhooks, queue: core.webhookQueue });
  return {
    config,
    logger,
    persister: createPersister({
      leaderboards: core.stores.leaderboards,
      rotation: core.rotation,
      marks: core.marks,
      scores: core.stores.scores,
      seats: core.stores.seats,
      archives: core.stores.archives,
      leagueMoves: core.leagueMoves,
      transact: core.transact,
      audit: core.stores.audit,
      pace: pacedTo(config.archiveCpuShare),
      events,
      players: core.stores.players,
      reviews: core.stores.reviews,
      overtaken: new OvertakenEvents({
        redis: core.redis,
        prefix: config.redisKeyPrefix,
        events,
        players: core.stores.players,
        aliases: core.stores.aliases,
        transact: core.transact,
      }),
    }),
    closeEvents: new CloseEvents({
      store: core.stores.webhooks,
      leaderboards: core.stores.leaderboards,
      rankings: core.rankings,
      players: core.stores.players,
      events,
      transact: core.transact,
    }),
    rankSnapshots: new RankSnapshots({
      store: core.stores.rankSnapshots,
      leaderboards: core.stores.leaderboards,
      rankings: core.rankings,
      transact: core.transact,
      pace: pacedTo(config.archiveCpuShare),
      settings: config.rankSnapshots,
      logger,
    }),
    seasons: core.seasons.service,
    maintenance: core.maintenance,
    webhookDelivery: new WebhookDelivery({
      store: core.stores.webhooks,
      queue: core.webhookQueue,
      audit: core.stores.audit,
      transact: core.transact,
      policy: config.webhookPolicy,
      logger,
    }),
    onRedisReconnect(listener) {
      // The core waited for the first 'ready', so every one seen from here is a reconnection.
      core.redis.on('ready', listener);
      core.redis.on('-node', listener);
    },
    close: core.close,
  };
}
