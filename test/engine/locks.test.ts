import { expect } from 'chai';
import { testStores } from '../helpers/context.js';
import { uniqueId } from '../helpers/fixtures.js';
import { Lock, withLock } from '../../engine/locks.js';

describe('locks', () => {
  it('when a holder outlives its lock and another process takes it, then the first holder can neither release nor renew it', async () => {
    const { redis } = testStores();
    const key = `${process.env.REDIS_KEY_PREFIX}:lock:${uniqueId('test')}`;
    const slow = (await Lock.acquire(redis, key, 100))!;
    await new Promise((resolve) => setTimeout(resolve, 150));
    const next = (await Lock.acquire(redis, key, 10_000))!;
    expect(next).to.not.equal(undefined);

    await slow.release();
    expect(await slow.renew()).to.equal(false);
    expect(await Lock.acquire(redis, key, 10_000), 'the lock is still held by the second process').to.equal(undefined);
    await next.release();
    expect(await Lock.acquire(redis, key, 10_000)).to.not.equal(undefined);
  });

  it('when work runs under a held lock elsewhere, then it is skipped; when free, it runs and frees the lock', async () => {
    const { redis } = testStores();
    const key = `${process.env.REDIS_KEY_PREFIX}:lock:${uniqueId('test')}`;
    const held = (await Lock.acquire(redis, key, 10_000))!;
    expect(await withLock(redis, key, 10_000, async () => 'ran')).to.equal(undefined);
    await held.release();
    expect(await withLock(redis, key, 10_000, async () => 'ran')).to.equal('ran');
    expect(await redis.exists(key)).to.equal(0);
  });
});
