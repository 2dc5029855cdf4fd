import { expect } from 'chai';
import { avatarSizeCost } from '../../scripts/bench/avatar-figures.js';
import { testEngine } from '../helpers/context.js';
import { createGame, signupMany } from '../helpers/fixtures.js';

describe("the bench's avatar figure", () => {
  it('when 300 distinct sizes are timed against 300 equal ones on a cold cache, then every request is answered and distinct sizes cost no more than a few drawn images', async function () {
    this.timeout(60_000);
    const players = await signupMany(await createGame(), 2);
    const cost = await avatarSizeCost(
      testEngine(),
      players.map((p) => p.playerId),
      { requests: 300, rounds: 1 },
    );
    expect(cost).to.include({ requests: 300, players: 2, rounds: 1 });
    expect(cost.equalMs).to.be.above(0);
    // Drawn per exact size, the distinct side draws 300 images to the other's 2 (about 3x the time
    // here); drawn at the fixed sizes, at most 22 (about 1.3x).
    expect(cost.ratio).to.be.below(2);
  });
});
