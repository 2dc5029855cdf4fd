import { Cluster } from 'ioredis';
import pg from 'pg';
import { loadConfig } from '../../engine/config.js';
import { ensureDatabase } from '../../engine/db.js';
import { createRedis, redisTarget, waitForRedis } from '../../engine/redis.js';

/**
 * Empties the suite's own database and Redis key prefix, so every run starts from nothing. What
 * earlier runs left (hundreds of games and clan leaderboards) would otherwise make each run slower
 * than the last wherever the service visits every leaderboard (npm run reconcile, the worker's
 * recount), until a test times out.
 */
export async function resetTestData(databaseUrl: string, keyPrefix: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!name.includes('test')) {
    throw new Error(`The suite empties its database before it runs; '${name}' does not look like a test database (its name must contain "test").`);
  }
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
  await ensureDatabase(databaseUrl);

  const redis = createRedis(redisTarget(loadConfig()), { role: 'queue' });
  try {
    await waitForRedis(redis, 30_000);
    // One key per UNLINK: on a cluster node the keys of one call must share a slot.
    for (const node of redis instanceof Cluster ? redis.nodes('master') : [redis]) {
      let cursor = '0';
      do {
        const [next, keys] = await node.scan(cursor, 'MATCH', `${keyPrefix}:*`, 'COUNT', 1000);
        if (keys.length > 0) await Promise.all(keys.map((key) => node.unlink(key)));
        cursor = next;
      } while (cursor !== '0');
    }
  } finally {
    redis.disconnect();
  }
}
