import { expect } from 'chai';
import { api, testStores } from '../helpers/context.js';
import {
  createGame,
  createLeaderboard,
  internalBoard,
  reportScore,
  secretKey,
  signup,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** Players find a game's competitions: its listed leaderboards, with their state and the caller's part (docs/competitions.md, part 5). */
describe('competitions: the client list of listed leaderboards', () => {
  let game: TestGame;
  let viewer: TestPlayer;
  const boards: Record<'open' | 'upcoming' | 'closed' | 'unlisted' | 'earliest' | 'daily', string> = {} as never;
  before(async () => {
    game = await createGame();
    viewer = await signup(game);
    const now = Date.now();
    boards.open = await createLeaderboard(game, { listed: true, name: 'Open cup' });
    boards.upcoming = await createLeaderboard(game, { listed: true, opens_at: iso(now + 3_600_000), closes_at: iso(now + 7_200_000) });
    boards.closed = await createLeaderboard(game, { listed: true, closes_at: iso(now - 1000) });
    boards.unlisted = await createLeaderboard(game);
    boards.earliest = await createLeaderboard(game, { listed: true, tie_break: 'earliest' });
    boards.daily = await createLeaderboard(game, {
      listed: true,
      reset_schedule: { cron: '0 0 * * *', timezone: 'UTC' },
      open_seconds: 3600,
    });
    // Another game's listed board never shows.
    await createLeaderboard(await createGame(), { listed: true });
  });

  const list = (query = '', player = viewer) =>
    api()
      .get(`/api/v1/client/leaderboards${query}`)
      .set('Publishable-Key', game.publishableKey)
      .set('Anonymous-Authorization', player.token);
  const ids = (body: { leaderboards: { leaderboard_id: string }[] }) => body.leaderboards.map((board) => board.leaderboard_id);

  it('when a player lists competitions, then the listed boards come oldest first with their state and window, and a state keeps its own', async () => {
    const all = (await list().expect(200)).body;
    expect(ids(all)).to.deep.equal([boards.open, boards.upcoming, boards.closed, boards.earliest, boards.daily]);
    expect(all).to.include({ total: 5, limit: 20, offset: 0 });
    expect(all.leaderboards[0]).to.deep.include({
      name: 'Open cup',
      state: 'open',
      opens_at: null,
      closes_at: null,
      season: 1,
      max_players: null,
    });
    expect(all.leaderboards[1]).to.include({ state: 'upcoming' });
    expect(all.leaderboards[2]).to.include({ state: 'closed' });
    for (const [state, expected] of [
      ['open', [boards.open, boards.earliest, boards.daily]],
      ['upcoming', [boards.upcoming]],
      ['closed', [boards.closed]],
    ] as const) {
      const res = (await list(`?state=${state}`).expect(200)).body;
      expect(ids(res), state).to.deep.equal(expected);
      expect(res.total, state).to.equal(expected.length);
    }
    const page = (await list('?limit=2&offset=1').expect(200)).body;
    expect(ids(page)).to.deep.equal([boards.upcoming, boards.closed]);
    expect(page).to.include({ total: 5, limit: 2, offset: 1 });
  });

  it('when a daily board open an hour from each reset is past its hour, then it lists as closed', async () => {
    const board = await internalBoard(game, boards.daily);
    const startedAt = Date.now() - 2 * 3_600_000;
    await testStores().pool.query('UPDATE leaderboards SET season_started_at = $2 WHERE internal_id = $1', [
      board.internalId,
      new Date(startedAt),
    ]);
    const closed = (await list('?state=closed').expect(200)).body;
    expect(ids(closed)).to.deep.equal([boards.closed, boards.daily]);
    expect(closed.leaderboards[1]).to.include({ opens_at: iso(startedAt), closes_at: iso(startedAt + 3_600_000) });
  });

  it('when players report, then each board counts them (a banned one keeps their place) and says whether the caller is one', async () => {
    const [a, b] = [await signup(game), await signup(game)];
    for (const id of [boards.open, boards.earliest]) {
      await reportScore(game, a, id, 10).expect(200);
      await reportScore(game, b, id, 10).expect(200);
    }
    await api().post(`/api/v1/server/players/${b.playerId}/ban`).set(secretKey(game)).send({}).expect(200);
    const seen = (await list('?state=open', a).expect(200)).body.leaderboards;
    // The open boards (the daily one closed above): the plain and the earliest one.
    expect(seen.map((board: { players: number; entered: boolean }) => [board.players, board.entered])).to.deep.equal([
      [2, true],
      [2, true],
    ]);
    const newcomer = (await list('?state=open').expect(200)).body.leaderboards;
    expect(newcomer.map((board: { entered: boolean; attempts_left: null }) => [board.entered, board.attempts_left])).to.deep.equal([
      [false, null],
      [false, null],
    ]);
  });

  it('when the query is bad, then 400 and nothing is listed', async () => {
    for (const query of ['?state=finished', '?limit=101', '?limit=0', '?offset=-1']) {
      expect((await list(query).expect(400)).body.error.code, query).to.equal('validation_failed');
    }
  });
});
