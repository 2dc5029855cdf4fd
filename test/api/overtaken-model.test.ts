import { expect } from 'chai';
import fc from 'fast-check';
import { api, testStores } from '../helpers/context.js';
import {
  createGame,
  createLeaderboard,
  internalBoard,
  secretKey,
  sendReport,
  signupMany,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { plainZero, settingsBody, TieModel, type Direction, type TieSettings } from '../helpers/ties.js';

/**
 * player.overtaken against a model (docs/events.md part 5): for random client reports, bans and
 * unbans on boards of every tie rule, order, score rule and 0-2 tiebreakers, the record each report
 * leaves in the board's stream (in the report's own step, the worker's source of events) names
 * exactly the players the model says it passed: strictly ahead of the reporter's entry before,
 * strictly behind it after, ranked within notify_top before, nearest first, never a banned player.
 * Where an `earliest` board orders two entries reached in the same millisecond by its own fixed
 * order, which the model does not know, either answer is accepted.
 */
const PLAYERS = 6;
const SCORES = [1, 2, 3];
const TIEBREAKERS = [0, 1];

type Op = { kind: 'report'; player: number; score: number; tiebreakers: number[] } | { kind: 'ban' | 'unban'; player: number };

const direction = fc.constantFrom<Direction>('desc', 'asc');
// A sum board takes no tiebreakers.
const settings: fc.Arbitrary<TieSettings> = fc
  .record({
    sortOrder: direction,
    tieBreak: fc.constantFrom<'shared' | 'earliest'>('shared', 'earliest'),
    columns: fc.array(direction, { maxLength: 2 }),
    rule: fc.constantFrom<'best' | 'latest' | 'sum'>('best', 'latest', 'sum'),
  })
  .map((board) => (board.rule === 'sum' ? { ...board, columns: [] } : board));
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('report' as const),
      player: fc.nat(PLAYERS - 1),
      score: fc.constantFrom(...SCORES),
      tiebreakers: fc.array(fc.constantFrom(...TIEBREAKERS), { minLength: 2, maxLength: 2 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('ban' as const, 'unban' as const), player: fc.nat(PLAYERS - 1) }) },
);

type Verdict = 'yes' | 'no' | 'maybe';
const both = (...verdicts: Verdict[]): Verdict => (verdicts.includes('no') ? 'no' : verdicts.includes('maybe') ? 'maybe' : 'yes');

/** What the model says of each other player for one report: passed for sure, perhaps, or not. */
function expectedPassed(before: TieModel, after: TieModel, reporter: string, notifyTop: number): Map<string, Verdict> {
  const earliest = before.earliest;
  const strictly = (order: number): Verdict => (order < 0 ? 'yes' : order === 0 && earliest ? 'maybe' : 'no');
  const was = before.entries.get(reporter);
  const now = after.entries.get(reporter)!;
  const verdicts = new Map<string, Verdict>();
  for (const [other, entry] of before.entries) {
    if (other === reporter) continue;
    const aheadBefore = was ? strictly(before.compare(entry, was)) : 'yes';
    const behindAfter = strictly(after.compare(now, after.entries.get(other)!));
    const [low, high] = earliest ? before.rankRange(other) : [before.sharedRank(other), before.sharedRank(other)];
    const within: Verdict = high <= notifyTop ? 'yes' : low > notifyTop ? 'no' : 'maybe';
    verdicts.set(other, both(aheadBefore, behindAfter, within));
  }
  return verdicts;
}

interface StreamRecord {
  by: string;
  score: number;
  season: number;
  players: { playerId: string; rank: number }[];
}

/** The records the board's stream holds after `after` (a stream id), oldest first. */
async function recordsAfter(key: string, after: string): Promise<{ id: string; record: StreamRecord }[]> {
  const entries = await testStores().redis.xrange(key, `(${after}`, '+');
  return entries.map(([id, fields]) => {
    const field = new Map<string, string>();
    for (let i = 0; i < fields.length; i += 2) field.set(fields[i]!, fields[i + 1]!);
    const parts = field.get('players')!.split(' ');
    const players = [];
    for (let i = 0; i < parts.length; i += 2) players.push({ playerId: parts[i]!, rank: Number(parts[i + 1]) });
    return { id, record: { by: field.get('by')!, score: Number(field.get('score')), season: Number(field.get('season')), players } };
  });
}

const ban = (game: TestGame, playerId: string) =>
  api().post(`/api/v1/server/players/${playerId}/ban`).set(secretKey(game)).send({ reason: 'model' }).expect(200);
const unban = (game: TestGame, playerId: string) => api().delete(`/api/v1/server/players/${playerId}/ban`).set(secretKey(game)).expect(200);

describe('player.overtaken against a model', function () {
  this.timeout(300_000);

  it('when random reports, bans and unbans run on any board, then each report records exactly the players the model says it passed within notify_top, nearest first', async () => {
    await fc.assert(
      fc.asyncProperty(
        settings,
        fc.integer({ min: 1, max: PLAYERS }),
        fc.array(op, { minLength: 1, maxLength: 30 }),
        async (board, notifyTop, ops) => {
          const game = await createGame();
          const players: TestPlayer[] = await signupMany(game, PLAYERS);
          const id = await createLeaderboard(game, settingsBody(board, { notify_top: notifyTop }));
          const key = testStores().keys(await internalBoard(game, id)).overtaken;
          const model = new TieModel(board);
          const banned = new Set<string>();
          let last = '0-0';
          for (const [step, each] of ops.entries()) {
            const player = players[each.player]!;
            const label = `step ${step} (${each.kind} by player ${each.player})`;
            if (each.kind !== 'report') {
              const isBanned = banned.has(player.playerId);
              if (each.kind === 'ban' && !isBanned) await ban(game, player.playerId);
              if (each.kind === 'unban' && isBanned) await unban(game, player.playerId);
              if (each.kind === 'ban') banned.add(player.playerId);
              else banned.delete(player.playerId);
              continue;
            }
            const tiebreakers = each.tiebreakers.slice(0, board.columns.length);
            const res = await sendReport(game, player, id, { score: each.score, ...(board.columns.length > 0 && { tiebreakers }) });
            const records = await recordsAfter(key, last);
            if (records.length > 0) last = records[records.length - 1]!.id;
            if (banned.has(player.playerId)) {
              expect(res.status, `${label}: a banned player's report`).to.equal(403);
              expect(records, `${label}: a refused report records nothing`).to.deep.equal([]);
              continue;
            }
            expect(res.status, label).to.equal(200);
            const before = model.without(banned);
            const { replaced } = model.report(player.playerId, each.score, tiebreakers);
            if (replaced && model.earliest) model.setTime(player.playerId, Date.parse(res.body.achieved_at));
            const after = model.without(banned);
            const verdicts = expectedPassed(before, after, player.playerId, notifyTop);
            const required = [...verdicts].filter(([, verdict]) => verdict === 'yes').map(([other]) => other);
            expect(records.length, `${label}: at most one record per report`).to.be.at.most(1);
            const record = records[0]?.record;
            const named = record?.players ?? [];
            expect(
              named.map((p) => p.playerId),
              `${label}: the model's passed players are all named`,
            ).to.include.members(required);
            for (const { playerId, rank } of named) {
              expect(verdicts.get(playerId), `${label}: ${playerId} may be named`).to.be.oneOf(['yes', 'maybe']);
              expect(banned.has(playerId), `${label}: ${playerId} is not banned`).to.equal(false);
              const [low, high] = after.earliest ? after.rankRange(playerId) : [after.sharedRank(playerId), after.sharedRank(playerId)];
              expect(rank, `${label}: ${playerId}'s rank now`).to.be.within(low, high);
              expect(rank - 1, `${label}: ${playerId} ranked within notify_top before`).to.be.at.most(notifyTop);
            }
            const ranks = named.map((p) => p.rank);
            expect(ranks, `${label}: nearest first`).to.deep.equal([...ranks].sort((a, b) => a - b));
            if (record) {
              expect(record.by, `${label}: by`).to.equal(player.playerId);
              expect(plainZero(record.score), `${label}: the score held`).to.equal(plainZero(model.entries.get(player.playerId)!.score));
              expect(record.season, `${label}: season`).to.equal(1);
            }
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('when a report passes more than 50 players within notify_top, then its record names the 50 nearest, ranks 2 to 51', async () => {
    const game = await createGame();
    const players = await signupMany(game, 61);
    const id = await createLeaderboard(game, { notify_top: 1000 });
    for (const [i, player] of players.slice(0, 60).entries()) {
      expect((await sendReport(game, player, id, { score: 100 + i })).status).to.equal(200);
    }
    const key = testStores().keys(await internalBoard(game, id)).overtaken;
    const before = await testStores().redis.xrange(key, '-', '+');
    const last = before[before.length - 1]?.[0] ?? '0-0';
    expect((await sendReport(game, players[60]!, id, { score: 1000 })).status).to.equal(200);
    const { record } = (await recordsAfter(key, last))[0]!;
    expect(record.players.map((p) => p.rank)).to.deep.equal(Array.from({ length: 50 }, (_, i) => i + 2));
    // Nearest first: the best of those passed (score 159) is right behind the new first.
    expect(record.players[0]!.playerId).to.equal(players[59]!.playerId);
    expect(record.players[49]!.playerId).to.equal(players[10]!.playerId);
  });
});
