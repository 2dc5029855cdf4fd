import { expect } from 'chai';
import { createGame, createLeaderboard, reportScore, signupMany } from '../helpers/fixtures.js';
import { freePort, startApi, startWorker, until } from '../helpers/processes.js';

/** Persistence jobs a worker process has completed, from its metrics endpoint. */
async function completedJobs(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return Number(/^leaderboard_persistence_jobs_total (\d+)/m.exec(text)?.[1] ?? 0);
}

describe('process lifecycle', () => {
  it('when the worker gets SIGTERM, then it closes its connections and exits 0', async () => {
    const worker = await startWorker();
    expect(await worker.stop('SIGTERM')).to.equal(0);
    expect(worker.output()).to.include('worker stopping');
  });

  it('when the API gets SIGTERM, then it stops serving and exits 0', async () => {
    const api = await startApi();
    const ready = await fetch(`${api.url}/readyz`);
    expect(ready.status).to.equal(200);
    expect(await api.stop('SIGTERM')).to.equal(0);
    expect(
      await fetch(`${api.url}/healthz`).then(
        () => 'answered',
        () => 'refused',
      ),
    ).to.equal('refused');
  });

  it('when a second worker starts on the same host, then it serves metrics on another port and both drain persistence jobs', async function () {
    this.timeout(60_000);
    const port = await freePort();
    const first = await startWorker({ WORKER_METRICS_PORT: String(port) });
    const second = await startWorker({ WORKER_METRICS_PORT: String(port) });
    try {
      const line = second
        .output()
        .split('\n')
        .find((l) => l.includes(`metrics port ${port} is in use`));
      expect(line, second.output()).to.be.a('string');
      const secondPort = (JSON.parse(line!) as { port: number }).port;
      expect(secondPort).to.not.equal(port);

      const game = await createGame();
      const players = await signupMany(game, 4);
      const boards = await Promise.all(Array.from({ length: 24 }, () => createLeaderboard(game)));
      for (let wave = 0; wave < 20; wave += 1) {
        await Promise.all(
          boards.flatMap((board) => players.map((player) => reportScore(game, player, board, wave * 10 + Math.random()).expect(200))),
        );
        if ((await completedJobs(port)) > 0 && (await completedJobs(secondPort)) > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      await until(async () => (await completedJobs(port)) > 0 && (await completedJobs(secondPort)) > 0, 'both workers to complete jobs');
      expect(first.child.exitCode).to.equal(null);
      expect(second.child.exitCode).to.equal(null);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });

  it('when an API cluster process (WEB_CONCURRENCY=2) is SIGKILLed, then the primary starts another and requests keep succeeding', async function () {
    this.timeout(30_000);
    const api = await startApi({ WEB_CONCURRENCY: '2' });
    try {
      // Each serving process logs "API listening" with its own pid.
      const listening = () =>
        api
          .output()
          .split('\n')
          .filter((line) => line.includes('"API listening"'))
          .map((line) => (JSON.parse(line) as { pid: number }).pid);
      await until(() => listening().length === 2, 'both API processes to listen');
      process.kill(listening()[0]!, 'SIGKILL');
      await until(() => listening().length === 3, 'a replacement API process to listen', 10_000);
      for (let i = 0; i < 10; i += 1) expect((await fetch(`${api.url}/healthz`)).status).to.equal(200);
    } finally {
      expect(await api.stop('SIGTERM')).to.equal(0);
    }
  });
});
