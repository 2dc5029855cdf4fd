import { expect } from 'chai';
import { api } from '../helpers/context.js';
import {
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  internalBoard,
  scoredPlayers,
  secretKey,
  signup,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { waitForPersistence } from '../helpers/persistence.js';
import { startWorker, type ServiceProcess } from '../helpers/processes.js';

/**
 * A season that has ended but is not archived yet is read from Redis, where its ranking stands as
 * the season ended. A ban, unban or erasure of one of its players after the end makes its players'
 * reads answer 503 until the archive, which applies them (docs/architecture.md, Seasons): no read shows a banned or erased player, or ranks counting one. No worker runs until the
 * test lets the archive happen.
 */
describe('seasons: moderation between a season end and its archive', () => {
  let game: TestGame;
  let bot: { 'Api-Key': string };
  let worker: ServiceProcess | undefined;
  before(async () => {
    game = await createGame();
    bot = { 'Api-Key': (await createThirdPartyKey(game)).apiKey };
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });

  const reset = (leaderboard: string) => api().post(`/api/v1/server/leaderboards/${leaderboard}/reset`).set(secretKey(game)).expect(200);
  const page = (leaderboard: string) => api().get(`/api/v1/third_party/leaderboards/${leaderboard}?season=1&limit=10`).set(bot);
  const pageRows = async (leaderboard: string) =>
    (await page(leaderboard).expect(200)).body.entries.map((e: { player_id: string; rank: number }) => [e.player_id, e.rank]);
  /** Every read of season 1's players: the page, a record, around_me and the ranks of a list. */
  const READS = ['page', 'record', 'around_me', 'ranks of a list'];
  const seasonReads = (leaderboard: string, viewer: TestPlayer) => [
    page(leaderboard),
    api().get(`/api/v1/client/leaderboards/${leaderboard}/players/${viewer.playerId}?season=1`).set(secretKey(game)),
    api()
      .get(`/api/v1/client/leaderboards/${leaderboard}/around_me?season=1`)
      .set({ 'Publishable-Key': game.publishableKey, 'Anonymous-Authorization': viewer.token }),
    api().get(`/api/v1/third_party/leaderboards/${leaderboard}/ranks?player_ids=${viewer.playerId}&season=1`).set(bot),
  ];

  it('when a player of an ended season is banned before its archive, then its reads answer 503 until the archive, which leaves them out', async () => {
    const leaderboard = await createLeaderboard(game);
    const board = await internalBoard(game, leaderboard);
    const [first, banned, third] = await scoredPlayers(game, leaderboard, [90, 70, 50]);
    const bystander = await signup(game);
    await reset(leaderboard);
    expect(await pageRows(leaderboard)).to.deep.equal([
      [first!.playerId, 1],
      [banned!.playerId, 2],
      [third!.playerId, 3],
    ]);

    // A player with no entry in season 1 changes nothing there.
    await api().post(`/api/v1/server/players/${bystander.playerId}/ban`).set(secretKey(game)).send({}).expect(200);
    expect(await pageRows(leaderboard)).to.have.length(3);

    await api().post(`/api/v1/server/players/${banned!.playerId}/ban`).set(secretKey(game)).send({}).expect(200);
    for (const [i, res] of (await Promise.all(seasonReads(leaderboard, third!))).entries()) {
      expect(res.status, READS[i]).to.equal(503);
      expect(res.body.error.code).to.equal('unavailable');
      expect(res.body.error.message).to.equal('Season 1 is being archived after a moderation; retry shortly.');
      expect(res.headers['retry-after']).to.equal('1');
    }
    // The current season reads as ever.
    await api().get(`/api/v1/third_party/leaderboards/${leaderboard}`).set(bot).expect(200);

    worker = await startWorker();
    await waitForPersistence(board);
    expect(await pageRows(leaderboard)).to.deep.equal([
      [first!.playerId, 1],
      [third!.playerId, 2],
    ]);
    const record = await api().get(`/api/v1/client/leaderboards/${leaderboard}/players/${third!.playerId}?season=1`).set(secretKey(game));
    expect(record.body).to.include({ rank: 2, total: 2 });
  });

  it('when a player banned when the season ended is unbanned before its archive, then its reads answer 503 until the archive, which shows them again at their rank', async () => {
    const leaderboard = await createLeaderboard(game);
    const board = await internalBoard(game, leaderboard);
    const [first, returning, third] = await scoredPlayers(game, leaderboard, [90, 60, 50]);
    const ban = () => api().post(`/api/v1/server/players/${returning!.playerId}/ban`).set(secretKey(game)).send({}).expect(200);
    await ban();
    await reset(leaderboard);
    const shown = [
      [first!.playerId, 1],
      [third!.playerId, 2],
    ];
    expect(await pageRows(leaderboard)).to.deep.equal(shown);

    // Banned again (as a retried request would): season 1 already leaves them out.
    await ban();
    expect(await pageRows(leaderboard)).to.deep.equal(shown);

    await api().delete(`/api/v1/server/players/${returning!.playerId}/ban`).set(secretKey(game)).expect(200);
    for (const [i, res] of (await Promise.all(seasonReads(leaderboard, third!))).entries()) expect(res.status, READS[i]).to.equal(503);

    worker = await startWorker();
    await waitForPersistence(board);
    expect(await pageRows(leaderboard)).to.deep.equal([
      [first!.playerId, 1],
      [returning!.playerId, 2],
      [third!.playerId, 3],
    ]);
  });

  it('when a player of an ended season is erased before its archive, then its reads answer 503 until the archive, which leaves them out', async () => {
    const leaderboard = await createLeaderboard(game);
    const board = await internalBoard(game, leaderboard);
    const [erased, second] = await scoredPlayers(game, leaderboard, [90, 70]);
    await reset(leaderboard);
    expect(await pageRows(leaderboard)).to.deep.equal([
      [erased!.playerId, 1],
      [second!.playerId, 2],
    ]);

    // The erased player has nothing in the current season: only the ended one holds them.
    await api().delete(`/api/v1/server/players/${erased!.playerId}`).set(secretKey(game)).expect(204);
    for (const [i, res] of (await Promise.all(seasonReads(leaderboard, second!))).entries()) expect(res.status, READS[i]).to.equal(503);

    worker = await startWorker();
    await waitForPersistence(board);
    expect(await pageRows(leaderboard)).to.deep.equal([[second!.playerId, 1]]);
  });
});
