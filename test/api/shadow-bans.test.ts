import { expect } from 'chai';
import { api, testUrl } from '../helpers/context.js';
import {
  botPage,
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  internalBoard,
  reportScore,
  secretKey,
  sendBatch,
  serverReport,
  signupMany,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { openEventStream } from '../helpers/event-stream.js';
import { boardLosesLiveState, waitForPersistence } from '../helpers/persistence.js';
import { startWorker, type ServiceProcess } from '../helpers/processes.js';

/**
 * Shadow bans (docs/review.md part 6): everyone else sees the player as banned, while the player is
 * never told: their client reports are answered as held scores, their own reads show their scores
 * and ranks as if counted, their streams stay open; the game server is told (403 player_banned).
 */

const client = (game: TestGame, player: TestPlayer) => ({
  get: (path: string) =>
    api().get(`/api/v1/client/${path}`).set('Publishable-Key', game.publishableKey).set('Anonymous-Authorization', player.token),
  post: (path: string, body: object = {}) =>
    api()
      .post(`/api/v1/client/${path}`)
      .set('Publishable-Key', game.publishableKey)
      .set('Anonymous-Authorization', player.token)
      .send(body),
});
const shadowBan = (game: TestGame, player: TestPlayer, body: Record<string, unknown> = { shadow: true }) =>
  api().post(`/api/v1/server/players/${player.playerId}/ban`).set(secretKey(game)).send(body);
const unban = (game: TestGame, player: TestPlayer) =>
  api().delete(`/api/v1/server/players/${player.playerId}/ban`).set(secretKey(game)).expect(200);

describe('shadow bans: banned for everyone but the player', function () {
  this.timeout(120_000);
  let game: TestGame;
  let apiKey: string;

  before(async () => {
    game = await createGame();
    apiKey = (await createThirdPartyKey(game)).apiKey;
  });

  it('when a player is shadow-banned, then others see them banned while their own reports and reads count their scores', async () => {
    const leaderboard = await createLeaderboard(game);
    const [a, b, cheat] = await signupMany(game, 3);
    await reportScore(game, a!, leaderboard, 500).expect(200);
    await reportScore(game, b!, leaderboard, 800).expect(200);
    await reportScore(game, cheat!, leaderboard, 600).expect(200);

    const banned = await shadowBan(game, cheat!).expect(200);
    expect(banned.body).to.include({ banned: true, ban_kind: 'shadow' });
    const others = { total: 2, rows: [[b!.playerId, 800, 1] as const, [a!.playerId, 500, 2] as const] };
    expect(await botPage(apiKey, leaderboard)).to.deep.equal(others);

    // The player's own record still shows their score where it would rank.
    const me = client(game, cheat!);
    expect((await me.get(`leaderboards/${leaderboard}/players/${cheat!.playerId}`).expect(200)).body).to.include({
      score: 600,
      rank: 2,
      total: 3,
    });
    // A report is answered as if counted; nobody else sees it.
    const answer = await reportScore(game, cheat!, leaderboard, 900).expect(200);
    expect(answer.body).to.include({ best_score: 900, rank: 1, total: 3, improved: true });
    expect(await botPage(apiKey, leaderboard)).to.deep.equal(others);
    expect((await me.get(`leaderboards/${leaderboard}/players/${cheat!.playerId}`).expect(200)).body).to.include({
      score: 900,
      rank: 1,
    });
    // Only their own row changes: the others keep the ranks everyone sees.
    const around = (await me.get(`leaderboards/${leaderboard}/around_me?range=1`).expect(200)).body;
    expect(around.total).to.equal(3);
    expect(around.entries.map((e: { player_id: string; rank: number }) => [e.player_id, e.rank])).to.deep.equal([
      [cheat!.playerId, 1],
      [b!.playerId, 1],
    ]);
    const own = (await me.get(`leaderboards/${leaderboard}/ranks?player_ids=${a!.playerId}`).expect(200)).body;
    expect(own.entries.map((e: { player_id: string; rank: number }) => [e.player_id, e.rank])).to.deep.equal([
      [cheat!.playerId, 1],
      [a!.playerId, 2],
    ]);

    // Everyone else: not found, like any banned player; the game server is told.
    const asked = (await client(game, b!).get(`leaderboards/${leaderboard}/ranks?player_ids=${cheat!.playerId}`).expect(200)).body;
    expect(asked.not_found).to.deep.equal([cheat!.playerId]);
    await api().get(`/api/v1/client/leaderboards/${leaderboard}/players/${cheat!.playerId}`).set(secretKey(game)).expect(404);
    const server = await sendBatch(game, { player_id: cheat!.playerId, leaderboard_ids: [leaderboard], scores: [1000] }).expect(403);
    expect(server.body.error.code).to.equal('player_banned');
    // Its holds are nobody's to review.
    const queue = await api().get(`/api/v1/server/reviews?leaderboard_id=${leaderboard}`).set(secretKey(game)).expect(200);
    expect(queue.body.total).to.equal(0);
  });

  it('when a shadow-banned player opens a live stream or reads their history, then it is served as to anyone', async () => {
    const leaderboard = await createLeaderboard(game);
    const [honest, cheat] = await signupMany(game, 2);
    await reportScore(game, honest!, leaderboard, 10).expect(200);
    await reportScore(game, cheat!, leaderboard, 20).expect(200);
    await shadowBan(game, cheat!).expect(200);

    const stream = await openEventStream(`${testUrl()}/api/v1/client/leaderboards/${leaderboard}/live?token=${cheat!.token}`);
    try {
      expect(stream.status).to.equal(200);
      expect((await stream.next()).event).to.equal('top');
    } finally {
      stream.close();
    }
    const history = await client(game, cheat!).get(`leaderboards/${leaderboard}/players/${cheat!.playerId}/history`).expect(200);
    expect(history.body).to.include({ player_id: cheat!.playerId });
    // The game server reads it as a banned player's.
    await api().get(`/api/v1/client/leaderboards/${leaderboard}/players/${cheat!.playerId}/history`).set(secretKey(game)).expect(404);
  });

  it('when a shadow-banned player enters a season, then they enter as anyone does', async () => {
    const leaderboard = await createLeaderboard(game, { join_required: true });
    const [cheat] = await signupMany(game, 1);
    await shadowBan(game, cheat!).expect(200);
    const entered = await client(game, cheat!).post(`leaderboards/${leaderboard}/entry`).expect(200);
    expect(entered.body).to.include({ entered: true });
    const held = await reportScore(game, cheat!, leaderboard, 42).expect(200);
    expect(held.body).to.include({ best_score: 42, rank: 1, total: 1 });
    expect((await botPage(apiKey, leaderboard)).total).to.equal(0);
  });

  it('when the shadow ban ends, then the counted scores come back as they were and what it held is dropped', async () => {
    const leaderboard = await createLeaderboard(game, { update_strategy: 'latest' });
    const [a, cheat] = await signupMany(game, 2);
    await reportScore(game, a!, leaderboard, 500).expect(200);
    await reportScore(game, cheat!, leaderboard, 300).expect(200);
    await shadowBan(game, cheat!).expect(200);
    await reportScore(game, cheat!, leaderboard, 900).expect(200);

    const player = await unban(game, cheat!);
    expect(player.body).to.include({ banned: false, ban_kind: null });
    expect((await botPage(apiKey, leaderboard)).rows).to.deep.equal([
      [a!.playerId, 500, 1],
      [cheat!.playerId, 300, 2],
    ]);
    const own = await client(game, cheat!).get(`leaderboards/${leaderboard}/players/${cheat!.playerId}`).expect(200);
    expect(own.body).to.include({ score: 300, rank: 2, total: 2 });
  });

  it('when the shadow ban ends, then the seat its held report took is free again (the holds are dropped as rejected)', async () => {
    const leaderboard = await createLeaderboard(game, { max_players: 1 });
    const [cheat, next] = await signupMany(game, 2);
    await shadowBan(game, cheat!).expect(200);
    await reportScore(game, cheat!, leaderboard, 40).expect(200);
    expect((await reportScore(game, next!, leaderboard, 10).expect(409)).body.error.code).to.equal('leaderboard_full');
    await unban(game, cheat!);
    await reportScore(game, next!, leaderboard, 10).expect(200);
    expect((await reportScore(game, cheat!, leaderboard, 40).expect(409)).body.error.code).to.equal('leaderboard_full');
  });

  it('when a shadow ban becomes an outright ban, then the player is told: reports 403, own reads 404', async () => {
    const leaderboard = await createLeaderboard(game);
    const [cheat] = await signupMany(game, 1);
    await reportScore(game, cheat!, leaderboard, 100).expect(200);
    await shadowBan(game, cheat!).expect(200);
    await reportScore(game, cheat!, leaderboard, 200).expect(200);

    const outright = await shadowBan(game, cheat!, { reason: 'cheating' }).expect(200);
    expect(outright.body).to.include({ banned: true, ban_kind: 'ban' });
    expect((await reportScore(game, cheat!, leaderboard, 300).expect(403)).body.error.code).to.equal('player_banned');
    await client(game, cheat!).get(`leaderboards/${leaderboard}/players/${cheat!.playerId}`).expect(404);
    // And back to a shadow ban: their counted score as it was, the dropped hold gone.
    await shadowBan(game, cheat!).expect(200);
    const own = await client(game, cheat!).get(`leaderboards/${leaderboard}/players/${cheat!.playerId}`).expect(200);
    expect(own.body).to.include({ score: 100, rank: 1, total: 1 });
  });

  it('when the ban body is malformed, then 400 and nothing changes', async () => {
    const [player] = await signupMany(game, 1);
    for (const body of [{ shadow: 'yes' }, { shadow: 1 }, { shadow: null }]) {
      const res = await shadowBan(game, player!, body).expect(400);
      expect(res.body.error.code).to.equal('validation_failed');
    }
    const details = await api().get(`/api/v1/server/players/${player!.playerId}`).set(secretKey(game)).expect(200);
    expect(details.body).to.include({ banned: false, ban_kind: null });
  });

  describe('with the worker', () => {
    let worker: ServiceProcess;
    before(async () => {
      worker = await startWorker();
    });
    after(async () => {
      await worker.stop();
    });

    it('when Redis loses the board, then the shadow ban and its held score come back: hidden from others, counted in own reads', async () => {
      const leaderboard = await createLeaderboard(game);
      const [a, cheat] = await signupMany(game, 2);
      await serverReport(game, a!.playerId, [500], [leaderboard]);
      await reportScore(game, cheat!, leaderboard, 100).expect(200);
      await shadowBan(game, cheat!).expect(200);
      await reportScore(game, cheat!, leaderboard, 700).expect(200);
      const board = await internalBoard(game, leaderboard);
      await waitForPersistence(board);

      await boardLosesLiveState(board);
      const own = await client(game, cheat!).get(`leaderboards/${leaderboard}/players/${cheat!.playerId}`).expect(200);
      expect(own.body).to.include({ score: 700, rank: 1, total: 2 });
      expect(await botPage(apiKey, leaderboard)).to.deep.equal({ total: 1, rows: [[a!.playerId, 500, 1]] });
      // Still shadow-banned after the rebuild: a report is held, not refused.
      expect((await reportScore(game, cheat!, leaderboard, 800).expect(200)).body).to.include({ best_score: 800, rank: 1 });
      expect((await botPage(apiKey, leaderboard)).total).to.equal(1);

      await unban(game, cheat!);
      expect((await botPage(apiKey, leaderboard)).rows).to.deep.equal([
        [a!.playerId, 500, 1],
        [cheat!.playerId, 100, 2],
      ]);
    });
  });
});
