import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { keysUnder } from './keys.js';
import { defineScripts } from './script-loader.js';

/** A single Redis or a Redis Cluster: the engine runs unchanged on either. */
export type RedisClient = Redis | Cluster;

/** Where Redis is: a URL, or the seed nodes of a cluster. */
export type RedisTarget = string | { cluster: { host: string; port: number }[] };

export interface RedisRole {
  /**
   * 'request': fail fast while Redis is unreachable, so an API request answers 503 instead of
   * hanging; 'producer': the same, for queue adds; 'queue' and 'subscriber': retry forever (BullMQ's
   * requirement for workers; a subscription must come back by itself).
   */
  role: 'request' | 'producer' | 'queue' | 'subscriber';
}

export function createRedis(target: RedisTarget, { role }: RedisRole): RedisClient {
  const failFast = role === 'request' || role === 'producer';
  const options: RedisOptions = {
    maxRetriesPerRequest: failFast ? 1 : null,
    connectionName: `leaderboard:${role}`,
  };
  const client =
    typeof target === 'string'
      ? new Redis(target, {
          ...options,
          enableAutoPipelining: role === 'request',
          enableOfflineQueue: !failFast,
          retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
        })
      : new Cluster(target.cluster, {
          enableAutoPipelining: role === 'request',
          enableOfflineQueue: !failFast,
          clusterRetryStrategy: (attempt) => Math.min(attempt * 100, 1000),
          slotsRefreshTimeout: 2000,
          redisOptions: options,
        });
  // Connection errors surface through commands (503) and readiness; an unhandled 'error' event
  // would otherwise crash the process during an outage.
  client.on('error', () => undefined);
  if (role !== 'subscriber') defineScripts(client);
  return client;
}

/** The Redis of a configuration: REDIS_CLUSTER_NODES when set, else REDIS_URL. */
export function redisTarget(config: { redisUrl: string; redisClusterNodes: { host: string; port: number }[] | undefined }): RedisTarget {
  return config.redisClusterNodes ? { cluster: config.redisClusterNodes } : config.redisUrl;
}

/** Resolves once the client is connected (or rejects after the timeout). */
export async function waitForRedis(client: RedisClient, timeoutMs = 10_000): Promise<void> {
  if (client.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error('Redis did not become ready in time'));
    }, timeoutMs);
    const onReady = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      clearTimeout(timer);
      client.off('ready', onReady);
    };
    client.on('ready', onReady);
  });
}

/**
 * The keys under a prefix, a SCAN batch at a time, with the node that holds them: every master of a
 * cluster in turn (a cluster node answers only for its own slots).
 */
async function* keysWithPrefix(client: RedisClient, prefix: string): AsyncGenerator<{ node: Redis; keys: string[] }> {
  for (const node of client instanceof Cluster ? client.nodes('master') : [client]) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', keysUnder(prefix), 'COUNT', 10_000);
      if (keys.length > 0) yield { node, keys };
      cursor = next;
    } while (cursor !== '0');
  }
}

/**
 * Removes every key under a prefix (the bench and the test suite reset their own this way); one key
 * per UNLINK, since on a cluster node one call's keys must share a slot.
 */
export async function unlinkKeysWithPrefix(client: RedisClient, prefix: string): Promise<void> {
  for await (const { node, keys } of keysWithPrefix(client, prefix)) await Promise.all(keys.map((key) => node.unlink(key)));
}

/** Whether any key under the prefix exists, on any master. */
export async function hasKeysWithPrefix(client: RedisClient, prefix: string): Promise<boolean> {
  for await (const _batch of keysWithPrefix(client, prefix)) return true;
  return false;
}
