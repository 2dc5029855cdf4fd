import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { ensureDatabase, migrate } from '../../engine/db.js';
import { leaderboardKeys } from '../../engine/live/keys.js';
import { projectRoot } from '../../engine/paths.js';
import { startRedisServer } from '../../scripts/services.js';
import { freePort, spawnEntryPoint, startApi, startWorker, until, type ServiceProcess } from '../helpers/processes.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';

const PREFIX = 'lbfault';
const ADMIN_TOKEN = 'fault-admin-token-0123456789';

/**
 * The real service (API and worker processes) on a private Redis with AOF (everysec) that a test
 * may kill, restart or wipe, and on PostgreSQL behind a TCP proxy that a test may cut.
 */
export class FaultHarness {
  redisPort = 0;
  redisDir = '';
  proxy!: TcpProxy;
  api!: ServiceProcess;
  worker?: ServiceProcess;
  env: NodeJS.ProcessEnv = {};
  redis!: Redis;
  pool!: pg.Pool;

  static async start(): Promise<FaultHarness> {
    const harness = new FaultHarness();
    try {
      await harness.init();
    } catch (error) {
      await harness.stop(); // never leave the private Redis or the processes behind
      throw error;
    }
    return harness;
  }

  private async init(): Promise<void> {
    this.redisPort = await freePort();
    this.redisDir = path.join(projectRoot, '.data', 'faults', String(this.redisPort));
    this.startRedis();
    const database = new URL(process.env.DATABASE_URL!);
    database.pathname = '/leaderboard_faults';
    await ensureDatabase(database.toString());
    await migrate(database.toString());
    this.pool = new pg.Pool({ connectionString: database.toString(), max: 4 });
    this.proxy = await new TcpProxy(database.hostname, Number(database.port || 5432)).start();
    database.host = `127.0.0.1:${this.proxy.port}`;
    this.env = {
      REDIS_URL: `redis://127.0.0.1:${this.redisPort}`,
      REDIS_CLUSTER_NODES: undefined,
      DATABASE_URL: database.toString(),
      REDIS_KEY_PREFIX: PREFIX,
      ADMIN_TOKEN,
      LOG_LEVEL: 'info',
      WORKER_METRICS_PORT: '0',
    };
    this.redis = new Redis(this.redisPort, { lazyConnect: false, maxRetriesPerRequest: null });
    this.redis.on('error', () => undefined);
    this.api = await startApi(this.env);
    await this.startWorker();
  }

  startRedis(): void {
    mkdirSync(this.redisDir, { recursive: true });
    startRedisServer(this.redisPort, this.redisDir);
    const deadline = Date.now() + 10_000;
    while (spawnSync('redis-cli', ['-p', String(this.redisPort), 'ping'], { encoding: 'utf8' }).stdout.trim() !== 'PONG') {
      if (Date.now() > deadline) throw new Error('the private Redis did not start');
      execFileSync('sleep', ['0.05']);
    }
  }

  /** SIGKILLs Redis (no shutdown save); with `wipe`, its data goes too. */
  killRedis({ wipe }: { wipe: boolean }): void {
    const pid = Number(readFileSync(path.join(this.redisDir, 'redis.pid'), 'utf8'));
    process.kill(pid, 'SIGKILL');
    execFileSync('sh', ['-c', `while kill -0 ${pid} 2>/dev/null; do sleep 0.05; done`]);
    if (wipe) rmSync(this.redisDir, { recursive: true, force: true });
  }

  async startWorker(): Promise<void> {
    this.worker = await startWorker(this.env);
  }

  // Response bodies are read like a black-box client reads JSON: untyped.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async call(method: string, route: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: any }> {
    const res = await fetch(`${this.api.url}${route}`, {
      method,
      headers: { ...headers, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  /** Waits until every accepted change is in PostgreSQL (the service's own readiness says so). */
  async waitForPersistence(timeoutMs = 60_000): Promise<void> {
    await until(
      async () => {
        const ready = await this.call('GET', '/readyz', {}).catch(() => undefined);
        return ready?.status === 200 && ready.body.pending_persistence === 0;
      },
      'pending_persistence to reach 0',
      timeoutMs,
    );
  }

  async liveScores(internalId: number): Promise<Map<string, number>> {
    const flat = await this.redis.zrange(leaderboardKeys(PREFIX, internalId).scores, '0', '-1', 'WITHSCORES');
    const scores = new Map<string, number>();
    for (let i = 0; i < flat.length; i += 2) scores.set(flat[i]!, Number(flat[i + 1]));
    return scores;
  }

  async liveClanTotals(internalId: number): Promise<Map<string, number>> {
    const flat = await this.redis.zrange(leaderboardKeys(PREFIX, internalId).clans, '0', '-1', 'WITHSCORES');
    const totals = new Map<string, number>();
    for (let i = 0; i < flat.length; i += 2) totals.set(flat[i]!, Number(flat[i + 1]));
    return totals;
  }

  async persistedScores(internalId: number): Promise<Map<string, number>> {
    const { rows } = await this.pool.query<{ player_id: string; score: number }>(
      'SELECT player_id, score FROM scores WHERE leaderboard_internal_id = $1',
      [internalId],
    );
    return new Map(rows.map((row) => [row.player_id, row.score]));
  }

  async persistedClanTotals(internalId: number): Promise<Map<string, number>> {
    const { rows } = await this.pool.query<{ clan_id: string; score: number }>(
      'SELECT clan_id, score FROM clan_scores WHERE leaderboard_internal_id = $1',
      [internalId],
    );
    return new Map(rows.map((row) => [row.clan_id, row.score]));
  }

  async internalId(gameId: string, leaderboardId: string): Promise<number> {
    const { rows } = await this.pool.query('SELECT internal_id FROM leaderboards WHERE game_id = $1 AND leaderboard_id = $2', [
      gameId,
      leaderboardId,
    ]);
    return rows[0].internal_id;
  }

  /** A second API process on the same Redis and PostgreSQL. */
  spawnApi(port: number): ServiceProcess {
    return spawnEntryPoint('api', { ...this.env, PORT: String(port) });
  }

  async stop(): Promise<void> {
    await Promise.allSettled([this.api?.stop(), this.worker?.stop()]);
    this.redis?.disconnect();
    await this.pool?.end();
    await this.proxy?.stop();
    try {
      this.killRedis({ wipe: true });
    } catch {
      // already gone
    }
  }

  adminHeaders(): Record<string, string> {
    return { Authorization: `Bearer ${ADMIN_TOKEN}` };
  }
}
