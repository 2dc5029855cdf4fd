import { expect } from 'chai';
import { loadConfig } from '../../engine/config.js';
import { createPersistenceEngine, type PersistenceEngine } from '../../engine/engine.js';
import { RankChanges } from '../../engine/history/rank-changes.js';
import { RankSnapshotStore } from '../../engine/history/rank-snapshot-store.js';
import { createLogger } from '../../engine/logger.js';
import { api, testStores } from '../helpers/context.js';
import {
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  internalBoard,
  reportScore,
  secretKey,
  signupMany,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { waitForPersistence } from '../helpers/persistence.js';
import { startWorker, type ServiceProcess } from '../helpers/processes.js';

/** Days far from any real one, so the workers of other tests (which take none) never meet them. */
const DAY_1 = '2031-03-01';
const DAY_2 = '2031-03-02';
const DAY_3 = '2031-03-03';
const DAY_4 = '2031-03-04';
const at = (day: string, time: string) => new Date(`${day}T${time}Z`);

describe('daily rank snapshots and rank_change (docs/history.md)', function () {
  this.timeout(120_000);
  let game: TestGame;
  let bot: { 'Api-Key': string };
  let worker: ServiceProcess;
  /** A worker's engine taking snapshots from 06:00 UTC, of each board's first 3 entries, kept 2 days. */
  let snapshotter: PersistenceEngine;
  let leaderboard: string;
  let board: { internalId: number };
  let players: TestPlayer[];

  const snapshotRows = async (day: string) =>
    (
      await testStores().pool.query<{ player_id: string; rank: number; score: number; season: number }>(
        'SELECT player_id, rank, score, season FROM rank_snapshots WHERE leaderboard_internal_id = $1 AND day = $2 ORDER BY rank',
        [board.internalId, day],
      )
    ).rows;
  const changes = async () => {
    const res = await api().get(`/api/v1/third_party/leaderboards/${leaderboard}?limit=10`).set(bot).expect(200);
    return Object.fromEntries(
      (res.body.entries as { player_id: string; rank_change: number | null }[]).map((e) => [e.player_id, e.rank_change]),
    );
  };
  const report = async (player: TestPlayer, score: number) => {
    await reportScore(game, player, leaderboard, score).expect(200);
    await waitForPersistence(board);
  };

  before(async () => {
    game = await createGame();
    bot = { 'Api-Key': (await createThirdPartyKey(game)).apiKey };
    worker = await startWorker();
    const config = loadConfig();
    snapshotter = await createPersistenceEngine(
      { ...config, rankSnapshots: { hourUtc: 6, top: 3, keepDays: 2 } },
      createLogger(config.logLevel),
    );
    leaderboard = await createLeaderboard(game);
    board = await internalBoard(game, leaderboard);
    players = await signupMany(game, 5);
    for (const [i, player] of players.entries()) await report(player, 50 - 10 * i);
    // Every other board of the test database counts as taken on these days: the rounds below take this one alone.
    for (const day of [DAY_1, DAY_2, DAY_3, DAY_4])
      await testStores().pool.query(
        `INSERT INTO rank_snapshot_days (leaderboard_internal_id, day, season, entries)
         SELECT internal_id, $1, 0, 0 FROM leaderboards WHERE internal_id <> $2 ON CONFLICT DO NOTHING`,
        [day, board.internalId],
      );
  });
  after(async () => {
    await snapshotter.close();
    await worker.stop();
  });

  it('when a day starts, then no snapshot is taken before RANK_SNAPSHOT_HOUR_UTC, and from it the first RANK_SNAPSHOT_TOP entries are kept as they rank', async () => {
    expect(await snapshotter.rankSnapshots.takeDue(at(DAY_1, '05:59:00'))).to.equal(0);
    expect(await snapshotRows(DAY_1)).to.deep.equal([]);

    expect(await snapshotter.rankSnapshots.takeDue(at(DAY_1, '06:00:00'))).to.equal(1);
    expect(await snapshotRows(DAY_1)).to.deep.equal([
      { player_id: players[0]!.playerId, rank: 1, score: 50, season: 1 },
      { player_id: players[1]!.playerId, rank: 2, score: 40, season: 1 },
      { player_id: players[2]!.playerId, rank: 3, score: 30, season: 1 },
    ]);
  });

  it('when players pass others after the snapshot, then list entries carry the places each moved since, null for those not in it', async () => {
    await report(players[4]!, 45); // from 5th to 2nd
    expect(await changes()).to.deep.equal({
      [players[0]!.playerId]: 0,
      [players[4]!.playerId]: null,
      [players[1]!.playerId]: -1,
      [players[2]!.playerId]: -1,
      [players[3]!.playerId]: null,
    });
    // A process holds a small snapshot whole; one past its budget looks its players up: both tell the same.
    const page = await api().get(`/api/v1/third_party/leaderboards/${leaderboard}?limit=10`).set(bot).expect(200);
    const shown = (page.body.entries as { player_id: string; rank: number }[]).map((e) => ({ id: e.player_id, rank: e.rank }));
    const current = await internalBoard(game, leaderboard);
    const store = new RankSnapshotStore(testStores().pool);
    for (const changes of [new RankChanges(store), new RankChanges(store, { heldBytes: 0 })])
      expect(await changes.of(current, shown)).to.deep.equal([0, null, -1, -1, null]);
    // The same on around_me, list ranks and the web page's entries.
    const around = await api()
      .get(`/api/v1/client/leaderboards/${leaderboard}/around_me?range=1`)
      .set('Publishable-Key', game.publishableKey)
      .set('Anonymous-Authorization', players[1]!.token)
      .expect(200);
    expect(around.body.entries.map((e: { rank_change: number | null }) => e.rank_change)).to.deep.equal([null, -1, -1]);
    const listed = await api()
      .get(`/api/v1/server/leaderboards/${leaderboard}/ranks?player_ids=${players[2]!.playerId},${players[4]!.playerId}`)
      .set(secretKey(game))
      .expect(200);
    expect(listed.body.entries.map((e: { rank_change: number | null }) => e.rank_change)).to.deep.equal([null, -1]);
    const web = await api().get(`/leaderboards/${leaderboard}/entries?token=${players[0]!.token}`).expect(200);
    expect(web.body.entries.map((e: { rank_change: number | null }) => e.rank_change)).to.deep.equal([0, null, -1, -1, null]);
  });

  it('when the day has been taken, then neither this worker nor another that starts later that day takes it again', async () => {
    expect(await snapshotter.rankSnapshots.takeDue(at(DAY_1, '07:00:00'))).to.equal(0);
    const config = loadConfig();
    const later = await createPersistenceEngine({ ...config, rankSnapshots: { hourUtc: 6, top: 3, keepDays: 2 } }, createLogger('silent'));
    try {
      expect(await later.rankSnapshots.takeDue(at(DAY_1, '15:00:00'))).to.equal(0);
    } finally {
      await later.close();
    }
    expect(await snapshotRows(DAY_1)).to.have.length(3);
  });

  it('when a board has not changed since its last snapshot, then the next day takes none of it; once it changes, it does', async () => {
    const { pool } = testStores();
    await pool.query(`UPDATE rank_snapshot_days SET taken_at = now() - interval '1 hour' WHERE leaderboard_internal_id = $1`, [
      board.internalId,
    ]);
    await pool.query(`UPDATE leaderboards SET active_at = now() - interval '2 hours' WHERE internal_id = $1`, [board.internalId]);
    expect(await snapshotter.rankSnapshots.takeDue(at(DAY_2, '06:01:00'))).to.equal(0);

    await pool.query(`UPDATE leaderboards SET active_at = now() WHERE internal_id = $1`, [board.internalId]);
    const next = await createPersistenceEngine(
      { ...loadConfig(), rankSnapshots: { hourUtc: 6, top: 3, keepDays: 2 } },
      createLogger('silent'),
    );
    try {
      expect(await next.rankSnapshots.takeDue(at(DAY_2, '06:02:00'))).to.equal(1);
    } finally {
      await next.close();
    }
    expect((await snapshotRows(DAY_2)).map((row) => row.player_id)).to.deep.equal([
      players[0]!.playerId,
      players[4]!.playerId,
      players[1]!.playerId,
    ]);
  });

  it('when days pass RANK_HISTORY_DAYS, then the older ones are dropped with their entries', async () => {
    await report(players[3]!, 60);
    expect(await snapshotter.rankSnapshots.takeDue(at(DAY_3, '06:00:00'))).to.equal(1);
    expect(await snapshotRows(DAY_1)).to.deep.equal([]);
    expect(await snapshotRows(DAY_2)).to.have.length(3);
    expect(await snapshotRows(DAY_3)).to.have.length(3);
  });

  const history = (player: TestPlayer, query = '') =>
    api()
      .get(`/api/v1/client/leaderboards/${leaderboard}/players/${player.playerId}/history${query}`)
      .set('Publishable-Key', game.publishableKey)
      .set('Anonymous-Authorization', player.token);

  it('when a player reads their history, then they get their best rank and each kept day they were among the first entries, oldest first, within from and to', async () => {
    const own = await history(players[4]!).expect(200);
    expect(own.body).to.deep.include({ leaderboard_id: leaderboard, player_id: players[4]!.playerId, best_rank: 2 });
    expect(own.body.points).to.deep.equal([
      { date: DAY_2, season: 1, rank: 2, score: 45 },
      { date: DAY_3, season: 1, rank: 3, score: 45 },
    ]);
    expect((await history(players[4]!, `?from=${DAY_3}`).expect(200)).body.points.map((p: { date: string }) => p.date)).to.deep.equal([
      DAY_3,
    ]);
    expect((await history(players[4]!, `?to=${DAY_2}`).expect(200)).body.points.map((p: { date: string }) => p.date)).to.deep.equal([
      DAY_2,
    ]);
    expect((await history(players[4]!, `?from=${DAY_3}&to=${DAY_3}`).expect(200)).body.points).to.have.length(1);

    // The game server and a bot read the same; another player's token may not.
    const server = await api()
      .get(`/api/v1/server/leaderboards/${leaderboard}/players/${players[4]!.playerId}/history`)
      .set(secretKey(game))
      .expect(200);
    const byBot = await api()
      .get(`/api/v1/third_party/leaderboards/${leaderboard}/player/${players[4]!.playerId}/history`)
      .set(bot)
      .expect(200);
    expect(server.body).to.deep.equal(own.body);
    expect(byBot.body).to.deep.equal(own.body);
    await api()
      .get(`/api/v1/client/leaderboards/${leaderboard}/players/${players[4]!.playerId}/history`)
      .set('Publishable-Key', game.publishableKey)
      .set('Anonymous-Authorization', players[1]!.token)
      .expect(403);

    for (const query of ['?from=2031-03-03&to=2031-03-02', '?from=2031-02-30', '?to=yesterday', '?from=2031-3-1']) {
      const refused = await history(players[4]!, query).expect(400);
      expect(refused.body.error.code, query).to.equal('validation_failed');
    }
    const unknown = await api()
      .get(`/api/v1/server/leaderboards/${leaderboard}/players/nobody-at-all/history`)
      .set(secretKey(game))
      .expect(404);
    expect(unknown.body.error.code).to.equal('player_not_found');
  });

  it('when a player is erased, then their snapshots go with them', async () => {
    await api().delete(`/api/v1/server/players/${players[0]!.playerId}`).set(secretKey(game)).expect(204);
    const { rows } = await testStores().pool.query('SELECT 1 FROM rank_snapshots WHERE player_id = $1', [players[0]!.playerId]);
    expect(rows).to.deep.equal([]);
  });

  it('when the season is reset, then rank_change is null for every entry of the new season', async () => {
    await api().post(`/api/v1/server/leaderboards/${leaderboard}/reset`).set(secretKey(game)).expect(200);
    await report(players[1]!, 10);
    await report(players[2]!, 20);
    // The process may hold the latest snapshot for up to a minute; the season decides without it.
    expect(await changes()).to.deep.equal({ [players[2]!.playerId]: null, [players[1]!.playerId]: null });
  });

  it("when a new season has its own snapshot, then a history runs across the season change, and best_rank is the new season's", async () => {
    await report(players[4]!, 100);
    expect(await snapshotter.rankSnapshots.takeDue(at(DAY_4, '06:00:00'))).to.equal(1);
    const { body } = await history(players[4]!).expect(200);
    expect(body.best_rank).to.equal(1);
    expect(body.points).to.deep.equal([
      { date: DAY_3, season: 1, rank: 3, score: 45 },
      { date: DAY_4, season: 2, rank: 1, score: 100 },
    ]);
  });
});
