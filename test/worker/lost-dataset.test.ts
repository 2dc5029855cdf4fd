import { expect } from 'chai';
import request from 'supertest';
import { rebuildCursorKey } from '../../engine/live/keys.js';
import { LeaderboardStore } from '../../engine/leaderboards/leaderboard-store.js';
import { api, testStores } from '../helpers/context.js';
import {
  createGame,
  createLeaderboard,
  internalBoard,
  reportScore,
  secretKey,
  serverReport,
  signup,
  signupMany,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { inParallel, liveScores, nodeLosesData, rebuildingElsewhere, waitForPersistence } from '../helpers/persistence.js';
import { startApi, startWorker, until } from '../helpers/processes.js';

const BOARDS = 400;
const PLAYERS = 20;

/** Player i holds (i + 1) * 100 on every board. */
const scoreOf = (i: number) => (i + 1) * 100;

/** A player's record, from the shared app or from the API process at `base`. */
function record(game: TestGame, leaderboard: string, playerId: string, base?: string) {
  const path = `/api/v1/client/leaderboards/${leaderboard}/players/${playerId}`;
  return (base ? request(base).get(path) : api().get(path)).set(secretKey(game));
}

describe('a lost Redis dataset', function () {
  this.timeout(240_000);
  let game: TestGame;
  let boards: string[];
  let players: TestPlayer[];

  before(async () => {
    game = await createGame();
    players = await signupMany(game, PLAYERS);
    boards = [];
    for (let i = 0; i < BOARDS; i += 20) boards.push(...(await Promise.all(Array.from({ length: 20 }, () => createLeaderboard(game)))));
    const worker = await startWorker();
    try {
      await inParallel(
        players.flatMap((player, i) =>
          Array.from({ length: BOARDS / 100 }, (_, chunk) => () => {
            const ids = boards.slice(chunk * 100, chunk * 100 + 100);
            return serverReport(
              game,
              player.playerId,
              ids.map(() => scoreOf(i)),
              ids,
            );
          }),
        ),
        10,
      );
      const internal = await Promise.all(boards.map((id) => internalBoard(game, id)));
      await inParallel(
        internal.map((board) => () => waitForPersistence(board, 60_000)),
        20,
      );
    } finally {
      await worker.stop();
    }
  });

  it('when the node of many boards with persisted scores loses its data, then the first report and record read on the board created last answer its true ranks at once', async () => {
    const last = boards[boards.length - 1]!;
    await nodeLosesData(await internalBoard(game, last));
    const newcomer = await signup(game);
    // 1050 is better than the 10 scores 100..1000: rank 11 of 21.
    const [report, read] = await Promise.all([
      reportScore(game, newcomer, last, 1050).expect(200),
      record(game, last, players[4]!.playerId).expect(200),
    ]);
    expect(report.body).to.include({ rank: 10 + 1, total: PLAYERS + 1, best_score: 1050 });
    // Player 4 holds 500: 15 scores of the others are better, 16 with the newcomer's if it counted first.
    expect(read.body.score).to.equal(500);
    expect([read.body.rank, read.body.total]).to.deep.oneOf([
      [16, PLAYERS],
      [17, PLAYERS + 1],
    ]);
    expect((await record(game, last, players[4]!.playerId).expect(200)).body).to.include({ rank: 17, total: PLAYERS + 1 });
  });

  it('when a node loses its data and no worker runs, then every API process notices it on its first touch, and every board it holds answers as persisted', async () => {
    const sample = [boards[0]!, boards[137]!, boards[BOARDS - 2]!];
    const internal = await Promise.all(sample.map((id) => internalBoard(game, id)));
    const persisted = new Map(players.map((player, i) => [player.playerId, scoreOf(i)]));
    const { redis, prefix } = testStores();
    const other = await startApi();
    try {
      await nodeLosesData(internal[0]!);
      // A page read through the other process: it finds the board without live state and rebuilds it first.
      const page = await request(other.url)
        .get(`/api/v1/client/leaderboards/${sample[0]}?limit=3`)
        .set('Publishable-Key', game.publishableKey)
        .set('Anonymous-Authorization', players[0]!.token)
        .expect(200);
      expect(page.body.total).to.equal(PLAYERS);
      expect(page.body.entries.map((entry: { score: number; rank: number }) => [entry.score, entry.rank])).to.deep.equal([
        [2000, 1],
        [1900, 2],
        [1800, 3],
      ]);
      // The process noticed the lost dataset by itself: its marker is back and a rebuild walk asked for.
      await until(async () => (await redis.exists(rebuildCursorKey(prefix))) === 1, 'the API to ask for a rebuild', 1000);
      for (const [i, board] of internal.entries()) {
        for (const [p, player] of players.entries()) {
          const read = await record(game, sample[i]!, player.playerId, other.url).expect(200);
          expect([read.body.score, read.body.rank], `${sample[i]} player ${p}`).to.deep.equal([scoreOf(p), PLAYERS - p]);
        }
        expect(await liveScores(board), sample[i]).to.deep.equal(persisted);
      }
    } finally {
      await other.stop();
    }
  });

  it('when the worker finds the lost dataset, then its rebuild walk takes the most recently active boards first, and every board comes back', async () => {
    const internal = await Promise.all(boards.map((id) => internalBoard(game, id)));
    // The boards' activity as the worker records it: the first board of the list is the most recent.
    // Set ahead of now, so boards of other tests the worker marks active meanwhile come after them.
    const { pool } = testStores();
    await pool.query(
      `UPDATE leaderboards l SET active_at = date_trunc('milliseconds', now()) + interval '1 hour' - u.place * interval '1 second'
       FROM unnest($1::bigint[]) WITH ORDINALITY AS u (internal_id, place) WHERE l.internal_id = u.internal_id`,
      [internal.map((board) => board.internalId)],
    );
    const walk = await new LeaderboardStore(pool).pageByActivity(undefined, 3);
    expect(walk.map((board) => board.internalId)).to.include.members([internal[0]!.internalId]);
    expect(walk[0]!.internalId).to.equal(internal[0]!.internalId);

    await nodeLosesData(internal[0]!);
    const worker = await startWorker();
    try {
      await until(async () => (await liveScores(internal[0]!)).size === PLAYERS, 'the most active board to come back', 10_000);
      const { redis, prefix } = testStores();
      await until(async () => (await redis.exists(rebuildCursorKey(prefix))) === 0, 'the rebuild walk to finish', 120_000);
      for (const board of internal) expect((await liveScores(board)).size, `board ${board.id}`).to.be.at.least(PLAYERS);
    } finally {
      await worker.stop();
    }
  });

  it('when another process is rebuilding a board, then reads and reports of it answer 503 with Retry-After and change nothing, and answer once it is done', async () => {
    const leaderboard = boards[7]!;
    const board = await internalBoard(game, leaderboard);
    const before = await liveScores(board);
    const release = await rebuildingElsewhere(board);
    try {
      for (const res of [
        await reportScore(game, players[0]!, leaderboard, 99_999).expect(503),
        await record(game, leaderboard, players[0]!.playerId).expect(503),
      ]) {
        expect(res.body.error.code).to.equal('unavailable');
        expect(res.headers['retry-after']).to.match(/^\d+$/);
      }
      expect(await liveScores(board)).to.deep.equal(before);
    } finally {
      await release();
    }
    expect((await record(game, leaderboard, players[0]!.playerId).expect(200)).body).to.include({ score: 100, rank: PLAYERS });
  });
});
