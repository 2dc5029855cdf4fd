import { expect } from 'chai';
import { Redis } from 'ioredis';
import { CredentialResolver } from '../../engine/auth/credential-resolver.js';
import { ThirdPartyKeyStore } from '../../engine/auth/third-party-key-store.js';
import { GameStore } from '../../engine/games/game-store.js';
import { Invalidator } from '../../engine/invalidator.js';
import { invalidationChannel } from '../../engine/live/keys.js';
import { createLogger } from '../../engine/logger.js';
import { TokenCodec } from '../../engine/tokens.js';
import { api, testEngine, testStores } from '../helpers/context.js';
import { createGame } from '../helpers/fixtures.js';

/**
 * A process whose invalidation subscription drops misses what is announced until it is back (Redis
 * may be restarting, or may have cut the connection): its credential cache must not outlive that.
 */
describe('the credential cache when the invalidation subscription drops', () => {
  let subscriber: Redis;

  afterEach(() => subscriber?.disconnect());

  it('when a key is revoked while the subscription is down, then it is refused within 1 s all the same', async () => {
    const engine = testEngine();
    const game = await createGame();
    const key = (await api().post('/api/v1/server/third_party_keys').set('Secret-Key', game.secretKey).send({ name: 'bot' }).expect(201))
      .body;
    // This process's subscription comes back only after 3 s. On a Redis Cluster it listens on one
    // node (a PUBLISH reaches every node), and the kill is sent to that node.
    const node = engine.config.redisClusterNodes?.[0];
    const url = node ? `redis://${node.host}:${node.port}` : engine.config.redisUrl;
    subscriber = new Redis(url, { retryStrategy: () => 3000 });
    const subscriberId = await subscriber.client('ID');
    const invalidator = new Invalidator({
      publisher: testStores().redis,
      channel: invalidationChannel(engine.config.redisKeyPrefix),
      logger: createLogger('silent'),
    });
    await invalidator.listen(subscriber);
    const resolver = new CredentialResolver({
      games: new GameStore(testStores().pool),
      thirdPartyKeys: new ThirdPartyKeyStore(testStores().pool),
      tokens: new TokenCodec('a-token-secret-0123456789'),
      adminToken: 'an-admin-token-0123456789',
      invalidator,
      gameOfPlayer: async () => undefined, // no tokens are checked here
    });
    expect((await resolver.thirdParty(key.api_key)).keyId).to.equal(key.key_id); // now cached

    const admin = new Redis(url);
    await admin.client('KILL', 'ID', String(subscriberId));
    admin.disconnect();
    await api().delete(`/api/v1/server/third_party_keys/${key.key_id}`).set('Secret-Key', game.secretKey).expect(204);
    const revokedAt = Date.now();

    let outcome = 'accepted';
    while (outcome === 'accepted' && Date.now() - revokedAt <= 1000) {
      outcome = await resolver.thirdParty(key.api_key).then(
        () => 'accepted',
        (error: { code?: string }) => error.code ?? 'error',
      );
      if (outcome === 'accepted') await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(outcome).to.equal('invalid_key');
  });
});
