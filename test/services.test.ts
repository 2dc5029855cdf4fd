import { expect } from 'chai';
import { Redis } from 'ioredis';
import pg from 'pg';
import { ensureServices, stopPrivateServices } from '../scripts/services.js';

/**
 * A machine without Redis or PostgreSQL on their default ports: the project starts private ones from
 * the system's binaries under .data/ (forced here with LEADERBOARD_PRIVATE_SERVICES=1).
 */
describe('finding or starting Redis and PostgreSQL', function () {
  this.timeout(120_000);
  let urls: { redisUrl: string; databaseUrl: string };

  before(async () => {
    urls = await ensureServices('leaderboard_private_check', { LEADERBOARD_PRIVATE_SERVICES: '1' }, () => undefined);
  });

  after(() => stopPrivateServices());

  it('when none is on the default ports, then private ones start: Redis with AOF everysec, PostgreSQL with the database created', async () => {
    expect(urls.redisUrl).to.equal('redis://127.0.0.1:6390');
    const redis = new Redis(urls.redisUrl);
    try {
      expect(await redis.config('GET', 'appendonly')).to.deep.equal(['appendonly', 'yes']);
      expect(await redis.config('GET', 'appendfsync')).to.deep.equal(['appendfsync', 'everysec']);
    } finally {
      redis.disconnect();
    }
    const client = new pg.Client({ connectionString: urls.databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ db: string }>('SELECT current_database() AS db');
      expect(rows[0]!.db).to.equal('leaderboard_private_check');
    } finally {
      await client.end();
    }
  });
});
