import { expect } from 'chai';
import { withTransaction } from '../../engine/db.js';
import { testStores } from '../helpers/context.js';

describe('transactions', () => {
  it('when two transactions deadlock, then the one PostgreSQL aborts runs again and both complete', async function () {
    this.timeout(20_000);
    const pool = testStores().pool;
    const [first, second] = [Math.floor(Math.random() * 1e9), Math.floor(Math.random() * 1e9) + 1e9];
    let attempts = 0;
    let arrived = 0;
    let bothHoldOne!: () => void;
    const barrier = new Promise<void>((resolve) => (bothHoldOne = resolve));
    // Each takes one lock, waits until the other holds its own, then asks for the other's.
    const crossing = (mine: number, theirs: number) =>
      withTransaction(pool, async (client) => {
        attempts += 1;
        await client.query('SELECT pg_advisory_xact_lock($1)', [mine]);
        if (++arrived === 2) bothHoldOne();
        await barrier;
        await client.query('SELECT pg_advisory_xact_lock($1)', [theirs]);
        return mine;
      });
    expect(await Promise.all([crossing(first, second), crossing(second, first)])).to.deep.equal([first, second]);
    expect(attempts).to.equal(3);
  });

  it('when a transaction keeps failing to serialize, then the caller gets 409 conflict, not an internal error', async () => {
    let attempts = 0;
    const error = await withTransaction(testStores().pool, async () => {
      attempts += 1;
      throw Object.assign(new Error('could not serialize access due to concurrent update'), { code: '40001' });
    }).catch((thrown: unknown) => thrown);
    expect(error).to.include({ code: 'conflict' });
    expect(attempts).to.be.greaterThan(1);
  });
});
