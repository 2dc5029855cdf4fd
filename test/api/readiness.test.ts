import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../../api/app.js';
import { loadConfig } from '../../engine/config.js';
import { createEngine, type Engine } from '../../engine/engine.js';
import { createLogger } from '../../engine/logger.js';
import { checkAgainstOpenApi } from '../helpers/openapi-check.js';
import { createGame, type TestGame } from '../helpers/fixtures.js';
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
});
