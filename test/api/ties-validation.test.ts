import { expect } from 'chai';
import type { Response } from 'supertest';
import { api } from '../helpers/context.js';
import {
  createGame,
  createLeaderboard,
  internalBoard,
  secretKey,
  sendBatch,
  sendReport,
  signupMany,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { waitForPersistence } from '../helpers/persistence.js';
import { startWorker } from '../helpers/processes.js';

/**
 * What tie-breaking refuses (README, "Ties"): reports whose tiebreakers do not fit the board, bad
 * tie settings, tiebreakers on a sum board, and changing the order of a board that holds scores,
 * live or archived. Every refusal is a JSON 400 or 409 and changes nothing.
 */

const readBoard = (game: TestGame, id: string) => api().get(`/api/v1/server/leaderboards/${id}`).set(secretKey(game));
const putBoard = (game: TestGame, id: string, body: Record<string, unknown>) =>
  api().put(`/api/v1/server/leaderboards/${id}`).set(secretKey(game)).send(body);
const record = (game: TestGame, id: string, playerId: string) =>
  api().get(`/api/v1/client/leaderboards/${id}/players/${playerId}`).set(secretKey(game)).expect(200);

function expectRefused(res: Response, status: 400 | 409, label: string): void {
  expect([res.status, res.body.error?.code], label).to.deep.equal([status, status === 400 ? 'validation_failed' : 'conflict']);
}

const TWO_COLUMNS = [
  { name: 'kills', sort_order: 'desc' },
  { name: 'time', sort_order: 'asc' },
];

describe('ties: what is refused', function () {
  this.timeout(120_000);

  it('when a client report lacks tiebreakers, has the wrong number of them, or a value that is not a finite number, then 400 validation_failed and nothing changes', async () => {
    const game = await createGame();
    const id = await createLeaderboard(game, { tie_break: 'earliest', tiebreakers: TWO_COLUMNS });
    const [player] = await signupMany(game, 1);
    await sendReport(game, player!, id, { score: 5, tiebreakers: [1, 1] }).expect(200);
    const before = (await record(game, id, player!.playerId)).body;
    const bodies: [string, Record<string, unknown> | string][] = [
      ['missing', { score: 9 }],
      ['null', { score: 9, tiebreakers: null }],
      ['empty', { score: 9, tiebreakers: [] }],
      ['one value', { score: 9, tiebreakers: [1] }],
      ['three values', { score: 9, tiebreakers: [1, 2, 3] }],
      ['not an array', { score: 9, tiebreakers: 1 }],
      ['an object', { score: 9, tiebreakers: { kills: 1, time: 2 } }],
      ['a null value', { score: 9, tiebreakers: [1, null] }],
      ['a string value', { score: 9, tiebreakers: [1, '2'] }],
      ['a boolean value', { score: 9, tiebreakers: [true, 2] }],
      ['a nested array', { score: 9, tiebreakers: [[1], 2] }],
      ['Infinity', '{"score": 9, "tiebreakers": [1, 1e999]}'],
      ['-Infinity', '{"score": 9, "tiebreakers": [-1e999, 1]}'],
    ];
    for (const [label, body] of bodies) expectRefused(await sendReport(game, player!, id, body), 400, label);
    expect((await record(game, id, player!.playerId)).body).to.deep.equal(before);
  });

  it('when a client report sends tiebreakers to a board without columns, then 400 validation_failed and nothing changes', async () => {
    const game = await createGame();
    const plain = await createLeaderboard(game);
    const earliest = await createLeaderboard(game, { tie_break: 'earliest' });
    const [player] = await signupMany(game, 1);
    for (const id of [plain, earliest]) {
      await sendReport(game, player!, id, { score: 5 }).expect(200);
      const before = (await record(game, id, player!.playerId)).body;
      expectRefused(await sendReport(game, player!, id, { score: 9, tiebreakers: [1] }), 400, id);
      expect((await record(game, id, player!.playerId)).body).to.deep.equal(before);
    }
  });

  it('when one pair of a batch has tiebreakers that do not fit its board, then the whole batch is refused with details naming that pair, and nothing is applied', async () => {
    const game = await createGame();
    const plain = await createLeaderboard(game);
    const columns = await createLeaderboard(game, { tiebreakers: TWO_COLUMNS });
    const earliest = await createLeaderboard(game, { tie_break: 'earliest' });
    const ids = [plain, columns, earliest];
    const [player] = await signupMany(game, 1);
    await sendBatch(game, {
      player_id: player!.playerId,
      scores: [1, 1, 1],
      leaderboard_ids: ids,
      tiebreakers: [null, [1, 1], null],
    }).expect(200);
    const records = async () => Promise.all(ids.map(async (id) => (await record(game, id, player!.playerId)).body));
    const before = await records();
    const batch = (tiebreakers: unknown) => ({ player_id: player!.playerId, scores: [9, 9, 9], leaderboard_ids: ids, tiebreakers });
    const cases: [string, Record<string, unknown> | string, number][] = [
      ['the array left out while pair 1 has columns', { player_id: player!.playerId, scores: [9, 9, 9], leaderboard_ids: ids }, 1],
      ['null for pair 1, which has columns', batch([null, null, null]), 1],
      ['too few values for pair 1', batch([null, [1], null]), 1],
      ['too many values for pair 1', batch([null, [1, 2, 3], null]), 1],
      ['a string value in pair 1', batch([null, [1, 'x'], null]), 1],
      ['tiebreakers for pair 2, whose board has no columns', batch([null, [1, 2], [0]]), 2],
      ['tiebreakers for pair 0, whose board has no columns', batch([[1], [1, 2], null]), 0],
      [
        'an infinite value in pair 1',
        `{"player_id": "${player!.playerId}", "scores": [9, 9, 9], "leaderboard_ids": ${JSON.stringify(ids)}, "tiebreakers": [null, [1, 1e999], null]}`,
        1,
      ],
    ];
    for (const [label, body, pair] of cases) {
      const res = await sendBatch(game, body);
      expectRefused(res, 400, label);
      const fields = (res.body.error.details ?? []).map((detail: { field: string }) => detail.field);
      expect(
        fields.some((field: string) => field.includes(`[${pair}]`)),
        `${label}: details name pair ${pair} (${fields})`,
      ).to.equal(true);
    }
    expectRefused(await sendBatch(game, batch([null, [1, 2]])), 400, 'a tiebreakers array shorter than the pairs');
    expect(await records()).to.deep.equal(before);
  });

  it('when a sum board would have tiebreakers, then 400 validation_failed whichever setting comes first, and nothing changes', async () => {
    const game = await createGame();
    expectRefused(await putBoard(game, 'sum-and-columns', { update_strategy: 'sum', tiebreakers: TWO_COLUMNS }), 400, 'created with both');
    expect((await readBoard(game, 'sum-and-columns')).status).to.equal(404);

    await putBoard(game, 'sum', { update_strategy: 'sum' }).expect(201);
    expectRefused(await putBoard(game, 'sum', { tiebreakers: TWO_COLUMNS }), 400, 'columns added to a sum board');
    expect((await readBoard(game, 'sum').expect(200)).body).to.deep.include({ update_strategy: 'sum', tiebreakers: [] });

    await putBoard(game, 'columns', { tiebreakers: TWO_COLUMNS }).expect(201);
    expectRefused(await putBoard(game, 'columns', { update_strategy: 'sum' }), 400, 'a board with columns made sum');
    expect((await readBoard(game, 'columns').expect(200)).body).to.deep.include({ update_strategy: 'best', tiebreakers: TWO_COLUMNS });

    // Sum boards may break ties by time: no columns are involved.
    await putBoard(game, 'sum-earliest', { update_strategy: 'sum', tie_break: 'earliest' }).expect(201);
  });

  it('when the tie settings are malformed, then 400 validation_failed, and neither a new board nor an existing one changes', async () => {
    const game = await createGame();
    await putBoard(game, 'existing', { tiebreakers: TWO_COLUMNS }).expect(201);
    const before = (await readBoard(game, 'existing').expect(200)).body;
    const column = (name: unknown, sort_order: unknown = 'desc') => ({ name, sort_order });
    const bodies: [string, Record<string, unknown>][] = [
      ['an unknown tie_break', { tie_break: 'first' }],
      ['five columns', { tiebreakers: ['a', 'b', 'c', 'd', 'e'].map((name) => column(name)) }],
      ['duplicate names', { tiebreakers: [column('kills'), column('kills', 'asc')] }],
      ['an upper-case name', { tiebreakers: [column('Kills')] }],
      ['an empty name', { tiebreakers: [column('')] }],
      ['a name with a hyphen', { tiebreakers: [column('time-ms')] }],
      ['a name with a space', { tiebreakers: [column('time ms')] }],
      ['a name of 33 characters', { tiebreakers: [column('x'.repeat(33))] }],
      ['a name that is not a string', { tiebreakers: [column(7)] }],
      ['no name', { tiebreakers: [{ sort_order: 'desc' }] }],
      ['an unknown sort_order', { tiebreakers: [column('kills', 'up')] }],
      ['an unknown key in a column', { tiebreakers: [{ ...column('kills'), weight: 2 }] }],
      ['tiebreakers that are not an array', { tiebreakers: 'kills' }],
      ['a column that is not an object', { tiebreakers: ['kills'] }],
    ];
    for (const [label, body] of bodies) {
      expectRefused(await putBoard(game, 'new-board', body), 400, `new board: ${label}`);
      expectRefused(await putBoard(game, 'existing', body), 400, `existing board: ${label}`);
    }
    expect((await readBoard(game, 'new-board')).status).to.equal(404);
    expect((await readBoard(game, 'existing').expect(200)).body).to.deep.equal(before);
  });

  describe('a board that holds scores', () => {
    const changes: [string, Record<string, unknown>][] = [
      ['tie_break', { tie_break: 'earliest' }],
      ['a column added', { tiebreakers: [...TWO_COLUMNS, { name: 'deaths', sort_order: 'asc' }] }],
      ['a column removed', { tiebreakers: TWO_COLUMNS.slice(0, 1) }],
      ['every column removed', { tiebreakers: [] }],
      ['a direction', { tiebreakers: [TWO_COLUMNS[0], { name: 'time', sort_order: 'desc' }] }],
      ['the columns swapped', { tiebreakers: [TWO_COLUMNS[1], TWO_COLUMNS[0]] }],
      ['a column renamed', { tiebreakers: [TWO_COLUMNS[0], { name: 'time_ms', sort_order: 'asc' }] }],
    ];

    /** Every change above is 409 conflict and the board stays as it was; the same settings sent again are accepted. */
    async function expectOrderFixed(game: TestGame, id: string, label: string): Promise<void> {
      const before = (await readBoard(game, id).expect(200)).body;
      for (const [change, body] of changes) expectRefused(await putBoard(game, id, body), 409, `${label}: ${change}`);
      expect((await readBoard(game, id).expect(200)).body).to.deep.equal(before);
      await putBoard(game, id, { tie_break: 'shared', tiebreakers: TWO_COLUMNS }).expect(200);
    }

    async function scoredBoard(): Promise<{ game: TestGame; id: string; player: TestPlayer }> {
      const game = await createGame();
      const id = await createLeaderboard(game, { tiebreakers: TWO_COLUMNS });
      const [player] = await signupMany(game, 1);
      await sendReport(game, player!, id, { score: 3, tiebreakers: [1, 2] }).expect(200);
      return { game, id, player: player! };
    }

    it('when tie_break or tiebreakers change on a board with live scores, then 409 conflict and nothing changes', async () => {
      const { game, id } = await scoredBoard();
      await expectOrderFixed(game, id, 'live scores');
    });

    it('when the board was reset and its archive is kept, then changing tie_break or tiebreakers is still 409 conflict', async () => {
      const worker = await startWorker();
      try {
        const { game, id } = await scoredBoard();
        await api().post(`/api/v1/server/leaderboards/${id}/reset`).set(secretKey(game)).expect(200);
        await waitForPersistence(await internalBoard(game, id));
        const live = await api().get(`/api/v1/server/leaderboards/${id}/seasons`).set(secretKey(game)).expect(200);
        expect(live.body.seasons.map((season: { season: number; total: number }) => [season.season, season.total])).to.deep.equal([
          [2, 0],
          [1, 1],
        ]);
        await expectOrderFixed(game, id, 'an archived season');
      } finally {
        await worker.stop();
      }
    });
  });
});
