import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createGame, createLeaderboard, internalBoard, reportScore, signupMany } from './helpers/fixtures.js';
import { persistedScores } from './helpers/persistence.js';
import { freePort, spawnLauncher, until, type ServiceProcess } from './helpers/processes.js';

interface LauncherLine {
  process?: string;
  role?: string;
  childPid?: number;
  signal?: string | null;
  msg?: string;
}

/** The launcher's own log lines (its children write to the same output). */
function launcherLines(launcher: ServiceProcess): LauncherLine[] {
  return launcher
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LauncherLine)
    .filter((line) => line.process === 'launcher');
}

/** The launcher's live child running `role` (read from /proc, whatever the launcher logs). */
function childPid(launcher: ServiceProcess, role: 'api' | 'worker'): number | undefined {
  const listed = spawnSync('pgrep', ['-P', String(launcher.child.pid)], { encoding: 'utf8' }).stdout;
  return listed
    .split('\n')
    .filter(Boolean)
    .map(Number)
    .find((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`dist/${role}/main.js`);
      } catch {
        return false; // gone meanwhile
      }
    });
}

/** Every child the launcher said it started. */
const startedPids = (launcher: ServiceProcess) => launcherLines(launcher).flatMap((line) => (line.childPid ? [line.childPid] : []));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Stops a launcher as an operator would, and makes sure none of its children outlives a failed test. */
async function stopLauncher(launcher: ServiceProcess | undefined): Promise<number | null | undefined> {
  if (!launcher) return undefined;
  const code = await launcher.stop('SIGTERM');
  for (const pid of startedPids(launcher)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  return code;
}

describe('npm start (the launcher)', function () {
  this.timeout(60_000);

  describe('when a child dies', () => {
    let launcher: ServiceProcess;
    const ready = () =>
      fetch(`${launcher.url}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
    const pending = () =>
      fetch(`${launcher.url}/readyz`)
        .then((r) => r.json() as Promise<{ pending_persistence: number | null }>)
        .then(
          (body) => body.pending_persistence,
          () => null,
        );

    before(async () => {
      launcher = await spawnLauncher();
      await until(async () => (await ready()) && childPid(launcher, 'worker') !== undefined, 'the launcher to start both children', 30_000);
    });

    after(async () => {
      expect(await stopLauncher(launcher)).to.equal(0);
    });

    it('when the API child is SIGKILLed, then the launcher starts it again and requests succeed within 10 s', async () => {
      const killed = childPid(launcher, 'api')!;
      process.kill(killed, 'SIGKILL');
      const killedAt = Date.now();
      await until(() => ![undefined, killed].includes(childPid(launcher, 'api')), 'the API to be started again', 10_000);
      await until(ready, 'the API to answer again', 10_000 - (Date.now() - killedAt));
      expect(Date.now() - killedAt).to.be.below(10_000);
      expect(
        launcherLines(launcher).some(
          (line) => line.role === 'api' && line.signal === 'SIGKILL' && /died \(signal SIGKILL\)/.test(line.msg ?? ''),
        ),
      ).to.equal(true);
    });

    it('when the worker child is SIGKILLed, then the launcher starts it again and pending persistence drains', async () => {
      const game = await createGame();
      const leaderboard = await createLeaderboard(game);
      const players = await signupMany(game, 20);
      const killed = childPid(launcher, 'worker')!;
      process.kill(killed, 'SIGKILL');
      await Promise.all(players.map((player, i) => reportScore(game, player, leaderboard, 100 + i).expect(200)));

      await until(() => ![undefined, killed].includes(childPid(launcher, 'worker')), 'the worker to be started again', 10_000);
      await until(async () => (await pending()) === 0, 'GET /readyz pending_persistence to reach 0', 30_000);
      const persisted = await persistedScores(await internalBoard(game, leaderboard));
      expect(persisted.size).to.equal(20);
      expect(launcherLines(launcher).some((line) => line.role === 'worker' && line.signal === 'SIGKILL')).to.equal(true);
    });
  });

  it('when the launcher is SIGKILLed, then its children stop within a few seconds and the next start serves', async () => {
    const port = String(await freePort());
    const ready = (url: string) =>
      fetch(`${url}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
    let first: ServiceProcess | undefined;
    let next: ServiceProcess | undefined;
    try {
      first = await spawnLauncher({ PORT: port });
      const launcher = first;
      await until(
        async () => (await ready(launcher.url)) && childPid(launcher, 'worker') !== undefined,
        'the launcher to start both children',
        30_000,
      );
      const children = startedPids(launcher);
      expect(children).to.have.length(2);

      await launcher.stop('SIGKILL');
      await until(() => children.every((pid) => !alive(pid)), 'the orphaned children to stop', 5_000);

      next = await spawnLauncher({ PORT: port });
      const again = next;
      await until(() => ready(again.url), 'the next start to serve', 30_000);
      expect(launcherLines(again).filter((line) => /died/.test(line.msg ?? ''))).to.deep.equal([]);
    } finally {
      await stopLauncher(first);
      await stopLauncher(next);
    }
  });

  it('when a child keeps crashing, then the launcher gives up after 5 crashes within 60 s, stops the others and exits 1', async () => {
    let launcher: (ServiceProcess & { exited: Promise<number | null> }) | undefined;
    // An API that cannot start: its port is taken, every time.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, resolve));
    try {
      launcher = await spawnLauncher({ PORT: String((taken.address() as AddressInfo).port) });
      expect(await launcher.exited).to.equal(1);
      const lines = launcherLines(launcher);
      expect(lines.filter((line) => line.role === 'api' && /starting it again/.test(line.msg ?? ''))).to.have.length(4);
      expect(lines.filter((line) => line.role === 'api' && /giving up/.test(line.msg ?? ''))).to.have.length(1);
      expect(startedPids(launcher).filter(alive), 'children still running').to.deep.equal([]);
    } finally {
      taken.close();
      await stopLauncher(launcher);
    }
  });
});
