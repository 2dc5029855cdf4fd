import { expect } from 'chai';
import { api } from '../helpers/context.js';
import { createGame, createLeaderboard, reportScore, signup, type TestGame, type TestPlayer } from '../helpers/fixtures.js';

describe('the error model', () => {
  let game: TestGame;
  let player: TestPlayer;
  let leaderboard: string;
  let path: string;

  before(async () => {
    game = await createGame();
    leaderboard = await createLeaderboard(game);
    player = await signup(game);
    await reportScore(game, player, leaderboard, 10).expect(200);
    path = `/api/v1/client/leaderboards/${leaderboard}/report_score`;
  });

  const client = () => api().post(path).set('Publishable-Key', game.publishableKey).set('Anonymous-Authorization', player.token);
  const bestScore = async () =>
    (await api().get(`/api/v1/client/leaderboards/${leaderboard}/players/${player.playerId}`).set('Secret-Key', game.secretKey).expect(200))
      .body.score;

  it('when the JSON is malformed, then 400 invalid_json and nothing changes', async () => {
    const res = await client().set('Content-Type', 'application/json').send('{"score": 99').expect(400);
    expect(res.body.error).to.include({ code: 'invalid_json' });
    expect(res.body.error.message).to.be.a('string').with.length.greaterThan(10);
    expect(await bestScore()).to.equal(10);
  });

  it('when the body is form data, then 415 unsupported_media_type', async () => {
    const res = await client().type('form').send('score=99').expect(415);
    expect(res.body.error.code).to.equal('unsupported_media_type');
    expect(await bestScore()).to.equal(10);
  });

  it('when the body is plain text, then 415 unsupported_media_type', async () => {
    const res = await client().set('Content-Type', 'text/plain').send('99').expect(415);
    expect(res.body.error.code).to.equal('unsupported_media_type');
  });

  it('when the body is over 64 KiB, then 413 payload_too_large', async () => {
    const res = await client()
      .send({ score: 99, padding: 'x'.repeat(100 * 1024) })
      .expect(413);
    expect(res.body.error.code).to.equal('payload_too_large');
    expect(await bestScore()).to.equal(10);
  });

  it('when a GET or DELETE carries a body, then it is read and ignored and the answer is the normal one', async () => {
    const padding = JSON.stringify({ padding: 'x'.repeat(200 * 1024) });
    const health = await api().get('/healthz').set('Content-Type', 'application/json').send(padding).expect(200);
    expect(health.body).to.deep.equal({ status: 'ok' });
    const missing = await api()
      .delete('/api/v1/server/leaderboards/none')
      .set('Secret-Key', game.secretKey)
      .type('form')
      .send('a=b')
      .expect(404);
    expect(missing.body.error.code).to.equal('leaderboard_not_found');
  });

  it('when the route does not exist, then 404 not_found as JSON', async () => {
    const res = await api().get('/api/v1/nothing/here').expect(404).expect('Content-Type', /json/);
    expect(res.body.error.code).to.equal('not_found');
  });

  it('when a request carries a valid X-Request-Id, then the response echoes it; otherwise one is generated', async () => {
    const echoed = await api().get('/healthz').set('X-Request-Id', 'trace-123').expect(200);
    expect(echoed.headers['x-request-id']).to.equal('trace-123');
    const generated = await api().get('/api/v1/nope').set('X-Request-Id', 'bad id with spaces').expect(404);
    expect(generated.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
  });

  it('when an error is answered, then it carries no stack trace', async () => {
    const res = await client().set('Content-Type', 'application/json').send('{').expect(400);
    expect(res.text).to.not.match(/at .*\.js:\d+/);
  });
});
