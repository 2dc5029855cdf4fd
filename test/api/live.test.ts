import { expect } from 'chai';
import { api, testUrl } from '../helpers/context.js';
import { openEventStream, type EventStream } from '../helpers/event-stream.js';
import {
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  reportScore,
  scoredPlayers,
  secretKey,
  serverReport,
  signup,
  signupMany,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';

/**
 * Live leaderboards (docs/events.md part 6): a stream answers the first entries at once and again
 * whenever they change, at most once a second, and ends when its credential no longer opens it.
 */
describe('live leaderboard streams', () => {
  const open: EventStream[] = [];
  afterEach(() => {
    for (const stream of open.splice(0)) stream.close();
  });

  async function watch(game: TestGame, leaderboardId: string, player: TestPlayer, limit = 10): Promise<EventStream> {
    const query = new URLSearchParams({ token: player.token, limit: String(limit) });
    const stream = await openEventStream(`${testUrl()}/api/v1/client/leaderboards/${leaderboardId}/live?${query.toString()}`);
    open.push(stream);
    return stream;
  }

  async function watchWithKey(apiKey: string, leaderboardId: string, limit = 10): Promise<EventStream> {
    const stream = await openEventStream(`${testUrl()}/api/v1/third_party/leaderboards/${leaderboardId}/live?limit=${limit}`, {
      'Api-Key': apiKey,
    });
    open.push(stream);
    return stream;
  }

  type Top = { leaderboard_id: string; total: number; entries: { player_id: string; score: number; rank: number }[] };
  const top = (event: { event?: string; data: string }): Top => {
    expect(event.event).to.equal('top');
    return JSON.parse(event.data) as Top;
  };
  const rows = (body: Top) => body.entries.map((e) => [e.player_id, e.score, e.rank]);

  /** Whether the stream ends within `ms`. */
  const endsWithin = (stream: EventStream, ms: number) =>
    Promise.race([stream.ended.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

  it('when a player watches a board, then the first entries arrive at once and again when a report changes them', async () => {
    const game = await createGame();
    const board = await createLeaderboard(game);
    const [a, b, c] = await scoredPlayers(game, board, [300, 200, 100]);
    const stream = await watch(game, board, c!, 2);

    expect(stream.status).to.equal(200);
    expect(stream.headers['content-type']).to.match(/^text\/event-stream/);
    expect(stream.headers['cache-control']).to.equal('no-store');
    const first = top(await stream.next());
    expect(first).to.include({ leaderboard_id: board, total: 3 });
    expect(rows(first)).to.deep.equal([
      [a!.playerId, 300, 1],
      [b!.playerId, 200, 2],
    ]);

    await reportScore(game, c!, board, 250).expect(200);
    expect(rows(top(await stream.next(3000)))).to.deep.equal([
      [a!.playerId, 300, 1],
      [c!.playerId, 250, 2],
    ]);
  });

  it('when a game client sends its token in Anonymous-Authorization instead of ?token=, then the stream opens as well', async () => {
    const game = await createGame();
    const board = await createLeaderboard(game);
    const [player] = await scoredPlayers(game, board, [5]);
    const stream = await openEventStream(`${testUrl()}/api/v1/client/leaderboards/${board}/live`, {
      'Anonymous-Authorization': `Bearer ${player!.token}`,
    });
    open.push(stream);
    expect(stream.status).to.equal(200);
    expect(rows(top(await stream.next()))).to.deep.equal([[player!.playerId, 5, 1]]);
  });

  it('when a change leaves the entries a stream shows as they were, then that stream is sent nothing', async () => {
    const game = await createGame();
    const board = await createLeaderboard(game);
    const [, , , d] = await scoredPlayers(game, board, [400, 300, 200, 10]);
    const short = await watch(game, board, d!, 2);
    const long = await watch(game, board, d!, 4);
    await short.next();
    await long.next();

    await reportScore(game, d!, board, 100).expect(200);
    const moved = top(await long.next(3000));
    expect(moved.entries[3]).to.include({ player_id: d!.playerId, score: 100 });
    // The long stream's update has gone out: the short one's, had there been one, would have too.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(short.events).to.have.length(1);
  });

  /** A board watched (its first event taken) by its one scored player, and a player ready to climb it. */
  async function watchedBoard() {
    const game = await createGame();
    const board = await createLeaderboard(game);
    const [watcher] = await scoredPlayers(game, board, [1]);
    const stream = await watch(game, board, watcher!, 5);
    await stream.next();
    return { game, board, stream, climber: await signup(game) };
  }

  it('when reports come faster than once a second, then a stream gets at most one update a second, the last one current', async () => {
    const { game, board, stream, climber } = await watchedBoard();
    for (let score = 10; score <= 200; score += 10) await reportScore(game, climber, board, score).expect(200);

    // The last report's update, then nothing more.
    let last: Top | undefined;
    while (last?.entries[0]?.score !== 200) last = top(await stream.next(3000));
    const times = stream.events.map((e) => Number(e.id));
    expect(times).to.have.length.below(5);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(stream.events.map((e) => Number(e.id))).to.deep.equal(times);
  });

  it('when an update follows the one before, then they are at least a second apart', async () => {
    const { game, board, stream, climber } = await watchedBoard();
    await reportScore(game, climber, board, 10).expect(200);
    await stream.next(3000);
    const firstAt = Date.now();
    await reportScore(game, climber, board, 20).expect(200);
    await stream.next(3000);
    expect(Date.now() - firstAt).to.be.at.least(900);
  });

  it('when an entry falls out of the first 100 on a latest board, then streams are sent the new first entries', async function () {
    this.timeout(60_000);
    const game = await createGame();
    const board = await createLeaderboard(game, { update_strategy: 'latest' });
    const players = await signupMany(game, 101);
    await Promise.all(players.map((player, i) => serverReport(game, player.playerId, [1000 - i], [board])));
    const stream = await watch(game, board, players[100]!, 1);
    expect(rows(top(await stream.next()))).to.deep.equal([[players[0]!.playerId, 1000, 1]]);

    // From first to 101st: only the score it had before says it was among the first 100.
    await reportScore(game, players[0]!, board, 1).expect(200);
    expect(rows(top(await stream.next(3000)))).to.deep.equal([[players[1]!.playerId, 999, 1]]);
  });

  it('when a third party watches with its key, then it sees the same entries; once the key is revoked, the stream ends within 1 s', async () => {
    const game = await createGame();
    const board = await createLeaderboard(game);
    const [a] = await scoredPlayers(game, board, [50]);
    const { apiKey, keyId } = await createThirdPartyKey(game);
    const stream = await watchWithKey(apiKey, board);
    expect(rows(top(await stream.next()))).to.deep.equal([[a!.playerId, 50, 1]]);

    await api().delete(`/api/v1/server/third_party_keys/${keyId}`).set(secretKey(game)).expect(204);
    expect(await endsWithin(stream, 1000), 'the stream ended').to.equal(true);
    const again = await watchWithKey(apiKey, board);
    expect(again.status).to.equal(401);
  });

  it('when a watching player is banned, then their stream ends within 1 s and a new one is 403 player_banned', async () => {
    const game = await createGame();
    const board = await createLeaderboard(game);
    const [player] = await scoredPlayers(game, board, [10]);
    const stream = await watch(game, board, player!);
    await stream.next();

    await api().post(`/api/v1/server/players/${player!.playerId}/ban`).set(secretKey(game)).send({}).expect(200);
    expect(await endsWithin(stream, 1000), 'the stream ended').to.equal(true);
    const refused = await watch(game, board, player!);
    expect(refused.status).to.equal(403);
    expect(refused.body?.error?.code).to.equal('player_banned');
  });

  it('when a ban removes an entry others watch, then their streams show the board without it', async () => {
    const game = await createGame();
    const board = await createLeaderboard(game);
    const [cheat, honest] = await scoredPlayers(game, board, [999, 10]);
    const stream = await watch(game, board, honest!);
    expect(top(await stream.next()).entries).to.have.length(2);

    await api().post(`/api/v1/server/players/${cheat!.playerId}/ban`).set(secretKey(game)).send({}).expect(200);
    expect(rows(top(await stream.next(3000)))).to.deep.equal([[honest!.playerId, 10, 1]]);
  });

  it('when a watching player is erased, then their stream ends within 1 s', async () => {
    const game = await createGame();
    const board = await createLeaderboard(game);
    const [player] = await scoredPlayers(game, board, [10]);
    const stream = await watch(game, board, player!);
    await stream.next();

    await api().delete(`/api/v1/server/players/${player!.playerId}`).set(secretKey(game)).expect(204);
    expect(await endsWithin(stream, 1000), 'the stream ended').to.equal(true);
  });

  it('when a player opens a sixth stream, then it is 429 rate_limited; closing one lets the next in', async () => {
    const game = await createGame();
    const board = await createLeaderboard(game);
    const player = await signup(game);
    const streams = await Promise.all(Array.from({ length: 5 }, () => watch(game, board, player)));
    expect(streams.map((s) => s.status)).to.deep.equal([200, 200, 200, 200, 200]);

    const sixth = await watch(game, board, player);
    expect(sixth.status).to.equal(429);
    expect(sixth.body?.error?.code).to.equal('rate_limited');
    expect(sixth.headers['retry-after']).to.match(/^\d+$/);

    streams[0]!.close();
    await streams[0]!.ended;
    let next: EventStream | undefined;
    for (let i = 0; i < 20 && next?.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      next = await watch(game, board, player);
    }
    expect(next?.status).to.equal(200);
  });

  it('when the stream is asked with a bad limit, an unknown board or no token, then it is the JSON error that says so', async () => {
    const game = await createGame();
    const board = await createLeaderboard(game);
    const player = await signup(game);
    expect((await watch(game, board, player, 101)).status).to.equal(400);
    const unknown = await watch(game, 'no-such-board', player);
    expect(unknown.status).to.equal(404);
    expect(unknown.body?.error?.code).to.equal('leaderboard_not_found');
    const anonymous = await openEventStream(`${testUrl()}/api/v1/client/leaderboards/${board}/live`);
    expect(anonymous.status).to.equal(401);
  });
});
