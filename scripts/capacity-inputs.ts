import { execFileSync } from 'node:child_process';
import { Redis } from 'ioredis';
import pg from 'pg';
import { leaderboardKeys, reportScoreKeys } from '../engine/live/keys.js';
import { scriptSource } from '../engine/live/script-loader.js';
import { ensureServices } from './services.js';

/**
 * `npm run capacity-inputs`: measures the inputs of the capacity model (docs/scaling.md) on this machine:
 * Redis memory per ranked entry, report scripts per second on one Redis core, and PostgreSQL bytes
 * per persisted best score.
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
    // Distinct 12-character ids, the length of the service's own.
    const ids = Array.from({ length: ENTRIES }, (_, i) => `p${i.toString(36).padStart(11, '0')}`);
    for (let i = 0; i < ENTRIES; i += 10_000) {
      const args = ids.slice(i, i + 10_000).flatMap((id, j) => [String(((i + j) * 7) % 1_000_003), id]);
      await redis.zadd(keys.scores, ...args);
    }
    const bytes = Number(await redis.call('MEMORY', 'USAGE', keys.scores, 'SAMPLES', '0'));
    line('Redis bytes per ranked entry (12-character player ids)', (bytes / ENTRIES).toFixed(1));

    // One report = one reportScore call; random players improve random scores on a 200k board.
    const { lua, numberOfKeys } = scriptSource('reportScore');
    const sha = String(await redis.script('LOAD', lua));
    const output = execFileSync(
      'redis-benchmark',
      [
        '-h',
        url.hostname,
        '-p',
        url.port || '6379',
        '-n',
        '300000',
        '-c',
        '50',
        '-P',
        '16',
        '-r',
        String(ENTRIES),
        '-q',
        // An individual board: every player's member hash is empty, so any one stands for all.
        'EVALSHA',
        sha,
        String(numberOfKeys),
        ...reportScoreKeys(PREFIX, 1, ''),
        '__rand_int__',
        '__rand_int__',
        'desc',
        '30000',
      ],
      { encoding: 'utf8' },
    );
    line('reportScore scripts per second on one Redis core', /([\d.]+) requests per second/.exec(output)?.[1] ?? output.trim());
    await redis.unlink(...Object.values(keys));

    // A temporary table shaped like sql/'s scores table (same columns, same primary key), 200k rows.
    const pool = new pg.Pool({ connectionString: services.databaseUrl, max: 1 });
    const client = await pool.connect();
    try {
      await client.query(
        `CREATE TEMP TABLE capacity_scores (leaderboard_internal_id bigint NOT NULL, player_id text NOT NULL,
           score double precision NOT NULL, updated_at timestamptz NOT NULL DEFAULT now(),
           PRIMARY KEY (leaderboard_internal_id, player_id))`,
      );
      await client.query(
        `INSERT INTO capacity_scores (leaderboard_internal_id, player_id, score)
         SELECT 1 + i % 1000, 'p' || lpad(to_hex(i), 11, '0'), random() * 1e6 FROM generate_series(1, $1) AS i`,
        [ENTRIES],
      );
      await client.query('VACUUM ANALYZE capacity_scores');
      const { rows } = await client.query<{ bytes: number }>("SELECT pg_total_relation_size('capacity_scores')::float8 AS bytes");
      line('PostgreSQL bytes per best-score row (table + primary key)', (rows[0]!.bytes / ENTRIES).toFixed(0));
    } finally {
      client.release();
      await pool.end();
    }
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
