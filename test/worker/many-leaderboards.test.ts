import { expect } from 'chai';
import { testEngine, testStores } from '../helpers/context.js';
import { createGame, reportScore, signupMany, type TestGame, type TestPlayer } from '../helpers/fixtures.js';
import { startApi, startWorker, until, type ServiceProcess } from '../helpers/processes.js';

const BOARDS = 20_000;

/** Probes as a load balancer would: each answer's status, body and time. */
async function probeReadyz(api: ServiceProcess, times: number) {
  const probes: { status: number; ms: number; pending: number | null }[] = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    const res = await fetch(`${api.url}/readyz`);
    const body = (await res.json()) as { pending_persistence: number | null };
    probes.push({ status: res.status, ms: performance.now() - started, pending: body.pending_persistence });
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return probes;
}

describe('a service with 20,000 leaderboards', function () {
  this.timeout(120_000);
  let game: TestGame;
  let players: TestPlayer[];
  let api: ServiceProcess;
  let worker: ServiceProcess | undefined;

  before(async () => {
    game = await createGame();
    players = await signupMany(game, 10);
    // Straight into PostgreSQL: a new individual or clan board needs nothing in Redis until it is scored.
    await testStores().pool.query(
      `INSERT INTO leaderboards (game_id, leaderboard_id, name, type, sort_order)
       SELECT $1, 'level-' || i, 'Level ' || i, CASE WHEN i % 10 = 0 THEN 'clan' ELSE 'individual' END, 'desc'
       FROM generate_series(1, $2::int) AS i`,
      [game.gameId, BOARDS],
    );
    api = await startApi();
    worker = await startWorker();
    // The suite shares one database: changes earlier tests left for a worker are drained first, so
    // every probe below answers about these 20,000 unscored boards alone.
    await until(async () => (await testEngine().maintenance.pendingPersistence()) === 0, 'earlier changes to persist', 60_000);
  });

  after(async () => {
    await Promise.all([api.stop(), worker?.stop()]);
  });

  it('when probed every 200 ms, then /readyz answers 200 within a load balancer timeout with pending_persistence 0, and neither process dies', async () => {
    const probes = await probeReadyz(api, 15); // spans sweeps of the worker (every 2 s)
    expect(probes.map((p) => p.status)).to.deep.equal(probes.map(() => 200));
    expect(probes.map((p) => p.pending)).to.deep.equal(probes.map(() => 0));
    // A probe that outlives a load balancer's timeout (1 s here, commonly 2-5 s) takes the instance
    // out. How fast it answers is the benchmark's to show (npm run bench: /readyz p99 with 100,000
    // leaderboards): here the count also walks every board the suite's earlier tests touched.
    expect(Math.max(...probes.map((p) => p.ms))).to.be.below(1000);
    expect(api.child.exitCode, api.output()).to.equal(null);
    expect(worker!.child.exitCode, worker!.output()).to.equal(null);
  });

  it('when a few of them get reports, then PostgreSQL has every score within a second', async () => {
    const boards = ['level-7', 'level-4242', 'level-19999'];
    const sent = Date.now();
    await Promise.all(boards.flatMap((board) => players.map((player, i) => reportScore(game, player, board, 100 + i).expect(200))));
    await until(
      async () => {
        const { rows } = await testStores().pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM scores s JOIN leaderboards l ON l.internal_id = s.leaderboard_internal_id
         WHERE l.game_id = $1 AND l.leaderboard_id = ANY($2)`,
          [game.gameId, boards],
        );
        return rows[0]!.n === boards.length * players.length;
      },
      'the scores to reach PostgreSQL',
      10_000,
    );
    expect(Date.now() - sent).to.be.below(1000);
  });

  it('when changes wait for a stopped worker, then /readyz counts them exactly, and they drain once a worker runs', async () => {
    await worker!.stop();
    worker = undefined;
    const boards = ['level-11', 'level-12', 'level-20']; // level-20 is a clan board
    for (const board of boards) {
      await Promise.all(players.map((player, i) => reportScore(game, player, board, 500 + i).expect(200)));
    }
    const [waiting] = await probeReadyz(api, 1);
    expect(waiting!.pending).to.equal(boards.length * players.length);

    worker = await startWorker();
    await until(async () => (await probeReadyz(api, 1))[0]!.pending === 0, 'pending_persistence to reach 0', 20_000);
  });

  it('when the game server lists them, then it gets a page with the total', async () => {
    const res = await fetch(`${api.url}/api/v1/server/leaderboards?limit=2&offset=19998`, { headers: { 'Secret-Key': game.secretKey } });
    expect(res.status).to.equal(200);
    const body = (await res.json()) as { total: number; leaderboards: { leaderboard_id: string }[] };
    expect(body.total).to.equal(BOARDS);
    expect(body.leaderboards.map((l) => l.leaderboard_id)).to.deep.equal(['level-19999', 'level-20000']);
  });
});
