import { expect } from 'chai';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createApp } from '../../api/app.js';
import { loadConfig } from '../../engine/config.js';
import { createEngine, type Engine } from '../../engine/engine.js';
import { createLogger } from '../../engine/logger.js';
import { TokenCodec } from '../../engine/tokens.js';
import { checkAgainstOpenApi } from '../helpers/openapi-check.js';
import { openEventStream } from '../helpers/event-stream.js';
import { createGame, createLeaderboard, signup, type TestGame, type TestPlayer } from '../helpers/fixtures.js';

describe('anonymous tokens with TOKEN_TTL_SECONDS set', () => {
  const TTL_SECONDS = 3600;
  let engine: Engine;
  let app: ReturnType<typeof createApp>;
  let game: TestGame;
  let leaderboard: string;
  let player: TestPlayer;
  // Signs as the service does (the suite's TOKEN_SECRET), with any issue time.
  const issuedAt = (secondsFromNow: number) =>
    new TokenCodec(process.env.TOKEN_SECRET!).issue(player.playerId, game.gameId, Date.now() + secondsFromNow * 1000);
  const report = (token: string) =>
    request(app)
      .post(`/api/v1/client/leaderboards/${leaderboard}/report_score`)
      .set('Publishable-Key', game.publishableKey)
      .set('Anonymous-Authorization', token)
      .send({ score: 1 })
      .expect(checkAgainstOpenApi);

  before(async () => {
    engine = await createEngine(loadConfig({ ...process.env, TOKEN_TTL_SECONDS: String(TTL_SECONDS) }), createLogger('silent'));
    app = createApp(engine);
    game = await createGame();
    leaderboard = await createLeaderboard(game);
    player = await signup(game);
  });

  after(() => engine.close());

  it('when the token is fresh or its iat is up to 60 s ahead (clock skew), then it is accepted', async () => {
    await report(player.token).expect(200);
    await report(issuedAt(55)).expect(200);
  });

  it('when the token is older than the lifetime, then 401 invalid_token', async () => {
    const res = await report(issuedAt(-TTL_SECONDS - 5)).expect(401);
    expect(res.body.error.code).to.equal('invalid_token');
  });

  it('when a token’s lifetime runs out while its live stream is open, then the stream ends then', async () => {
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      // Issued so that it expires 2 s from now.
      const stream = await openEventStream(`http://127.0.0.1:${port}/api/v1/client/leaderboards/${leaderboard}/live`, {
        'Anonymous-Authorization': issuedAt(2 - TTL_SECONDS),
      });
      expect(stream.status).to.equal(200);
      expect((await stream.next()).event).to.equal('top');
      const opened = Date.now();
      const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error('the stream outlived its token by 8 s')), 8000).unref());
      await Promise.race([stream.ended, timeout]);
      expect(Date.now() - opened, 'ended at the expiry, not at once').to.be.at.least(1000);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('when the token’s iat is more than 60 s in the future, then 401 invalid_token', async () => {
    for (const ahead of [65, TTL_SECONDS, 10 * 365 * 86_400]) {
      const res = await report(issuedAt(ahead)).expect(401);
      expect(res.body.error.code).to.equal('invalid_token');
    }
  });
});
