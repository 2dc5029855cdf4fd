import { expect } from 'chai';
import { api } from '../helpers/context.js';
import {
  createClan,
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  internalBoard,
  joinClan,
  secretKey,
  sendBatch,
  sendReport,
  signupMany,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { boardLosesLiveState, inParallel, waitForPersistence } from '../helpers/persistence.js';
import { startWorker, type ServiceProcess } from '../helpers/processes.js';
import { expectEveryRead, expectRows, ISO_MS, settingsBody, TieModel, type ShownEntry, type TieSettings } from '../helpers/ties.js';

/**
 * Tie-breaking (README, "Ties"): the `tie_break` and `tiebreakers` settings, what report answers
 * and every read show of an entry's tiebreakers and achieved_at, the score rules compared over the
 * whole entry, the order of doubles at the edges of the range, and equal reports racing on an
 * `earliest` board.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const readBoard = (game: TestGame, id: string) => api().get(`/api/v1/server/leaderboards/${id}`).set(secretKey(game)).expect(200);

const putBoard = (game: TestGame, id: string, body: Record<string, unknown>) =>
  api().put(`/api/v1/server/leaderboards/${id}`).set(secretKey(game)).send(body);

const reset = (game: TestGame, id: string) => api().post(`/api/v1/server/leaderboards/${id}/reset`).set(secretKey(game)).expect(200);

const record = (game: TestGame, id: string, playerId: string) =>
  api().get(`/api/v1/client/leaderboards/${id}/players/${playerId}`).set(secretKey(game)).expect(200);

/** The whole board as a third party lists it. */
async function listed(game: TestGame, id: string): Promise<(ShownEntry & Record<string, unknown>)[]> {
  const bot = { 'Api-Key': (await createThirdPartyKey(game)).apiKey };
  return (await api().get(`/api/v1/third_party/leaderboards/${id}?limit=1000`).set(bot).expect(200)).body.entries;
}

/** The fields every report answer carries (README, the report endpoints), before the tie fields. */
const CLIENT_ANSWER = ['leaderboard_id', 'player_id', 'submitted_score', 'best_score', 'improved', 'rank', 'total', 'season'];
const BATCH_RESULT = ['leaderboard_id', 'submitted_score', 'best_score', 'improved', 'rank', 'season'];

describe('ties', function () {
  this.timeout(120_000);
  let worker: ServiceProcess;
  before(async () => {
    worker = await startWorker();
  });
  after(async () => {
    await worker.stop();
  });

  describe('settings', () => {
    it('when a leaderboard is created without tie settings, then it shows tie_break "shared" and no tiebreakers', async () => {
      const game = await createGame();
      const created = await putBoard(game, 'plain', {}).expect(201);
      expect(created.body).to.deep.include({ tie_break: 'shared', tiebreakers: [] });
      expect((await readBoard(game, 'plain')).body).to.deep.include({ tie_break: 'shared', tiebreakers: [] });
    });

    it('when a leaderboard is created with tie_break "earliest" and tiebreakers, then PUT, GET and the list show them as given', async () => {
      const game = await createGame();
      const tiebreakers = [
        { name: 'time_ms', sort_order: 'asc' },
        { name: 'kills', sort_order: 'desc' },
        { name: 'a', sort_order: 'asc' },
        { name: 'x_0123456789_0123456789_01234567', sort_order: 'desc' },
      ];
      const created = await putBoard(game, 'race', { tie_break: 'earliest', tiebreakers }).expect(201);
      expect(created.body).to.deep.include({ tie_break: 'earliest', tiebreakers });
      expect((await readBoard(game, 'race')).body).to.deep.include({ tie_break: 'earliest', tiebreakers });
      const list = await api().get('/api/v1/server/leaderboards').set(secretKey(game)).expect(200);
      expect(list.body.leaderboards[0]).to.deep.include({ leaderboard_id: 'race', tie_break: 'earliest', tiebreakers });
    });

    it('when a board without scores changes tie_break and tiebreakers, then the change is taken, and a change of other settings keeps them', async () => {
      const game = await createGame();
      await putBoard(game, 'board', {}).expect(201);
      const tiebreakers = [{ name: 'deaths', sort_order: 'asc' }];
      expect((await putBoard(game, 'board', { tie_break: 'earliest', tiebreakers }).expect(200)).body).to.deep.include({
        tie_break: 'earliest',
        tiebreakers,
      });
      expect((await putBoard(game, 'board', { name: 'Renamed', sort_order: 'asc' }).expect(200)).body).to.deep.include({
        name: 'Renamed',
        tie_break: 'earliest',
        tiebreakers,
      });
      expect((await putBoard(game, 'board', { tie_break: 'shared', tiebreakers: [] }).expect(200)).body).to.deep.include({
        tie_break: 'shared',
        tiebreakers: [],
      });
    });
  });

  describe('report answers', () => {
    it('when reports reach boards with and without columns, shared and earliest, then answers carry tiebreakers only with columns and achieved_at only on earliest boards', async () => {
      const game = await createGame();
      const plain = await createLeaderboard(game);
      const columns = await createLeaderboard(game, { tiebreakers: [{ name: 'kills', sort_order: 'desc' }] });
      const earliest = await createLeaderboard(game, { tie_break: 'earliest' });
      const both = await createLeaderboard(game, {
        tie_break: 'earliest',
        tiebreakers: [
          { name: 'time', sort_order: 'asc' },
          { name: 'kills', sort_order: 'desc' },
        ],
      });
      const [player] = await signupMany(game, 1);
      const before = Date.now();

      const answers = {
        plain: (await sendReport(game, player!, plain, { score: 1 }).expect(200)).body,
        columns: (await sendReport(game, player!, columns, { score: 1, tiebreakers: [7] }).expect(200)).body,
        earliest: (await sendReport(game, player!, earliest, { score: 1 }).expect(200)).body,
        both: (await sendReport(game, player!, both, { score: 1, tiebreakers: [30.5, 2] }).expect(200)).body,
      };
      expect(Object.keys(answers.plain).sort()).to.deep.equal([...CLIENT_ANSWER].sort());
      expect(Object.keys(answers.columns).sort()).to.deep.equal([...CLIENT_ANSWER, 'tiebreakers'].sort());
      expect(Object.keys(answers.earliest).sort()).to.deep.equal([...CLIENT_ANSWER, 'achieved_at'].sort());
      expect(Object.keys(answers.both).sort()).to.deep.equal([...CLIENT_ANSWER, 'tiebreakers', 'achieved_at'].sort());
      expect(answers.columns.tiebreakers).to.deep.equal([7]);
      expect(answers.both.tiebreakers).to.deep.equal([30.5, 2]);
      for (const answer of [answers.earliest, answers.both]) {
        expect(answer.achieved_at).to.match(ISO_MS);
        expect(Date.parse(answer.achieved_at)).to.be.within(before - 1000, Date.now() + 1000);
      }

      const batch = await sendBatch(game, {
        player_id: player!.playerId,
        scores: [2, 2, 2, 2],
        leaderboard_ids: [plain, columns, earliest, both],
        tiebreakers: [null, [8], null, [30, 3]],
      }).expect(200);
      const [p, c, e, b] = batch.body.results;
      expect(Object.keys(p).sort()).to.deep.equal([...BATCH_RESULT].sort());
      expect(Object.keys(c).sort()).to.deep.equal([...BATCH_RESULT, 'tiebreakers'].sort());
      expect(Object.keys(e).sort()).to.deep.equal([...BATCH_RESULT, 'achieved_at'].sort());
      expect(Object.keys(b).sort()).to.deep.equal([...BATCH_RESULT, 'tiebreakers', 'achieved_at'].sort());
      expect([c.tiebreakers, b.tiebreakers]).to.deep.equal([[8], [30, 3]]);
      expect(Date.parse(e.achieved_at)).to.be.at.least(Date.parse(answers.earliest.achieved_at));

      // No pair's board has columns: the whole array may be left out.
      const without = await sendBatch(game, { player_id: player!.playerId, scores: [3, 3], leaderboard_ids: [plain, earliest] }).expect(
        200,
      );
      expect(without.body.results[1].achieved_at).to.match(ISO_MS);
      expect(without.body.results[0]).to.not.have.any.keys('achieved_at', 'tiebreakers');
    });
  });

  describe('score rules over the whole entry', () => {
    it('when a best board gets an equal score with a better tiebreaker, then improved is true, the tiebreakers are kept and achieved_at moves; an equal or worse entry changes nothing, its time included', async () => {
      const game = await createGame();
      const id = await createLeaderboard(game, {
        tie_break: 'earliest',
        tiebreakers: [
          { name: 'stars', sort_order: 'desc' },
          { name: 'time', sort_order: 'asc' },
        ],
      });
      const [a, b] = await signupMany(game, 2);
      const report = (score: number, tiebreakers: number[]) => sendReport(game, a!, id, { score, tiebreakers }).expect(200);

      const first = (await report(10, [1, 5])).body;
      expect(first).to.include({ best_score: 10, improved: true, rank: 1 });
      await sleep(3);
      await sendReport(game, b!, id, { score: 10, tiebreakers: [1, 5] }).expect(200);
      await sleep(3);
      for (const [score, tiebreakers] of [
        [10, [1, 5]], // exactly equal
        [10, [1, 6]], // worse on the asc column
        [10, [0, 0]], // worse on the first column, better on the second
        [9, [9, 0]], // worse score
      ] as [number, number[]][]) {
        const answer = (await report(score, tiebreakers)).body;
        expect(answer, `${score} ${tiebreakers}`).to.deep.include({
          best_score: 10,
          improved: false,
          tiebreakers: [1, 5],
          achieved_at: first.achieved_at,
          rank: 1,
        });
      }
      await sleep(3);
      const better = (await report(10, [1, 4])).body;
      expect(better).to.deep.include({ best_score: 10, improved: true, tiebreakers: [1, 4], rank: 1 });
      expect(Date.parse(better.achieved_at)).to.be.above(Date.parse(first.achieved_at));
      const higher = (await report(11, [0, 9])).body;
      expect(higher).to.deep.include({ best_score: 11, improved: true, tiebreakers: [0, 9], rank: 1 });
      expect((await record(game, id, a!.playerId)).body).to.deep.include({
        score: 11,
        tiebreakers: [0, 9],
        achieved_at: higher.achieved_at,
        rank: 1,
      });
      expect((await record(game, id, b!.playerId)).body).to.deep.include({ score: 10, tiebreakers: [1, 5], rank: 2 });
    });

    it('when a latest earliest board gets any report, then it replaces the entry and its time, an identical or worse one included', async () => {
      const game = await createGame();
      const id = await createLeaderboard(game, {
        tie_break: 'earliest',
        update_strategy: 'latest',
        tiebreakers: [{ name: 'kills', sort_order: 'desc' }],
      });
      const [a, b] = await signupMany(game, 2);
      const first = (await sendReport(game, a!, id, { score: 10, tiebreakers: [5] }).expect(200)).body;
      await sleep(3);
      expect((await sendReport(game, b!, id, { score: 10, tiebreakers: [5] }).expect(200)).body).to.include({ rank: 2 });
      await sleep(3);
      const again = (await sendReport(game, a!, id, { score: 10, tiebreakers: [5] }).expect(200)).body;
      expect(again).to.deep.include({ best_score: 10, tiebreakers: [5], rank: 2 });
      expect(Date.parse(again.achieved_at)).to.be.above(Date.parse(first.achieved_at));
      expect((await record(game, id, b!.playerId)).body).to.include({ rank: 1 });
      const worse = (await sendReport(game, a!, id, { score: 3, tiebreakers: [0] }).expect(200)).body;
      expect(worse).to.deep.include({ best_score: 3, tiebreakers: [0], improved: true, rank: 2 });
      expect((await record(game, id, a!.playerId)).body).to.deep.include({ score: 3, tiebreakers: [0], achieved_at: worse.achieved_at });
    });

    it('when a latest shared board with a tiebreaker gets the entry it holds again, then nothing changes, and a different one replaces it', async () => {
      const game = await createGame();
      const id = await createLeaderboard(game, { update_strategy: 'latest', tiebreakers: [{ name: 'kills', sort_order: 'desc' }] });
      const [a] = await signupMany(game, 1);
      expect((await sendReport(game, a!, id, { score: 0, tiebreakers: [1] }).expect(200)).body).to.include({ improved: true });
      const again = (await sendReport(game, a!, id, { score: 0, tiebreakers: [1] }).expect(200)).body;
      expect(again).to.deep.include({ best_score: 0, tiebreakers: [1], improved: false, rank: 1 });
      expect(again).to.not.have.property('achieved_at');
      const other = (await sendReport(game, a!, id, { score: 0, tiebreakers: [0] }).expect(200)).body;
      expect(other).to.deep.include({ best_score: 0, tiebreakers: [0], improved: true });
    });

    it('when equal sums are reached on an earliest sum board, then they order by the time of the report that last changed them', async () => {
      const game = await createGame();
      const id = await createLeaderboard(game, { tie_break: 'earliest', update_strategy: 'sum' });
      const [a, b] = await signupMany(game, 2);
      const add = (player: TestPlayer, score: number) => sendReport(game, player, id, { score }).expect(200);
      const first = (await add(a!, 5)).body;
      expect(first).to.include({ best_score: 5, rank: 1 });
      expect(first).to.not.have.property('tiebreakers');
      await sleep(3);
      expect((await add(b!, 5)).body).to.include({ best_score: 5, rank: 2 });
      await sleep(3);
      expect((await add(a!, 3)).body).to.include({ best_score: 8, rank: 1 });
      await sleep(3);
      const back = (await add(a!, -3)).body;
      expect(back).to.include({ best_score: 5, rank: 2, improved: true });
      expect(Date.parse(back.achieved_at)).to.be.above(Date.parse(first.achieved_at));
      expect((await record(game, id, b!.playerId)).body).to.include({ score: 5, rank: 1 });
    });

    it('when entries are equal on score and every tiebreaker on a shared board, then they share a rank (1, 2, 2, 4) and a difference in any column separates them', async () => {
      const game = await createGame();
      const id = await createLeaderboard(game, {
        tiebreakers: [
          { name: 'time', sort_order: 'asc' },
          { name: 'kills', sort_order: 'desc' },
        ],
      });
      const [a, b, c, d, e] = await signupMany(game, 5);
      const values: [TestPlayer, number, number[]][] = [
        [a!, 10, [1, 1]],
        [b!, 10, [1, 1]],
        [c!, 10, [1, 2]],
        [d!, 10, [2, 9]],
        [e!, 9, [0, 0]],
      ];
      for (const [player, score, tiebreakers] of values) await sendReport(game, player, id, { score, tiebreakers }).expect(200);
      const entries = await listed(game, id);
      expect(entries.map((entry) => entry.rank)).to.deep.equal([1, 2, 2, 4, 5]);
      expect(entries[0]!.player_id).to.equal(c!.playerId);
      expect([entries[1]!.player_id, entries[2]!.player_id].sort()).to.deep.equal([a!.playerId, b!.playerId].sort());
      expect(entries.slice(3).map((entry) => entry.player_id)).to.deep.equal([d!.playerId, e!.playerId]);
      for (const entry of entries) expect(entry).to.not.have.property('achieved_at');
    });
  });

  describe('every read, live and archived', () => {
    /** Six players whose values make every column count; reported one after another (earliest boards order them so). */
    const VALUES: [number, number[]][] = [
      [10, [5, 1]],
      [10, [5, 1]],
      [10, [5, 0]],
      [10, [6, 9]],
      [12, [0, 0]],
      [8, [9, 9]],
    ];
    const boards: { name: string; settings: TieSettings }[] = [
      {
        name: 'a shared board with two tiebreakers',
        settings: { sortOrder: 'desc', tieBreak: 'shared', columns: ['desc', 'asc'], rule: 'best' },
      },
      {
        name: 'an earliest board with two tiebreakers',
        settings: { sortOrder: 'asc', tieBreak: 'earliest', columns: ['asc', 'desc'], rule: 'best' },
      },
      { name: 'an earliest board without tiebreakers', settings: { sortOrder: 'desc', tieBreak: 'earliest', columns: [], rule: 'latest' } },
      { name: 'a shared board without tiebreakers', settings: { sortOrder: 'desc', tieBreak: 'shared', columns: [], rule: 'best' } },
    ];
    for (const { name, settings } of boards) {
      it(`when ${name} holds ties, then records, pages, around_me, list ranks and clan members show its order, ranks and tie fields, live and archived`, async () => {
        const game = await createGame();
        const id = await createLeaderboard(game, settingsBody(settings, { type: 'clan' }));
        const board = await internalBoard(game, id);
        const players = await signupMany(game, VALUES.length + 1); // the last one never scores
        const clans = [await createClan(game), await createClan(game)];
        await joinClan(game, clans[0]!, [players[0]!, players[1]!, players[3]!, players[6]!]);
        await joinClan(game, clans[1]!, [players[2]!, players[4]!]);
        const model = new TieModel(settings);
        for (const [i, [score, tiebreakers]] of VALUES.entries()) {
          const columns = tiebreakers.slice(0, settings.columns.length);
          const answer = await sendReport(
            game,
            players[i]!,
            id,
            settings.columns.length > 0 ? { score, tiebreakers: columns } : { score },
          ).expect(200);
          model.report(players[i]!.playerId, score, columns);
          if (model.earliest) model.setTime(players[i]!.playerId, Date.parse(answer.body.achieved_at));
          await sleep(2);
        }
        const target = {
          game,
          bot: { 'Api-Key': (await createThirdPartyKey(game)).apiKey },
          leaderboardId: id,
          players,
          clans: [
            { id: clans[0]!, members: [0, 1, 3, 6].map((i) => players[i]!.playerId) },
            { id: clans[1]!, members: [2, 4].map((i) => players[i]!.playerId) },
          ],
        };
        const live = await expectEveryRead(target, model, `${name}, live`);
        const ranks = live.map((entry) => entry.rank);
        if (settings.tieBreak === 'earliest') expect(ranks).to.deep.equal([1, 2, 3, 4, 5, 6]);
        else if (settings.columns.length > 0) expect(ranks).to.deep.equal([1, 2, 3, 4, 4, 6]);
        else expect(ranks).to.deep.equal([1, 2, 2, 2, 2, 6]);

        await waitForPersistence(board);
        await expectRows(board, model, `${name}, live`);
        await reset(game, id);
        await waitForPersistence(board);
        const archived = await expectEveryRead(target, model, `${name}, archived`, 1);
        expect(archived, 'the archive lists the season as it stood').to.deep.equal(live);
        await expectRows(board, model, `${name}, archived`, 1);
      });
    }

    it('when many entries tie on every column of a shared board, then pages of any size list them in one fixed order, the same on every call', async () => {
      const game = await createGame();
      const id = await createLeaderboard(game, { tiebreakers: [{ name: 'kills', sort_order: 'desc' }] });
      const players = await signupMany(game, 25);
      for (const [i, player] of players.entries()) {
        await sendReport(game, player, id, i % 5 === 0 ? { score: 5, tiebreakers: [2] } : { score: 5, tiebreakers: [1] }).expect(200);
      }
      const whole = await listed(game, id);
      expect(whole.map((entry) => entry.rank)).to.deep.equal([...Array(5).fill(1), ...Array(20).fill(6)]);
      const bot = { 'Api-Key': (await createThirdPartyKey(game)).apiKey };
      for (const limit of [1, 3, 7, 25]) {
        const paged = [];
        for (let offset = 0; offset < 25; offset += limit) {
          paged.push(
            ...(await api().get(`/api/v1/third_party/leaderboards/${id}?limit=${limit}&offset=${offset}`).set(bot).expect(200)).body
              .entries,
          );
        }
        expect(paged, `pages of ${limit}`).to.deep.equal(whole);
      }
      expect(await listed(game, id)).to.deep.equal(whole);
    });

    it('when equal entries are reported one after another on an earliest board, then they rank 1, 2, 3… in the order they were reached', async () => {
      const game = await createGame();
      const id = await createLeaderboard(game, { tie_break: 'earliest', tiebreakers: [{ name: 'kills', sort_order: 'asc' }] });
      const players = await signupMany(game, 8);
      const times: string[] = [];
      for (const [i, player] of players.entries()) {
        const answer = (await sendReport(game, player, id, { score: 3, tiebreakers: [7] }).expect(200)).body;
        expect(answer, `report ${i}`).to.include({ rank: i + 1, total: i + 1 });
        times.push(answer.achieved_at);
        await sleep(2);
      }
      const entries = await listed(game, id);
      expect(entries.map((entry) => [entry.player_id, entry.rank, entry.achieved_at])).to.deep.equal(
        players.map((player, i) => [player.playerId, i + 1, times[i]]),
      );
    });

    it('when two clans reach equal totals on an earliest clan board, then the clan standings share a rank', async () => {
      const game = await createGame();
      const id = await createLeaderboard(game, { type: 'clan', tie_break: 'earliest' });
      const [a, b, c, d] = await signupMany(game, 4);
      const [x, y, z] = [await createClan(game), await createClan(game), await createClan(game)];
      await joinClan(game, x, [a!, b!]);
      await joinClan(game, y, [c!]);
      await joinClan(game, z, [d!]);
      for (const [player, score] of [
        [a!, 5],
        [b!, 5],
        [c!, 10],
        [d!, 1],
      ] as [TestPlayer, number][]) {
        await sendReport(game, player, id, { score }).expect(200);
      }
      const bot = { 'Api-Key': (await createThirdPartyKey(game)).apiKey };
      const view = await api().get(`/api/v1/third_party/leaderboards/${id}?clan=true`).set(bot).expect(200);
      const standings = Object.fromEntries(
        view.body.entries.map((entry: { clan_id: string; rank: number }) => [entry.clan_id, entry.rank]),
      );
      expect(standings).to.deep.equal({ [x]: 1, [y]: 1, [z]: 3 });
      expect((await api().get(`/api/v1/third_party/leaderboards/${id}/clans/${y}`).set(bot).expect(200)).body).to.include({
        score: 10,
        rank: 1,
      });
    });
  });

  describe('doubles at the edges', () => {
    /** Written as JSON text: -0 and 9007199254740993 (which parses to 2^53) cannot come from JSON.stringify. */
    const EDGES = ['-1e308', '-5e-324', '-0', '0', '5e-324', '1e308', '9007199254740991', '9007199254740993'];

    for (const order of ['desc', 'asc'] as const) {
      it(`when scores and tiebreakers take the doubles at the edges on a ${order} board, then order and ranks equal the model, and every value reads back as the same double, from PostgreSQL and after a rebuild too`, async () => {
        const other = order === 'desc' ? 'asc' : 'desc';
        const settings: TieSettings = { sortOrder: order, tieBreak: 'shared', columns: [order, other, order, other], rule: 'best' };
        const game = await createGame();
        const id = await createLeaderboard(game, settingsBody(settings));
        const board = await internalBoard(game, id);
        // Group 0: each edge as the score; group c: score 1 and each edge in column c - 1, the other columns 0.
        const groups = 1 + settings.columns.length;
        const players = await signupMany(game, groups * EDGES.length);
        const model = new TieModel(settings);
        await inParallel(
          players.map((player, n) => async () => {
            const [group, edge] = [Math.floor(n / EDGES.length), EDGES[n % EDGES.length]!];
            const score = group === 0 ? edge : '1';
            const tiebreakers = settings.columns.map((_, c) => (c === group - 1 ? edge : '0'));
            model.report(player.playerId, Number(score), tiebreakers.map(Number));
            const body = `{"player_id":"${player.playerId}","scores":[${score}],"leaderboard_ids":["${id}"],"tiebreakers":[[${tiebreakers.join(',')}]]}`;
            await sendBatch(game, body).expect(200);
          }),
          10,
        );
        const target = { game, bot: { 'Api-Key': (await createThirdPartyKey(game)).apiKey }, leaderboardId: id, players };
        const live = await expectEveryRead(target, model, `${order} board`);
        // The values themselves, beside the model: the smallest subnormal survives, 2^53 + 1 reads as 2^53.
        const scores = live.filter((entry) => entry.tiebreakers!.every((value) => value === 0)).map((entry) => entry.score);
        expect(scores).to.include.members([5e-324, -5e-324, 1e308, -1e308, 2 ** 53 - 1, 2 ** 53]);
        expect(live.flatMap((entry) => entry.tiebreakers)).to.include.members([5e-324, -5e-324, 1e308, -1e308, 2 ** 53 - 1, 2 ** 53]);

        await waitForPersistence(board);
        await expectRows(board, model, `${order} board`);
        await boardLosesLiveState(board);
        expect(await expectEveryRead(target, model, `${order} board, rebuilt`)).to.deep.equal(live);
      });
    }
  });

  describe('a race', () => {
    it('when 200 players report one equal score at once on an earliest board, then the board ranks them 1..200 in the order of the achieved_at their answers carried', async () => {
      const game = await createGame();
      const id = await createLeaderboard(game, { tie_break: 'earliest', tiebreakers: [{ name: 'kills', sort_order: 'desc' }] });
      const players = await signupMany(game, 200);
      const answers = await inParallel(players.map((player) => () => sendReport(game, player, id, { score: 42, tiebreakers: [3] })));
      expect(answers.map((res) => res.status)).to.deep.equal(Array(200).fill(200));
      const reached = answers.map((res, i) => ({
        player: players[i]!.playerId,
        at: Date.parse(res.body.achieved_at),
        rank: res.body.rank as number,
        total: res.body.total as number,
      }));
      for (const res of answers) expect(res.body.achieved_at).to.match(ISO_MS);
      const sameMs = (at: number) => reached.filter((r) => r.at === at).length;
      const earlier = (at: number) => reached.filter((r) => r.at < at).length;

      // Each report added one entry: the totals the answers saw are 1..200, each once.
      expect(reached.map((r) => r.total).sort((x, y) => x - y)).to.deep.equal(Array.from({ length: 200 }, (_, i) => i + 1));
      for (const r of reached) {
        // Ahead of it at its report: every entry reached in an earlier millisecond, and no entry reported after it.
        expect(r.rank, `answer of ${r.player}`).to.be.within(earlier(r.at) + 1, r.total);
        // Alone in its millisecond: everyone before it is ahead, everyone after behind.
        if (sameMs(r.at) === 1) expect(r.rank, `answer of ${r.player}, alone in its millisecond`).to.equal(r.total);
      }

      const bot = { 'Api-Key': (await createThirdPartyKey(game)).apiKey };
      const entries: ShownEntry[] = (await api().get(`/api/v1/third_party/leaderboards/${id}?limit=200`).set(bot).expect(200)).body.entries;
      expect(entries.map((entry) => entry.rank)).to.deep.equal(Array.from({ length: 200 }, (_, i) => i + 1));
      const answerOf = new Map(reached.map((r) => [r.player, r]));
      for (const [i, entry] of entries.entries()) {
        const r = answerOf.get(entry.player_id)!;
        expect(Date.parse(entry.achieved_at!), `${entry.player_id} keeps the time its answer carried`).to.equal(r.at);
        if (i > 0)
          expect(Date.parse(entry.achieved_at!), `rank ${i + 1}: achieved_at never decreases`).to.be.at.least(
            Date.parse(entries[i - 1]!.achieved_at!),
          );
        // Entries of one millisecond take exactly the ranks after those of earlier milliseconds.
        expect(entry.rank, `${entry.player_id}`).to.be.within(earlier(r.at) + 1, earlier(r.at) + sameMs(r.at));
        if (sameMs(r.at) === 1) expect(entry.rank, `${entry.player_id}, alone in its millisecond`).to.equal(r.rank);
      }
    });
  });
});
