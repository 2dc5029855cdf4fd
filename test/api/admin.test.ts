import { expect } from 'chai';
import { api } from '../helpers/context.js';
import { ADMIN, createGame, createLeaderboard, uniqueId } from '../helpers/fixtures.js';

describe('admin endpoints', () => {
  it('when the admin token is missing or wrong, then 401 and nothing is created', async () => {
    const client = await api();
    const name = uniqueId('game');
    const missing = await client.post('/api/v1/admin/games').send({ name }).expect(401);
    expect(missing.body.error.code).to.equal('missing_admin_token');
    const wrong = await client.post('/api/v1/admin/games').set('Authorization', 'Bearer nope').send({ name }).expect(401);
    expect(wrong.body.error.code).to.equal('invalid_admin_token');
    await client.get('/api/v1/admin/games').set('Authorization', 'Bearer nope').expect(401);
    const list = await client.get('/api/v1/admin/games').set(ADMIN).expect(200);
    expect(list.body.games.map((g: { name: string }) => g.name)).to.not.include(name);
  });

  it('when a game is created, then its keys come back once and the list shows it without the secret', async () => {
    const client = await api();
    const name = uniqueId('game');
    const created = await client.post('/api/v1/admin/games').set(ADMIN).send({ name }).expect(201);
    expect(created.body.publishable_key).to.match(/^pk_/);
    expect(created.body.secret_key).to.match(/^sk_/);
    // Oldest first: the newest game is the last entry of the last page.
    const { body: count } = await client.get('/api/v1/admin/games?limit=1').set(ADMIN).expect(200);
    const list = await client
      .get(`/api/v1/admin/games?limit=1&offset=${count.total - 1}`)
      .set(ADMIN)
      .expect(200);
    expect(list.body).to.include({ total: count.total, limit: 1, offset: count.total - 1 });
    expect(list.body.games).to.have.length(1);
    expect(list.body.games[0]).to.include({ game_id: created.body.game_id, name, publishable_key: created.body.publishable_key });
    expect(JSON.stringify(list.body)).to.not.include(created.body.secret_key);
  });

  it('when games are listed a page at a time, then the pages follow each other oldest first without overlap', async () => {
    const client = await api();
    await createGame();
    await createGame();
    const { body: all } = await client.get('/api/v1/admin/games?limit=1000').set(ADMIN).expect(200);
    expect(all.total).to.equal(all.games.length);
    const first = await client.get('/api/v1/admin/games?limit=2').set(ADMIN).expect(200);
    const second = await client.get('/api/v1/admin/games?limit=2&offset=2').set(ADMIN).expect(200);
    const ids = (res: { body: { games: { game_id: string }[] } }) => res.body.games.map((g) => g.game_id);
    expect([...ids(first), ...ids(second)]).to.deep.equal(all.games.slice(0, 4).map((g: { game_id: string }) => g.game_id));
    expect((await client.get('/api/v1/admin/games?offset=x').set(ADMIN).expect(400)).body.error.code).to.equal('validation_failed');
  });

  it('when the name is missing, then 400 validation_failed', async () => {
    const res = await api().post('/api/v1/admin/games').set(ADMIN).send({}).expect(400);
    expect(res.body.error.details[0].field).to.equal('name');
  });

  it('when the secret key is rotated, then the old one is refused at once and the new one works', async () => {
    const client = await api();
    const game = await createGame();
    const leaderboard = await createLeaderboard(game);
    await client.get('/api/v1/server/leaderboards').set('Secret-Key', game.secretKey).expect(200);
    const rotated = await client.post(`/api/v1/admin/games/${game.gameId}/secret_key`).set(ADMIN).expect(200);
    expect(rotated.body.secret_key).to.match(/^sk_/).and.not.equal(game.secretKey);

    const old = await client.get('/api/v1/server/leaderboards').set('Secret-Key', game.secretKey).expect(401);
    expect(old.body.error.code).to.equal('invalid_key');
    await client.put(`/api/v1/server/leaderboards/${leaderboard}`).set('Secret-Key', game.secretKey).send({ name: 'x' }).expect(401);
    await client
      .post('/api/v1/server/report_scores')
      .set('Secret-Key', game.secretKey)
      .send({ player_id: 'p', scores: [1], leaderboard_ids: [leaderboard] })
      .expect(401);
    const now = await client.get('/api/v1/server/leaderboards').set('Secret-Key', rotated.body.secret_key).expect(200);
    expect(now.body.leaderboards.map((l: { leaderboard_id: string }) => l.leaderboard_id)).to.deep.equal([leaderboard]);
  });

  it('when rotating the key of an unknown game, then 404 game_not_found', async () => {
    const res = await api().post('/api/v1/admin/games/g_nope/secret_key').set(ADMIN).expect(404);
    expect(res.body.error.code).to.equal('game_not_found');
  });
});
