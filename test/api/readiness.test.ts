import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../../api/app.js';
import { loadConfig } from '../../engine/config.js';
import { createEngine, type Engine } from '../../engine/engine.js';
import { createLogger } from '../../engine/logger.js';
import { checkAgainstOpenApi } from '../helpers/openapi-check.js';
import { createGame, createLeaderboard, reportScore, signupMany, type TestGame } from '../helpers/fixtures.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { until } from '../helpers/processes.js';

describe('readiness and outages', () => {
  let proxy: TcpProxy;
  let engine: Engine;
  let app: ReturnType<typeof createApp>;
  let game: TestGame;

  before(async () => {
    game = await createGame();
    const database = new URL(process.env.DATABASE_URL!);
    proxy = await new TcpProxy(database.hostname, Number(database.port || 5432)).start();
    database.host = `127.0.0.1:${proxy.port}`;
    const config = loadConfig({ ...process.env, DATABASE_URL: database.toString() });
    engine = await createEngine(config, createLogger('silent'));
    app = createApp(engine);
  });

  after(async () => {
    proxy.unblock();
    await engine.close();
    await proxy.stop();
  });

  it('when Redis and PostgreSQL answer, then /readyz is 200 with both ok', async () => {
    const res = await request(app).get('/readyz').expect(checkAgainstOpenApi).expect(200);
    expect(res.body).to.include({ redis: 'ok', postgres: 'ok' });
    expect(res.body.pending_persistence).to.be.a('number');
  });

  it('when PostgreSQL is unreachable, then /readyz is 503 naming it and requests needing it get 503 unavailable; then it recovers', async () => {
    proxy.block();
    const ready = await request(app).get('/readyz').expect(checkAgainstOpenApi).expect(503);
    expect(ready.body).to.include({ redis: 'ok', postgres: 'down' });

    const signup = await request(app)
      .post('/api/v1/signup/anonymous')
      .set('Publishable-Key', game.publishableKey)
      .send({})
      .expect(checkAgainstOpenApi)
      .expect(503);
    expect(signup.body.error.code).to.equal('unavailable');
    expect(signup.headers['retry-after']).to.match(/^\d+$/);

    proxy.unblock();
    await until(async () => (await request(app).get('/readyz')).status === 200, '/readyz to recover');
    await request(app).post('/api/v1/signup/anonymous').set('Publishable-Key', game.publishableKey).send({}).expect(201);
  });

  it('when PostgreSQL is unreachable, a record read of a player this process has not looked up is 503, not 404; once it is back, concurrent reads of distinct players each get their own record', async () => {
    const board = await createLeaderboard(game);
    const players = await signupMany(game, 8);
    await Promise.all(players.map((player, i) => reportScore(game, player, board, 100 + i).expect(200)));
    const record = (playerId: string) =>
      request(app).get(`/api/v1/client/leaderboards/${board}/players/${playerId}`).set('Secret-Key', game.secretKey);
    await record(players[0]!.playerId).expect(200); // the leaderboard is now cached; the other players are not

    proxy.block();
    const outage = await record(players[1]!.playerId).expect(checkAgainstOpenApi).expect(503);
    expect(outage.body.error.code).to.equal('unavailable');

    proxy.unblock();
    await until(async () => (await request(app).get('/readyz')).status === 200, '/readyz to recover');
    // These misses arrive together, so they are looked up together: each answer must still be its own player's.
    const answers = await Promise.all(players.slice(1).map((player) => record(player.playerId).expect(200)));
    answers.forEach((answer, i) => {
      expect(answer.body).to.include({ player_id: players[i + 1]!.playerId, score: 101 + i });
    });
  });
});
