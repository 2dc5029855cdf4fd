import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../../api/app.js';
import { loadConfig } from '../../engine/config.js';
import { createEngine, type Engine } from '../../engine/engine.js';
import { createLogger } from '../../engine/logger.js';
import { TokenCodec } from '../../engine/tokens.js';
import { checkAgainstOpenApi } from '../helpers/openapi-check.js';
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

  it('when the token’s iat is more than 60 s in the future, then 401 invalid_token', async () => {
    for (const ahead of [65, TTL_SECONDS, 10 * 365 * 86_400]) {
      const res = await report(issuedAt(ahead)).expect(401);
      expect(res.body.error.code).to.equal('invalid_token');
    }
  });
});
