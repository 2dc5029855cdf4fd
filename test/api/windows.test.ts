import { expect } from 'chai';
import { api, testStores } from '../helpers/context.js';
import { reserveReportsKeys } from '../../engine/live/keys.js';
import {
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  internalBoard,
  reportScore,
  secretKey,
  sendBatch,
  signup,
  signupMany,
  type TestGame,
  type TestPlayer,
  uniqueId,
} from '../helpers/fixtures.js';

const iso = (ms: number) => new Date(ms).toISOString();
const put = (game: TestGame, id: string, body: Record<string, unknown>) =>
  api().put(`/api/v1/server/leaderboards/${id}`).set(secretKey(game)).send(body);
const body = async (game: TestGame, id: string) =>
  (await api().get(`/api/v1/server/leaderboards/${id}`).set(secretKey(game)).expect(200)).body;
const record = (game: TestGame, id: string, player: TestPlayer) =>
  api().get(`/api/v1/client/leaderboards/${id}/players/${player.playerId}`).set(secretKey(game));

/**
 * A one-off window: the current season accepts reports only from opens_at until closes_at, judged at
 * each request's arrival, and a reset clears it (docs/competitions.md).
 */
describe('competitions: a window for reports', () => {
  let game: TestGame;
  before(async () => {
    game = await createGame();
  });

  it('when a board has a window, then its body shows it and its state: upcoming, open, then closed', async () => {
    const now = Date.now();
    const id = await createLeaderboard(game, { opens_at: iso(now + 60_000), closes_at: iso(now + 120_000) });
    expect(await body(game, id)).to.include({ opens_at: iso(now + 60_000), closes_at: iso(now + 120_000), state: 'upcoming' });
    await put(game, id, { opens_at: iso(now - 60_000) }).expect(200);
    expect(await body(game, id)).to.include({ opens_at: iso(now - 60_000), closes_at: iso(now + 120_000), state: 'open' });
    await put(game, id, { closes_at: iso(Date.now() - 1) }).expect(200);
    expect(await body(game, id)).to.include({ state: 'closed' });
    const plain = await createLeaderboard(game);
    expect(await body(game, plain)).to.include({ opens_at: null, closes_at: null, state: 'open' });
  });

  it('when a client reports before the window opens or after it closes, then 403 leaderboard_closed and nothing is recorded', async () => {
    const now = Date.now();
    const [early, late] = [
      await createLeaderboard(game, { opens_at: iso(now + 600_000) }),
      await createLeaderboard(game, { opens_at: iso(now - 600_000), closes_at: iso(now - 1) }),
    ];
    const player = await signup(game);
    for (const id of [early, late]) {
      const res = await reportScore(game, player, id, 10).expect(403);
      expect(res.body.error.code).to.equal('leaderboard_closed');
      await record(game, id, player).expect(404);
    }
    const open = await createLeaderboard(game, { opens_at: iso(now - 600_000), closes_at: iso(now + 600_000) });
    expect((await reportScore(game, player, open, 10).expect(200)).body.rank).to.equal(1);
  });

  it('when reports race the close, then every report answered 200 counts and every one refused left nothing', async () => {
    const closesAt = Date.now() + 400;
    const id = await createLeaderboard(game, { closes_at: iso(closesAt) });
    const players = await signupMany(game, 40);
    const answers: { player: TestPlayer; status: number; sentAt: number; at: number }[] = [];
    // Waves of reports until well after the close.
    for (let wave = 0; Date.now() < closesAt + 200; wave++) {
      await Promise.all(
        players.slice((wave * 5) % 40, ((wave * 5) % 40) + 5).map(async (player) => {
          const sentAt = Date.now();
          const res = await reportScore(game, player, id, 1000 + wave);
          answers.push({ player, status: res.status, sentAt, at: Date.now() });
        }),
      );
    }
    expect(answers.some((answer) => answer.status === 200)).to.equal(true);
    expect(answers.filter((answer) => answer.status !== 200).map((answer) => answer.status)).to.satisfy((codes: number[]) =>
      codes.every((code) => code === 403),
    );
    // Judged at arrival: answered before the close, accepted; sent after it, refused.
    expect(answers.filter((answer) => answer.at < closesAt && answer.status !== 200)).to.deep.equal([]);
    expect(answers.filter((answer) => answer.sentAt >= closesAt && answer.status !== 403)).to.deep.equal([]);
    expect(answers.some((answer) => answer.sentAt >= closesAt)).to.equal(true);
    const { apiKey } = await createThirdPartyKey(game);
    const page = await api().get(`/api/v1/third_party/leaderboards/${id}?limit=100`).set('Api-Key', apiKey).expect(200);
    const accepted = new Set(answers.filter((answer) => answer.status === 200).map((answer) => answer.player.playerId));
    expect(new Set(page.body.entries.map((entry: { player_id: string }) => entry.player_id))).to.deep.equal(accepted);
  });

  it('when a server batch holds one pair for a closed board, then the batch is refused whole, naming the pair', async () => {
    const open = await createLeaderboard(game);
    const closed = await createLeaderboard(game, { closes_at: iso(Date.now() - 1000) });
    const player = await signup(game);
    const res = await sendBatch(game, { player_id: player.playerId, scores: [5, 6], leaderboard_ids: [open, closed] }).expect(403);
    expect(res.body.error.code).to.equal('leaderboard_closed');
    expect(res.body.error.details).to.deep.equal([
      { field: 'leaderboard_ids[1]', message: `leaderboard '${closed}' is not open for reports` },
    ]);
    await record(game, open, player).expect(404);
    // With an Idempotency-Key: refused the same, and the key is free for the corrected batch.
    const key = uniqueId('key');
    await sendBatch(game, { player_id: player.playerId, scores: [5, 6], leaderboard_ids: [open, closed] })
      .set('Idempotency-Key', key)
      .expect(403);
    await record(game, open, player).expect(404);
    await sendBatch(game, { player_id: player.playerId, scores: [5], leaderboard_ids: [open] })
      .set('Idempotency-Key', uniqueId('key'))
      .expect(200);
    expect((await record(game, open, player).expect(200)).body.score).to.equal(5);
  });

  it('when a batch was accepted before the close and is retried with its key after it, then the retry gets the first answers', async () => {
    const closesAt = Date.now() + 300;
    const [first, second] = [await createLeaderboard(game, { closes_at: iso(closesAt) }), await createLeaderboard(game)];
    const player = await signup(game);
    const key = uniqueId('key');
    const batch = { player_id: player.playerId, scores: [7, 8], leaderboard_ids: [first, second] };
    const answered = await sendBatch(game, batch).set('Idempotency-Key', key).expect(200);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, closesAt - Date.now() + 50)));
    const replayed = await sendBatch(game, batch).set('Idempotency-Key', key).expect(200);
    expect(replayed.body).to.deep.equal(answered.body);
    // A new request after the close is refused.
    await sendBatch(game, { ...batch, scores: [9, 9] }).expect(403);
  });

  it('when a banned player reports to a closed board, then the ban is what the answer says (bans are judged first)', async () => {
    const closed = await createLeaderboard(game, { closes_at: iso(Date.now() - 1000) });
    const player = await signup(game);
    await api().post(`/api/v1/server/players/${player.playerId}/ban`).set(secretKey(game)).send({ reason: 'test' }).expect(200);
    expect((await reportScore(game, player, closed, 1).expect(403)).body.error.code).to.equal('player_banned');
    const batch = await sendBatch(game, { player_id: player.playerId, scores: [1], leaderboard_ids: [closed] }).expect(403);
    expect(batch.body.error.code).to.equal('player_banned');
  });

  it('when a season with a closed window is reset, then the window is gone and the new season accepts reports', async () => {
    const id = await createLeaderboard(game, { closes_at: iso(Date.now() - 1000) });
    const player = await signup(game);
    await reportScore(game, player, id, 3).expect(403);
    await api().post(`/api/v1/server/leaderboards/${id}/reset`).set(secretKey(game)).expect(200);
    expect(await body(game, id)).to.include({ season: 2, opens_at: null, closes_at: null, state: 'open' });
    expect((await reportScore(game, player, id, 3).expect(200)).body.season).to.equal(2);
  });

  it('when the window of a closed season is changed, then 409 conflict and the window stays as it ended', async () => {
    const closesAt = iso(Date.now() - 1000);
    const id = await createLeaderboard(game, { closes_at: closesAt });
    const res = await put(game, id, { closes_at: iso(Date.now() + 600_000) }).expect(409);
    expect(res.body.error.code).to.equal('conflict');
    await put(game, id, { opens_at: null, closes_at: null }).expect(409);
    // Other settings still change, and the window with them stays.
    await put(game, id, { name: 'Finished cup' }).expect(200);
    expect(await body(game, id)).to.include({ name: 'Finished cup', closes_at: closesAt, state: 'closed' });
  });

  it('when a window is invalid or comes with a reset schedule, then 400 and nothing changes', async () => {
    const id = await createLeaderboard(game);
    const now = Date.now();
    for (const bad of [
      { opens_at: iso(now + 2000), closes_at: iso(now + 1000) },
      { opens_at: 'tomorrow' },
      { closes_at: 12 },
      { closes_at: iso(now + 1000), reset_schedule: { cron: '0 0 * * 1', timezone: 'UTC' } },
    ]) {
      const res = await put(game, id, bad).expect(400);
      expect(res.body.error.code).to.equal('validation_failed');
    }
    expect(await body(game, id)).to.include({ opens_at: null, closes_at: null, state: 'open', reset_schedule: null });
    const scheduled = await createLeaderboard(game, { reset_schedule: { cron: '0 0 * * 1', timezone: 'UTC' } });
    await put(game, scheduled, { opens_at: iso(now) }).expect(400);
  });

  describe('open_seconds: every season open for a while from its start', () => {
    const daily = { cron: '0 0 * * *', timezone: 'Europe/Paris' };

    /** Moves the current season's start back, in Redis (which the report script reads) and PostgreSQL (which bodies read). */
    async function startedAgo(id: string, ms: number): Promise<Date> {
      const board = await internalBoard(game, id);
      const { pool, redis, keys } = testStores();
      const startedAt = new Date(Date.now() - ms);
      await redis.set(keys(board).seasonStarted, String(startedAt.getTime()));
      await pool.query('UPDATE leaderboards SET season_started_at = $2 WHERE internal_id = $1', [board.internalId, startedAt]);
      return startedAt;
    }

    it('when a scheduled board is open an hour from each reset, then reports within it count, later ones are refused, and a reset opens it again', async () => {
      const id = await createLeaderboard(game, { reset_schedule: daily, open_seconds: 3600 });
      const player = await signup(game);
      const startedAt = await startedAgo(id, 600_000);
      expect(await body(game, id)).to.include({
        open_seconds: 3600,
        opens_at: startedAt.toISOString(),
        closes_at: new Date(startedAt.getTime() + 3_600_000).toISOString(),
        state: 'open',
      });
      await reportScore(game, player, id, 10).expect(200);
      await startedAgo(id, 3_600_000);
      expect((await body(game, id)).state).to.equal('closed');
      expect((await reportScore(game, player, id, 20).expect(403)).body.error.code).to.equal('leaderboard_closed');
      const batch = await sendBatch(game, { player_id: player.playerId, scores: [30], leaderboard_ids: [id] }).expect(403);
      expect(batch.body.error.details).to.have.length(1);
      expect((await record(game, id, player).expect(200)).body.score).to.equal(10);
      // Closed: its window cannot change; a reset opens the next season for its hour.
      await put(game, id, { open_seconds: 7200 }).expect(409);
      await api().post(`/api/v1/server/leaderboards/${id}/reset`).set(secretKey(game)).expect(200);
      expect(await body(game, id)).to.include({ season: 2, state: 'open' });
      expect((await reportScore(game, player, id, 40).expect(200)).body.season).to.equal(2);
    });

    it('when a report arrived just before a reset and reaches the board after it, then it is judged at the new season’s start, as on a one-off window', async () => {
      const id = await createLeaderboard(game, { reset_schedule: daily, open_seconds: 3600 });
      const player = await signup(game);
      const board = await internalBoard(game, id);
      // The season began 2 h ago, so its hour is over now.
      const startedAt = await startedAgo(id, 7_200_000);
      const { redis, prefix } = testStores();
      // The window check the report script makes, with an arrival 5 s before the season began.
      const refusal = (arrivedAt: number) =>
        redis.reserveReports(
          ...reserveReportsKeys(prefix, board.internalId),
          player.playerId,
          arrivedAt,
          '',
          '',
          '',
          '3600',
          '',
          '',
          '',
          '',
          1,
          60_000,
        );
      expect(await refusal(Date.now())).to.equal(6);
      expect(await refusal(startedAt.getTime() - 5000)).to.equal(0);
    });

    it("when open_seconds exceeds the shortest time between the schedule's runs, then 400 (a weekly Paris schedule has a 167-hour week in spring)", async () => {
      const weekly = { cron: '0 0 * * 1', timezone: 'Europe/Paris' };
      const refused = await put(game, uniqueId('lb'), { reset_schedule: weekly, open_seconds: 604_800 }).expect(400);
      expect(refused.body.error.details).to.deep.equal([
        {
          field: 'open_seconds',
          message: "must not exceed 601200 s, the shortest time between the schedule's runs over the next 366 days",
        },
      ]);
      const id = await createLeaderboard(game, { reset_schedule: weekly, open_seconds: 601_200 });
      expect((await body(game, id)).open_seconds).to.equal(601_200);
      // Checked again when the schedule changes.
      await put(game, id, { reset_schedule: daily }).expect(400);
      expect((await body(game, id)).reset_schedule).to.deep.equal(weekly);
    });

    it('when open_seconds comes without a schedule, with a one-off window or out of bounds, then 400 and nothing changes', async () => {
      const id = await createLeaderboard(game);
      for (const bad of [
        { open_seconds: 3600 },
        { reset_schedule: daily, open_seconds: 59 },
        { reset_schedule: daily, open_seconds: 3600.5 },
        { reset_schedule: daily, open_seconds: '3600' },
        { reset_schedule: daily, open_seconds: 3600, closes_at: iso(Date.now() + 60_000) },
      ]) {
        const res = await put(game, id, bad).expect(400);
        expect(res.body.error.code).to.equal('validation_failed');
      }
      expect(await body(game, id)).to.include({ open_seconds: null, reset_schedule: null, state: 'open' });
      const scheduled = await createLeaderboard(game, { reset_schedule: daily, open_seconds: 3600 });
      await put(game, scheduled, { reset_schedule: null }).expect(400);
      await put(game, scheduled, { reset_schedule: null, open_seconds: null }).expect(200);
    });
  });
});
