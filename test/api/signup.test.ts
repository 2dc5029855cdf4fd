import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import { api, appWith } from '../helpers/context.js';
import { createGame, createLeaderboard, reportScore, signup, uniqueId, type TestGame } from '../helpers/fixtures.js';
import { checkAgainstOpenApi } from '../helpers/openapi-check.js';

const decode = (token: string) => JSON.parse(Buffer.from(token, 'base64').toString('utf8'));

describe('POST /api/v1/signup/anonymous', () => {
  let game: TestGame;
  before(async () => {
    game = await createGame();
  });

  it('when a new device signs up, then it gets 201, a token and a player id', async () => {
    const res = await api()
      .post('/api/v1/signup/anonymous')
      .set('Publishable-Key', game.publishableKey)
      .send({ device_id: uniqueId('device') })
      .expect(201);
    expect(res.body.player_id).to.be.a('string').with.length.at.most(16);
    expect(res.body.player_id).to.match(/^[A-Za-z0-9_-]+$/);
    expect(res.body.token).to.match(/^[A-Za-z0-9+/]+={0,2}$/);
  });

  it('when the same device signs up again, then it gets 200 and the same player', async () => {
    const device = uniqueId('device');
    const first = await signup(game, device);
    const res = await api()
      .post('/api/v1/signup/anonymous')
      .set('Publishable-Key', game.publishableKey)
      .send({ device_id: device })
      .expect(200);
    expect(res.body.player_id).to.equal(first.playerId);
  });

  it('when the same device id is used in another game, then it is another player', async () => {
    const device = uniqueId('device');
    const here = await signup(game, device);
    const there = await signup(await createGame(), device);
    expect(there.playerId).to.not.equal(here.playerId);
  });

  it('when the body is empty, then a new player is created each time', async () => {
    const client = await api();
    const a = await client.post('/api/v1/signup/anonymous').set('Publishable-Key', game.publishableKey).expect(201);
    const b = await client.post('/api/v1/signup/anonymous').set('Publishable-Key', game.publishableKey).expect(201);
    expect(a.body.player_id).to.not.equal(b.body.player_id);
  });

  it('when the token is base64-decoded, then it carries user_id, game_id, iat and sig', async () => {
    const player = await signup(game, uniqueId('device'));
    const claims = decode(player.token);
    expect(claims.user_id).to.equal(player.playerId);
    expect(claims.game_id).to.equal(game.gameId);
    expect(claims.iat)
      .to.be.a('number')
      .within(Date.now() / 1000 - 60, Date.now() / 1000 + 1);
    expect(claims.sig).to.be.a('string');
  });

  it('when the Publishable-Key is missing or unknown, then 401 and no player is made', async () => {
    const client = await api();
    const missing = await client.post('/api/v1/signup/anonymous').send({ device_id: 'x' }).expect(401);
    expect(missing.body.error.code).to.equal('missing_key');
    const wrong = await client.post('/api/v1/signup/anonymous').set('Publishable-Key', 'pk_nope').send({}).expect(401);
    expect(wrong.body.error.code).to.equal('invalid_key');
  });

  it('when device_id is not a 1-128 character string, then 400 validation_failed', async () => {
    const client = await api();
    for (const device_id of ['', 'x'.repeat(129), 42, null]) {
      const res = await client.post('/api/v1/signup/anonymous').set('Publishable-Key', game.publishableKey).send({ device_id }).expect(400);
      expect(res.body.error.code).to.equal('validation_failed');
      expect(res.body.error.details[0].field).to.equal('device_id');
    }
  });

  it('when MIN_DEVICE_ID_LENGTH is raised, then a shorter device_id is 400 validation_failed and no player is made', async () => {
    const app = appWith({ MIN_DEVICE_ID_LENGTH: '32' });
    const signupWith = (device_id: string) =>
      request(app)
        .post('/api/v1/signup/anonymous')
        .set('Publishable-Key', game.publishableKey)
        .send({ device_id })
        .expect(checkAgainstOpenApi);
    const guessable = uniqueId('serial'); // 15 characters
    const short = await signupWith(guessable).expect(400);
    expect(short.body.error.code).to.equal('validation_failed');
    expect(short.body.error.details[0].field).to.equal('device_id');
    // Nobody was made for that device: the default minimum now takes it as a new one.
    await api().post('/api/v1/signup/anonymous').set('Publishable-Key', game.publishableKey).send({ device_id: guessable }).expect(201);
    await signupWith(randomUUID()).expect(201);
  });

  describe('the token on a client call', () => {
    let leaderboard: string;
    before(async () => {
      leaderboard = await createLeaderboard(game);
    });

    it('when the token is tampered with, then 401 invalid_token and no score is kept', async () => {
      const player = await signup(game);
      const victim = await signup(game);
      const forged = Buffer.from(JSON.stringify({ ...decode(player.token), user_id: victim.playerId })).toString('base64');
      const res = await reportScore(game, { ...player, token: forged }, leaderboard, 100).expect(401);
      expect(res.body.error.code).to.equal('invalid_token');
      const record = await api()
        .get(`/api/v1/client/leaderboards/${leaderboard}/players/${victim.playerId}`)
        .set('Secret-Key', game.secretKey);
      expect(record.status).to.equal(404);
    });

    it("when the token is another game's, then 401 invalid_token", async () => {
      const other = await createGame();
      const stranger = await signup(other);
      const res = await reportScore(game, stranger, leaderboard, 5).expect(401);
      expect(res.body.error.code).to.equal('invalid_token');
    });

    it('when the token is missing or garbage, then 401 missing_token or invalid_token', async () => {
      const client = await api();
      const path = `/api/v1/client/leaderboards/${leaderboard}/report_score`;
      const none = await client.post(path).set('Publishable-Key', game.publishableKey).send({ score: 1 }).expect(401);
      expect(none.body.error.code).to.equal('missing_token');
      for (const token of ['not base64 at all!', 'e30=', Buffer.from('[]').toString('base64')]) {
        const bad = await client
          .post(path)
          .set('Publishable-Key', game.publishableKey)
          .set('Anonymous-Authorization', token)
          .send({ score: 1 })
          .expect(401);
        expect(bad.body.error.code).to.equal('invalid_token');
      }
    });

    it('when the token has a Bearer prefix, the URL-safe alphabet or spaces for +, then it is accepted', async () => {
      const player = await signup(game);
      const urlSafe = player.token.replace(/\+/g, '-').replace(/\//g, '_');
      const spaced = player.token.replace(/\+/g, ' ');
      for (const token of [`Bearer ${player.token}`, urlSafe, spaced]) {
        await reportScore(game, { ...player, token }, leaderboard, 10).expect(200);
      }
    });
  });
});
