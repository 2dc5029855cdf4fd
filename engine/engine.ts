import type { Config } from './config.js';
import { createPool, type Pool } from './db.js';
import { createRedis, redisTarget, waitForRedis, type RedisClient } from './redis.js';
import { invalidationChannel } from './keys.js';
import type { Logger } from './logger.js';
import { Invalidator } from './invalidator.js';
import { TokenCodec } from './tokens.js';
import { resolveSecret } from './secrets.js';
import { GameStore } from './games/game-store.js';
import { GameService } from './games/game-service.js';
import { ThirdPartyKeyStore } from './auth/third-party-key-store.js';
import { CredentialResolver } from './auth/credential-resolver.js';
import { PlayerStore } from './players/player-store.js';
import { AliasStore } from './players/alias-store.js';
import { PlayerService } from './players/player-service.js';
import { LeaderboardStore } from './leaderboards/leaderboard-store.js';
import { LeaderboardService } from './leaderboards/leaderboard-service.js';
import { Rankings } from './ranking/rankings.js';
import { ScoreService } from './ranking/score-service.js';
import { PersistenceQueue } from './persistence/persistence-queue.js';
import { ClanStore } from './clans/clan-store.js';
import { ClanService } from './clans/clan-service.js';
import { LeaderboardReader } from './ranking/leaderboard-reader.js';
import { ThirdPartyKeyService } from './auth/third-party-key-service.js';
import { PersistenceMarks } from './persistence/marks.js';
import { DatasetGuard } from './persistence/dataset.js';
import { Maintenance } from './maintenance.js';

/** Everything the API needs, wired once per process. The composition root of the core. */
export interface Engine {
  config: Readonly<Config>;
  logger: Logger;
  pool: Pool;
  redis: RedisClient;
  invalidator: Invalidator;
  credentials: CredentialResolver;
  games: GameService;
  gameStore: GameStore;
  thirdPartyKeys: ThirdPartyKeyService;
  players: PlayerService;
  aliases: AliasStore;
  leaderboards: LeaderboardService;
  leaderboardStore: LeaderboardStore;
  rankings: Rankings;
  scores: ScoreService;
  reader: LeaderboardReader;
  clans: ClanService;
  clanStore: ClanStore;
  persistence: PersistenceQueue;
  marks: PersistenceMarks;
  maintenance: Maintenance;
  secrets: { adminToken: { value: string; generated: boolean } };
  close(): Promise<void>;
}

/**
 * Connects to both stores and checks that Redis belongs to this database before anything is read
 * or written (DatasetMismatchError otherwise, unless REBUILD_ON_DATASET_MISMATCH is set).
 */
export async function createEngine(config: Readonly<Config>, logger: Logger): Promise<Engine> {
  const pool = createPool(config.databaseUrl);
  const target = redisTarget(config);
  const redis = createRedis(target, { role: 'request' });
  const queueConnection = createRedis(target, { role: 'producer' });
  const subscriber = createRedis(target, { role: 'subscriber' });
  await Promise.all([waitForRedis(redis), waitForRedis(queueConnection)]);
  const dataset = new DatasetGuard(redis, pool, config.redisKeyPrefix);
  const datasetState = await dataset.verify({ replaceMismatch: config.rebuildOnDatasetMismatch }).catch(async (error: unknown) => {
    subscriber.disconnect();
    await Promise.allSettled([redis.quit(), queueConnection.quit()]);
    await pool.end();
    throw error;
  });
  if (datasetState === 'replaced') logger.warn('Redis held another dataset: its keys under this prefix were removed; rebuilding from PostgreSQL');
  if (datasetState === 'lost') logger.warn('Redis lost data (a dataset marker is gone): rebuilding from PostgreSQL');

  const adminToken = await resolveSecret(pool, 'admin_token', config.adminToken);
  const tokenSecret = await resolveSecret(pool, 'token_secret', config.tokenSecret);

  const invalidator = new Invalidator(redis, invalidationChannel(config.redisKeyPrefix), logger);
  await invalidator.listen(subscriber);
  const tokens = new TokenCodec(tokenSecret.value, config.tokenTtlSeconds);
  const gameStore = new GameStore(pool);
  const thirdPartyKeys = new ThirdPartyKeyStore(pool);
  const players = new PlayerService(new PlayerStore(pool), tokens, invalidator, config.playerCacheSize);
  const persistence = new PersistenceQueue(queueConnection, config.redisKeyPrefix, config.persistQueueShards);
  const marks = new PersistenceMarks(redis, config.redisKeyPrefix, persistence);
  const rankings = new Rankings(redis, config.redisKeyPrefix, marks);
  const leaderboardStore = new LeaderboardStore(pool);
  const leaderboards = new LeaderboardService(leaderboardStore, rankings, pool, invalidator);
  const clanStore = new ClanStore(pool);
  const aliases = new AliasStore(pool);
  const clans = new ClanService(clanStore, pool, leaderboards, rankings, players, aliases, invalidator);

  return {
    config,
    logger,
    pool,
    redis,
    invalidator,
    credentials: new CredentialResolver(gameStore, thirdPartyKeys, tokens, adminToken.value, invalidator),
    games: new GameService(gameStore, invalidator),
    gameStore,
    thirdPartyKeys: new ThirdPartyKeyService(thirdPartyKeys, invalidator),
    players,
    aliases,
    leaderboards,
    leaderboardStore,
    rankings,
    scores: new ScoreService(leaderboards, players, rankings, marks),
    reader: new LeaderboardReader(leaderboards, players, clans, rankings),
    clans,
    clanStore,
    persistence,
    marks,
    maintenance: new Maintenance({
      redis, pool, prefix: config.redisKeyPrefix, logger, dataset, marks, leaderboards, leaderboardStore, clans: clanStore, rankings,
    }),
    secrets: { adminToken },
    async close() {
      await persistence.close();
      subscriber.disconnect();
      await Promise.allSettled([redis.quit(), queueConnection.quit()]);
      await pool.end();
    },
  };
}
