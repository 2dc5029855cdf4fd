import { expect } from 'chai';
import { datasetKeysPrefix, rebuildCursorKey, resetScheduleKey, endedSeasonKeys } from '../../engine/live/keys.js';
import { unlinkKeysWithPrefix } from '../../engine/live/redis.js';
import { api, testStores } from '../helpers/context.js';
import {
  createClan,
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  internalBoard,
  joinClan,
  reportScore,
  secretKey,
  signupMany,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { inParallel, liveScores, liveSeason, scheduledResetAt, waitForPersistence } from '../helpers/persistence.js';
import { startWorker, until, type ServiceProcess } from '../helpers/processes.js';

interface Acknowledged {
  player: string;
  score: number;
  season: number;
}

type Standing = Map<string, { score: number; rank: number }>;

/** Competition ranks of a best-first standing: 1 + the number of strictly better scores. */
function ranked(scores: Map<string, number>): Standing {
  const values = [...scores.values()];
  return new Map([...scores].map(([id, score]) => [id, { score, rank: 1 + values.filter((other) => other > score).length }]));
}

/** What a season should hold, from the acknowledged reports alone: each player's best, and each clan's sum of its members' bests. */
function reference(reports: Acknowledged[], season: number, clanOf: Map<string, string>) {
  const best = new Map<string, number>();
  for (const report of reports.filter((r) => r.season === season))
    best.set(report.player, Math.max(best.get(report.player) ?? -Infinity, report.score));
  const clans = new Map<string, number>();
  for (const [player, score] of best) {
    const clan = clanOf.get(player);
    if (clan) clans.set(clan, (clans.get(clan) ?? 0) + score);
  }
  return { players: ranked(best), clans: ranked(clans) };
}

async function standing(leaderboard: string, key: { 'Api-Key': string }, season: number, view: 'players' | 'clans') {
  const res = await api()
    .get(`/api/v1/third_party/leaderboards/${leaderboard}?limit=1000&season=${season}${view === 'clans' ? '&clan=true' : ''}`)
    .set(key)
    .expect(200);
  const entries = res.body.entries as { player_id?: string; clan_id: string; score: number; rank: number }[];
  expect(res.body.total).to.equal(entries.length);
  return new Map(entries.map((e) => [view === 'clans' ? e.clan_id : e.player_id!, { score: e.score, rank: e.rank }]));
}

describe('seasons with the worker: resets under load, schedules, archives', function () {
  this.timeout(180_000);
  let game: TestGame;
  let bot: { 'Api-Key': string };
  before(async () => {
    game = await createGame();
    bot = { 'Api-Key': (await createThirdPartyKey(game)).apiKey };
  });

  describe('with one worker', () => {
    let worker: ServiceProcess;
    before(async () => {
      worker = await startWorker();
    });
    after(async () => {
      await worker.stop();
    });

    it('when 200 players report concurrently while the season is reset three times, then every report lands in the season it answered, once, and every archive equals the reference', async () => {
      const leaderboard = await createLeaderboard(game, { type: 'clan' });
      const board = await internalBoard(game, leaderboard);
      const players = await signupMany(game, 200);
      const clans = [await createClan(game), await createClan(game), await createClan(game)];
      const clanOf = new Map<string, string>();
      for (const [i, clan] of clans.entries()) {
        const members = players.filter((_, p) => p % 4 === i);
        await joinClan(game, clan, members);
        for (const member of members) clanOf.set(member.playerId, clan);
      }

      const acknowledged: Acknowledged[] = [];
      const report = (player: TestPlayer) => async () => {
        const score = Math.floor(Math.random() * 1_000_000);
        const res = await reportScore(game, player, leaderboard, score).expect(200);
        acknowledged.push({ player: player.playerId, score, season: res.body.season });
      };
      const reports = Array.from({ length: 1600 }, (_, i) => report(players[i % players.length]!));
      const resets: number[] = [];
      const resetting = (async () => {
        for (let i = 0; i < 3; i++) {
          await until(async () => acknowledged.length >= (i + 1) * 400, 'reports before the next reset', 60_000);
          const res = await api().post(`/api/v1/server/leaderboards/${leaderboard}/reset`).set(secretKey(game)).expect(200);
          resets.push(res.body.archived_season);
        }
      })();
      await inParallel(reports, 50);
      await resetting;
      expect(resets).to.deep.equal([1, 2, 3]);
      expect(new Set(acknowledged.map((r) => r.season))).to.deep.equal(new Set([1, 2, 3, 4]));

      await waitForPersistence(board, 60_000);
      for (const season of [1, 2, 3, 4]) {
        const expected = reference(acknowledged, season, clanOf);
        expect(await standing(leaderboard, bot, season, 'players'), `season ${season} players`).to.deep.equal(expected.players);
        expect(await standing(leaderboard, bot, season, 'clans'), `season ${season} clans`).to.deep.equal(expected.clans);
      }
      const { rows } = await testStores().pool.query<{ season: number; total: number }>(
        'SELECT season, total FROM leaderboard_seasons WHERE leaderboard_internal_id = $1 ORDER BY season',
        [board.internalId],
      );
      expect(rows.map((row) => row.season)).to.deep.equal([1, 2, 3]);
      // Only the current season is left in Redis.
      for (const season of [1, 2, 3]) {
        expect(await testStores().redis.exists(...Object.values(endedSeasonKeys(testStores().prefix, board.internalId, season)))).to.equal(
          0,
        );
      }
    });

    it('when Redis loses its data after a reset was archived, then the rebuild restores the current season only and the archive reads as before', async () => {
      const leaderboard = await createLeaderboard(game);
      const board = await internalBoard(game, leaderboard);
      const players = await signupMany(game, 20);
      await inParallel(players.map((player, i) => () => reportScore(game, player, leaderboard, 100 + i).expect(200)));
      await api().post(`/api/v1/server/leaderboards/${leaderboard}/reset`).set(secretKey(game)).expect(200);
      await inParallel(players.slice(0, 5).map((player, i) => () => reportScore(game, player, leaderboard, i).expect(200)));
      await waitForPersistence(board);
      const archivedBefore = await standing(leaderboard, bot, 1, 'players');
      const liveBefore = await liveScores(board);
      expect(liveBefore.size).to.equal(5);

      const { redis, prefix, allKeys } = testStores();
      await unlinkKeysWithPrefix(redis, datasetKeysPrefix(prefix));
      await redis.unlink(...allKeys(board));
      await until(async () => (await liveScores(board)).size === liveBefore.size, 'the worker to rebuild the leaderboard', 30_000);
      await until(async () => (await redis.exists(rebuildCursorKey(prefix))) === 0, 'the rebuild to finish', 60_000);
      expect(await liveScores(board)).to.deep.equal(liveBefore);
      expect(await liveSeason(board)).to.equal(2);
      expect(await standing(leaderboard, bot, 1, 'players')).to.deep.equal(archivedBefore);
      const res = await reportScore(game, players[10]!, leaderboard, 1).expect(200);
      expect(res.body).to.include({ season: 2, total: 6 });
    });
  });

  it('when the worker is killed in the middle of archiving a large season, then the next worker archives it exactly once', async () => {
    const leaderboard = await createLeaderboard(game);
    const board = await internalBoard(game, leaderboard);
    const { redis, pool, keys } = testStores();
    const size = 150_000;
    for (let start = 0; start < size; start += 10_000) {
      const args: (string | number)[] = [];
      for (let i = start; i < Math.min(size, start + 10_000); i++) args.push(i % 1000, `p${String(i).padStart(6, '0')}`);
      await redis.zadd(keys(board).scores, ...args);
    }
    await api().post(`/api/v1/server/leaderboards/${leaderboard}/reset`).set(secretKey(game)).expect(200);

    const doomed = await startWorker();
    await until(
      async () =>
        (await pool.query("SELECT 1 FROM pg_stat_activity WHERE query LIKE 'INSERT INTO ended_players%' AND state <> 'idle'")).rowCount! >
        0,
      'the archive to be under way',
      30_000,
    );
    await doomed.stop('SIGKILL');
    const partial = await pool.query('SELECT 1 FROM leaderboard_seasons WHERE leaderboard_internal_id = $1', [board.internalId]);
    expect(partial.rowCount, 'a season half written').to.equal(0);

    const worker = await startWorker();
    try {
      await waitForPersistence(board, 120_000);
    } finally {
      await worker.stop();
    }
    const { rows } = await pool.query<{ seasons: number; entries: number; positions: number; top: number }>(
      `SELECT (SELECT count(*)::int FROM leaderboard_seasons WHERE leaderboard_internal_id = $1) AS seasons,
              count(*)::int AS entries, count(DISTINCT position)::int AS positions, min(rank)::int AS top
       FROM season_entries WHERE leaderboard_internal_id = $1 AND season = 1`,
      [board.internalId],
    );
    expect(rows[0]).to.deep.equal({ seasons: 1, entries: size, positions: size, top: 1 });
    const last = await pool.query(
      'SELECT score, rank FROM season_entries WHERE leaderboard_internal_id = $1 AND season = 1 AND position = $2',
      [board.internalId, size],
    );
    // 150 entries share each score 0-999: the last position holds a 0, ranked below the 149,850 better scores.
    expect(last.rows[0]).to.deep.equal({ score: 0, rank: size - size / 1000 + 1 });
    expect(await redis.exists(endedSeasonKeys(testStores().prefix, board.internalId, 1).scores)).to.equal(0);
  });

  it('when a one-minute schedule comes due with two workers running, then the season is reset once, within 5 s of the minute', async () => {
    const workers = [await startWorker(), await startWorker()];
    try {
      const leaderboard = await createLeaderboard(game);
      const board = await internalBoard(game, leaderboard);
      const players = await signupMany(game, 3);
      await inParallel(players.map((player, i) => () => reportScore(game, player, leaderboard, i + 1).expect(200)));
      const put = await api()
        .put(`/api/v1/server/leaderboards/${leaderboard}`)
        .set(secretKey(game))
        .send({ reset_schedule: { cron: '* * * * *', timezone: 'UTC' } })
        .expect(200);
      const due = Date.parse(put.body.next_reset_at);
      expect(due % 60_000).to.equal(0);
      expect(due).to.be.above(Date.now() - 1000);
      await until(async () => (await liveSeason(board)) === 2, 'the scheduled reset', 75_000);
      const seasons = await api().get(`/api/v1/server/leaderboards/${leaderboard}/seasons`).set(secretKey(game)).expect(200);
      const ended = Date.parse(seasons.body.seasons[1].ended_at);
      expect(ended - due, 'reset delay (ms)').to.be.within(0, 5000);
      expect(seasons.body.seasons[1]).to.include({ season: 1, total: 3 });
      // Both workers saw the same due time, every second: the second found it done.
      await new Promise((resolve) => setTimeout(resolve, 5000));
      expect(await liveSeason(board)).to.equal(2);
      expect(Number(await testStores().redis.zscore(resetScheduleKey(testStores().prefix), board.internalId))).to.equal(due + 60_000);
    } finally {
      await Promise.all(workers.map((each) => each.stop()));
    }
  });

  it('when a scheduled reset came due several times while no worker ran, then a starting worker resets once, at the first time missed, and schedules the next time to come', async () => {
    // Once a year: its next time is far away, so the only reset to see is the missed one.
    const leaderboard = await createLeaderboard(game, { reset_schedule: { cron: '0 0 1 1 *', timezone: 'UTC' } });
    const board = await internalBoard(game, leaderboard);
    const { redis, prefix, keys } = testStores();
    // As if the season had started 5 minutes ago on a schedule that came due 3, 2 and 1 minutes ago.
    const missed = [3, 2, 1].map((minutes) => Date.now() - minutes * 60_000);
    await redis.set(keys(board).seasonStarted, String(Date.now() - 5 * 60_000));
    for (const at of [...missed].reverse()) await scheduledResetAt(board, at);
    const worker = await startWorker();
    try {
      await until(async () => (await liveSeason(board)) === 2, 'the missed reset', 10_000);
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(await liveSeason(board)).to.equal(2);
      expect(Number(await redis.zscore(resetScheduleKey(prefix), board.internalId))).to.be.above(Date.now());
      const seasons = await api().get(`/api/v1/server/leaderboards/${leaderboard}/seasons`).set(secretKey(game)).expect(200);
      expect(Date.parse(seasons.body.seasons[1].ended_at), 'the season ended at the first time it missed').to.equal(missed[0]);
    } finally {
      await worker.stop();
    }
  });
});
