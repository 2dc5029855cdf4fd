import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import superagent from 'superagent';
import request from 'supertest';
import { createApp } from '../../api/app.js';
import { loadConfig } from '../../engine/config.js';
import { createPool, type Pool } from '../../engine/db.js';
import { createEngine, type Engine } from '../../engine/engine.js';
import { allMemberKeys, leaderboardKeys, memberKey, type LeaderboardKeys } from '../../engine/live/keys.js';
import { createLogger } from '../../engine/logger.js';
import { RateLimits } from '../../engine/rate-limits.js';
import { createRedis, redisTarget, waitForRedis, type RedisClient } from '../../engine/live/redis.js';
import { checkAgainstOpenApi } from './openapi-check.js';

/**
 * One in-process engine and app per mocha run (created lazily, after the global setup has pointed
 * the environment at the test database and key prefix), driven over real HTTP with supertest.
 */
let shared: { engine: Engine; stores: TestStores; server: Server; url: string } | undefined;

/**
 * Direct access to what the engine keeps, for tests that inspect or damage it: the suite's own
 * PostgreSQL pool and Redis connection, and the engine's key names under the suite's prefix.
 */
export interface TestStores {
  pool: Pool;
  redis: RedisClient;
  prefix: string;
  keys(board: { internalId: number }): LeaderboardKeys;
  /** The hash holding the player's membership on a clan leaderboard. */
  memberKey(board: { internalId: number }, playerId: string): string;
  /** Every key of a leaderboard, membership hashes included (they share one slot). */
  allKeys(board: { internalId: number }): string[];
}

function createTestStores(config: ReturnType<typeof loadConfig>): TestStores {
  const prefix = config.redisKeyPrefix;
  return {
    pool: createPool(config.databaseUrl, 4),
    redis: createRedis(redisTarget(config), { role: 'queue' }),
    prefix,
    keys: (board) => leaderboardKeys(prefix, board.internalId),
    memberKey: (board, playerId) => memberKey(prefix, board.internalId, playerId),
    allKeys: (board) => [...Object.values(leaderboardKeys(prefix, board.internalId)), ...allMemberKeys(prefix, board.internalId)],
  };
}

/** Called by the global setup once the environment points at the test services. */
export async function startTestContext(): Promise<void> {
  const config = loadConfig();
  const engine = await createEngine(config, createLogger(config.logLevel));
  const stores = createTestStores(config);
  await waitForRedis(stores.redis);
  const server = createApp(engine).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  shared = { engine, stores, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function context() {
  if (!shared) throw new Error('the test context has not been started');
  return shared;
}

export function testEngine(): Engine {
  return context().engine;
}

export function testStores(): TestStores {
  return context().stores;
}

export function testUrl(): string {
  return context().url;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Requests to the shared app; every response is checked against the OpenAPI document. */
/**
 * A live stream never ends by itself: a request's answer is read up to its first event, then the
 * connection is closed. `text` is what arrived, `body` the first event's data (JSON), so the checks
 * every answer goes through (the other game's names, its numbers) read a stream as well.
 */
superagent.parse['text/event-stream'] = (answer, done) => {
  // The parser is handed Node's message, whatever the typings say.
  const res = answer as unknown as IncomingMessage & { text: string };
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    text += chunk;
    const end = text.indexOf('\n\n');
    if (end === -1) return;
    res.destroy();
    const data = /^data: (.*)$/m.exec(text.slice(0, end))?.[1];
    res.text = text;
    done(null, data === undefined ? {} : JSON.parse(data));
  });
};

export function api() {
  const agent = request(context().url);
  const call = (method: Method) => (path: string) => agent[method](path).expect(checkAgainstOpenApi);
  return { get: call('get'), post: call('post'), put: call('put'), patch: call('patch'), delete: call('delete') };
}

/**
 * An app over the shared engine with other settings (a limit turned on, a variable unset), for tests
 * of configuration. Its rate-limit counters live under a key prefix of its own, so no other test or
 * run shares them.
 */
export function appWith(env: Record<string, string | undefined>): Express {
  const prefix = `${process.env.REDIS_KEY_PREFIX}-${randomUUID().slice(0, 8)}`.slice(-32);
  const config = loadConfig({ ...process.env, REDIS_KEY_PREFIX: prefix, ...env });
  return createApp({ ...context().engine, config, rateLimits: new RateLimits({ redis: context().stores.redis, keyPrefix: prefix }) });
}

export async function closeTestEngine(): Promise<void> {
  if (!shared) return;
  const { engine, stores, server } = shared;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await engine.close();
  await Promise.allSettled([stores.redis.quit(), stores.pool.end()]);
  shared = undefined;
}
