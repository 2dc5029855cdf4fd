import { expect } from 'chai';
import { startApi, until } from '../helpers/processes.js';
import { FaultHarness } from './harness.js';
import { Workload } from './workload.js';

/**
 * `npm run test:faults`: the real processes under faults, each scenario compared afterwards with
 * the reference the test kept of every acknowledged report: zero lost, zero wrong.
 */
describe('faults', function () {
  this.timeout(180_000);
  let h: FaultHarness;

  before(async () => {
    h = await FaultHarness.start();
  });
  after(() => h?.stop());

  it('when the worker is SIGKILLed again and again during a steady stream of reports, then nothing is lost', async () => {
    const w = new Workload(h);
    await w.setUp();
    let stop = false;
    const streaming = w.stream(() => stop);
    for (let round = 0; round < 5; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await h.worker!.stop('SIGKILL');
      await h.startWorker();
    }
    stop = true;
    await streaming;
    expect(w.acknowledged.length).to.be.greaterThan(500);
    await h.waitForPersistence();
    await w.verify();
  });

  it('when PostgreSQL is unreachable for 20 s, then reports still answer, /readyz says so, and everything lands afterwards', async () => {
    const w = new Workload(h);
    await w.setUp();
    let stop = false;
    const streaming = w.stream(() => stop);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    h.proxy.block();
    const blockedAt = Date.now();
    const before = w.acknowledged.length;
    await until(async () => (await h.call('GET', '/readyz', {})).body.postgres === 'down', '/readyz to report PostgreSQL down');
    const ready = await h.call('GET', '/readyz', {});
    expect(ready.status).to.equal(503);
    expect(ready.body.redis).to.equal('ok');
    await new Promise((resolve) => setTimeout(resolve, 20_000 - (Date.now() - blockedAt)));
    const duringOutage = w.acknowledged.length - before;
    h.proxy.unblock();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    stop = true;
    await streaming;
    expect(duringOutage, 'reports acknowledged while PostgreSQL was down').to.be.greaterThan(200);
    await h.waitForPersistence(90_000);
    await w.verify();
  });

  it('when Redis loses all its data after persistence caught up, then the service rebuilds it, keeping reports made meanwhile', async () => {
    const w = new Workload(h);
    await w.setUp();
    await w.streamFor(2000);
    await h.waitForPersistence();
    h.killRedis({ wipe: true });
    h.startRedis();
    await w.streamFor(4000); // during and after the rebuild
    await h.waitForPersistence();
    await w.verify();
  });

  it('when Redis is killed under load and restarts from its AOF, then at most about a second of acknowledged reports is lost', async () => {
    const w = new Workload(h);
    await w.setUp();
    let stop = false;
    const streaming = w.stream(() => stop);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    h.killRedis({ wipe: false });
    const killedAt = Date.now();
    h.startRedis();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    stop = true;
    await streaming;
    await h.waitForPersistence();

    const live = {
      solo: await h.liveScores(await h.internalId(w.game.game_id, 'solo')),
      clans: await h.liveScores(await h.internalId(w.game.game_id, 'clans')),
    };
    const lost = w.acknowledged.filter((a) => a.score > (live[a.board].get(a.player) ?? -Infinity));
    const oldest = lost.length > 0 ? killedAt - Math.min(...lost.map((a) => a.at)) : 0;
    process.stdout.write(
      `      AOF restart: ${w.acknowledged.length} reports acknowledged, ${lost.length} lost, the oldest ${oldest} ms before the kill\n`,
    );
    expect(
      lost.every((a) => a.at <= killedAt),
      'only reports acknowledged before the kill may be lost',
    ).to.equal(true);
    expect(oldest, 'loss window (ms)').to.be.below(2000);
    await w.verify(live); // and PostgreSQL, ranks and clan totals agree with what Redis kept
  });

  it('when an API process is killed in the middle of server batches, then the retried batches are applied exactly', async () => {
    const w = new Workload(h);
    await w.setUp(20);
    const server = { 'Secret-Key': w.game.secret_key };
    const boards = ['b1', 'b2', 'b3', 'b4', 'b5'];
    for (const board of boards) await h.call('PUT', `/api/v1/server/leaderboards/${board}`, server, {});
    const batches = Array.from({ length: 300 }, (_, i) => ({
      player_id: w.players[i % 20]!.id,
      scores: boards.map((_, k) => i * 10 + k),
      leaderboard_ids: boards,
    }));
    const done = new Set<number>();
    let sent = 0;
    const send = async () => {
      while (sent < batches.length) {
        const i = sent++;
        const res = await h.call('POST', '/api/v1/server/report_scores', server, batches[i]).catch(() => undefined);
        if (res?.status === 200) done.add(i);
      }
    };
    const sending = Promise.all(Array.from({ length: 10 }, send));
    await until(() => done.size > 60, 'some batches to be applied');
    await h.api.stop('SIGKILL');
    await sending;
    expect(done.size).to.be.below(batches.length);
    h.api = await startApi(h.env);
    for (const [i, batch] of batches.entries()) {
      if (done.has(i)) continue;
      const res = await h.call('POST', '/api/v1/server/report_scores', server, batch);
      expect(res.status).to.equal(200);
    }
    await h.waitForPersistence();
    for (const [k, board] of boards.entries()) {
      const expected = new Map<string, number>();
      for (const [i, batch] of batches.entries())
        expected.set(batch.player_id, Math.max(expected.get(batch.player_id) ?? -Infinity, i * 10 + k));
      const id = await h.internalId(w.game.game_id, board);
      expect(await h.liveScores(id), `${board} in Redis`).to.deep.equal(expected);
      expect(await h.persistedScores(id), `${board} in PostgreSQL`).to.deep.equal(expected);
    }
  });
});
