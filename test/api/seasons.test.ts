import { expect } from 'chai';
import { api, testStores } from '../helpers/context.js';
import { createGame, createLeaderboard, internalBoard, reportScore, secretKey, signup, type TestGame } from '../helpers/fixtures.js';

/**
 * The season a report counts in: its number stands beside the board's live keys in Redis and the
 * report's script reads it in the same atomic step as it applies the score.
 */
describe('seasons: the season a report counts in', () => {
  let game: TestGame;
  before(async () => {
    game = await createGame();
  });

  it('when a leaderboard is created, then its body shows season 1, started when the leaderboard was', async () => {
    const res = await api().put('/api/v1/server/leaderboards/weekly').set(secretKey(game)).send({}).expect(201);
    expect(res.body.season).to.equal(1);
    expect(res.body.season_started_at).to.equal(res.body.created_at);
    const listed = await api().get('/api/v1/server/leaderboards').set(secretKey(game)).expect(200);
    expect(listed.body.leaderboards.find((board: { leaderboard_id: string }) => board.leaderboard_id === 'weekly')).to.include({
      season: 1,
      season_started_at: res.body.created_at,
    });
  });

  it('when a score is reported by the client or in a server batch, then each answer says it counted in season 1', async () => {
    const [first, second] = [await createLeaderboard(game), await createLeaderboard(game)];
    const player = await signup(game);
    const client = await reportScore(game, player, first, 10).expect(200);
    expect(client.body.season).to.equal(1);
    const batch = await api()
      .post('/api/v1/server/report_scores')
      .set(secretKey(game))
      .send({ player_id: player.playerId, scores: [20, 30], leaderboard_ids: [first, second] })
      .expect(200);
    expect(batch.body.results.map((result: { season: number }) => result.season)).to.deep.equal([1, 1]);
  });

  it('when the season beside the live keys has moved on, then the next report counts in that season and says so', async () => {
    const leaderboard = await createLeaderboard(game);
    const player = await signup(game);
    await reportScore(game, player, leaderboard, 10).expect(200);
    const board = await internalBoard(game, leaderboard);
    await testStores().redis.set(testStores().keys(board).season, '3');
    const res = await reportScore(game, player, leaderboard, 11).expect(200);
    expect(res.body).to.include({ season: 3, best_score: 11 });
  });

  it('when Redis holds no season for a board (new, or rebuilt after a data loss), then a report takes the one PostgreSQL holds', async () => {
    const leaderboard = await createLeaderboard(game);
    const board = await internalBoard(game, leaderboard);
    const { pool, redis, keys } = testStores();
    await pool.query('UPDATE leaderboards SET season = 5 WHERE internal_id = $1', [board.internalId]);
    // The service reads the row again once told that leaderboards changed (as every change to one does).
    await api().put(`/api/v1/server/leaderboards/${leaderboard}`).set(secretKey(game)).send({ name: 'renamed' }).expect(200);
    expect(await redis.exists(keys(board).season)).to.equal(0);
    const player = await signup(game);
    const res = await reportScore(game, player, leaderboard, 10).expect(200);
    expect(res.body.season).to.equal(5);
    expect(await redis.get(keys(board).season)).to.equal('5');
  });
});
