import { expect } from 'chai';
import { api, testStores } from '../helpers/context.js';
import {
  createGame,
  createLeaderboard,
  internalBoard,
  reportScore,
  secretKey,
  sendBatch,
  sendReport,
  signup,
  signupMany,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { boardLosesLiveState, inParallel, waitForPersistence } from '../helpers/persistence.js';
import { startWorker, type ServiceProcess } from '../helpers/processes.js';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Entries, seats and attempts (docs/competitions.md, part 3): a board that players enter, with at
 * most max_players seats and max_attempts reports per player and season, exact under any concurrency.
 */
describe('competitions: entries, seats and attempts', function () {
  this.timeout(120_000);
  let game: TestGame;
  let worker: ServiceProcess;
  before(async () => {
    worker = await startWorker();
    game = await createGame();
  });
  after(async () => {
    await worker.stop();
  });

  const client = (player: TestPlayer) => ({ 'Publishable-Key': game.publishableKey, 'Anonymous-Authorization': player.token });
  const enter = (id: string, player: TestPlayer) => api().post(`/api/v1/client/leaderboards/${id}/entry`).set(client(player));
  const withdraw = (id: string, player: TestPlayer) => api().delete(`/api/v1/client/leaderboards/${id}/entry`).set(client(player));
  const serverEnter = (id: string, playerId: string) =>
    api().put(`/api/v1/server/leaderboards/${id}/entries/${playerId}`).set(secretKey(game));
  const serverWithdraw = (id: string, playerId: string) =>
    api().delete(`/api/v1/server/leaderboards/${id}/entries/${playerId}`).set(secretKey(game));
  const record = (id: string, player: TestPlayer) =>
    api().get(`/api/v1/client/leaderboards/${id}/players/${player.playerId}`).set(secretKey(game));
  const competitions = (player: TestPlayer) => api().get('/api/v1/client/leaderboards?limit=100').set(client(player)).expect(200);
  const listed = async (id: string, player: TestPlayer) =>
    (await competitions(player)).body.leaderboards.find((board: { leaderboard_id: string }) => board.leaderboard_id === id);
  const errorCode = (res: { body: { error: { code: string } } }) => res.body.error.code;

  it('when a board requires entry, then a report before entering is 403 not_entered, and after entering it counts', async () => {
    const id = await createLeaderboard(game, { join_required: true, max_players: 10 });
    const body = (await api().get(`/api/v1/server/leaderboards/${id}`).set(secretKey(game)).expect(200)).body;
    expect(body).to.include({ join_required: true, max_players: 10, max_attempts: null });
    const player = await signup(game);
    expect(errorCode(await reportScore(game, player, id, 10).expect(403))).to.equal('not_entered');
    await record(id, player).expect(404);
    const entered = (await enter(id, player).expect(200)).body;
    expect(entered).to.deep.equal({
      leaderboard_id: id,
      season: 1,
      player_id: player.playerId,
      entered: true,
      players: 1,
      max_players: 10,
    });
    // Idempotent: a second entry changes nothing.
    expect((await enter(id, player).expect(200)).body).to.deep.equal(entered);
    // Entered without a score: in no ranking.
    const page = (await api().get(`/api/v1/client/leaderboards/${id}`).set(client(player)).expect(200)).body;
    expect(page.total).to.equal(0);
    expect((await reportScore(game, player, id, 10).expect(200)).body.rank).to.equal(1);
    // The server enters its players the same way.
    const other = await signup(game);
    expect((await serverEnter(id, other.playerId).expect(200)).body).to.include({ entered: true, players: 2 });
    await serverEnter(id, 'no-such-player').expect(404);
  });

  it('when a player withdraws before a first report, then the seat is free again; after a report, 409', async () => {
    const id = await createLeaderboard(game, { join_required: true, max_players: 1 });
    const [first, second] = await signupMany(game, 2);
    await enter(id, first!).expect(200);
    expect(errorCode(await enter(id, second!).expect(409))).to.equal('leaderboard_full');
    expect((await withdraw(id, first!).expect(200)).body).to.include({ entered: false, players: 0 });
    // Withdrawn: entering is needed again before a report.
    expect(errorCode(await reportScore(game, first!, id, 5).expect(403))).to.equal('not_entered');
    await serverEnter(id, second!.playerId).expect(200);
    await reportScore(game, second!, id, 5).expect(200);
    expect(errorCode(await serverWithdraw(id, second!.playerId).expect(409))).to.equal('conflict');
    expect((await record(id, second!).expect(200)).body.score).to.equal(5);
  });

  it('when 1,000 players enter a board of 100 seats at once, then exactly 100 are entered and 900 get 409 leaderboard_full', async () => {
    const id = await createLeaderboard(game, { join_required: true, max_players: 100, listed: true });
    const players = await signupMany(game, 1000);
    const answers = await inParallel(
      players.map((player) => () => enter(id, player)),
      200,
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 200)).to.have.length(100);
    expect(answers.filter((res) => res.status === 409 && errorCode(res) === 'leaderboard_full')).to.have.length(900);
    const winners = players.filter((_, i) => statuses[i] === 200);
    expect(await listed(id, winners[0]!)).to.include({ players: 100, max_players: 100, entered: true });
    expect(await listed(id, players[statuses.indexOf(409)]!)).to.include({ players: 100, entered: false });
    // Every seat is persisted once the worker has caught up.
    const board = await internalBoard(game, id);
    await waitForPersistence(board);
    const { rows } = await testStores().pool.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM season_seats WHERE leaderboard_internal_id = $1 AND entered',
      [board.internalId],
    );
    expect(rows[0]!.count).to.equal(100);
  });

  it('when a board without entry has max_players, then a first report takes a seat and the next new player gets 409 leaderboard_full', async () => {
    const id = await createLeaderboard(game, { max_players: 3 });
    const players = await signupMany(game, 5);
    const answers = await Promise.all(players.map((player) => reportScore(game, player, id, 10)));
    expect(answers.filter((res) => res.status === 200)).to.have.length(3);
    expect(answers.filter((res) => res.status === 409).map(errorCode)).to.deep.equal(['leaderboard_full', 'leaderboard_full']);
    // A seated player keeps reporting.
    const seated = players.find((_, i) => answers[i]!.status === 200)!;
    await reportScore(game, seated, id, 20).expect(200);
  });

  it('when 50 reports of one player race on a board of 5 attempts, then exactly 5 are accepted, with 4..0 attempts left', async () => {
    const id = await createLeaderboard(game, { max_attempts: 5 });
    const player = await signup(game);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => reportScore(game, player, id, i)));
    const accepted = answers.filter((res) => res.status === 200);
    expect(accepted.map((res) => res.body.attempts_left).sort()).to.deep.equal([0, 1, 2, 3, 4]);
    const refused = answers.filter((res) => res.status !== 200);
    expect(refused).to.have.length(45);
    expect(new Set(refused.map((res) => `${res.status} ${errorCode(res)}`))).to.deep.equal(new Set(['403 attempts_exhausted']));
    expect((await record(id, player).expect(200)).body.score).to.equal(Math.max(...accepted.map((res) => res.body.submitted_score)));
  });

  it('when a report is refused or replayed with its Idempotency-Key, then it uses no attempt', async () => {
    const id = await createLeaderboard(game, { max_attempts: 2, min_score: 0 });
    const player = await signup(game);
    await sendReport(game, player, id, { score: -1 }).expect(400);
    const keyed = () => sendReport(game, player, id, { score: 7 }).set('Idempotency-Key', `k-${id}`);
    const first = (await keyed().expect(200)).body;
    expect(first.attempts_left).to.equal(1);
    expect((await keyed().expect(200)).body).to.deep.equal(first);
    expect((await reportScore(game, player, id, 8).expect(200)).body.attempts_left).to.equal(0);
    expect(errorCode(await reportScore(game, player, id, 9).expect(403))).to.equal('attempts_exhausted');
    expect(await listed(id, player)).to.equal(undefined); // not listed
    await api().put(`/api/v1/server/leaderboards/${id}`).set(secretKey(game)).send({ listed: true }).expect(200);
    expect(await listed(id, player)).to.include({ attempts_left: 0, entered: true, players: 1 });
  });

  it('when refusals meet, then they come in order: window, entry, seat, attempts', async () => {
    const id = await createLeaderboard(game, {
      join_required: true,
      max_players: 1,
      max_attempts: 1,
      closes_at: iso(Date.now() + 3_600_000),
    });
    const [seated, outsider] = await signupMany(game, 2);
    await enter(id, seated!).expect(200);
    await reportScore(game, seated!, id, 1).expect(200);
    expect(errorCode(await reportScore(game, seated!, id, 2).expect(403))).to.equal('attempts_exhausted');
    expect(errorCode(await reportScore(game, outsider!, id, 2).expect(403))).to.equal('not_entered');
    expect(errorCode(await enter(id, outsider!).expect(409))).to.equal('leaderboard_full');
    await api()
      .put(`/api/v1/server/leaderboards/${id}`)
      .set(secretKey(game))
      .send({ closes_at: iso(Date.now() - 1) })
      .expect(200);
    for (const player of [seated!, outsider!]) {
      expect(errorCode(await reportScore(game, player, id, 3).expect(403))).to.equal('leaderboard_closed');
    }
    // A closed season takes no entries and lets nobody withdraw.
    expect(errorCode(await enter(id, outsider!).expect(409))).to.equal('conflict');
    expect(errorCode(await withdraw(id, seated!).expect(409))).to.equal('conflict');
  });

  it('when a server batch holds a pair a board refuses, then the whole batch is refused and no board changes', async () => {
    const [open, limited, full] = [
      await createLeaderboard(game),
      await createLeaderboard(game, { max_attempts: 2 }),
      await createLeaderboard(game, { max_players: 1 }),
    ];
    const [player, other] = await signupMany(game, 2);
    await reportScore(game, other!, full, 1).expect(200);
    const batch = (ids: string[]) => sendBatch(game, { player_id: player!.playerId, scores: ids.map(() => 50), leaderboard_ids: ids });
    const refused = await batch([open, limited, full]).expect(409);
    expect(refused.body.error.code).to.equal('leaderboard_full');
    expect(refused.body.error.details.map((detail: { field: string }) => detail.field)).to.deep.equal(['leaderboard_ids[2]']);
    await record(open, player!).expect(404);
    await record(limited, player!).expect(404);
    // One board named three times needs three attempts: refused whole, the first refusal in order.
    const twice = await batch([open, limited, limited, limited]).expect(403);
    expect(twice.body.error.code).to.equal('attempts_exhausted');
    await record(open, player!).expect(404);
    const accepted = (await batch([open, limited, limited]).expect(200)).body.results;
    expect(accepted.map((result: { attempts_left?: number }) => result.attempts_left)).to.have.members([undefined, 1, 0]);
  });

  it('when a score is removed, the player banned or erased, then the seat follows: a removal and an erasure free it, a ban keeps it', async () => {
    const id = await createLeaderboard(game, { max_players: 2, max_attempts: 3 });
    const [a, b, c] = await signupMany(game, 3);
    await reportScore(game, a!, id, 10).expect(200);
    await reportScore(game, b!, id, 20).expect(200);
    expect(errorCode(await reportScore(game, c!, id, 30).expect(409))).to.equal('leaderboard_full');
    // Banned: the seat is kept, so the unban never makes the board exceed its seats.
    await api().post(`/api/v1/server/players/${b!.playerId}/ban`).set(secretKey(game)).send({}).expect(200);
    expect(errorCode(await reportScore(game, c!, id, 30).expect(409))).to.equal('leaderboard_full');
    await api().delete(`/api/v1/server/players/${b!.playerId}/ban`).set(secretKey(game)).expect(200);
    // Removed: the seat is free, the attempts used are kept.
    await api().delete(`/api/v1/server/leaderboards/${id}/scores/${a!.playerId}`).set(secretKey(game)).expect(204);
    await reportScore(game, c!, id, 30).expect(200);
    expect(errorCode(await reportScore(game, a!, id, 40).expect(409))).to.equal('leaderboard_full');
    // Erased: the seat is free for someone new.
    await api().delete(`/api/v1/server/players/${c!.playerId}`).set(secretKey(game)).expect(204);
    expect((await reportScore(game, a!, id, 40).expect(200)).body.attempts_left).to.equal(1);
    const board = await internalBoard(game, id);
    await waitForPersistence(board);
    const { rows } = await testStores().pool.query<{ player_id: string; attempts: number }>(
      'SELECT player_id, attempts FROM season_seats WHERE leaderboard_internal_id = $1 ORDER BY attempts',
      [board.internalId],
    );
    expect(rows.map((row) => [row.player_id, row.attempts])).to.have.deep.members([
      [b!.playerId, 1],
      [a!.playerId, 2],
    ]);
  });

  it('when a score is removed and Redis then loses the board, then the attempts used are remembered and the removed player must enter again', async () => {
    const id = await createLeaderboard(game, { join_required: true, max_players: 2, max_attempts: 3 });
    const [removed, kept, newcomer] = await signupMany(game, 3);
    for (const player of [removed!, kept!]) await enter(id, player).expect(200);
    await reportScore(game, removed!, id, 10).expect(200);
    await reportScore(game, removed!, id, 11).expect(200);
    await reportScore(game, kept!, id, 20).expect(200);
    await api().delete(`/api/v1/server/leaderboards/${id}/scores/${removed!.playerId}`).set(secretKey(game)).expect(204);
    // The seat went with the score: someone new takes it.
    await enter(id, newcomer!).expect(200);
    const board = await internalBoard(game, id);
    await waitForPersistence(board);
    await boardLosesLiveState(board);
    expect(errorCode(await reportScore(game, removed!, id, 12).expect(403))).to.equal('not_entered');
    expect(errorCode(await enter(id, removed!).expect(409))).to.equal('leaderboard_full');
    await api().delete(`/api/v1/client/leaderboards/${id}/entry`).set(client(newcomer!)).expect(200);
    await enter(id, removed!).expect(200);
    // Two attempts were used before the removal: this third one is the last.
    expect((await reportScore(game, removed!, id, 12).expect(200)).body.attempts_left).to.equal(0);
  });

  it('when Redis loses the board mid-season, then entries, seats and attempts come back with the rebuild', async () => {
    const id = await createLeaderboard(game, { join_required: true, max_players: 3, max_attempts: 2, listed: true });
    const [waiting, scored, late, outsider] = await signupMany(game, 4);
    await enter(id, waiting!).expect(200);
    await enter(id, scored!).expect(200);
    await reportScore(game, scored!, id, 10).expect(200);
    await reportScore(game, scored!, id, 12).expect(200);
    await enter(id, late!).expect(200);
    const board = await internalBoard(game, id);
    await waitForPersistence(board);
    await boardLosesLiveState(board);
    // The seats are all taken again, the attempts used are remembered, the waiting player still entered.
    expect(errorCode(await enter(id, outsider!).expect(409))).to.equal('leaderboard_full');
    expect(errorCode(await reportScore(game, scored!, id, 14).expect(403))).to.equal('attempts_exhausted');
    expect(await listed(id, waiting!)).to.include({ players: 3, entered: true, attempts_left: 2 });
    expect((await reportScore(game, waiting!, id, 11).expect(200)).body).to.include({ rank: 2, attempts_left: 1 });
    expect((await record(id, scored!).expect(200)).body.score).to.equal(12);
  });

  it('when a season ends, then entries, seats and attempts start over', async () => {
    const id = await createLeaderboard(game, { join_required: true, max_players: 1, max_attempts: 1 });
    const [first, second] = await signupMany(game, 2);
    await enter(id, first!).expect(200);
    await reportScore(game, first!, id, 10).expect(200);
    await api().post(`/api/v1/server/leaderboards/${id}/reset`).set(secretKey(game)).expect(200);
    expect(errorCode(await reportScore(game, first!, id, 20).expect(403))).to.equal('not_entered');
    expect((await enter(id, second!).expect(200)).body).to.include({ season: 2, players: 1 });
    expect((await reportScore(game, second!, id, 5).expect(200)).body).to.include({ season: 2, attempts_left: 0 });
    const board = await internalBoard(game, id);
    await waitForPersistence(board);
    const { rows } = await testStores().pool.query<{ season: number; player_id: string }>(
      'SELECT season, player_id FROM season_seats WHERE leaderboard_internal_id = $1',
      [board.internalId],
    );
    expect(rows).to.deep.equal([{ season: 2, player_id: second!.playerId }]);
  });

  it('when a board has no entry rules, then entering it is 409 conflict', async () => {
    const id = await createLeaderboard(game);
    const player = await signup(game);
    expect(errorCode(await enter(id, player).expect(409))).to.equal('conflict');
    await api().post('/api/v1/client/leaderboards/no-such-board/entry').set(client(player)).expect(404);
  });
});
