import type { Config } from '../../engine/config.js';
import { createPool, type Pool } from '../../engine/db.js';
import { createRankingParts } from '../../engine/engine.js';
import type { PersistenceMarks } from '../../engine/persistence/marks.js';
import type { Rankings } from '../../engine/live/rankings.js';
import { createRedis, redisTarget, waitForRedis } from '../../engine/live/redis.js';

/**
 * What the bench drives beneath the services (the Engine has only use cases): its own pool for bulk
 * loads, and the ranking core on connections of its own, to time a script or queue a backlog.
 */
export interface BenchParts {
  pool: Pool;
  rankings: Rankings;
  marks: PersistenceMarks;
  prefix: string;
  close(): Promise<void>;
}

export async function openBenchParts(config: Readonly<Config>): Promise<BenchParts> {
  const pool = createPool(config.databaseUrl, 4, { queryTimeoutMs: 0 });
  const redis = createRedis(redisTarget(config), { role: 'request' });
  const queueConnection = createRedis(redisTarget(config), { role: 'producer' });
  await Promise.all([waitForRedis(redis), waitForRedis(queueConnection)]);
  const { queue, marks, rankings } = createRankingParts(redis, queueConnection, config);
  return {
    pool,
    rankings,
    marks,
    prefix: config.redisKeyPrefix,
    async close() {
      await queue.close();
      await Promise.allSettled([redis.quit(), queueConnection.quit()]);
      await pool.end();
    },
  };
}
