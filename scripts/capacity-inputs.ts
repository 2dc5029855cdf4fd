import { execFileSync } from 'node:child_process';
import { Redis } from 'ioredis';
import pg from 'pg';
import { leaderboardKeys } from '../engine/keys.js';
import { scriptSource } from '../engine/redis.js';
import { ensureServices } from './services.js';

/**
 * `npm run capacity-inputs`: measures the inputs of the README's capacity model on this machine:
 * Redis memory per ranked entry, report scripts per second on one Redis core, and PostgreSQL bytes
 * per persisted best score (on the bench's 1M-row table when `npm run bench` has seeded it).
 */
const ENTRIES = 200_000;
const PREFIX = 'lbcapacity';

async function main(): Promise<void> {
  const services = await ensureServices('leaderboard');
  const url = new URL(services.redisUrl);
  const redis = new Redis(services.redisUrl);
  const keys = leaderboardKeys(PREFIX, 1);
  try {
    await redis.unlink(...Object.values(keys));
    const ids = Array.from({ length: ENTRIES }, (_, i) => Buffer.from(`player-${i}`).toString('base64url').slice(0, 12).padEnd(12, 'x'));
    for (let i = 0; i < ENTRIES; i += 10_000) {
      const args = ids.slice(i, i + 10_000).flatMap((id, j) => [String((i + j) * 7 % 1_000_003), id]);
      await redis.zadd(keys.scores, ...args);
    }
    const bytes = Number(await redis.call('MEMORY', 'USAGE', keys.scores, 'SAMPLES', '0'));
    line('Redis bytes per ranked entry (12-character player ids)', (bytes / ENTRIES).toFixed(1));

    // One report = one reportScore call; random players improve random scores on a 200k board.
    const { lua, numberOfKeys } = scriptSource('reportScore');
    const sha = String(await redis.script('LOAD', lua));
    const output = execFileSync(
      'redis-benchmark',
      ['-h', url.hostname, '-p', url.port || '6379', '-n', '300000', '-c', '50', '-P', '16', '-r', String(ENTRIES), '-q',
        'EVALSHA', sha, String(numberOfKeys), keys.scores, keys.dirty, keys.queued, keys.members, keys.clans, keys.clanCounts, keys.dirtyClans, keys.clanVersions,
        'p__rand_int__', '__rand_int__', 'desc', '30000'],
      { encoding: 'utf8' },
    );
    line('reportScore scripts per second on one Redis core', /([\d.]+) requests per second/.exec(output)?.[1] ?? output.trim());
    await redis.unlink(...Object.values(keys));

    const database = new URL(services.databaseUrl);
    database.pathname = '/leaderboard_bench';
    const pool = new pg.Pool({ connectionString: database.toString() });
    const sized = await pool
      .query<{ rows: number; bytes: number }>("SELECT count(*)::float8 AS rows, pg_total_relation_size('scores')::float8 AS bytes FROM scores")
      .catch(() => undefined);
    await pool.end();
    const row = sized?.rows[0];
    line('PostgreSQL bytes per best-score row (table + primary key)', row && row.rows > 0 ? `${(row.bytes / row.rows).toFixed(0)} (${row.rows} rows)` : 'n/a: run npm run bench first');
  } finally {
    redis.disconnect();
  }
}

function line(figure: string, value: string): void {
  process.stdout.write(`${figure.padEnd(60)} ${value}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
