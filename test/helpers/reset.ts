import { loadConfig } from '../../engine/config.js';
import { dropDatabase, ensureDatabase } from '../../engine/db.js';
import { createRedis, redisTarget, unlinkKeysWithPrefix, waitForRedis } from '../../engine/live/redis.js';

/**
 * Empties the suite's own database and Redis key prefix, so every run starts from nothing. What
 * earlier runs left (hundreds of games and clan leaderboards) would otherwise make each run slower
 * than the last wherever the service visits every leaderboard (npm run reconcile, the worker's
 * recount), until a test times out.
 */
export async function resetTestData(databaseUrl: string, keyPrefix: string): Promise<void> {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  if (!name.includes('test')) {
    throw new Error(
      `The suite empties its database before it runs; '${name}' does not look like a test database (its name must contain "test").`,
    );
  }
  await dropDatabase(databaseUrl);
  await ensureDatabase(databaseUrl);

  const redis = createRedis(redisTarget(loadConfig()), { role: 'queue' });
  try {
    await waitForRedis(redis, 30_000);
    await unlinkKeysWithPrefix(redis, keyPrefix);
  } finally {
    redis.disconnect();
  }
}
