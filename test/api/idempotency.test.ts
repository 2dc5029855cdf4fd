import { expect } from 'chai';
import { api } from '../helpers/context.js';
import {
  createGame,
  createLeaderboard,
  internalBoard,
  secretKey,
  signup,
  signupMany,
  uniqueId,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { inParallel, liveScores, persistedScores, rebuildingElsewhere, waitForPersistence } from '../helpers/persistence.js';
import { startApi, startWorker, until, type ServiceProcess } from '../helpers/processes.js';

const SUM = { update_strategy: 'sum' };

/** A client report, optionally with an Idempotency-Key; a string body is sent as it is (raw JSON). */
function clientReport(game: TestGame, player: TestPlayer, leaderboard: string, body: object | string, key?: string) {
  const req = api()
    .post(`/api/v1/client/leaderboards/${leaderboard}/report_score`)
    .set('Publishable-Key', game.publishableKey)
    .set('Anonymous-Authorization', player.token)
    .set('Content-Type', 'application/json');
  return (key === undefined ? req : req.set('Idempotency-Key', key)).send(typeof body === 'string' ? body : JSON.stringify(body));
}

interface Batch {
  player_id: string;
  scores: number[];
  leaderboard_ids: string[];
  metadata?: (object | null)[];
}

function serverBatch(game: TestGame, body: Batch, key?: string) {
  const req = api().post('/api/v1/server/report_scores').set(secretKey(game));
  return (key === undefined ? req : req.set('Idempotency-Key', key)).send(body);
}

/** A player's record as the game's server reads it: score and metadata, or undefined when there is none. */
async function held(game: TestGame, leaderboard: string, playerId: string) {
  const res = await api().get(`/api/v1/client/leaderboards/${leaderboard}/players/${playerId}`).set(secretKey(game));
  if (res.status === 404) return undefined;
  expect(res.status).to.equal(200);
  return { score: res.body.score as number, metadata: res.body.metadata as object | null };
}

/** A request to a spawned API; a connection error (the process killed) is answered as status 0. */
async function post(url: string, path: string, headers: Record<string, string>, body: unknown) {
  try {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as unknown };
  } catch {
    return { status: 0, body: undefined };
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const randomScore = () => 1 + Math.floor(Math.random() * 1000);

/** The sums a board should hold per player: every acknowledged increment once. */
function addTo(reference: Map<string, Map<string, number>>, board: string, player: string, score: number) {
  const sums = reference.get(board) ?? new Map<string, number>();
  sums.set(player, (sums.get(player) ?? 0) + score);
  reference.set(board, sums);
}

describe('idempotency: Idempotency-Key on score reports', function () {
  this.timeout(60_000);
  let game: TestGame;
  before(async () => {
    game = await createGame();
  });

  describe('idempotency of a client report', () => {
    it('when a report is sent three times with one key while another player reports, then each answer is the first one and the sum grows once', async () => {
      const leaderboard = await createLeaderboard(game, SUM);
      const [player, rival] = await signupMany(game, 2);
      await clientReport(game, player!, leaderboard, { score: 5 }).expect(200);

      const first = await clientReport(game, player!, leaderboard, { score: 10 }, 'match-1').expect(200);
      expect(first.body).to.include({ submitted_score: 10, best_score: 15, improved: true, rank: 1, total: 1 });
      await clientReport(game, rival!, leaderboard, { score: 100 }).expect(200);
      const second = await clientReport(game, player!, leaderboard, { score: 10 }, 'match-1');
      const third = await clientReport(game, player!, leaderboard, { score: 10 }, 'match-1');

      for (const replay of [second, third]) {
        expect(replay.status).to.equal(first.status);
        expect(replay.body).to.deep.equal(first.body);
      }
      expect(await held(game, leaderboard, player!.playerId)).to.deep.equal({ score: 15, metadata: null });
    });

    it('when a key comes back with another score, added metadata or another leaderboard, then 409 conflict and nothing changes', async () => {
      const leaderboard = await createLeaderboard(game, SUM);
      const other = await createLeaderboard(game, SUM);
      const player = await signup(game);
      await clientReport(game, player, leaderboard, { score: 10 }, 'kill-7').expect(200);

      for (const [board, body] of [
        [leaderboard, { score: 11 }],
        [leaderboard, { score: 10, metadata: { weapon: 'bow' } }],
        [other, { score: 10 }],
      ] as const) {
        const res = await clientReport(game, player, board, body, 'kill-7').expect(409);
        expect(res.body.error.code, JSON.stringify(body)).to.equal('conflict');
      }
      expect(await held(game, leaderboard, player.playerId)).to.deep.equal({ score: 10, metadata: null });
      expect(await held(game, other, player.playerId)).to.equal(undefined);
    });

    it('when the same body is sent again with its keys in another order, then it is a replay, applied once', async () => {
      const leaderboard = await createLeaderboard(game, SUM);
      const player = await signup(game);
      const first = await clientReport(
        game,
        player,
        leaderboard,
        '{"score":3,"metadata":{"map":"dunes","run":{"laps":3,"car":"red"}}}',
        'lap',
      );
      expect(first.status).to.equal(200);
      const replay = await clientReport(
        game,
        player,
        leaderboard,
        '{"metadata":{"run":{"car":"red","laps":3},"map":"dunes"},"score":3}',
        'lap',
      );
      expect(replay.status).to.equal(200);
      expect(replay.body).to.deep.equal(first.body);
      expect(await held(game, leaderboard, player.playerId)).to.deep.equal({
        score: 3,
        metadata: { map: 'dunes', run: { laps: 3, car: 'red' } },
      });
    });

    it('when two players send the same key, then both reports are applied', async () => {
      const leaderboard = await createLeaderboard(game, SUM);
      const [a, b] = await signupMany(game, 2);
      await clientReport(game, a!, leaderboard, { score: 4 }, 'round-1').expect(200);
      await clientReport(game, b!, leaderboard, { score: 4 }, 'round-1').expect(200);
      await clientReport(game, a!, leaderboard, { score: 4 }, 'round-1').expect(200);
      expect(await held(game, leaderboard, a!.playerId)).to.deep.include({ score: 4 });
      expect(await held(game, leaderboard, b!.playerId)).to.deep.include({ score: 4 });
    });
  });

  describe('idempotency of a server batch', () => {
    it('when two games send batches with the same key, then both are applied; the same key for another player of one game is 409 conflict', async () => {
      const otherGame = await createGame();
      const id = uniqueId('lb');
      await createLeaderboard(game, SUM, id);
      await createLeaderboard(otherGame, SUM, id);
      const [player, second] = await signupMany(game, 2);
      const otherPlayer = await signup(otherGame);

      await serverBatch(game, { player_id: player!.playerId, scores: [6], leaderboard_ids: [id] }, 'nightly').expect(200);
      await serverBatch(otherGame, { player_id: otherPlayer.playerId, scores: [6], leaderboard_ids: [id] }, 'nightly').expect(200);
      const res = await serverBatch(game, { player_id: second!.playerId, scores: [6], leaderboard_ids: [id] }, 'nightly').expect(409);
      expect(res.body.error.code).to.equal('conflict');

      expect(await held(game, id, player!.playerId)).to.deep.include({ score: 6 });
      expect(await held(otherGame, id, otherPlayer.playerId)).to.deep.include({ score: 6 });
      expect(await held(game, id, second!.playerId)).to.equal(undefined);
    });

    it('when one batch naming a board twice is sent twice at once with one key, then each pair counts once and both answers are the same', async () => {
      const boards = [await createLeaderboard(game, SUM), await createLeaderboard(game, SUM), await createLeaderboard(game, SUM)];
      const player = await signup(game);
      const body = {
        player_id: player.playerId,
        scores: [5, 7, 11, 13],
        leaderboard_ids: [boards[0]!, boards[1]!, boards[2]!, boards[0]!],
      };
      const [one, two] = await Promise.all([serverBatch(game, body, 'batch-1'), serverBatch(game, body, 'batch-1')]);
      expect([one.status, two.status]).to.deep.equal([200, 200]);
      expect(two.body).to.deep.equal(one.body);
      const sums = await Promise.all(boards.map((board) => held(game, board, player.playerId)));
      expect(sums.map((sum) => sum!.score)).to.deep.equal([18, 7, 11]);
    });
  });

  describe('idempotency of refused requests', () => {
    it('when a batch with an out-of-bounds score is refused, then the corrected batch with the same key is applied', async () => {
      const free = await createLeaderboard(game, SUM);
      const bounded = await createLeaderboard(game, { ...SUM, max_score: 100 });
      const player = await signup(game);
      const refused = await serverBatch(
        game,
        { player_id: player.playerId, scores: [50, 500], leaderboard_ids: [free, bounded] },
        'fix-me',
      );
      expect(refused.status).to.equal(400);
      expect(refused.body.error.details[0].field).to.equal('scores[1]');
      expect(await held(game, free, player.playerId)).to.equal(undefined);

      const corrected = { player_id: player.playerId, scores: [50, 60], leaderboard_ids: [free, bounded] };
      const applied = await serverBatch(game, corrected, 'fix-me').expect(200);
      expect(await serverBatch(game, corrected, 'fix-me').expect(200))
        .to.have.property('body')
        .that.deep.equals(applied.body);
      expect(await held(game, free, player.playerId)).to.deep.include({ score: 50 });
      expect(await held(game, bounded, player.playerId)).to.deep.include({ score: 60 });
    });

    it('when a client report that would overflow the sum is refused, then the corrected report with the same key is applied', async () => {
      const leaderboard = await createLeaderboard(game, SUM);
      const player = await signup(game);
      await clientReport(game, player, leaderboard, { score: 1.7e308 }).expect(200);
      const refused = await clientReport(game, player, leaderboard, { score: 1.7e308 }, 'overflow').expect(400);
      expect(refused.body.error.code).to.equal('validation_failed');
      const applied = await clientReport(game, player, leaderboard, { score: -1.7e308 }, 'overflow').expect(200);
      expect(applied.body).to.include({ best_score: 0, improved: true });
      expect(await held(game, leaderboard, player.playerId)).to.deep.include({ score: 0 });
    });

    it('when one pair of a batch would overflow its sum, then 400 validation_failed and no board of the batch changes', async () => {
      const [counter, huge] = [await createLeaderboard(game, SUM), await createLeaderboard(game, SUM)];
      const player = await signup(game);
      await serverBatch(game, { player_id: player.playerId, scores: [1, 1.7e308], leaderboard_ids: [counter, huge] }).expect(200);

      const body = { player_id: player.playerId, scores: [5, 1.7e308], leaderboard_ids: [counter, huge] };
      const refused = await serverBatch(game, body, 'overflow-batch').expect(400);
      expect(refused.body.error.details[0].field).to.equal('scores[1]');
      expect((await held(game, counter, player.playerId))!.score, 'the valid pair of the refused batch').to.equal(1);
      expect((await held(game, huge, player.playerId))!.score).to.equal(1.7e308);
    });

    it('when a batch refused for an overflowing pair is corrected and sent with the same key, then it is applied, each pair once', async () => {
      const [counter, huge] = [await createLeaderboard(game, SUM), await createLeaderboard(game, SUM)];
      const player = await signup(game);
      await serverBatch(game, { player_id: player.playerId, scores: [1, 1.7e308], leaderboard_ids: [counter, huge] }).expect(200);
      await serverBatch(
        game,
        { player_id: player.playerId, scores: [5, 1.7e308], leaderboard_ids: [counter, huge] },
        'fix-overflow',
      ).expect(400);

      const corrected = { player_id: player.playerId, scores: [5, -1.7e308], leaderboard_ids: [counter, huge] };
      const applied = await serverBatch(game, corrected, 'fix-overflow');
      expect(applied.status, JSON.stringify(applied.body)).to.equal(200);
      expect((await held(game, counter, player.playerId))!.score).to.equal(6);
      expect((await held(game, huge, player.playerId))!.score).to.equal(0);
    });
  });

  describe('idempotency of a batch cut short', () => {
    it('when one board of a batch is being rebuilt (503), then retries with the same key apply every pair exactly once and answer the whole batch', async () => {
      const [ready, rebuilding] = [await createLeaderboard(game, SUM), await createLeaderboard(game, SUM)];
      const player = await signup(game);
      await serverBatch(game, { player_id: player.playerId, scores: [1, 1], leaderboard_ids: [ready, rebuilding] }).expect(200);
      const release = await rebuildingElsewhere(await internalBoard(game, rebuilding));

      const body = { player_id: player.playerId, scores: [10, 20], leaderboard_ids: [ready, rebuilding] };
      for (let attempt = 0; attempt < 2; attempt++) {
        const refused = await serverBatch(game, body, 'cut-short').expect(503);
        expect(refused.body.error.code).to.equal('unavailable');
        expect(refused.headers['retry-after']).to.match(/^\d+$/);
      }
      await release();
      const done = await serverBatch(game, body, 'cut-short').expect(200);
      expect(done.body.results.map((r: { best_score: number }) => r.best_score)).to.deep.equal([11, 21]);
      expect(await serverBatch(game, body, 'cut-short').expect(200))
        .to.have.property('body')
        .that.deep.equals(done.body);
      expect((await held(game, ready, player.playerId))!.score).to.equal(11);
      expect((await held(game, rebuilding, player.playerId))!.score).to.equal(21);
    });
  });

  describe('idempotency under retries at scale', () => {
    it('when a game server sends each of 200 batches twice at once while the worker is SIGKILLed and restarted, then Redis and PostgreSQL hold every increment once', async () => {
      const boards = [await createLeaderboard(game, SUM), await createLeaderboard(game, SUM), await createLeaderboard(game, SUM)];
      const internal = await Promise.all(boards.map((board) => internalBoard(game, board)));
      const players = await signupMany(game, 20);
      const reference = new Map<string, Map<string, number>>();
      let answered = 0;
      let worker: ServiceProcess | undefined = await startWorker();
      try {
        const requests = Array.from({ length: 200 }, (_, i) => async () => {
          const playerId = players[i % players.length]!.playerId;
          const body = { player_id: playerId, scores: boards.map(randomScore), leaderboard_ids: boards };
          const [one, two] = await Promise.all([serverBatch(game, body, `req-${i}`), serverBatch(game, body, `req-${i}`)]);
          expect([one.status, two.status], `request ${i}`).to.deep.equal([200, 200]);
          expect(two.body, `request ${i}`).to.deep.equal(one.body);
          boards.forEach((board, b) => addTo(reference, board, playerId, body.scores[b]!));
          answered++;
        });
        let failed: unknown;
        const sending = inParallel(requests, 20).catch((error: unknown) => (failed = error));
        await until(
          async () => failed !== undefined || (answered >= 100 && (await persistedScores(internal[0]!)).size > 0),
          'half the requests answered and some persisted',
        );
        await worker.stop('SIGKILL');
        await sending;
        if (failed !== undefined) throw failed;
        worker = await startWorker();

        for (const [b, board] of internal.entries()) {
          expect(await liveScores(board), `live sums on ${boards[b]}`).to.deep.equal(reference.get(boards[b]!));
        }
        for (const board of internal) await waitForPersistence(board);
        for (const [b, board] of internal.entries()) {
          expect(await persistedScores(board), `persisted sums on ${boards[b]}`).to.deep.equal(reference.get(boards[b]!));
        }
      } finally {
        await worker?.stop();
      }
    });
  });

  describe('idempotency when the API process dies', () => {
    it('when the API is SIGKILLed with 100-pair batches in flight and each batch is retried on a new API with its key, then every pair is applied exactly once', async function () {
      this.timeout(90_000);
      const boards = await inParallel(
        Array.from({ length: 100 }, () => () => createLeaderboard(game, SUM)),
        20,
      );
      const players = await signupMany(game, 10);
      const batches = Array.from({ length: 60 }, (_, i) => ({
        key: `shard-${i}`,
        body: { player_id: players[i % players.length]!.playerId, scores: boards.map(randomScore), leaderboard_ids: boards },
      }));
      const headers = (key: string) => ({ 'Secret-Key': game.secretKey, 'Idempotency-Key': key });
      const firstAnswers = new Map<string, unknown>();
      let failed: unknown;

      let server = await startApi();
      const doomed = server;
      const sending = inParallel(
        batches.map((batch) => async () => {
          const res = await post(doomed.url, '/api/v1/server/report_scores', headers(batch.key), batch.body);
          if (res.status === 200) firstAnswers.set(batch.key, res.body);
          else if (res.status !== 0) throw new Error(`${batch.key}: ${res.status} ${JSON.stringify(res.body)}`);
        }),
        16,
      ).catch((error: unknown) => (failed = error));
      await until(() => failed !== undefined || firstAnswers.size >= 6, 'the first batches to be answered');
      await doomed.stop('SIGKILL');
      await sending;
      if (failed !== undefined) throw failed;
      expect(firstAnswers.size, 'batches answered before the kill').to.be.below(batches.length);

      server = await startApi();
      try {
        for (const batch of batches) {
          let res = await post(server.url, '/api/v1/server/report_scores', headers(batch.key), batch.body);
          for (let attempt = 0; res.status !== 200 && (res.status === 0 || res.status >= 500) && attempt < 20; attempt++) {
            await sleep(250);
            res = await post(server.url, '/api/v1/server/report_scores', headers(batch.key), batch.body);
          }
          expect(res.status, `${batch.key}: ${JSON.stringify(res.body)}`).to.equal(200);
          if (firstAnswers.has(batch.key)) expect(res.body, `${batch.key} replayed`).to.deep.equal(firstAnswers.get(batch.key));
        }
      } finally {
        await server.stop('SIGKILL');
      }

      const reference = new Map<string, Map<string, number>>();
      for (const { body } of batches) body.scores.forEach((score, b) => addTo(reference, boards[b]!, body.player_id, score));
      const wrong: string[] = [];
      for (const board of boards) {
        const live = await liveScores(await internalBoard(game, board));
        if (JSON.stringify([...live].sort()) !== JSON.stringify([...reference.get(board)!].sort())) wrong.push(board);
      }
      expect(wrong, 'boards whose sums differ from the batches sent').to.deep.equal([]);
    });
  });

  describe('idempotency records expire', () => {
    it('when the same key comes back after IDEMPOTENCY_TTL_SECONDS, then the report is applied again', async () => {
      const server = await startApi({ IDEMPOTENCY_TTL_SECONDS: '1' });
      try {
        const leaderboard = await createLeaderboard(game, SUM);
        const player = await signup(game);
        const headers = { 'Publishable-Key': game.publishableKey, 'Anonymous-Authorization': player.token, 'Idempotency-Key': 'daily' };
        const send = () => post(server.url, `/api/v1/client/leaderboards/${leaderboard}/report_score`, headers, { score: 10 });
        const first = await send();
        expect(first).to.deep.include({ status: 200 });
        expect(await send()).to.deep.equal(first);
        await sleep(1500);
        const later = await send();
        expect(later.status).to.equal(200);
        expect(later.body).to.include({ best_score: 20, improved: true });
        expect(await held(game, leaderboard, player.playerId)).to.deep.include({ score: 20 });
      } finally {
        await server.stop();
      }
    });
  });
});
