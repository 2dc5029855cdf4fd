import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../engine/paths.js';
import { testStores } from '../helpers/context.js';
import {
  createGame,
  createLeaderboard,
  internalBoard,
  reportScore,
  signupMany,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { liveScores, persistedScores, waitForPersistence } from '../helpers/persistence.js';
import { startWorker, until, type ServiceProcess } from '../helpers/processes.js';

/**
 * Run by `npm run test:cluster` only: kills the master that holds a leaderboard's slot while reports
 * flow, and checks that reports resume and no persisted best score is lost.
 */
describe('Redis Cluster failover', function () {
  this.timeout(120_000);
  let worker: ServiceProcess;
  let game: TestGame;
  let players: TestPlayer[];
  let leaderboard: string;

  before(async () => {
    worker = await startWorker();
    game = await createGame();
    leaderboard = await createLeaderboard(game);
    players = await signupMany(game, 40);
  });
  after(() => worker.stop());

  it('when the master of a leaderboard is killed under load, then reports resume and no persisted best score is lost', async () => {
    const board = await internalBoard(game, leaderboard);
    const acked = new Map<string, { score: number; at: number }[]>();
    let next = 1;
    let stop = false;
    let killedAt = 0;
    let failures = 0;
    let firstSuccessAfterKill = 0;

    const load = async () => {
      while (!stop) {
        const player = players[next % players.length]!;
        const score = next++;
        const sentAt = Date.now();
        const res = await reportScore(game, player, leaderboard, score).catch(() => undefined);
        if (res?.status === 200) {
          const at = Date.now();
          acked.set(player.playerId, [...(acked.get(player.playerId) ?? []), { score, at }]);
          // Only a report sent after the kill shows the failover is over.
          if (killedAt && !firstSuccessAfterKill && sentAt > killedAt) firstSuccessAfterKill = at;
        } else {
          failures += 1;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    };
    const runners = Array.from({ length: 8 }, load);

    await until(() => next > 400, 'some load before the kill');
    const port = masterPortOf(testStores().keys(board).scores);
    const pid = Number(readFileSync(path.join(projectRoot, '.data', 'cluster', String(port), 'redis.pid'), 'utf8'));
    process.kill(pid, 'SIGKILL');
    killedAt = Date.now();
    await until(() => firstSuccessAfterKill > 0, 'reports to succeed again after the failover', 60_000);
    const resumedAt = next;
    await until(() => next > resumedAt + 300, 'load to continue after the failover');
    stop = true;
    await Promise.all(runners);

    await waitForPersistence(board, 60_000);
    const persisted = await persistedScores(board);
    // The worker merges persisted scores back after a node drops out: wait for that, then compare.
    await until(
      async () => {
        const live = await liveScores(board);
        return [...persisted].every(([player, score]) => (live.get(player) ?? -Infinity) >= score);
      },
      'the live ranking to hold every persisted best score',
      30_000,
    );
    const live = await liveScores(board);

    for (const [player, acks] of acked) {
      const beforeKill = acks.filter((a) => a.at < killedAt).map((a) => a.score);
      const best = Math.max(...beforeKill, -Infinity);
      if (best > -Infinity && (persisted.get(player) ?? -Infinity) >= best) {
        expect(live.get(player), `player ${player}`).to.be.at.least(best);
      }
    }
    const lost = [...acked].flatMap(([player, acks]) => acks.filter((a) => a.score > (live.get(player) ?? -Infinity)));
    const window = lost.length > 0 ? killedAt - Math.min(...lost.map((a) => a.at)) : 0;
    process.stdout.write(
      `      failover: reports failed for ${firstSuccessAfterKill - killedAt} ms (${failures} failed requests); ` +
        `${lost.length} acknowledged reports lost, the oldest ${window} ms before the kill\n`,
    );
    expect(firstSuccessAfterKill - killedAt).to.be.below(30_000);
    expect(window).to.be.below(2000);
  });
});

/** The port of the master serving the key's slot. */
function masterPortOf(key: string): number {
  const slot = Number(spawnSync('redis-cli', ['-p', '7100', 'cluster', 'keyslot', key], { encoding: 'utf8' }).stdout.trim());
  const nodes = spawnSync('redis-cli', ['-p', '7100', 'cluster', 'nodes'], { encoding: 'utf8' }).stdout.trim().split('\n');
  for (const line of nodes) {
    const fields = line.split(' ');
    if (!fields[2]!.includes('master')) continue;
    for (const range of fields.slice(8)) {
      const [from, to] = range.split('-').map(Number);
      if (slot >= from! && slot <= (to ?? from!)) return Number(fields[1]!.split(':')[1]!.split('@')[0]);
    }
  }
  throw new Error(`no master serves slot ${slot}`);
}
