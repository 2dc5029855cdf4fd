import { expect } from 'chai';
import fc from 'fast-check';
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
import { boardLosesLiveState, waitForPersistence } from '../helpers/persistence.js';
import { startWorker, type ServiceProcess } from '../helpers/processes.js';
import {
  expectEveryRead,
  expectRows,
  ISO_MS,
  plainZero,
  settingsBody,
  TieModel,
  type Direction,
  type ReadTarget,
  type TieBreak,
  type TieSettings,
} from '../helpers/ties.js';

/**
 * Model-based tests of tie-breaking: random client reports and server batches on one `shared` and
 * one `earliest` clan board, each with random order, rule (best or latest) and 0-4 tiebreaker
 * columns in random directions, with a worker now and then (or one SIGKILLed at a random moment).
 * Every report's answer must already agree with the model (its achieved_at is what the model
 * records: the service's clock); after the run every read (pages, records, around_me, list ranks,
 * clan members) and PostgreSQL's rows equal the model, again after the board's Redis state is lost
 * and rebuilt, and again in the archive of the season once it is reset.
 */
const PLAYERS = 5;
const CLANS = 2;
const SCORES = [-1, 0, 1, 2.5];
const TIEBREAKERS = [-1, 0, 0.5, 1];

interface Pair {
  board: number;
  score: number;
  /** One value per possible column; a board uses the first as many as it has. */
  tiebreakers: number[];
}
type Op =
  | ({ kind: 'client'; player: number } & Pair)
  | { kind: 'batch'; player: number; pairs: Pair[]; omitNulls: boolean }
  | { kind: 'worker' }
  | { kind: 'kill'; afterMs: number };

interface WorldInput {
  boards: TieSettings[];
  clans: (number | null)[];
}

const direction = fc.constantFrom<Direction>('desc', 'asc');
const boardSettings = (tieBreak: TieBreak): fc.Arbitrary<TieSettings> =>
  fc.record({
    sortOrder: direction,
    tieBreak: fc.constant(tieBreak),
    columns: fc.array(direction, { maxLength: 4 }),
    rule: fc.constantFrom<'best' | 'latest'>('best', 'latest'),
  });
const world: fc.Arbitrary<WorldInput> = fc.record({
  boards: fc.tuple(boardSettings('shared'), boardSettings('earliest')),
  clans: fc.array(fc.option(fc.nat(CLANS - 1), { nil: null }), { minLength: PLAYERS, maxLength: PLAYERS }),
});

const pair: fc.Arbitrary<Pair> = fc.record({
  board: fc.nat(1),
  score: fc.constantFrom(...SCORES),
  tiebreakers: fc.array(fc.constantFrom(...TIEBREAKERS), { minLength: 4, maxLength: 4 }),
});
const player = fc.nat(PLAYERS - 1);
const step: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('client' as const), player }).chain((op) => pair.map((p) => ({ ...op, ...p }))) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('batch' as const),
      player,
      pairs: fc.uniqueArray(pair, { minLength: 1, maxLength: 2, selector: (p) => p.board }),
      omitNulls: fc.boolean(),
    }),
  },
);

/** Up to 24 steps with the worker events put in at random places. */
function sequence(events: fc.Arbitrary<Op>, count: { minLength: number; maxLength: number }): fc.Arbitrary<Op[]> {
  return fc.tuple(fc.array(step, { minLength: 1, maxLength: 24 }), fc.array(fc.tuple(fc.nat(), events), count)).map(([steps, inserts]) => {
    const ops = [...steps];
    for (const [at, event] of inserts) ops.splice(at % (ops.length + 1), 0, event);
    return ops;
  });
}

interface World {
  game: TestGame;
  players: TestPlayer[];
  clans: string[];
  clanOf: (number | null)[];
  boards: { id: string; internalId: number }[];
  models: TieModel[];
  bot: { 'Api-Key': string };
}

async function createWorld(input: WorldInput): Promise<World> {
  const game = await createGame();
  const players = await signupMany(game, PLAYERS);
  const clans = [await createClan(game), await createClan(game)];
  const boards = [];
  for (const settings of input.boards) {
    const id = await createLeaderboard(game, settingsBody(settings, { type: 'clan' }));
    boards.push({ id, internalId: (await internalBoard(game, id)).internalId });
  }
  for (const [p, c] of input.clans.entries()) if (c !== null) await joinClan(game, clans[c]!, [players[p]!]);
  return {
    game,
    players,
    clans,
    clanOf: input.clans,
    boards,
    models: input.boards.map((settings) => new TieModel(settings)),
    bot: { 'Api-Key': (await createThirdPartyKey(game)).apiKey },
  };
}

const describeBoard = (model: TieModel) =>
  `${model.settings.tieBreak} ${model.settings.rule} ${model.settings.sortOrder} board [${model.settings.columns.join(',')}]`;

/**
 * Applies one report to the model and checks the service's answer against it; the answer's
 * achieved_at is the time the model records when the report replaced the kept entry.
 */
function expectAnswer(w: World, p: Pair, playerIndex: number, answer: Record<string, unknown>, where: string): void {
  const model = w.models[p.board]!;
  const id = w.players[playerIndex]!.playerId;
  const tiebreakers = p.tiebreakers.slice(0, model.settings.columns.length);
  const { replaced, improved, kept } = model.report(id, p.score, tiebreakers);
  const label = `${where}: ${describeBoard(model)}`;
  if (model.earliest) {
    expect(answer.achieved_at, `${label}: achieved_at`).to.be.a('string').and.match(ISO_MS);
    const at = Date.parse(answer.achieved_at as string);
    if (replaced) model.setTime(id, at);
    else expect(at, `${label}: an unchanged entry keeps its time`).to.equal(kept.achievedAt);
  } else {
    expect(answer, `${label}: no achieved_at`).to.not.have.property('achieved_at');
  }
  if (model.settings.columns.length > 0) {
    expect((answer.tiebreakers as number[]).map(plainZero), `${label}: kept tiebreakers`).to.deep.equal(kept.tiebreakers.map(plainZero));
  } else {
    expect(answer, `${label}: no tiebreakers`).to.not.have.property('tiebreakers');
  }
  expect(plainZero(answer.best_score as number), `${label}: best_score`).to.equal(plainZero(kept.score));
  if (improved !== undefined) expect(answer.improved, `${label}: improved`).to.equal(improved);
  const [low, high] = model.rankRange(id);
  expect(answer.rank, `${label}: rank`).to.be.within(low, high);
}

async function apply(w: World, op: Op, where: string): Promise<void> {
  if (op.kind === 'client') {
    const columns = w.models[op.board]!.settings.columns.length;
    const body = columns > 0 ? { score: op.score, tiebreakers: op.tiebreakers.slice(0, columns) } : { score: op.score };
    const res = await sendReport(w.game, w.players[op.player]!, w.boards[op.board]!.id, body).expect(200);
    expectAnswer(w, op, op.player, res.body, where);
    expect(res.body.total, `${where}: total`).to.equal(w.models[op.board]!.entries.size);
  } else if (op.kind === 'batch') {
    const tiebreakers = op.pairs.map((p) => {
      const columns = w.models[p.board]!.settings.columns.length;
      return columns > 0 ? p.tiebreakers.slice(0, columns) : null;
    });
    const res = await sendBatch(w.game, {
      player_id: w.players[op.player]!.playerId,
      scores: op.pairs.map((p) => p.score),
      leaderboard_ids: op.pairs.map((p) => w.boards[p.board]!.id),
      ...(op.omitNulls && tiebreakers.every((t) => t === null) ? {} : { tiebreakers }),
    }).expect(200);
    for (const [i, p] of op.pairs.entries()) expectAnswer(w, p, op.player, res.body.results[i], `${where} pair ${i}`);
  }
}

/** What the reads of board `b` need to know of the world. */
function targetOf(w: World, b: number): ReadTarget {
  return {
    game: w.game,
    bot: w.bot,
    leaderboardId: w.boards[b]!.id,
    players: w.players,
    clans: w.clans.map((id, c) => ({ id, members: w.players.filter((_, p) => w.clanOf[p] === c).map((pl) => pl.playerId) })),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the steps; a kill runs beside the later steps. Then the live reads, PostgreSQL, a rebuild and the archive. */
async function run(input: WorldInput, ops: Op[]): Promise<void> {
  const w = await createWorld(input);
  let killing: Promise<unknown> = Promise.resolve();
  try {
    for (const [i, op] of ops.entries()) {
      if (op.kind === 'worker') {
        const worker = await startWorker();
        try {
          for (const b of w.boards) await waitForPersistence(b, 60_000);
        } finally {
          await worker.stop();
        }
      } else if (op.kind === 'kill') {
        const doomed: ServiceProcess = await startWorker();
        killing = sleep(op.afterMs).then(() => doomed.stop('SIGKILL'));
      } else await apply(w, op, `step ${i} ${JSON.stringify(op)}`);
    }
  } finally {
    await killing;
  }
  const worker = await startWorker();
  try {
    for (const [b, board] of w.boards.entries()) {
      const label = describeBoard(w.models[b]!);
      await waitForPersistence(board, 60_000);
      const model = w.models[b]!;
      await expectEveryRead(targetOf(w, b), model, `${label}, live`);
      await expectRows(board, model, `${label}, live`);
      await boardLosesLiveState(board);
      await expectEveryRead(targetOf(w, b), model, `${label}, rebuilt from PostgreSQL`);
      await api().post(`/api/v1/server/leaderboards/${board.id}/reset`).set(secretKey(w.game)).expect(200);
      await waitForPersistence(board, 60_000);
      await expectEveryRead(targetOf(w, b), model, `${label}, archived`, 1);
      await expectRows(board, model, `${label}, archived`, 1);
    }
  } finally {
    await worker.stop();
  }
}

describe('ties model: random reports on shared and earliest boards with tiebreakers against a model', function () {
  this.timeout(600_000);
  const limits = { interruptAfterTimeLimit: 240_000, markInterruptAsFailure: true };

  it('when reports and batches run with a worker now and then, then every read, PostgreSQL, a rebuild and the archive equal the model', async () => {
    await fc.assert(fc.asyncProperty(world, sequence(fc.constant<Op>({ kind: 'worker' }), { minLength: 0, maxLength: 1 }), run), {
      numRuns: 15,
      ...limits,
    });
  });

  it('when a worker is SIGKILLed at a random moment while reports keep arriving, then nothing is lost or reordered', async () => {
    await fc.assert(
      fc.asyncProperty(
        world,
        sequence(
          fc.nat(400).map((afterMs): Op => ({ kind: 'kill', afterMs })),
          { minLength: 1, maxLength: 1 },
        ),
        run,
      ),
      { numRuns: 8, ...limits },
    );
  });
});
