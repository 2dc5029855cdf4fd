import { expect } from 'chai';
import { api, testStores } from '../helpers/context.js';
import { createGame, internalBoard, reportScore, secretKey, signupMany, uniqueId, type TestGame } from '../helpers/fixtures.js';
import { inParallel } from '../helpers/persistence.js';
import { startWorker, type ServiceProcess } from '../helpers/processes.js';

const EVERY_MINUTE = { reset_schedule: { cron: '* * * * *', timezone: 'UTC' } };
const CROWD = 1000;

interface Acknowledged {
  board: string;
  sentAt: number;
  answeredAt: number;
  season: number;
}

describe('scheduled resets when one game schedules many boards', function () {
  this.timeout(240_000);
  let worker: ServiceProcess;
  let cleanup = async () => {};
  before(async () => {
    worker = await startWorker();
  });
  after(async () => {
    await cleanup();
    await worker.stop();
  });

  it('when 1,000 boards of one game and one of another reset every minute, then every season ends at its minute, and no report acknowledged after it counts in the old season', async () => {
    const crowded = await createGame();
    const other = await createGame();
    const put = (game: TestGame, id: string) =>
      api().put(`/api/v1/server/leaderboards/${id}`).set(secretKey(game)).send(EVERY_MINUTE).expect(201);
    const crowd = Array.from({ length: CROWD }, () => uniqueId('minutely'));
    await inParallel(
      crowd.map((id) => () => put(crowded, id)),
      20,
    );
    const lone = uniqueId('minutely');
    await put(other, lone);
    // Boards resetting every minute would keep every later test's worker busy: they go at the end.
    cleanup = async () => {
      await inParallel(
        [...crowd.map((id) => [crowded, id] as const), [other, lone] as const].map(
          ([game, id]) =>
            () =>
              api().delete(`/api/v1/server/leaderboards/${id}`).set(secretKey(game)).expect(204),
        ),
        20,
      );
    };
    const [crowdPlayers, otherPlayers] = [await signupMany(crowded, 10), await signupMany(other, 10)];

    const boards = [{ game: other, id: lone }, ...crowd.map((id) => ({ game: crowded, id }))];
    const internal = await Promise.all(boards.map(({ game, id }) => internalBoard(game, id)));
    const { redis, keys } = testStores();

    // From 3 s before the next minute to 4 s after it, players report on the lone board and on a few
    // crowded ones; from the minute on, a watcher looks every 250 ms for every season to have ended then.
    const minute = Math.ceil((Date.now() + 5000) / 60_000) * 60_000;
    await new Promise((resolve) => setTimeout(resolve, minute - 3000 - Date.now()));
    const acknowledged: Acknowledged[] = [];
    const reporting = async (game: TestGame, players: typeof crowdPlayers, ids: string[]) => {
      for (let i = 0; Date.now() < minute + 4000; i++) {
        const board = ids[i % ids.length]!;
        const sentAt = Date.now();
        const res = await reportScore(game, players[i % players.length]!, board, i).expect(200);
        acknowledged.push({ board, sentAt, answeredAt: Date.now(), season: res.body.season });
      }
    };
    const endedAtMinute = async () =>
      (await Promise.all(internal.map((board) => redis.get(keys(board).seasonStarted)))).every((started) => Number(started) === minute);
    const watching = (async () => {
      await new Promise((resolve) => setTimeout(resolve, minute - Date.now()));
      while (!(await endedAtMinute()) && Date.now() < minute + 30_000) await new Promise((resolve) => setTimeout(resolve, 250));
      return Date.now() - minute;
    })();
    await Promise.all([
      ...Array.from({ length: 4 }, () => reporting(other, otherPlayers, [lone])),
      ...Array.from({ length: 4 }, () => reporting(crowded, crowdPlayers, crowd.slice(0, 5))),
    ]);

    // Each board's reports answered before the minute share one season, and every report sent after it counts in the next.
    for (const board of new Set(acknowledged.map((a) => a.board))) {
      const mine = acknowledged.filter((a) => a.board === board);
      const before = new Set(mine.filter((a) => a.answeredAt < minute).map((a) => a.season));
      expect(before.size, `${board}: seasons of reports answered before the minute`).to.equal(1);
      const [old] = before;
      const after = mine.filter((a) => a.sentAt > minute);
      expect(after.length, `${board}: reports sent after the minute`).to.be.above(0);
      expect(
        after.filter((a) => a.season !== old! + 1),
        `${board}: reports sent after the minute that did not count in the next season`,
      ).to.deep.equal([]);
    }

    // Every board's season ended at the minute, the untouched crowd's too, and within 5 s of it.
    const allEndedAfter = await watching;
    process.stdout.write(`      all ${boards.length} seasons had ended at the minute ${allEndedAfter} ms after it\n`);
    expect(allEndedAfter, 'ms from the minute until every season had ended').to.be.at.most(5000);
    for (const { game, id } of [boards[0]!, boards[1]!, boards[CROWD]!]) {
      const seasons = await api().get(`/api/v1/server/leaderboards/${id}/seasons`).set(secretKey(game)).expect(200);
      expect(Date.parse(seasons.body.seasons[1].ended_at), id).to.equal(minute);
      expect(Date.parse(seasons.body.seasons[0].started_at), id).to.equal(minute);
    }
  });
});
