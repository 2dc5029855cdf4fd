import { expect } from 'chai';
import { api, testStores } from '../helpers/context.js';
import {
  createGame,
  createLeaderboard,
  internalBoard,
  reportScore,
  reportScores,
  secretKey,
  signupMany,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { boardLosesLiveState, inParallel, waitForPersistence } from '../helpers/persistence.js';
import { startWorker, type ServiceProcess } from '../helpers/processes.js';
import { allBestRankKeys, leaderboardKeys } from '../../engine/live/keys.js';

interface Answer {
  rank: number;
  at: number;
}

/** best_rank and best_rank_at on records (docs/history.md part 4): the best of the player's answered ranks this season. */
describe('best_rank on player records', function () {
  this.timeout(180_000);
  let game: TestGame;
  let worker: ServiceProcess;

  before(async () => {
    game = await createGame();
    worker = await startWorker();
  });
  after(async () => {
    await worker.stop();
  });

  const record = async (leaderboard: string, player: TestPlayer) =>
    (await api().get(`/api/v1/client/leaderboards/${leaderboard}/players/${player.playerId}`).set(secretKey(game)).expect(200)).body as {
      rank: number;
      best_rank: number | null;
      best_rank_at: string | null;
    };
  /** Reports and keeps the answer's rank, with the moments around it (best_rank_at falls between them). */
  const answered = async (leaderboard: string, player: TestPlayer, score: number) => {
    const sent = Date.now();
    const res = await reportScore(game, player, leaderboard, score).expect(200);
    return { rank: res.body.rank as number, sent, received: Date.now() };
  };

  it('when 40 players report 5 times each concurrently on a latest board, then each record says the best rank of their own answers, once persisted and after a rebuild too', async () => {
    const leaderboard = await createLeaderboard(game, { update_strategy: 'latest' });
    const board = await internalBoard(game, leaderboard);
    const players = await signupMany(game, 40);
    const answers = new Map<string, Answer[]>(players.map((p) => [p.playerId, []]));
    // Scores rise and fall, so ranks go both ways; reports of different players race.
    await inParallel(
      players.flatMap((player, p) =>
        [0, 1, 2, 3, 4].map((round) => async () => {
          const { rank, received } = await answered(leaderboard, player, ((p * 7919 + round * 104729) % 1000) + 1);
          answers.get(player.playerId)!.push({ rank, at: received });
        }),
      ),
      40,
    );
    const expectBest = async (when: string) => {
      for (const player of players) {
        const best = Math.min(...answers.get(player.playerId)!.map((a) => a.rank));
        const shown = await record(leaderboard, player);
        expect(shown.best_rank, `${when}: best_rank of ${player.playerId}`).to.equal(best);
        expect(shown.best_rank, `${when}: never worse than the rank now`).to.be.at.most(shown.rank);
        expect(Date.parse(shown.best_rank_at!), `${when}: best_rank_at`).to.be.at.most(Date.now());
      }
    };
    await expectBest('live');
    const before = await Promise.all(players.map((player) => record(leaderboard, player)));

    await waitForPersistence(board);
    const { rows } = await testStores().pool.query<{ player_id: string; best_rank: number; best_rank_at: Date }>(
      'SELECT player_id, best_rank, best_rank_at FROM scores WHERE leaderboard_internal_id = $1',
      [board.internalId],
    );
    expect(rows).to.have.length(40);
    for (const row of rows) {
      const shown = before[players.findIndex((p) => p.playerId === row.player_id)]!;
      expect([row.best_rank, row.best_rank_at.toISOString()], `persisted ${row.player_id}`).to.deep.equal([
        shown.best_rank,
        shown.best_rank_at,
      ]);
    }

    await boardLosesLiveState(board);
    const after = await Promise.all(players.map((player) => record(leaderboard, player)));
    for (const [i, shown] of after.entries()) expect(shown, `after the rebuild: ${players[i]!.playerId}`).to.deep.equal(before[i]);
  });

  it('when a board grows past 2,048 entries, where best ranks spread over compact hashes, then each stays the best of its answers through persistence, a rebuild, a removal and a reset', async () => {
    const leaderboard = await createLeaderboard(game);
    const board = await internalBoard(game, leaderboard);
    const players = await signupMany(game, 60);
    const answers = new Map<string, number[]>(players.map((p) => [p.playerId, []]));
    const reportAll = (round: number) =>
      inParallel(
        players.map((player, p) => async () => {
          const { rank } = await answered(leaderboard, player, 100_000 + ((p * 7919 + round * 104729) % 1000));
          answers.get(player.playerId)!.push(rank);
        }),
        20,
      );
    await reportAll(0); // a small board: one hash
    // 2,000 players below everyone: the 60 keep their ranks, and the board is past the spread size.
    const fillers = await signupMany(game, 2000);
    await reportScores(
      game,
      leaderboard,
      fillers.map((filler, i) => [filler, i]),
    );
    await reportAll(1); // the better answers move to the spread hashes, the worse leave the old ones
    await reportAll(2);
    // Both forms are in use: those written while the board was small, and the spread ones.
    const { redis, prefix } = testStores();
    const unspread = await redis.hlen(leaderboardKeys(prefix, board.internalId).bestRanks);
    const [level, ...hashes] = allBestRankKeys(prefix, board.internalId);
    expect(await redis.get(level!), 'the highest level written').to.equal('1');
    const spread = (await Promise.all(hashes.map((key) => redis.hlen(key)))).reduce((a, b) => a + b, 0);
    expect([unspread, spread].map((n) => n > 0)).to.deep.equal([true, true]);
    expect(unspread + spread).to.equal(2060);

    const expectBest = async (when: string) => {
      for (const player of players) {
        const shown = await record(leaderboard, player);
        expect(shown.best_rank, `${when}: best_rank of ${player.playerId}`).to.equal(Math.min(...answers.get(player.playerId)!));
      }
    };
    await expectBest('live');
    await waitForPersistence(board);
    const { rows } = await testStores().pool.query<{ player_id: string; best_rank: number }>(
      'SELECT player_id, best_rank FROM scores WHERE leaderboard_internal_id = $1 AND player_id = ANY($2)',
      [board.internalId, players.map((p) => p.playerId)],
    );
    for (const row of rows) expect(row.best_rank, `persisted ${row.player_id}`).to.equal(Math.min(...answers.get(row.player_id)!));
    expect(rows).to.have.length(60);
    await boardLosesLiveState(board);
    await expectBest('after a rebuild');

    // A removal drops the best rank wherever it was kept: the next report starts it over.
    const [ann] = players;
    await api().delete(`/api/v1/server/leaderboards/${leaderboard}/scores/${ann!.playerId}`).set(secretKey(game)).expect(204);
    const again = await answered(leaderboard, ann!, 1_000);
    expect((await record(leaderboard, ann!)).best_rank).to.equal(again.rank);

    // A reset drops them all: the player who ranked best last season, fourth now, says 4.
    const bestOf = (player: TestPlayer) => Math.min(...answers.get(player.playerId)!);
    const leader = players.slice(1).reduce((a, b) => (bestOf(b) < bestOf(a) ? b : a));
    expect(bestOf(leader)).to.be.below(4);
    await api().post(`/api/v1/server/leaderboards/${leaderboard}/reset`).set(secretKey(game)).expect(200);
    const kept = await redis.exists(leaderboardKeys(prefix, board.internalId).bestRanks, ...allBestRankKeys(prefix, board.internalId));
    expect(kept, 'best-rank keys left by the reset').to.equal(0);
    await reportScores(
      game,
      leaderboard,
      [fillers[0]!, fillers[1]!, fillers[2]!].map((filler, i) => [filler, 10 + i]),
    );
    expect((await answered(leaderboard, leader, 5)).rank).to.equal(4);
    expect((await record(leaderboard, leader)).best_rank).to.equal(4);
  });

  it('when a board holds more than 98,304 entries, then best ranks go to the second level of hashes, and read, persist and drop with the board as on smaller ones', async () => {
    const leaderboard = await createLeaderboard(game);
    const board = await internalBoard(game, leaderboard);
    const players = await signupMany(game, 6);
    await answered(leaderboard, players[0]!, 1_000_000); // the board is live: its season is set
    // Entries below everyone's, written straight into the ranking: only its size matters here.
    const { redis, prefix } = testStores();
    const { scores, bestRanks } = leaderboardKeys(prefix, board.internalId);
    for (let from = 0; from < 98_304; from += 8_192) {
      await redis.zadd(scores, ...Array.from({ length: 8_192 }, (_, i) => [from + i, `seeded-${from + i}`]).flat());
    }
    const answers = new Map<string, number[]>(players.map((p) => [p.playerId, []]));
    for (const round of [0, 1]) {
      await inParallel(
        players.slice(1).map((player, p) => async () => {
          const { rank } = await answered(leaderboard, player, 500_000 + ((p * 7919 + round * 104729) % 1000));
          answers.get(player.playerId)!.push(rank);
        }),
      );
    }
    const [level, ...hashes] = allBestRankKeys(prefix, board.internalId);
    expect(await redis.get(level!), 'the highest level written').to.equal('2');
    const levelTwo = hashes.filter((key) => key.startsWith(`${bestRanks}:2:`));
    const held = (await Promise.all(levelTwo.map((key) => redis.hlen(key)))).reduce((a, b) => a + b, 0);
    expect(held, 'best ranks at the second level').to.equal(5);
    for (const player of players.slice(1)) {
      expect((await record(leaderboard, player)).best_rank, player.playerId).to.equal(Math.min(...answers.get(player.playerId)!));
    }
    await waitForPersistence(board);
    const { rows } = await testStores().pool.query<{ player_id: string; best_rank: number }>(
      'SELECT player_id, best_rank FROM scores WHERE leaderboard_internal_id = $1 AND player_id = ANY($2)',
      [board.internalId, players.slice(1).map((p) => p.playerId)],
    );
    expect(rows.map((row) => row.best_rank).sort()).to.deep.equal(
      players
        .slice(1)
        .map((p) => Math.min(...answers.get(p.playerId)!))
        .sort(),
    );

    await api().delete(`/api/v1/server/leaderboards/${leaderboard}`).set(secretKey(game)).expect(204);
    expect(await redis.exists(bestRanks, ...allBestRankKeys(prefix, board.internalId)), 'best-rank keys left by the deletion').to.equal(0);
  });

  it('when a report keeps a worse rank on a best board, then best_rank and its time stay those of the better answer', async () => {
    const leaderboard = await createLeaderboard(game);
    const [ann, ben] = await signupMany(game, 2);
    const first = await answered(leaderboard, ann!, 10); // rank 1
    await answered(leaderboard, ben!, 20); // Ann falls to 2
    expect((await answered(leaderboard, ann!, 5)).rank).to.equal(2);
    const shown = await record(leaderboard, ann!);
    expect(shown.rank).to.equal(2);
    expect(shown.best_rank).to.equal(1);
    expect(Date.parse(shown.best_rank_at!)).to.be.within(first.sent - 1000, first.received + 1000);
  });

  it('when a score is removed, or the season is reset, then the best rank starts over with the next report', async () => {
    const leaderboard = await createLeaderboard(game);
    const board = await internalBoard(game, leaderboard);
    const [ann, ben, cat] = await signupMany(game, 3);
    await answered(leaderboard, ann!, 30); // rank 1
    await answered(leaderboard, ben!, 20);
    await answered(leaderboard, cat!, 10);
    await waitForPersistence(board);
    // No worker between the removal and the next report: one claim carries both, and the row stays.
    await worker.stop();
    await api().delete(`/api/v1/server/leaderboards/${leaderboard}/scores/${ann!.playerId}`).set(secretKey(game)).expect(204);
    expect((await answered(leaderboard, ann!, 5)).rank).to.equal(3);
    expect((await record(leaderboard, ann!)).best_rank).to.equal(3);
    worker = await startWorker();
    await waitForPersistence(board);
    const { rows } = await testStores().pool.query('SELECT best_rank FROM scores WHERE leaderboard_internal_id = $1 AND player_id = $2', [
      board.internalId,
      ann!.playerId,
    ]);
    expect(rows).to.deep.equal([{ best_rank: 3 }]);

    await api().post(`/api/v1/server/leaderboards/${leaderboard}/reset`).set(secretKey(game)).expect(200);
    await answered(leaderboard, cat!, 1);
    await answered(leaderboard, ben!, 2); // Cat falls to 2
    const shown = await record(leaderboard, cat!);
    expect([shown.rank, shown.best_rank]).to.deep.equal([2, 1]);
    // The archived season's record says none.
    const archived = await api()
      .get(`/api/v1/client/leaderboards/${leaderboard}/players/${cat!.playerId}?season=1`)
      .set(secretKey(game))
      .expect(200);
    expect([archived.body.best_rank, archived.body.best_rank_at]).to.deep.equal([null, null]);
  });
});
