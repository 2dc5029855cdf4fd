import { expect } from 'chai';
import { api, testStores } from '../helpers/context.js';
import {
  createGame,
  createLeaderboard,
  internalBoard,
  reportScore,
  secretKey,
  sendBatch,
  signupMany,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { inParallel } from '../helpers/persistence.js';
import { releaseReportsKeys, reportScoreKeys, reserveReportsKeys, seatOfKeys } from '../../engine/live/keys.js';

/**
 * A server batch reserves before it writes (docs/competitions.md, part 3): on every board with
 * entry rules it holds an attempt per report and a seat, in that board's own step (each board its
 * own Redis Cluster slot), and gives them all back when one board refuses, so a batch lands whole or
 * not at all even while other reports and batches race it for the last seats.
 */
describe('competitions: server batches reserve seats and attempts', function () {
  this.timeout(120_000);
  let game: TestGame;
  before(async () => {
    game = await createGame();
  });

  const client = (player: TestPlayer) => ({ 'Publishable-Key': game.publishableKey, 'Anonymous-Authorization': player.token });
  const enter = (id: string, player: TestPlayer) => api().post(`/api/v1/client/leaderboards/${id}/entry`).set(client(player));
  const record = (id: string, player: TestPlayer) =>
    api().get(`/api/v1/client/leaderboards/${id}/players/${player.playerId}`).set(secretKey(game));
  const seatsTaken = async (id: string) => {
    const board = await internalBoard(game, id);
    const [players] = await testStores().redis.seatOf(...seatOfKeys(testStores().prefix, board.internalId), 'nobody');
    return players;
  };
  it('when one board of a batch is full, then the batch is refused whole and the other boards keep no seat or attempt for it', async () => {
    const full = await createLeaderboard(game, { max_players: 1 });
    const limited = await createLeaderboard(game, { max_attempts: 3, max_players: 10 });
    const [holder, player] = await signupMany(game, 2);
    await sendBatch(game, { player_id: holder!.playerId, scores: [1], leaderboard_ids: [full] }).expect(200);
    const refused = await sendBatch(game, { player_id: player!.playerId, scores: [5, 6], leaderboard_ids: [limited, full] }).expect(409);
    expect(refused.body.error.code).to.equal('leaderboard_full');
    expect(refused.body.error.details).to.deep.equal([{ field: 'leaderboard_ids[1]', message: `leaderboard '${full}' is full` }]);
    // Nothing held on the board that accepted: its seats and the player's three attempts are all there.
    expect(await seatsTaken(limited)).to.equal(0);
    const accepted = await sendBatch(game, {
      player_id: player!.playerId,
      scores: [1, 2, 3],
      leaderboard_ids: [limited, limited, limited],
    });
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(200);
    expect(accepted.body.results.map((r: { attempts_left: number }) => r.attempts_left)).to.have.members([0, 1, 2]);
  });

  it('when 40 batches race for the last 10 seats of two boards, then each lands on both boards or on neither', async () => {
    const first = await createLeaderboard(game, { max_players: 10 });
    const second = await createLeaderboard(game, { max_players: 10, max_attempts: 5 });
    const players = await signupMany(game, 40);
    const answers = await inParallel(
      players.map((p, i) => () => sendBatch(game, { player_id: p.playerId, scores: [i, i], leaderboard_ids: [first, second] })),
      40,
    );
    const landed = players.filter((_, i) => answers[i]!.status === 200).map((p) => p.playerId);
    for (const answer of answers) expect([200, 409]).to.include(answer.status);
    expect(landed.length).to.be.within(1, 10);
    const { redis, keys } = testStores();
    const ranked = async (id: string) => (await redis.zrange(keys(await internalBoard(game, id)).scores, 0, -1)).sort();
    expect(await ranked(first)).to.deep.equal([...landed].sort());
    expect(await ranked(second)).to.deep.equal([...landed].sort());
    // No refused batch left a reservation behind: the seats taken are the players who landed.
    expect(await seatsTaken(first)).to.equal(landed.length);
    expect(await seatsTaken(second)).to.equal(landed.length);
  });

  it('when a reservation is never used, then its seat and attempts are free again once it lapses', async () => {
    const id = await createLeaderboard(game, { max_players: 1, max_attempts: 2 });
    const board = await internalBoard(game, id);
    const [player, other] = await signupMany(game, 2);
    const { redis, prefix } = testStores();
    // A batch that reserved and died before writing, with a lifetime of 300 ms.
    const reply = await redis.reserveReports(
      ...reserveReportsKeys(prefix, board.internalId),
      player!.playerId,
      Date.now(),
      '',
      '',
      '',
      '',
      '',
      '1',
      '2',
      '',
      2,
      300,
    );
    expect(reply).to.equal(1);
    expect(await seatsTaken(id)).to.equal(1);
    const held = await sendBatch(game, { player_id: other!.playerId, scores: [1], leaderboard_ids: [id] }).expect(409);
    expect(held.body.error.code).to.equal('leaderboard_full');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await seatsTaken(id)).to.equal(0);
    await sendBatch(game, { player_id: other!.playerId, scores: [1], leaderboard_ids: [id] }).expect(200);
  });

  /**
   * The board's scripts called as a batch calls them (engine/live/rankings.ts), for the steps no
   * request can time: reserving, and one report of the batch using what it reserved.
   */
  const scripts = async (id: string, rules: { join?: boolean; maxPlayers: number; groupSize?: number }) => {
    const board = await internalBoard(game, id);
    const { redis, prefix } = testStores();
    const seatArgs = [rules.join ? '1' : '', String(rules.maxPlayers), '', rules.groupSize ? String(rules.groupSize) : ''];
    return {
      reserve: (playerId: string, reports: number) =>
        redis.reserveReports(
          ...reserveReportsKeys(prefix, board.internalId),
          playerId,
          Date.now(),
          '',
          '',
          '',
          '',
          ...seatArgs,
          reports,
          60_000,
        ),
      release: (playerId: string, reports: number) =>
        redis.releaseReports(...releaseReportsKeys(prefix, board.internalId), playerId, reports),
      report: (playerId: string, score: number) =>
        redis.reportScore(
          ...reportScoreKeys(prefix, board.internalId, playerId),
          playerId,
          String(score),
          'desc',
          60_000,
          'best',
          '',
          '',
          0,
          '',
          Date.now(),
          '',
          '',
          '',
          '',
          ...seatArgs,
          '1',
          // notify_top, review rules, judged, approval: none (reportScore-32.lua's ARGV 20-23).
          '',
          '',
          '',
          '',
        ),
    };
  };

  it('when a report using a reservation must wait for league moves, then it leaves the reservation for the call asked again', async () => {
    const id = await createLeaderboard(game, { max_players: 10, groups: { size: 5, tiers: ['low', 'high'], promote: 1, relegate: 1 } });
    const board = await internalBoard(game, id);
    const [player] = await signupMany(game, 1);
    const { redis, keys } = testStores();
    const calls = await scripts(id, { maxPlayers: 10, groupSize: 5 });
    expect(await calls.reserve(player!.playerId, 1)).to.equal(1);
    // A season whose league moves are due: the report stops before writing anything.
    await redis.hset(keys(board).tiers, ':moves', '0');
    const stopped = await calls.report(player!.playerId, 7).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(stopped).to.match(/^LBMOVES 0/);
    expect(await redis.hget(keys(board).reservations, player!.playerId)).to.match(/^1:/);
    expect(await redis.zscore(keys(board).reserved, player!.playerId)).to.not.equal(null);
    // Asked again once the moves are applied, it uses the reservation once.
    await redis.hdel(keys(board).tiers, ':moves');
    await calls.report(player!.playerId, 7);
    expect(await redis.hexists(keys(board).reservations, player!.playerId)).to.equal(0);
    expect(await seatsTaken(id)).to.equal(1);
  });

  it('when a player enters while a batch holds a seat for them, then the seat stays theirs after the batch gives it back', async () => {
    const id = await createLeaderboard(game, { max_players: 1 });
    const [player, other] = await signupMany(game, 2);
    const calls = await scripts(id, { maxPlayers: 1 });
    expect(await calls.reserve(player!.playerId, 1)).to.equal(1);
    const client = (p: typeof player) => ({ 'Publishable-Key': game.publishableKey, 'Anonymous-Authorization': p!.token });
    await api().post(`/api/v1/client/leaderboards/${id}/entry`).set(client(player)).expect(200);
    await calls.release(player!.playerId, 1);
    expect(await seatsTaken(id)).to.equal(1);
    const full = await api().post(`/api/v1/client/leaderboards/${id}/entry`).set(client(other)).expect(409);
    expect(full.body.error.code).to.equal('leaderboard_full');
  });

  it('when a seat goes by a removal while a batch holds attempts for its player, then it stays theirs until the batch lands', async () => {
    const id = await createLeaderboard(game, { max_players: 2 });
    const [player, other, late] = await signupMany(game, 3);
    await reportScore(game, player!, id, 10).expect(200);
    await reportScore(game, other!, id, 20).expect(200);
    const calls = await scripts(id, { maxPlayers: 2 });
    // Judged holding a seat: the batch reserves an attempt only.
    expect(await calls.reserve(player!.playerId, 1)).to.equal(1);
    await api().delete(`/api/v1/server/leaderboards/${id}/scores/${player!.playerId}`).set(secretKey(game)).expect(204);
    expect((await reportScore(game, late!, id, 30).expect(409)).body.error.code).to.equal('leaderboard_full');
    // The kept seat's key expires with the reservation, as the batch's own keys do.
    const { redis, keys } = testStores();
    expect(await redis.pttl(keys(await internalBoard(game, id)).reserved)).to.be.within(1, 60_000);
    await calls.report(player!.playerId, 15);
    expect((await record(id, player!).expect(200)).body).to.include({ score: 15, rank: 2, total: 2 });
    expect(await seatsTaken(id)).to.equal(2);
    expect((await reportScore(game, late!, id, 30).expect(409)).body.error.code).to.equal('leaderboard_full');
  });

  it('when a player whose seat is kept for a batch is erased or has a hold approved, then the seat counts once or not at all', async () => {
    const id = await createLeaderboard(game, { max_players: 3, review: { above: 1000 } });
    const [erased, held, other, late] = await signupMany(game, 4);
    for (const [p, score] of [
      [erased!, 10],
      [held!, 20],
      [held!, 5000],
      [other!, 30],
    ] as const) {
      await reportScore(game, p, id, score).expect(200);
    }
    const calls = await scripts(id, { maxPlayers: 3 });
    const remove = (p: TestPlayer) =>
      api().delete(`/api/v1/server/leaderboards/${id}/scores/${p.playerId}`).set(secretKey(game)).expect(204);
    for (const p of [erased!, held!]) {
      expect(await calls.reserve(p.playerId, 1)).to.equal(1);
      await remove(p);
    }
    expect(await seatsTaken(id)).to.equal(3);
    // An erased player's kept seat goes with them.
    await api().delete(`/api/v1/server/players/${erased!.playerId}`).set(secretKey(game)).expect(204);
    expect(await seatsTaken(id)).to.equal(2);
    // An approved hold is the player's entry: the seat kept for their batch would count it twice.
    const { body: queue } = await api().get(`/api/v1/server/reviews?leaderboard_id=${id}`).set(secretKey(game)).expect(200);
    await api().post(`/api/v1/server/reviews/${queue.reviews[0].review_id}/approve`).set(secretKey(game)).expect(200);
    expect(await seatsTaken(id)).to.equal(2);
    await reportScore(game, late!, id, 40).expect(200);
  });

  it('when a held score’s rejection frees a seat while a batch holds attempts for its player, then the batch’s report lands entered', async () => {
    const id = await createLeaderboard(game, { join_required: true, max_players: 2, review: { above: 1000 } });
    const [player, other, late] = await signupMany(game, 3);
    for (const p of [player!, other!]) await enter(id, p).expect(200);
    await reportScore(game, player!, id, 5000).expect(200);
    const calls = await scripts(id, { join: true, maxPlayers: 2 });
    expect(await calls.reserve(player!.playerId, 1)).to.equal(1);
    const { body: queue } = await api().get(`/api/v1/server/reviews?leaderboard_id=${id}`).set(secretKey(game)).expect(200);
    await api().post(`/api/v1/server/reviews/${queue.reviews[0].review_id}/reject`).set(secretKey(game)).send({}).expect(200);
    expect((await enter(id, late!).expect(409)).body.error.code).to.equal('leaderboard_full');
    await calls.report(player!.playerId, 15);
    expect((await record(id, player!).expect(200)).body).to.include({ score: 15, rank: 1, total: 1 });
    expect((await enter(id, player!).expect(200)).body).to.include({ entered: true, players: 2 });
  });

  it('when the first of a batch’s two reports to a board lands, then the player’s seat counts once', async () => {
    const id = await createLeaderboard(game, { max_players: 2 });
    const [player, other] = await signupMany(game, 2);
    const calls = await scripts(id, { maxPlayers: 2 });
    expect(await calls.reserve(player!.playerId, 2)).to.equal(1);
    await calls.report(player!.playerId, 5);
    expect(await seatsTaken(id)).to.equal(1);
    await sendBatch(game, { player_id: other!.playerId, scores: [1], leaderboard_ids: [id] }).expect(200);
  });

  it('when a batch names a board twice, then it reserves two attempts there and uses both', async () => {
    const id = await createLeaderboard(game, { max_attempts: 2 });
    const [player] = await signupMany(game, 1);
    const twice = await sendBatch(game, { player_id: player!.playerId, scores: [1, 2], leaderboard_ids: [id, id] }).expect(200);
    expect(twice.body.results.map((r: { attempts_left: number }) => r.attempts_left).sort()).to.deep.equal([0, 1]);
    const third = await sendBatch(game, { player_id: player!.playerId, scores: [3], leaderboard_ids: [id] }).expect(403);
    expect(third.body.error.code).to.equal('attempts_exhausted');
    expect(await seatsTaken(id)).to.equal(1);
  });
});
