import { expect } from 'chai';
import { api, testStores } from '../helpers/context.js';
import {
  createGame,
  createLeaderboard,
  internalBoard,
  reportScore,
  signup,
  signupMany,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { liveScores, persistedScores } from '../helpers/persistence.js';

describe('score reports', () => {
  let game: TestGame;
  before(async () => {
    game = await createGame();
  });

  const record = (leaderboard: string, playerId: string) =>
    api().get(`/api/v1/client/leaderboards/${leaderboard}/players/${playerId}`).set('Secret-Key', game.secretKey);

  it('when scores tie, then they share a rank (1, 2, 2, 4)', async () => {
    const leaderboard = await createLeaderboard(game);
    const players = await signupMany(game, 4);
    const scores = [100, 90, 90, 80];
    for (const [i, player] of players.entries()) await reportScore(game, player, leaderboard, scores[i]).expect(200);
    const ranks = [];
    for (const player of players) ranks.push((await record(leaderboard, player.playerId).expect(200)).body.rank);
    expect(ranks).to.deep.equal([1, 2, 2, 4]);
  });

  it('when a worse score is reported, then best and rank stay and improved is false', async () => {
    const leaderboard = await createLeaderboard(game);
    const [leader, other] = await signupMany(game, 2);
    await reportScore(game, leader!, leaderboard, 50).expect(200);
    await reportScore(game, other!, leaderboard, 40).expect(200);
    const res = await reportScore(game, leader!, leaderboard, 10).expect(200);
    expect(res.body).to.deep.equal({
      leaderboard_id: leaderboard,
      player_id: leader!.playerId,
      submitted_score: 10,
      best_score: 50,
      improved: false,
      rank: 1,
      total: 2,
      season: 1,
    });
  });

  it('when a better score is reported, then the response already shows the new rank', async () => {
    const leaderboard = await createLeaderboard(game);
    const [a, b] = await signupMany(game, 2);
    await reportScore(game, a!, leaderboard, 100).expect(200);
    expect((await reportScore(game, b!, leaderboard, 50).expect(200)).body.rank).to.equal(2);
    const res = await reportScore(game, b!, leaderboard, 150.5).expect(200);
    expect(res.body).to.include({ best_score: 150.5, improved: true, rank: 1, total: 2 });
  });

  it('when the leaderboard is asc, then lower is better', async () => {
    const leaderboard = await createLeaderboard(game, { sort_order: 'asc' });
    const [a, b] = await signupMany(game, 2);
    await reportScore(game, a!, leaderboard, 61.25).expect(200);
    await reportScore(game, b!, leaderboard, 59.75).expect(200);
    const res = await reportScore(game, a!, leaderboard, 70).expect(200);
    expect(res.body).to.include({ best_score: 61.25, improved: false, rank: 2 });
  });

  it('when a score is a decimal string or has many digits, then it is kept exactly', async () => {
    const leaderboard = await createLeaderboard(game);
    const [precise, stringly] = await signupMany(game, 2);
    const res = await reportScore(game, precise!, leaderboard, 0.1 + 0.2).expect(200);
    expect(res.body.best_score).to.equal(0.30000000000000004);
    expect((await record(leaderboard, precise!.playerId).expect(200)).body.score).to.equal(0.30000000000000004);
    expect((await reportScore(game, stringly!, leaderboard, '12.5').expect(200)).body.best_score).to.equal(12.5);
  });

  it('when a score is outside the bounds or client reports are off, then it is refused and nothing changes', async () => {
    const bounded = await createLeaderboard(game, { min_score: 0, max_score: 1000 });
    const serverOnly = await createLeaderboard(game, { client_reports: false });
    const player = await signup(game);
    expect((await reportScore(game, player, bounded, 1000.5).expect(400)).body.error.code).to.equal('validation_failed');
    expect((await reportScore(game, player, bounded, -1).expect(400)).body.error.details[0].field).to.equal('score');
    expect((await reportScore(game, player, serverOnly, 5).expect(403)).body.error.code).to.equal('client_reports_disabled');
    await record(bounded, player.playerId).expect(404);
    await record(serverOnly, player.playerId).expect(404);
  });

  it('when the leaderboard does not exist, then 404 leaderboard_not_found', async () => {
    const player = await signup(game);
    expect((await reportScore(game, player, 'no-such-board', 1).expect(404)).body.error.code).to.equal('leaderboard_not_found');
  });

  describe('rejected input', () => {
    let leaderboard: string;
    let player: TestPlayer;
    before(async () => {
      leaderboard = await createLeaderboard(game);
      player = await signup(game);
      await reportScore(game, player, leaderboard, 7).expect(200);
    });

    async function state() {
      const board = await internalBoard(game, leaderboard);
      const { redis, keys } = testStores();
      return {
        live: [...(await liveScores(board))],
        dirty: await redis.zcard(keys(board).dirty),
        persisted: [...(await persistedScores(board))],
      };
    }

    it('when a client score is not a finite number, then 400 validation_failed and nothing changes anywhere', async () => {
      const before = await state();
      for (const score of ['NaN', 'abc', 'Infinity', '1e999', null, true, {}, [], '', ' ']) {
        const res = await reportScore(game, player, leaderboard, score).expect(400);
        expect(res.body.error.code, JSON.stringify(score)).to.equal('validation_failed');
      }
      await api()
        .post(`/api/v1/client/leaderboards/${leaderboard}/report_score`)
        .set('Publishable-Key', game.publishableKey)
        .set('Anonymous-Authorization', player.token)
        .set('Content-Type', 'application/json')
        .send('{"score": 1e999}')
        .expect(400);
      await api()
        .post(`/api/v1/client/leaderboards/${leaderboard}/report_score`)
        .set('Publishable-Key', game.publishableKey)
        .set('Anonymous-Authorization', player.token)
        .send({})
        .expect(400);
      expect(await state()).to.deep.equal(before);
    });

    it('when a server batch is malformed, then 400 and nothing changes anywhere', async () => {
      const before = await state();
      const batches = [
        {},
        { player_id: player.playerId, scores: [1], leaderboard_ids: [] },
        { player_id: player.playerId, scores: [1, 2], leaderboard_ids: [leaderboard] },
        { player_id: player.playerId, scores: Array(101).fill(9), leaderboard_ids: Array(101).fill(leaderboard) },
        { player_id: player.playerId, scores: ['abc'], leaderboard_ids: [leaderboard] },
        { player_id: player.playerId, scores: [null], leaderboard_ids: [leaderboard] },
        { player_id: player.playerId, scores: [9], leaderboard_ids: ['bad id!'] },
        { player_id: player.playerId, scores: [9], leaderboard_ids: ['{x}:y'] },
        { player_id: 5, scores: [9], leaderboard_ids: [leaderboard] },
        { player_id: player.playerId, scores: 9, leaderboard_ids: leaderboard },
      ];
      for (const batch of batches) {
        const res = await api().post('/api/v1/server/report_scores').set('Secret-Key', game.secretKey).send(batch).expect(400);
        expect(res.body.error.code, JSON.stringify(batch).slice(0, 80)).to.equal('validation_failed');
      }
      expect(await state()).to.deep.equal(before);
    });
  });

  describe('server batches', () => {
    it('when every pair is valid, then one request updates every leaderboard in request order', async () => {
      const boards = [await createLeaderboard(game), await createLeaderboard(game, { sort_order: 'asc' }), await createLeaderboard(game)];
      const player = await signup(game);
      const res = await api()
        .post('/api/v1/server/report_scores')
        .set('Secret-Key', game.secretKey)
        .send({ player_id: player.playerId, scores: [10, 20.5, '30'], leaderboard_ids: boards })
        .expect(200);
      expect(res.body).to.deep.equal({
        player_id: player.playerId,
        results: [
          { leaderboard_id: boards[0], submitted_score: 10, best_score: 10, improved: true, rank: 1, season: 1 },
          { leaderboard_id: boards[1], submitted_score: 20.5, best_score: 20.5, improved: true, rank: 1, season: 1 },
          { leaderboard_id: boards[2], submitted_score: 30, best_score: 30, improved: true, rank: 1, season: 1 },
        ],
      });
      for (const [i, board] of boards.entries()) {
        expect((await record(board, player.playerId).expect(200)).body.score).to.equal([10, 20.5, 30][i]);
      }
    });

    it('when one leaderboard is unknown or one score out of bounds, then nothing at all is applied', async () => {
      const open = await createLeaderboard(game);
      const bounded = await createLeaderboard(game, { max_score: 100 });
      const player = await signup(game);
      const unknown = await api()
        .post('/api/v1/server/report_scores')
        .set('Secret-Key', game.secretKey)
        .send({ player_id: player.playerId, scores: [5, 6], leaderboard_ids: [open, 'missing-board'] })
        .expect(400);
      expect(unknown.body.error.details).to.deep.equal([
        { field: 'leaderboard_ids[1]', message: "no leaderboard 'missing-board' in this game" },
      ]);
      const outOfBounds = await api()
        .post('/api/v1/server/report_scores')
        .set('Secret-Key', game.secretKey)
        .send({ player_id: player.playerId, scores: [5, 101], leaderboard_ids: [open, bounded] })
        .expect(400);
      expect(outOfBounds.body.error.details[0].field).to.equal('scores[1]');
      await record(open, player.playerId).expect(404);
      await record(bounded, player.playerId).expect(404);
    });

    it('when the player is unknown, then 404 player_not_found', async () => {
      const board = await createLeaderboard(game);
      const res = await api()
        .post('/api/v1/server/report_scores')
        .set('Secret-Key', game.secretKey)
        .send({ player_id: 'nobody', scores: [1], leaderboard_ids: [board] })
        .expect(404);
      expect(res.body.error.code).to.equal('player_not_found');
    });

    it('when the same batch is sent twice (a retry), then the result is the same as once', async () => {
      const board = await createLeaderboard(game);
      const player = await signup(game);
      const batch = { player_id: player.playerId, scores: [42], leaderboard_ids: [board] };
      await api().post('/api/v1/server/report_scores').set('Secret-Key', game.secretKey).send(batch).expect(200);
      const retry = await api().post('/api/v1/server/report_scores').set('Secret-Key', game.secretKey).send(batch).expect(200);
      expect(retry.body.results[0]).to.include({ best_score: 42, improved: false, rank: 1 });
    });
  });

  describe('player records', () => {
    it("when a player token reads its own record, then 200; another player's, then 403 forbidden", async () => {
      const board = await createLeaderboard(game);
      const [me, other] = await signupMany(game, 2);
      await reportScore(game, me!, board, 3).expect(200);
      await reportScore(game, other!, board, 4).expect(200);
      const path = (id: string) => `/api/v1/client/leaderboards/${board}/players/${id}`;
      const own = await api()
        .get(path(me!.playerId))
        .set('Publishable-Key', game.publishableKey)
        .set('Anonymous-Authorization', me!.token)
        .expect(200);
      expect(own.body).to.include({ leaderboard_id: board, player_id: me!.playerId, score: 3, rank: 2, total: 2, clan_id: null });
      expect(own.body.avatar_url).to.equal(`http://localhost:3999/api/v1/users/${me!.playerId}/avatar.png`);
      expect(own.body.display_name).to.be.a('string').with.length.greaterThan(0);
      const theirs = await api()
        .get(path(other!.playerId))
        .set('Publishable-Key', game.publishableKey)
        .set('Anonymous-Authorization', me!.token)
        .expect(403);
      expect(theirs.body.error.code).to.equal('forbidden');
    });

    it('when the player is unknown or has no score, then 404 player_not_found or record_not_found', async () => {
      const board = await createLeaderboard(game);
      const player = await signup(game);
      expect((await record(board, 'nobody-{}:x').expect(404)).body.error.code).to.equal('player_not_found');
      expect((await record(board, player.playerId).expect(404)).body.error.code).to.equal('record_not_found');
    });

    it('when a player renames themself, then the record shows the trimmed name', async () => {
      const board = await createLeaderboard(game);
      const player = await signup(game);
      await reportScore(game, player, board, 1).expect(200);
      const renamed = await api()
        .patch('/api/v1/client/players/me')
        .set('Publishable-Key', game.publishableKey)
        .set('Anonymous-Authorization', player.token)
        .send({ display_name: '  Ada  ' })
        .expect(200);
      expect(renamed.body).to.deep.equal({ player_id: player.playerId, display_name: 'Ada', clan_id: null, aliases: {} });
      expect((await record(board, player.playerId).expect(200)).body.display_name).to.equal('Ada');
      for (const display_name of ['', '   ', 'x'.repeat(33), 'bell\u0007', 7]) {
        await api()
          .patch('/api/v1/client/players/me')
          .set('Publishable-Key', game.publishableKey)
          .set('Anonymous-Authorization', player.token)
          .send({ display_name })
          .expect(400);
      }
    });
  });
});
