import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { migrate } from '../../engine/db.js';
import { leaderboardKeys } from '../../engine/live/keys.js';
import { projectRoot } from '../../engine/paths.js';
import { ensureServices } from '../services.js';
import { nodeFlags } from '../node-flags.js';

/**
 * `npm run soak [-- --seconds 60]`: the service (API and worker processes) under 60 s of mixed load
 * from a separate process at about 70% of the maximum it measures first. Passes when no request got
 * a 5xx, the API's memory grew under 10% after warm-up, and PostgreSQL equals Redis at the end.
 */
const PREFIX = 'lbsoak';
const ADMIN = 'soak-admin-token-0123456789';
const seconds = Number(process.argv[process.argv.indexOf('--seconds') + 1]) || 60;
const children: ChildProcess[] = [];

async function main(): Promise<void> {
  const services = await ensureServices('leaderboard_soak');
  await migrate(services.databaseUrl);
  const port = 3700 + Math.floor(Math.random() * 200);
  const env = {
    ...process.env,
    REDIS_URL: services.redisUrl,
    DATABASE_URL: services.databaseUrl,
    REDIS_KEY_PREFIX: PREFIX,
    PORT: String(port),
    ADMIN_TOKEN: ADMIN,
    TOKEN_SECRET: 'soak-token-secret-0123456789',
    LOG_LEVEL: 'warn',
    DEMO_GAME: '0',
    WORKER_METRICS_PORT: '0',
    RATE_LIMIT_SIGNUPS_PER_IP_PER_MINUTE: '0',
    RATE_LIMIT_REPORTS_PER_PLAYER_PER_SECOND: '0',
    RATE_LIMIT_THIRD_PARTY_PER_KEY_PER_SECOND: '0',
    RATE_LIMIT_WEB_PER_IP_PER_MINUTE: '0',
  };
  const api = start('api', env);
  start('worker', env);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    () =>
      fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      ),
    'the API',
  );
  const plan = await setUpGame(url);

  const calibration = await drive({ ...plan, url, seconds: 5, rate: 0 });
  const rate = Math.max(50, Math.round(calibration.rate * 0.7));
  process.stdout.write(`calibration: ${Math.round(calibration.rate)} req/s at full speed; soaking at ${rate} req/s for ${seconds} s\n`);

  const rss: number[] = [];
  const sampler = setInterval(() => rss.push(rssMb(api.pid!)), 1000);
  const soak = await drive({ ...plan, url, seconds, rate });
  clearInterval(sampler);

  await waitFor(async () => (await (await fetch(`${url}/readyz`)).json()).pending_persistence === 0, 'persistence to catch up');
  const consistent = await compare(services.redisUrl, services.databaseUrl, plan.gameId);

  const warm = median(rss.slice(10, 15));
  const end = median(rss.slice(-5));
  const growth = (end - warm) / warm;
  const fiveXx = Object.entries(soak.statuses)
    .filter(([status]) => status.startsWith('5'))
    .reduce((n, [, c]) => n + c, 0);
  const rows: [string, string, boolean | undefined][] = [
    ['duration', `${seconds} s`, undefined],
    ['requests', `${soak.requests} (${Math.round(soak.rate)} req/s, target ${rate})`, undefined],
    ['latency p50 / p99', `${soak.p50} / ${soak.p99} ms`, undefined],
    ['statuses', JSON.stringify(soak.statuses), undefined],
    ['5xx answers', String(fiveXx), fiveXx === 0],
    ['socket errors / timeouts', `${soak.errors} / ${soak.timeouts}`, soak.errors + soak.timeouts === 0],
    ['API RSS after warm-up → end', `${warm.toFixed(0)} MB → ${end.toFixed(0)} MB (${(growth * 100).toFixed(1)}%)`, growth < 0.1],
    ['PostgreSQL equals Redis at the end', consistent.detail, consistent.ok],
  ];
  process.stdout.write('\n| figure | value | result |\n| --- | --- | --- |\n');
  for (const [figure, value, ok] of rows)
    process.stdout.write(`| ${figure} | ${value} | ${ok === undefined ? '' : ok ? 'PASS' : 'FAIL'} |\n`);
  process.exitCode = rows.every(([, , ok]) => ok !== false) ? 0 : 1;
}

async function setUpGame(url: string) {
  const call = async (method: string, route: string, headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(`${url}${route}`, {
      method,
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const game = await call('POST', '/api/v1/admin/games', { Authorization: `Bearer ${ADMIN}` }, { name: 'soak' });
  const server = { 'Secret-Key': game.secret_key };
  await call('PUT', '/api/v1/server/leaderboards/solo', server, {});
  await call('PUT', '/api/v1/server/leaderboards/clans', server, { type: 'clan' });
  for (const clan of ['red', 'blue', 'green']) await call('PUT', `/api/v1/server/clans/${clan}`, server, {});
  const players: { id: string; token: string }[] = [];
  for (let i = 0; i < 500; i += 1) {
    const signup = await call('POST', '/api/v1/signup/anonymous', { 'Publishable-Key': game.publishable_key }, {});
    if (i % 4 !== 0)
      await call('PATCH', `/api/v1/server/players/${signup.player_id}`, server, { clan_id: ['red', 'blue', 'green'][i % 3] });
    players.push({ id: signup.player_id, token: signup.token });
  }
  const key = await call('POST', '/api/v1/server/third_party_keys', server, { name: 'soak' });
  return { gameId: game.game_id as string, publishableKey: game.publishable_key, secretKey: game.secret_key, apiKey: key.api_key, players };
}

interface LoadResult {
  requests: number;
  rate: number;
  p50: number;
  p99: number;
  errors: number;
  timeouts: number;
  statuses: Record<string, number>;
}

function drive(plan: object): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const load = spawn(process.execPath, [path.join(projectRoot, 'dist', 'scripts', 'soak', 'load.js'), JSON.stringify(plan)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    load.stdout.on('data', (chunk) => (out += chunk));
    load.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load generator exited ${code}`))));
  });
}

async function compare(redisUrl: string, databaseUrl: string, gameId: string): Promise<{ ok: boolean; detail: string }> {
  const redis = new Redis(redisUrl);
  const pool = new pg.Pool({ connectionString: databaseUrl });
  try {
    const { rows: boards } = await pool.query<{ internal_id: number; leaderboard_id: string }>(
      'SELECT internal_id, leaderboard_id FROM leaderboards WHERE game_id = $1',
      [gameId],
    );
    const problems: string[] = [];
    let entries = 0;
    for (const board of boards) {
      const keys = leaderboardKeys(PREFIX, board.internal_id);
      const live = await redis.zrange(keys.scores, '0', '-1', 'WITHSCORES');
      const { rows } = await pool.query<{ player_id: string; score: number }>(
        'SELECT player_id, score FROM scores WHERE leaderboard_internal_id = $1',
        [board.internal_id],
      );
      const stored = new Map(rows.map((row) => [row.player_id, row.score]));
      entries += live.length / 2;
      for (let i = 0; i < live.length; i += 2)
        if (stored.get(live[i]!) !== Number(live[i + 1])) problems.push(`${board.leaderboard_id}/${live[i]}`);
      if (stored.size !== live.length / 2) problems.push(`${board.leaderboard_id}: ${stored.size} rows vs ${live.length / 2} entries`);
      const totals = await redis.zrange(keys.clans, '0', '-1', 'WITHSCORES');
      const { rows: clanRows } = await pool.query<{ clan_id: string; score: number }>(
        'SELECT clan_id, score FROM clan_scores WHERE leaderboard_internal_id = $1',
        [board.internal_id],
      );
      const storedTotals = new Map(clanRows.map((row) => [row.clan_id, row.score]));
      for (let i = 0; i < totals.length; i += 2)
        if (storedTotals.get(totals[i]!) !== Number(totals[i + 1])) problems.push(`clan ${totals[i]}`);
    }
    return {
      ok: problems.length === 0,
      detail:
        problems.length === 0
          ? `${entries} entries and every clan total equal`
          : `${problems.length} differ: ${problems.slice(0, 5).join(', ')}`,
    };
  } finally {
    redis.disconnect();
    await pool.end();
  }
}

/** Starts the API or the worker as `npm start` does (same node flags). */
function start(role: 'api' | 'worker', env: NodeJS.ProcessEnv): ChildProcess {
  const entry = path.join(projectRoot, 'dist', role, 'main.js');
  const child = spawn(process.execPath, [...nodeFlags(role, env), entry], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(child);
  return child;
}

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const stopAll = () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
};
process.on('SIGINT', () => {
  stopAll();
  process.exit(130);
});
main()
  .catch((error: unknown) => {
    process.stderr.write(`soak failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(stopAll);
