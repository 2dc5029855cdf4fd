import { expect } from 'chai';
import { api, testEngine, testStores } from '../helpers/context.js';
import { endedSeasonKeys } from '../../engine/live/keys.js';
import {
  createClan,
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  internalBoard,
  joinClan,
  reportScore,
  reportScores,
  scoredPlayers,
  secretKey,
  signup,
  signupMany,
  type TestGame,
  uniqueId,
} from '../helpers/fixtures.js';
import { nextResetAt } from '../../engine/seasons/schedule.js';
import { SeasonArchiveStore } from '../../engine/seasons/season-archive-store.js';
import { waitForPersistence } from '../helpers/persistence.js';
import { startWorker, type ServiceProcess } from '../helpers/processes.js';

/**
 * The season a report counts in: its number stands beside the board's live keys in Redis and the
 * report's script reads it in the same atomic step as it applies the score.
 */
describe('seasons: the season a report counts in', () => {
  let game: TestGame;
  before(async () => {
    game = await createGame();
  });

  it('when a leaderboard is created, then its body shows season 1, started when the leaderboard was', async () => {
    const res = await api().put('/api/v1/server/leaderboards/weekly').set(secretKey(game)).send({}).expect(201);
    expect(res.body.season).to.equal(1);
    expect(res.body.season_started_at).to.equal(res.body.created_at);
    const listed = await api().get('/api/v1/server/leaderboards').set(secretKey(game)).expect(200);
    expect(listed.body.leaderboards.find((board: { leaderboard_id: string }) => board.leaderboard_id === 'weekly')).to.include({
      season: 1,
      season_started_at: res.body.created_at,
    });
  });

  it('when a score is reported by the client or in a server batch, then each answer says it counted in season 1', async () => {
    const [first, second] = [await createLeaderboard(game), await createLeaderboard(game)];
    const player = await signup(game);
    const client = await reportScore(game, player, first, 10).expect(200);
    expect(client.body.season).to.equal(1);
    const batch = await api()
      .post('/api/v1/server/report_scores')
      .set(secretKey(game))
      .send({ player_id: player.playerId, scores: [20, 30], leaderboard_ids: [first, second] })
      .expect(200);
    expect(batch.body.results.map((result: { season: number }) => result.season)).to.deep.equal([1, 1]);
  });

  it('when the season beside the live keys has moved on, then the next report counts in that season and says so', async () => {
    const leaderboard = await createLeaderboard(game);
    const player = await signup(game);
    await reportScore(game, player, leaderboard, 10).expect(200);
    const board = await internalBoard(game, leaderboard);
    await testStores().redis.set(testStores().keys(board).season, '3');
    const res = await reportScore(game, player, leaderboard, 11).expect(200);
    expect(res.body).to.include({ season: 3, best_score: 11 });
  });

  it('when Redis holds no season for a board (new, or rebuilt after a data loss), then a report takes the one PostgreSQL holds', async () => {
    const leaderboard = await createLeaderboard(game);
    const board = await internalBoard(game, leaderboard);
    const { pool, redis, keys } = testStores();
    await pool.query('UPDATE leaderboards SET season = 5 WHERE internal_id = $1', [board.internalId]);
    // The service reads the row again once told that leaderboards changed (as every change to one does).
    await api().put(`/api/v1/server/leaderboards/${leaderboard}`).set(secretKey(game)).send({ name: 'renamed' }).expect(200);
    // A new board's preparation wrote PostgreSQL's season then (1); a lost dataset leaves none.
    await redis.del(keys(board).season);
    const player = await signup(game);
    const res = await reportScore(game, player, leaderboard, 10).expect(200);
    expect(res.body.season).to.equal(5);
    expect(await redis.get(keys(board).season)).to.equal('5');
  });
});

describe('seasons: reset, archive and reads of ended seasons', () => {
  let game: TestGame;
  let worker: ServiceProcess;
  before(async () => {
    worker = await startWorker();
    game = await createGame();
  });
  after(async () => {
    await worker.stop();
  });

  const reset = (leaderboard: string) => api().post(`/api/v1/server/leaderboards/${leaderboard}/reset`).set(secretKey(game));
  let bot: { 'Api-Key': string };
  before(async () => {
    bot = await thirdPartyKey(game);
  });
  const page = (leaderboard: string, query: string) => api().get(`/api/v1/third_party/leaderboards/${leaderboard}?${query}`).set(bot);

  it('when a season is reset, then the next reports count in a fresh season and the ended one reads exactly as it stood, before and after its archive', async () => {
    const leaderboard = await createLeaderboard(game);
    const board = await internalBoard(game, leaderboard);
    const players = await scoredPlayers(game, leaderboard, [50, 70, 70, 10]);
    const viewer = players[0]!;
    const before = await api()
      .get(`/api/v1/third_party/leaderboards/${leaderboard}?limit=10`)
      .set(await thirdPartyKey(game))
      .expect(200);

    const res = await reset(leaderboard).expect(200);
    expect(res.body).to.deep.equal({ leaderboard_id: leaderboard, season: 2, archived_season: 1 });
    const after = await reportScore(game, viewer, leaderboard, 5).expect(200);
    expect(after.body).to.include({ season: 2, rank: 1, total: 1, best_score: 5 });

    const current = await api()
      .get(`/api/v1/third_party/leaderboards/${leaderboard}?limit=10`)
      .set(await thirdPartyKey(game))
      .expect(200);
    expect(current.body.entries.map((e: { player_id: string }) => e.player_id)).to.deep.equal([viewer.playerId]);
    const archivedNow = await api()
      .get(`/api/v1/third_party/leaderboards/${leaderboard}?limit=10&season=1`)
      .set(await thirdPartyKey(game))
      .expect(200);
    expect(archivedNow.body).to.deep.equal(before.body);

    await waitForPersistence(board);
    const { rows } = await testStores().pool.query('SELECT season, total FROM leaderboard_seasons WHERE leaderboard_internal_id = $1', [
      board.internalId,
    ]);
    expect(rows).to.deep.equal([{ season: 1, total: 4 }]);
    expect(await testStores().redis.exists(...Object.values(endedSeasonKeys(testStores().prefix, board.internalId, 1)))).to.equal(0);
    const archivedLater = await api()
      .get(`/api/v1/third_party/leaderboards/${leaderboard}?limit=10&season=1`)
      .set(await thirdPartyKey(game))
      .expect(200);
    expect(archivedLater.body).to.deep.equal(before.body);
    const paged = await api()
      .get(`/api/v1/third_party/leaderboards/${leaderboard}?limit=2&offset=1&season=1`)
      .set(await thirdPartyKey(game))
      .expect(200);
    expect(paged.body.entries).to.deep.equal(before.body.entries.slice(1, 3));

    const record = await api()
      .get(`/api/v1/client/leaderboards/${leaderboard}/players/${viewer.playerId}?season=1`)
      .set(secretKey(game))
      .expect(200);
    expect(record.body).to.include({ score: 50, rank: 3, total: 4 });
    const liveRecord = await api()
      .get(`/api/v1/client/leaderboards/${leaderboard}/players/${viewer.playerId}`)
      .set(secretKey(game))
      .expect(200);
    expect(liveRecord.body).to.include({ score: 5, rank: 1, total: 1 });
    const around = await api()
      .get(`/api/v1/client/leaderboards/${leaderboard}/around_me?range=1&season=1`)
      .set({ 'Publishable-Key': game.publishableKey, 'Anonymous-Authorization': viewer.token })
      .expect(200);
    expect(around.body.entries.map((e: { score: number; rank: number }) => [e.score, e.rank])).to.deep.equal([
      [70, 1],
      [50, 3],
      [10, 4],
    ]);
  });

  it('when seasons are listed, then the current one comes first with every kept season after it, on the server and third-party APIs', async () => {
    const leaderboard = await createLeaderboard(game);
    await scoredPlayers(game, leaderboard, [1, 2, 3]);
    await reset(leaderboard).expect(200);
    await scoredPlayers(game, leaderboard, [4]);
    await reset(leaderboard).expect(200);
    const server = await api().get(`/api/v1/server/leaderboards/${leaderboard}/seasons`).set(secretKey(game)).expect(200);
    expect(server.body).to.include({ leaderboard_id: leaderboard, current_season: 3, total: 3, limit: 50, offset: 0 });
    expect(
      server.body.seasons.map((s: { season: number; total: number; ended_at: string | null }) => [s.season, s.total, s.ended_at === null]),
    ).to.deep.equal([
      [3, 0, true],
      [2, 1, false],
      [1, 3, false],
    ]);
    expect(server.body.seasons[1].started_at).to.equal(server.body.seasons[2].ended_at);
    const third = await api()
      .get(`/api/v1/third_party/leaderboards/${leaderboard}/seasons?limit=1&offset=1`)
      .set(await thirdPartyKey(game))
      .expect(200);
    expect(third.body.seasons).to.deep.equal([server.body.seasons[1]]);
  });

  it('when a season never existed, is not a positive integer, or is no longer kept, then reads answer 404 season_not_found or 400', async () => {
    const leaderboard = await createLeaderboard(game, { keep_seasons: 1 });
    const board = await internalBoard(game, leaderboard);
    await scoredPlayers(game, leaderboard, [1]);
    await reset(leaderboard).expect(200);
    await reset(leaderboard).expect(200);
    await waitForPersistence(board);
    for (const season of ['1', '4', '99']) {
      const res = await page(leaderboard, `season=${season}`).expect(404);
      expect(res.body.error.code).to.equal('season_not_found');
    }
    await page(leaderboard, 'season=2').expect(200);
    await page(leaderboard, 'season=3').expect(200);
    for (const season of ['0', '-1', 'abc', '1.5']) {
      const res = await page(leaderboard, `season=${season}`).expect(400);
      expect(res.body.error.code).to.equal('validation_failed');
    }
  });

  it('when a clan leaderboard is reset, then clan totals start over (memberships stay) and the archived standings keep totals, ranks and scoring members', async () => {
    const leaderboard = await createLeaderboard(game, { type: 'clan' });
    const board = await internalBoard(game, leaderboard);
    const [red, blue] = [await createClan(game), await createClan(game)];
    const players = await signupMany(game, 3);
    await joinClan(game, red, [players[0]!, players[1]!]);
    await joinClan(game, blue, [players[2]!]);
    await reportScores(game, leaderboard, [
      [players[0]!, 10],
      [players[1]!, 20],
      [players[2]!, 25],
    ]);
    await reset(leaderboard).expect(200);
    await reportScore(game, players[2]!, leaderboard, 3).expect(200);
    const key = await thirdPartyKey(game);
    const live = await api().get(`/api/v1/third_party/leaderboards/${leaderboard}/clans/${red}`).set(key).expect(200);
    expect(live.body).to.include({ score: 0, rank: null, member_count: 2, total: 1 });
    const liveBlue = await api().get(`/api/v1/third_party/leaderboards/${leaderboard}/clans/${blue}`).set(key).expect(200);
    expect(liveBlue.body).to.include({ score: 3, rank: 1, total: 1 });

    await waitForPersistence(board);
    const archived = await api().get(`/api/v1/third_party/leaderboards/${leaderboard}/clans/${red}?season=1`).set(key).expect(200);
    expect(archived.body).to.include({ score: 30, rank: 1, member_count: 2, total: 2 });
    const clans = await api().get(`/api/v1/third_party/leaderboards/${leaderboard}?clan=true&season=1`).set(key).expect(200);
    expect(clans.body.entries.map((e: { clan_id: string; score: number; rank: number }) => [e.clan_id, e.score, e.rank])).to.deep.equal([
      [red, 30, 1],
      [blue, 25, 2],
    ]);
    const members = await api().get(`/api/v1/third_party/leaderboards/${leaderboard}/clans/${red}/members?season=1`).set(key).expect(200);
    expect(
      members.body.entries.map((e: { player_id: string; rank: number; clan_rank: number }) => [e.player_id, e.rank, e.clan_rank]),
    ).to.deep.equal([
      [players[1]!.playerId, 2, 1],
      [players[0]!.playerId, 3, 2],
    ]);
  });

  it('when record reads of archived seasons arrive together, then each answers its own entry, the reads of a season sharing a statement', async () => {
    const [first, second] = [await createLeaderboard(game), await createLeaderboard(game)];
    // Scores with ties: 100, 100, 98, 97, ... on the first board, the reverse order on the second.
    const scores = Array.from({ length: 24 }, (_, i) => (i === 1 ? 100 : 100 - i));
    const players = await scoredPlayers(game, first, scores);
    await reportScores(
      game,
      second,
      players.slice(0, 20).map((player, i) => [player, scores[i]! * -1]),
    );
    await reset(first).expect(200);
    await reset(second).expect(200);
    await waitForPersistence(await internalBoard(game, first));
    await waitForPersistence(await internalBoard(game, second));
    // The players' current-season scores differ, so a read of the wrong season would show.
    await reportScore(game, players[5]!, first, 1000).expect(200);

    const expected = (board: string, player: number) => {
      const own = board === first ? scores : scores.slice(0, 20).map((score) => -score);
      if (player >= own.length) return undefined;
      return { score: own[player]!, rank: 1 + own.filter((score) => score > own[player]!).length, total: own.length };
    };
    const asked = [first, second].flatMap((board) => players.map((player, i) => ({ board, player, i })));
    const answers = await Promise.all(
      asked.map(({ board, player }) =>
        api().get(`/api/v1/client/leaderboards/${board}/players/${player.playerId}?season=1`).set(secretKey(game)),
      ),
    );
    answers.forEach((answer, n) => {
      const { board, i } = asked[n]!;
      const entry = expected(board, i);
      if (entry) expect([answer.status, answer.body], `${board} player ${i}`).to.deep.equal([200, { ...answer.body, ...entry }]);
      else expect([answer.status, answer.body.error.code], `${board} player ${i}`).to.deep.equal([404, 'record_not_found']);
    });

    // The same reads from one process's engine, all begun in one tick: one statement per season.
    const entriesOf = SeasonArchiveStore.prototype.entriesOf;
    let statements = 0;
    SeasonArchiveStore.prototype.entriesOf = function (...args) {
      statements += 1;
      return entriesOf.apply(this, args);
    };
    try {
      const read = await Promise.allSettled(
        asked.map(({ board, player }) => testEngine().scores.record(game.gameId, board, player.playerId, 1)),
      );
      expect(read.map((result) => (result.status === 'fulfilled' ? [result.value.score, result.value.rank] : undefined))).to.deep.equal(
        asked.map(({ board, i }) => (expected(board, i) ? [expected(board, i)!.score, expected(board, i)!.rank] : undefined)),
      );
    } finally {
      SeasonArchiveStore.prototype.entriesOf = entriesOf;
    }
    expect(statements).to.equal(2);
  });

  it('when a leaderboard with archives is deleted, then its archives go with it', async () => {
    const leaderboard = await createLeaderboard(game);
    const board = await internalBoard(game, leaderboard);
    await scoredPlayers(game, leaderboard, [1, 2]);
    await reset(leaderboard).expect(200);
    await waitForPersistence(board);
    await api().delete(`/api/v1/server/leaderboards/${leaderboard}`).set(secretKey(game)).expect(204);
    const { rows } = await testStores().pool.query('SELECT count(*)::int AS n FROM season_entries WHERE leaderboard_internal_id = $1', [
      board.internalId,
    ]);
    expect(rows[0].n).to.equal(0);
  });
});

async function thirdPartyKey(game: TestGame): Promise<{ 'Api-Key': string }> {
  const { apiKey } = await createThirdPartyKey(game);
  return { 'Api-Key': apiKey };
}

describe('seasons: reset schedules and retention settings', () => {
  let game: TestGame;
  before(async () => {
    game = await createGame();
  });
  const put = (leaderboard: string, body: object) =>
    api().put(`/api/v1/server/leaderboards/${leaderboard}`).set(secretKey(game)).send(body);

  it('when a weekly schedule is set, then the body shows it with keep_seasons and the next reset time, and null removes it', async () => {
    const leaderboard = uniqueId('weekly');
    const created = await put(leaderboard, { reset_schedule: { cron: '0 0 * * 1', timezone: 'Europe/Paris' }, keep_seasons: 10 }).expect(
      201,
    );
    expect(created.body).to.include({ keep_seasons: 10 });
    expect(created.body.reset_schedule).to.deep.equal({ cron: '0 0 * * 1', timezone: 'Europe/Paris' });
    const next = new Date(created.body.next_reset_at);
    expect(next.getTime())
      .to.be.above(Date.now())
      .and.at.most(Date.now() + 7 * 86_400_000);
    // Midnight in Paris: 23:00 or 22:00 UTC the day before (Sunday), depending on daylight saving.
    expect(next.getUTCDay()).to.equal(0);
    expect([22, 23]).to.include(next.getUTCHours());
    const removed = await put(leaderboard, { reset_schedule: null }).expect(200);
    expect(removed.body).to.include({ reset_schedule: null, next_reset_at: null, keep_seasons: 10 });
    const defaults = await put(uniqueId('plain'), {}).expect(201);
    expect(defaults.body).to.include({ reset_schedule: null, next_reset_at: null, keep_seasons: 52 });
  });

  it('when the next reset is computed across a daylight-saving change, then it is the local time the cron names', () => {
    const paris = { cron: '0 0 * * 1', timezone: 'Europe/Paris' };
    // Paris leaves summer time on Sunday 25 October 2026: Monday midnight is 22:00 UTC before, 23:00 UTC after.
    expect(nextResetAt(paris, new Date('2026-10-13T12:00:00Z'))?.toISOString()).to.equal('2026-10-18T22:00:00.000Z');
    expect(nextResetAt(paris, new Date('2026-10-20T12:00:00Z'))?.toISOString()).to.equal('2026-10-25T23:00:00.000Z');
    // New York enters summer time on Sunday 8 March 2026: 09:00 local is 14:00 UTC before, 13:00 UTC after.
    const newYork = { cron: '0 9 * * *', timezone: 'America/New_York' };
    expect(nextResetAt(newYork, new Date('2026-03-07T15:00:00Z'))?.toISOString()).to.equal('2026-03-08T13:00:00.000Z');
    expect(nextResetAt(newYork, new Date('2026-03-06T15:00:00Z'))?.toISOString()).to.equal('2026-03-07T14:00:00.000Z');
  });

  it('when a schedule or retention is not valid, then the answer is 400 validation_failed and nothing changes', async () => {
    const leaderboard = await createLeaderboard(game, { name: 'kept' });
    const bad = [
      { reset_schedule: { cron: '0 0 * * 1 2026', timezone: 'UTC' } },
      { reset_schedule: { cron: '0 0 * * 1', timezone: 'Mars/Olympus' } },
      { reset_schedule: { cron: '0 0 * * 1', timezone: '+02:00' } },
      { reset_schedule: { cron: '61 * * * *', timezone: 'UTC' } },
      { reset_schedule: { cron: '0 0 30 2 *', timezone: 'UTC' } },
      { reset_schedule: { cron: '@weekly', timezone: 'UTC' } },
      { reset_schedule: { cron: '0 0 * * 1' } },
      { reset_schedule: '0 0 * * 1' },
      { keep_seasons: 0 },
      { keep_seasons: 1001 },
      { keep_seasons: 2.5 },
      { keep_seasons: '5' },
    ];
    for (const body of bad) {
      const res = await put(leaderboard, { name: 'changed', ...body }).expect(400);
      expect(res.body.error.code, JSON.stringify(body)).to.equal('validation_failed');
    }
    const listed = await api().get('/api/v1/server/leaderboards?limit=1000').set(secretKey(game)).expect(200);
    expect(listed.body.leaderboards.find((each: { leaderboard_id: string }) => each.leaderboard_id === leaderboard)).to.include({
      name: 'kept',
      reset_schedule: null,
      keep_seasons: 52,
    });
  });
});
