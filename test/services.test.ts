import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import pg from 'pg';
import { projectRoot } from '../engine/paths.js';
import { ensureServices, stopPrivateServices } from '../scripts/services.js';
import { runScript, until } from './helpers/processes.js';

const REDIS_PORT = 6390;
const POSTGRES_PORT = 5440;

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** `npm run services:stop`, as a user runs it. */
const servicesStop = () => runScript('services-stop');

/**
 * A machine without Redis or PostgreSQL on their default ports: the project starts private ones from
 * the system's binaries under .data/ (forced here with LEADERBOARD_PRIVATE_SERVICES=1), and
 * `npm run services:stop` stops them again, and nothing else.
 */
describe('finding or starting Redis and PostgreSQL', function () {
  this.timeout(120_000);
  let urls: { redisUrl: string; databaseUrl: string };

  before(async () => {
    urls = await ensureServices('leaderboard_private_check', { LEADERBOARD_PRIVATE_SERVICES: '1' }, () => undefined);
  });

  after(() => stopPrivateServices(() => undefined));

  it('when none is on the default ports, then private ones start: Redis with AOF everysec, PostgreSQL with the database created', async () => {
    expect(urls.redisUrl).to.equal(`redis://127.0.0.1:${REDIS_PORT}`);
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

  it('when npm run services:stop runs, then the private Redis and PostgreSQL stop and their pid files are gone', async () => {
    const stopped = await servicesStop();
    expect(stopped.code, stopped.stderr).to.equal(0);
    expect(stopped.stderr)
      .to.include(`Stopped the private Redis on port ${REDIS_PORT}`)
      .and.include(`Stopped the private PostgreSQL on port ${POSTGRES_PORT}`);
    expect(await answers(REDIS_PORT)).to.equal(false);
    expect(await answers(POSTGRES_PORT)).to.equal(false);
    expect(existsSync(path.join(projectRoot, '.data', 'redis', 'redis.pid'))).to.equal(false);

    const again = await servicesStop();
    expect(again.code).to.equal(0);
    expect(again.stderr)
      .to.include('No private Redis of this checkout is running')
      .and.include('No private PostgreSQL of this checkout is running');
  });

  it('when a Redis this checkout did not start listens on the private port, then services:stop leaves it running', async () => {
    await stopPrivateServices(() => undefined); // frees the private port for the other Redis
    const foreign = spawn(
      'redis-server',
      ['--port', String(REDIS_PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', '/tmp'],
      { stdio: 'ignore' },
    );
    try {
      await until(() => answers(REDIS_PORT), 'the other Redis to listen');
      const stopped = await servicesStop();
      expect(stopped.code, stopped.stderr).to.equal(0);
      expect(stopped.stderr).to.include('No private Redis of this checkout is running');
      const redis = new Redis(`redis://127.0.0.1:${REDIS_PORT}`, { maxRetriesPerRequest: 0 });
      try {
        expect(await redis.ping()).to.equal('PONG');
      } finally {
        redis.disconnect();
      }
    } finally {
      foreign.kill('SIGKILL');
      await new Promise((resolve) => (foreign.exitCode !== null ? resolve(null) : foreign.once('exit', resolve)));
    }
  });
});
