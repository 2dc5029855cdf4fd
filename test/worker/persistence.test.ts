import { spawn } from 'node:child_process';
import path from 'node:path';
import { Queue } from 'bullmq';
import { expect } from 'chai';
import { loadConfig } from '../../engine/config.js';
import { datasetKeysPrefix, queuePrefix, rebuildCursorKey } from '../../engine/live/keys.js';
import { PERSIST_JOB, PERSIST_JOB_OPTIONS, PERSIST_QUEUE } from '../../engine/persistence/persistence-queue.js';
import { projectRoot } from '../../engine/paths.js';
import { unlinkKeysWithPrefix } from '../../engine/live/redis.js';
import { api, testStores } from '../helpers/context.js';
import {
  createGame,
  createLeaderboard,
  internalBoard,
  reportScore,
  signupMany,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import {
  inParallel,
  liveClanTotals,
  liveScores,
  persistedClanTotals,
  persistedScores,
  waitForPersistence,
} from '../helpers/persistence.js';
import { startWorker, until, type ServiceProcess } from '../helpers/processes.js';

const burst = (game: TestGame, players: TestPlayer[], leaderboard: string, reports: number) =>
  inParallel(
    Array.from(
      { length: reports },
      (_, i) => () => reportScore(game, players[i % players.length]!, leaderboard, Math.floor(Math.random() * 100_000)),
    ),
    50,
  );

describe('persistence to PostgreSQL', function () {
  this.timeout(90_000);
  let worker: ServiceProcess;
  let game: TestGame;
  let players: TestPlayer[];

  before(async () => {
    worker = await startWorker();
    game = await createGame();
    players = await signupMany(game, 60);
  });
  after(async () => {
    await worker.stop();
  });

  it('when a burst of reports ends, then PostgreSQL converges to the live sets', async () => {
    const leaderboard = await createLeaderboard(game);
    await burst(game, players, leaderboard, 1200);
    const board = await internalBoard(game, leaderboard);
    await waitForPersistence(board);
    expect(await persistedScores(board)).to.deep.equal(await liveScores(board));
    const ready = await api().get('/readyz').expect(200);
    expect(ready.body.pending_persistence).to.be.a('number');
  });

  it('when the worker is SIGKILLed in the middle of a burst and restarted, then PostgreSQL still converges', async () => {
    const leaderboard = await createLeaderboard(game);
    const board = await internalBoard(game, leaderboard);
    const doomed = await startWorker();
    await worker.stop();
    const reporting = burst(game, players, leaderboard, 1500);
    await until(async () => (await persistedScores(board)).size > 0, 'the first rows to be persisted');
    await doomed.stop('SIGKILL');
    await reporting;
    worker = await startWorker();
    await waitForPersistence(board);
    expect(await persistedScores(board)).to.deep.equal(await liveScores(board));
  });

  it('when the only job for a board was queued by the previous version (field `leaderboard`), then it still gets the changes to PostgreSQL', async function () {
    this.timeout(60_000);
    const leaderboard = await createLeaderboard(game);
    const board = await internalBoard(game, leaderboard);
    await worker.stop();
    await reportScore(game, players[0]!, leaderboard, 42).expect(200);
    // Swap the job the report queued for one shaped as before the field was renamed.
    const { redis, prefix } = testStores();
    const shard = board.internalId % loadConfig().persistQueueShards;
    const queue = new Queue(PERSIST_QUEUE, { connection: redis, prefix: queuePrefix(prefix, shard) });
    try {
      for (const job of await queue.getJobs(['waiting', 'delayed'])) {
        if (job.data?.leaderboardInternalId === board.internalId) await job.remove();
      }
      const earlier = await queue.add(PERSIST_JOB, { leaderboard: board.internalId }, PERSIST_JOB_OPTIONS);
      worker = await startWorker();
      // Well before the report's 30 s queued flag expires, so no job of the sweep's can have done it.
      await waitForPersistence(board, 15_000);
      expect((await persistedScores(board)).get(players[0]!.playerId)).to.equal(42);
      // Completed jobs are removed; one that failed for good would be kept, in state 'failed'.
      await until(async () => (await queue.getJobState(earlier.id!)) === 'unknown', 'the earlier-shaped job to complete', 10_000);
    } finally {
      await queue.close();
    }
  });

  it('when an improvement arrives while a job for the same player is writing, then it still reaches PostgreSQL', async () => {
    const leaderboard = await createLeaderboard(game);
    const board = await internalBoard(game, leaderboard);
    const player = players[0]!;
    await reportScore(game, player, leaderboard, 10).expect(200);
    await waitForPersistence(board);

    // Hold the player's score row so the next job stalls mid-write, with its claim already taken.
    const blocker = await testStores().pool.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('SELECT 1 FROM scores WHERE leaderboard_internal_id = $1 AND player_id = $2 FOR UPDATE', [
        board.internalId,
        player.playerId,
      ]);
      await reportScore(game, player, leaderboard, 20).expect(200);
      await until(async () => {
        const { rows } = await testStores().pool.query(
          "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO scores%'",
        );
        return rows.length > 0;
      }, 'the persistence job to block on the row');
      await reportScore(game, player, leaderboard, 30).expect(200);
      await blocker.query('COMMIT');
    } finally {
      blocker.release();
    }
    await waitForPersistence(board);
    expect((await persistedScores(board)).get(player.playerId)).to.equal(30);
  });

  it('when clan totals change, then PostgreSQL holds the live totals', async () => {
    const leaderboard = await createLeaderboard(game, { type: 'clan' });
    const board = await internalBoard(game, leaderboard);
    const clans = ['red', 'blue'].map((c) => `${c}-${leaderboard}`);
    for (const clan of clans) await api().put(`/api/v1/server/clans/${clan}`).set('Secret-Key', game.secretKey).send({}).expect(201);
    for (const [i, player] of players.slice(0, 20).entries()) {
      await api()
        .patch(`/api/v1/server/players/${player.playerId}`)
        .set('Secret-Key', game.secretKey)
        .send({ clan_id: clans[i % 2] })
        .expect(200);
    }
    await burst(game, players.slice(0, 30), leaderboard, 300);
    await waitForPersistence(board);
    expect(await persistedClanTotals(board)).to.deep.equal(await liveClanTotals(board));
    expect(await persistedScores(board)).to.deep.equal(await liveScores(board));
  });

  it('when a clan total falls after PostgreSQL has it, then PostgreSQL follows it down and Redis holds no version for it', async () => {
    const leaderboard = await createLeaderboard(game, { type: 'clan' });
    const board = await internalBoard(game, leaderboard);
    const clan = `fall-${leaderboard}`;
    const versions = testStores().keys(board).clanVersions;
    await api().put(`/api/v1/server/clans/${clan}`).set('Secret-Key', game.secretKey).send({}).expect(201);
    const members = players.slice(0, 3);
    for (const [i, player] of members.entries()) {
      await api().patch(`/api/v1/server/players/${player.playerId}`).set('Secret-Key', game.secretKey).send({ clan_id: clan }).expect(200);
      await reportScore(game, player, leaderboard, 10 * (i + 1)).expect(200);
    }
    await waitForPersistence(board);
    expect(await persistedClanTotals(board)).to.deep.equal(new Map([[clan, 60]]));
    // Versions exist only while a total waits for PostgreSQL: a persisted board keeps none per clan.
    expect(await testStores().redis.hlen(versions)).to.equal(0);

    // The next version must still beat the persisted one, though Redis no longer holds it.
    await api()
      .patch(`/api/v1/server/players/${members[2]!.playerId}`)
      .set('Secret-Key', game.secretKey)
      .send({ clan_id: null })
      .expect(200);
    await waitForPersistence(board);
    expect(await persistedClanTotals(board)).to.deep.equal(new Map([[clan, 30]]));
    expect(await testStores().redis.hlen(versions)).to.equal(0);

    // The last scored member leaving unranks the clan, in Redis and in PostgreSQL.
    for (const player of members.slice(0, 2)) {
      await api().patch(`/api/v1/server/players/${player.playerId}`).set('Secret-Key', game.secretKey).send({ clan_id: null }).expect(200);
    }
    await waitForPersistence(board);
    expect(await liveClanTotals(board)).to.have.property('size', 0);
    expect(await persistedClanTotals(board)).to.have.property('size', 0);
  });

  it('when the live sets are lost after persistence caught up, then npm run rebuild restores every score, rank and clan total', async () => {
    const leaderboard = await createLeaderboard(game, { type: 'clan' });
    const board = await internalBoard(game, leaderboard);
    const clan = `rebuild-${leaderboard}`;
    await api().put(`/api/v1/server/clans/${clan}`).set('Secret-Key', game.secretKey).send({ name: 'Rebuilders' }).expect(201);
    for (const player of players.slice(0, 10)) {
      await api().patch(`/api/v1/server/players/${player.playerId}`).set('Secret-Key', game.secretKey).send({ clan_id: clan }).expect(200);
    }
    await burst(game, players, leaderboard, 400);
    await waitForPersistence(board);
    const scoresBefore = await liveScores(board);
    const totalsBefore = await liveClanTotals(board);
    const ranksBefore = await ranks(game, leaderboard, players);

    const { redis, allKeys } = testStores();
    await worker.stop(); // so the sweeper does not rebuild first: the command must do it
    await redis.unlink(...allKeys(board));
    expect(await liveScores(board)).to.have.property('size', 0);

    const exitCode = await new Promise((resolve) =>
      spawn(process.execPath, [path.join(projectRoot, 'dist', 'scripts', 'rebuild.js')], { stdio: 'ignore', env: process.env }).once(
        'exit',
        resolve,
      ),
    );
    expect(exitCode).to.equal(0);
    worker = await startWorker();
    expect(await liveScores(board)).to.deep.equal(scoresBefore);
    expect(await liveClanTotals(board)).to.deep.equal(totalsBefore);
    expect(await ranks(game, leaderboard, players)).to.deep.equal(ranksBefore);
  });

  it('when a Redis node loses its data (the dataset marker with it) while the worker runs, then the worker finds it and rebuilds every leaderboard', async () => {
    const leaderboard = await createLeaderboard(game);
    const board = await internalBoard(game, leaderboard);
    await burst(game, players, leaderboard, 200);
    await waitForPersistence(board);
    const scoresBefore = await liveScores(board);

    const { redis, prefix, allKeys } = testStores();
    await unlinkKeysWithPrefix(redis, datasetKeysPrefix(prefix));
    await redis.unlink(...allKeys(board));
    await until(async () => (await liveScores(board)).size === scoresBefore.size, 'the worker to rebuild the leaderboard', 30_000);
    expect(await liveScores(board)).to.deep.equal(scoresBefore);
    await until(async () => (await redis.exists(rebuildCursorKey(prefix))) === 0, 'the rebuild to finish', 60_000);
  });
});

async function ranks(game: TestGame, leaderboard: string, players: TestPlayer[]) {
  const result: Record<string, number> = {};
  for (const player of players) {
    const res = await api().get(`/api/v1/client/leaderboards/${leaderboard}/players/${player.playerId}`).set('Secret-Key', game.secretKey);
    result[player.playerId] = res.status === 200 ? res.body.rank : 0;
  }
  return result;
}
