import { expect } from 'chai';
import { loadConfig } from '../../engine/config.js';
import { dropDatabase, ensureDatabase, migrate } from '../../engine/db.js';
import { createEngine } from '../../engine/engine.js';
import { datasetKeysPrefix, leaderboardKeys, reportsPerMinuteKey } from '../../engine/live/keys.js';
import { createLogger } from '../../engine/logger.js';
import { unlinkKeysWithPrefix } from '../../engine/live/redis.js';
import { testStores } from '../helpers/context.js';
import { ADMIN } from '../helpers/fixtures.js';
import { spawnEntryPoint, startApi, startWorker } from '../helpers/processes.js';

/**
 * Two databases (internal ids restart at 1 in each) and one Redis key prefix: a Redis written for
 * one database must never be served from for the other.
 */
describe('Redis tied to its database', function () {
  this.timeout(60_000);
  // Set once the global setup has pointed the environment at the suite's services.
  let prefix: string;
  let first: string;
  let second: string;
  const databaseUrl = (suffix: string) => {
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `${url.pathname}_ds_${suffix}`;
    return url.toString();
  };
  const envFor = (database: string, extra: NodeJS.ProcessEnv = {}) => ({ DATABASE_URL: database, REDIS_KEY_PREFIX: prefix, ...extra });

  /** Runs an entry point that must refuse to start; its exit code and what it printed. */
  async function refusal(entry: 'api' | 'worker', env: NodeJS.ProcessEnv) {
    const child = spawnEntryPoint(entry, { PORT: '0', WORKER_METRICS_PORT: '0', ...env });
    const code = await child.exited;
    return { code, lines: child.output().trim().split('\n') };
  }

  before(async () => {
    prefix = `${process.env.REDIS_KEY_PREFIX}-ds`;
    first = databaseUrl('first');
    second = databaseUrl('second');
    for (const database of [first, second]) {
      await dropDatabase(database);
      await ensureDatabase(database);
      await migrate(database);
    }
    await unlinkKeysWithPrefix(testStores().redis, prefix);
    // The first deployment: a game whose first leaderboard (internal id 1) holds three scores.
    const engine = await createEngine(loadConfig({ ...process.env, ...envFor(first) }), createLogger('silent'));
    try {
      const game = await engine.games.create('first deployment', 'system');
      const { leaderboard } = await engine.leaderboards.put(game.id, 'level-1', {}, 'system');
      for (const score of [10, 20, 30]) {
        const { player } = await engine.players.signup(game.id, null);
        await engine.scores.reportFromServer(game.id, player.id, [['level-1', { score }]]);
      }
      expect(leaderboard.internalId).to.equal(1);
    } finally {
      await engine.close();
    }
  });

  after(async () => {
    await unlinkKeysWithPrefix(testStores().redis, prefix);
    await Promise.all([dropDatabase(first), dropDatabase(second)]);
  });

  it('when Redis holds another database’s data, then the API and the worker refuse to start with one line naming the mismatch', async () => {
    for (const entry of ['api', 'worker'] as const) {
      const { code, lines } = await refusal(entry, envFor(second));
      expect(code, lines.join('\n')).to.equal(1);
      expect(lines, `${entry} prints one line`).to.have.length(1);
      expect(lines[0]).to.match(/Redis holds the data of dataset [0-9a-f-]{36}, not of this database/);
      expect(lines[0]).to.include('REBUILD_ON_DATASET_MISMATCH=1');
    }
    // Nothing was changed: the first deployment's scores are still there.
    expect(await testStores().redis.zcard(leaderboardKeys(prefix, 1).scores)).to.equal(3);
  });

  it('when REBUILD_ON_DATASET_MISMATCH=1, then the API empties the prefix, takes its own database’s identity and shows none of the other’s scores', async () => {
    const api = await startApi(envFor(second, { REBUILD_ON_DATASET_MISMATCH: '1' }));
    try {
      const call = (path: string, init: RequestInit = {}) =>
        fetch(`${api.url}${path}`, { ...init, headers: { 'Content-Type': 'application/json', ...init.headers } });
      const game = await (
        await call('/api/v1/admin/games', { method: 'POST', headers: ADMIN, body: JSON.stringify({ name: 'second deployment' }) })
      ).json();
      const put = await call('/api/v1/server/leaderboards/level-1', {
        method: 'PUT',
        headers: { 'Secret-Key': game.secret_key },
        body: '{}',
      });
      expect(put.status).to.equal(201);
      const { token } = await (
        await call('/api/v1/signup/anonymous', { method: 'POST', headers: { 'Publishable-Key': game.publishable_key }, body: '{}' })
      ).json();
      const list = await call('/api/v1/client/leaderboards/level-1', {
        headers: { 'Publishable-Key': game.publishable_key, 'Anonymous-Authorization': token },
      });
      expect(await list.json()).to.include({ total: 0 });
    } finally {
      await api.stop();
    }
    // The replaced Redis now belongs to the second database: the first one is the stranger now.
    const { code, lines } = await refusal('api', envFor(first));
    expect(code).to.equal(1);
    expect(lines[0]).to.match(/Redis holds the data of dataset/);
  });

  it('when Redis loses its data while an API runs and a key is written before anyone touches a board, then the API puts the marker back and a worker starting then comes up', async () => {
    const { redis } = testStores();
    // The earlier test left the prefix to the second database.
    const api = await startApi(envFor(second));
    try {
      await unlinkKeysWithPrefix(redis, prefix);
      // What a running process may write right after the loss: its report counts' flush.
      await redis.hincrby(reportsPerMinuteKey(prefix, 'some-game', 0), '0', 1);
      const worker = await startWorker(envFor(second));
      try {
        const markers = await redis.keys(`${datasetKeysPrefix(prefix)}:*`);
        expect(markers, 'the dataset marker').to.have.length(1);
        expect(worker.child.exitCode, worker.output()).to.equal(null);
        expect(api.child.exitCode, api.output()).to.equal(null);
      } finally {
        await worker.stop();
      }
    } finally {
      await api.stop();
    }
  });

  it('when Redis holds keys under the prefix but no identity (an older version wrote them), then that counts as another dataset', async () => {
    const { redis } = testStores();
    await unlinkKeysWithPrefix(redis, prefix);
    await redis.zadd(leaderboardKeys(prefix, 1).scores, 5, 'someone');
    const { code, lines } = await refusal('api', envFor(second));
    expect(code).to.equal(1);
    expect(lines).to.have.length(1);
    expect(lines[0]).to.include('no dataset identity');
  });
});
