import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app.js';
import { loadConfig } from '../../engine/config.js';
import { createEngine, type Engine } from '../../engine/engine.js';
import { createLogger } from '../../engine/logger.js';
import { appWith } from '../helpers/context.js';
import { ADMIN, createGame, createLeaderboard, signup } from '../helpers/fixtures.js';
import { checkAgainstOpenApi } from '../helpers/openapi-check.js';

describe('rate limits', () => {
  let engine: Engine;
  let app: ReturnType<typeof createApp>;
  const call = (method: 'get' | 'post' | 'put', path: string) => request(app)[method](path).expect(checkAgainstOpenApi);

  before(async () => {
    // Its own key prefix: the per-IP signup counter must not carry over from an earlier run.
    const config = loadConfig({
      ...process.env,
      REDIS_KEY_PREFIX: `lbtest-rl-${randomUUID().slice(0, 8)}`,
      RATE_LIMIT_SIGNUPS_PER_IP_PER_MINUTE: '3',
      RATE_LIMIT_REPORTS_PER_PLAYER_PER_SECOND: '2',
      RATE_LIMIT_THIRD_PARTY_PER_KEY_PER_SECOND: '2',
    });
    engine = await createEngine(config, createLogger('silent'));
    app = createApp(engine);
  });
  after(() => engine.close());

  it('when a limit is exceeded, then 429 rate_limited with Retry-After, and the refused report changes nothing', async () => {
    const game = (await call('post', '/api/v1/admin/games').set(ADMIN).send({ name: 'limited' }).expect(201)).body;
    await call('put', '/api/v1/server/leaderboards/board').set('Secret-Key', game.secret_key).send({}).expect(201);

    const signups = [];
    for (let i = 0; i < 4; i += 1)
      signups.push(await call('post', '/api/v1/signup/anonymous').set('Publishable-Key', game.publishable_key).send({}));
    expect(signups.map((r) => r.status)).to.deep.equal([201, 201, 201, 429]);
    expect(signups[3]!.body.error.code).to.equal('rate_limited');
    expect(Number(signups[3]!.headers['retry-after'])).to.be.within(1, 60);

    const token = signups[0]!.body.token;
    const report = (score: number) =>
      call('post', '/api/v1/client/leaderboards/board/report_score')
        .set('Publishable-Key', game.publishable_key)
        .set('Anonymous-Authorization', token)
        .send({ score });
    // The window opens with the first report and lasts a second: the third, a few ms later, is over.
    const statuses = [(await report(1)).status, (await report(2)).status];
    const refused = await report(999);
    expect([...statuses, refused.status]).to.deep.equal([200, 200, 429]);
    expect(refused.headers['retry-after']).to.equal('1');
    const record = await call('get', `/api/v1/client/leaderboards/board/players/${signups[0]!.body.player_id}`)
      .set('Secret-Key', game.secret_key)
      .expect(200);
    expect(record.body.score).to.equal(2);

    const key = (await call('post', '/api/v1/server/third_party_keys').set('Secret-Key', game.secret_key).send({ name: 'bot' }).expect(201))
      .body.api_key;
    const reads = await Promise.all(
      Array.from({ length: 6 }, () => call('get', '/api/v1/third_party/leaderboards/board').set('Api-Key', key)),
    );
    expect(reads.map((r) => r.status).sort()).to.deep.equal([200, 200, 429, 429, 429, 429]);
  });
});

describe('per-IP limits behind a proxy and on the web page', () => {
  const call = (app: Express, path: string) => request(app).get(path).expect(checkAgainstOpenApi);

  it('when clients behind one trusted proxy write their own X-Forwarded-For entries, then their signups are still counted by the address the proxy saw', async () => {
    const app = appWith({ TRUST_PROXY: '1', RATE_LIMIT_SIGNUPS_PER_IP_PER_MINUTE: '3' });
    const game = await createGame();
    // The proxy appends the address it saw; everything left of it is whatever the client wrote.
    const signupFrom = (forwardedFor: string) =>
      request(app)
        .post('/api/v1/signup/anonymous')
        .set('Publishable-Key', game.publishableKey)
        .set('X-Forwarded-For', forwardedFor)
        .send({})
        .expect(checkAgainstOpenApi);

    const statuses = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await signupFrom(`10.9.${i}.1, 203.0.113.7`)).status);
    expect(statuses).to.deep.equal([201, 201, 201, 429, 429]);
    // Another client behind the same proxy has a count of its own.
    await signupFrom('10.9.0.1, 203.0.113.8').expect(201);
  });

  it('when one IP asks for more than RATE_LIMIT_WEB_PER_IP_PER_MINUTE avatars and pages, then 429 with Retry-After: JSON for avatars and entries, an HTML page for the page', async () => {
    const game = await createGame();
    const board = await createLeaderboard(game);
    const player = await signup(game);
    const app = appWith({ RATE_LIMIT_WEB_PER_IP_PER_MINUTE: '3' });
    const token = encodeURIComponent(player.token);

    const allowed = [
      await call(app, `/api/v1/users/${player.playerId}/avatar.png?size=64`),
      await call(app, `/leaderboards/${board}?token=${token}`),
      await call(app, `/leaderboards/${board}/entries?token=${token}`),
    ];
    expect(allowed.map((res) => res.status)).to.deep.equal([200, 200, 200]);

    const avatar = await call(app, `/api/v1/users/${player.playerId}/avatar.png?size=64`).expect(429);
    expect(avatar.body.error.code).to.equal('rate_limited');
    expect(Number(avatar.headers['retry-after'])).to.be.within(1, 60);
    const entries = await call(app, `/leaderboards/${board}/entries?token=${token}`).expect(429);
    expect(entries.body.error.code).to.equal('rate_limited');
    const page = await call(app, `/leaderboards/${board}?token=${token}`).expect(429);
    expect(page.headers['content-type']).to.match(/^text\/html/);
    expect(page.text).to.include('Too many requests');
    expect(Number(page.headers['retry-after'])).to.be.within(1, 60);
  });
});
