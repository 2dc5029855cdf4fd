import { expect } from 'chai';
import { api } from '../helpers/context.js';
import { createGame, createLeaderboard, reportScore, signupMany, type TestGame, type TestPlayer } from '../helpers/fixtures.js';
import { inParallel } from '../helpers/persistence.js';
import { ReferenceBoard } from '../helpers/reference.js';

for (const order of ['desc', 'asc'] as const) {
  describe(`concurrent reports on a ${order} leaderboard`, () => {
    let game: TestGame;
    let players: TestPlayer[];
    let leaderboard: string;
    const reference = new ReferenceBoard(order);

    before(async function () {
      this.timeout(120_000);
      game = await createGame();
      leaderboard = await createLeaderboard(game, { sort_order: order });
      players = await signupMany(game, 200);
      // 2,000 reports, 10 per player, integer scores with many ties, all in flight together.
      const reports = Array.from({ length: 2000 }, (_, i) => ({ player: players[i % 200]!, score: Math.floor(Math.random() * 500) }));
      for (const { player, score } of reports) reference.report(player.playerId, score);
      const responses = await inParallel(
        reports.map(
          ({ player, score }) =>
            () =>
              reportScore(game, player, leaderboard, score),
        ),
      );
      expect(responses.filter((r) => r.status !== 200)).to.have.length(0);
    });

    it('when 2,000 reports from 200 players race, then every best score, rank and total equals the reference', async () => {
      const client = api();
      for (const player of players) {
        const res = await client
          .get(`/api/v1/client/leaderboards/${leaderboard}/players/${player.playerId}`)
          .set('Secret-Key', game.secretKey)
          .expect(200);
        expect({ score: res.body.score, rank: res.body.rank, total: res.body.total }, player.playerId).to.deep.equal({
          score: reference.best.get(player.playerId),
          rank: reference.rank(player.playerId),
          total: 200,
        });
      }
    });

    it('when the whole leaderboard is read in pages, then the order and ranks equal the reference', async () => {
      const expected = reference.ordered();
      const player = players[0]!;
      const seen: { player: string; score: number; rank: number }[] = [];
      for (let offset = 0; offset < 200; offset += 64) {
        const res = await api()
          .get(`/api/v1/client/leaderboards/${leaderboard}?limit=64&offset=${offset}`)
          .set('Publishable-Key', game.publishableKey)
          .set('Anonymous-Authorization', player.token)
          .expect(200);
        expect(res.body.total).to.equal(200);
        seen.push(
          ...res.body.entries.map((e: { player_id: string; score: number; rank: number }) => ({
            player: e.player_id,
            score: e.score,
            rank: e.rank,
          })),
        );
      }
      expect(seen).to.deep.equal(expected);
    });
  });
}
