import { expect } from 'chai';
import { api } from '../helpers/context.js';
import { counting, playersNotCachedHere } from '../helpers/cost.js';
import {
  createGame,
  createLeaderboard,
  internalBoard,
  reportScore,
  secretKey,
  signupMany,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';

/**
 * around_me looks its token's player up with the names of the entries around them, in one
 * PostgreSQL query (docs/performance.md, around_me), so it tells an erased player apart itself:
 * their token is refused as on every other client path.
 */

const aroundMe = (game: TestGame, player: TestPlayer, leaderboardId: string, query = '') =>
  api()
    .get(`/api/v1/client/leaderboards/${leaderboardId}/around_me${query}`)
    .set('Publishable-Key', game.publishableKey)
    .set('Anonymous-Authorization', player.token);

describe('around_me', function () {
  this.timeout(120_000);

  it("when an erased player's token reads around_me, then 401 invalid_token on the current and an ended season, and where the request would be refused anyway (no such board or season, a bad range); 404 while they only have no score", async () => {
    const game = await createGame();
    const leaderboard = await createLeaderboard(game);
    const [leaving, staying, unscored] = await signupMany(game, 3);
    await reportScore(game, leaving!, leaderboard, 50).expect(200);
    await reportScore(game, staying!, leaderboard, 40).expect(200);
    await api().post(`/api/v1/server/leaderboards/${leaderboard}/reset`).set(secretKey(game)).expect(200);
    await reportScore(game, leaving!, leaderboard, 5).expect(200);
    await reportScore(game, staying!, leaderboard, 4).expect(200);
    const before = await aroundMe(game, leaving!, leaderboard).expect(200);
    expect(before.body.entries.map((entry: { player_id: string }) => entry.player_id)).to.deep.equal([
      leaving!.playerId,
      staying!.playerId,
    ]);
    expect((await aroundMe(game, unscored!, leaderboard).expect(404)).body.error.code).to.equal('record_not_found');

    await api().delete(`/api/v1/server/players/${leaving!.playerId}`).set(secretKey(game)).expect(204);

    // Told before whether the board or the season asked exists, as any other client path tells it.
    for (const [board, query] of [
      [leaderboard, ''],
      [leaderboard, '?range=3'],
      [leaderboard, '?season=1'],
      [leaderboard, '?range=3&season=1'],
      [leaderboard, '?season=99'],
      [leaderboard, '?range=many'],
      ['no-such-board', ''],
    ] as const) {
      const refused = await aroundMe(game, leaving!, board, query).expect(401);
      expect(refused.body.error.code, `${board}${query}`).to.equal('invalid_token');
    }
    const others = await aroundMe(game, staying!, leaderboard, '?range=3').expect(200);
    expect(others.body.entries.map((entry: { player_id: string; rank: number }) => [entry.player_id, entry.rank])).to.deep.equal([
      [staying!.playerId, 1],
    ]);
  });

  it('when a player this process has not cached reads around_me, then their name and their neighbours’ come from one PostgreSQL query', async () => {
    const game = await createGame();
    const leaderboard = await createLeaderboard(game);
    const board = await internalBoard(game, leaderboard);
    const players = await playersNotCachedHere(game, leaderboard, 30, 'Neighbour', (i) => ({ score: 100 - i }));
    // Warm: the key, the board's settings and the script are known to this process before counting
    // (the first player's read keeps only ranks 1-2 in the cache).
    await aroundMe(game, players[0]!.player, leaderboard, '?range=1').expect(200);

    const viewer = players[20]!;
    const { result, queries } = await counting(board, () => aroundMe(game, viewer.player, leaderboard, '?range=2').expect(200));
    expect(result.body.entries.map((entry: { display_name: string; rank: number }) => [entry.display_name, entry.rank])).to.deep.equal(
      players.slice(18, 23).map(({ name }, i) => [name, 19 + i]),
    );
    expect(
      queries.filter((query) => /\bplayers\b/.test(query)),
      'PostgreSQL queries of players',
    ).to.have.length(1);
  });
});
