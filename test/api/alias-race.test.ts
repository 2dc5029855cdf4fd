import { expect } from 'chai';
import { api } from '../helpers/context.js';
import { createGame, signupMany, uniqueId, type TestGame } from '../helpers/fixtures.js';
import { inParallel } from '../helpers/persistence.js';

describe('players claiming the same aliases at once', () => {
  let game: TestGame;

  before(async () => {
    game = await createGame();
  });

  it('when two players claim the same two aliases in opposite key order, then one gets them and the other 409 already_exists, never a 5xx (40 races)', async function () {
    this.timeout(60_000);
    const players = await signupMany(game, 80);
    const claim = (playerId: string, aliases: Record<string, string>) =>
      api().patch(`/api/v1/server/players/${playerId}`).set('Secret-Key', game.secretKey).send({ aliases });
    const races = await inParallel(
      Array.from({ length: 40 }, (_, i) => async () => {
        const [steam, discord] = [uniqueId('steam'), uniqueId('discord')];
        return Promise.all([claim(players[2 * i]!.playerId, { steam, discord }), claim(players[2 * i + 1]!.playerId, { discord, steam })]);
      }),
      10,
    );
    const statuses = races.flat().map((res) => res.status);
    expect(
      statuses.filter((status) => status >= 500),
      'responses >= 500',
    ).to.deep.equal([]);
    for (const race of races) {
      expect(race.map((res) => res.status).sort()).to.deep.equal([200, 409]);
      expect(race.find((res) => res.status === 409)!.body.error.code).to.equal('already_exists');
    }
  });
});
