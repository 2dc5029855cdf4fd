import { readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { expect } from 'chai';
import { Cluster, type Redis } from 'ioredis';
import { testStores } from '../helpers/context.js';
import { openEventStream, type EventStream } from '../helpers/event-stream.js';
import {
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  internalBoard,
  reportScore,
  scoredPlayers,
  signup,
} from '../helpers/fixtures.js';
import { startApi, type ServiceProcess } from '../helpers/processes.js';

/** The resident memory of a process (Linux), in bytes. */
function residentBytes(pid: number): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line![1]) * 1024;
}

/** Every Redis server: one, or each node of a cluster (a subscription and a command live on one node). */
function servers(role: 'all' | 'master' = 'all'): Redis[] {
  const { redis } = testStores();
  return redis instanceof Cluster ? redis.nodes(role) : [redis];
}

async function totalCommands(): Promise<number> {
  // Replicas replay their master's writes: counted once, on the masters.
  const counts = await Promise.all(
    servers('master').map(async (node) => Number(/total_commands_processed:(\d+)/.exec(await node.info('stats'))![1])),
  );
  return counts.reduce((a, b) => a + b, 0);
}

async function subscriptions(channel: string): Promise<number> {
  const counts = await Promise.all(servers().map(async (node) => ((await node.pubsub('NUMSUB', channel)) as [string, number])[1]));
  return counts.reduce((a, b) => a + b, 0);
}

/**
 * 5,000 watchers of one board in one API process (docs/events.md part 6): one Redis subscription, no Redis
 * command per watcher, a change reaching them all within 1.5 s, and MAX_LIVE_CONNECTIONS kept.
 */
describe('live streams: 5,000 watchers of one board in one process', function () {
  this.timeout(300_000);
  const WATCHERS = 5000;
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  let server: ServiceProcess;
  const streams: EventStream[] = [];

  before(async () => {
    // A stream holds about 11 KiB of heap: 5,000 need more than the default API_HEAP_MB (docs/events.md part 6).
    server = await startApi({
      MAX_LIVE_CONNECTIONS: String(WATCHERS),
      API_HEAP_MB: '192',
      RATE_LIMIT_THIRD_PARTY_PER_KEY_PER_SECOND: '0',
      WEB_CONCURRENCY: '1',
    });
  });

  after(async () => {
    for (const stream of streams) stream.close();
    agent.destroy();
    await server?.stop();
  });

  it('when 5,000 watch one board, then one subscription serves them, a change reaches all within 1.5 s, and the next is 503', async () => {
    const game = await createGame();
    const board = await createLeaderboard(game);
    await scoredPlayers(game, board, [30, 20, 10]);
    // 100 streams per key: 50 keys.
    const keys = await Promise.all(Array.from({ length: WATCHERS / 100 }, () => createThirdPartyKey(game)));
    const url = `${server.url}/api/v1/third_party/leaderboards/${board}/live?limit=10`;
    const watch = (apiKey: string) => openEventStream(url, { 'Api-Key': apiKey }, agent);

    // One stream first: what the process holds for its code and its first board is not a watcher's.
    streams.push(await watch(keys[0]!.apiKey));
    await streams[0]!.next();
    const before = residentBytes(server.child.pid!);
    for (let opened = 1; opened < WATCHERS; opened += 100) {
      const batch = Array.from({ length: Math.min(100, WATCHERS - opened) }, (_, i) => watch(keys[Math.floor((opened + i) / 100)]!.apiKey));
      streams.push(...(await Promise.all(batch)));
    }
    expect(
      streams.filter((s) => s.status !== 200),
      'refused streams',
    ).to.have.length(0);
    await Promise.all(streams.map((s, i) => (i === 0 ? undefined : s.next(30_000))));
    const perWatcher = (residentBytes(server.child.pid!) - before) / (WATCHERS - 1);
    console.log(`      memory per watcher: ${(perWatcher / 1024).toFixed(1)} KiB`);
    expect(perWatcher, 'resident bytes per watcher').to.be.below(64 * 1024);

    const { internalId } = await internalBoard(game, board);
    const channel = `${testStores().prefix}:live:${internalId}`;
    expect(await subscriptions(channel), 'Redis subscriptions to the board').to.equal(1);

    const refused = await watch(keys[0]!.apiKey);
    expect(refused.status).to.equal(503);
    expect(refused.body?.error?.code).to.equal('unavailable');
    expect(refused.headers['retry-after']).to.match(/^\d+$/);

    const commandsBefore = await totalCommands();
    const newcomer = await signup(game);
    const reportedAt = Date.now();
    await reportScore(game, newcomer, board, 25).expect(200);
    await Promise.all(streams.map((s) => s.next(5000)));
    const reachedAll = Date.now() - reportedAt;
    const commands = (await totalCommands()) - commandsBefore;
    console.log(`      a change reached ${WATCHERS} watchers in ${reachedAll} ms, ${commands} Redis commands in all`);
    expect(reachedAll, 'ms until every watcher had the change').to.be.below(1500);
    for (const stream of streams) expect(JSON.parse(stream.events[1]!.data).entries[1].score).to.equal(25);
    // The report, its persistence, the update's one read: nowhere near one command per watcher.
    expect(commands, 'Redis commands while the change went out').to.be.below(500);
  });
});

/**
 * The heap guard (docs/events.md part 6): a process whose heap nears its cap refuses new streams as it
 * does beyond MAX_LIVE_CONNECTIONS, rather than running out of memory, and keeps serving those open.
 */
describe('live streams: an API process near its heap cap', function () {
  this.timeout(300_000);
  /** Far more than a 64 MB heap holds (about 11 KiB each): only the heap guard can stop them. */
  const MOST = 8000;
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  let server: ServiceProcess;
  const streams: EventStream[] = [];

  before(async () => {
    server = await startApi({
      MAX_LIVE_CONNECTIONS: String(MOST * 10),
      API_HEAP_MB: '64',
      RATE_LIMIT_THIRD_PARTY_PER_KEY_PER_SECOND: '0',
      WEB_CONCURRENCY: '1',
    });
  });

  after(async () => {
    for (const stream of streams) stream.close();
    agent.destroy();
    await server?.stop();
  });

  it('when streams keep opening past what its heap holds, then new ones are 503 with Retry-After, and the open ones still get changes', async () => {
    const game = await createGame();
    const board = await createLeaderboard(game);
    await scoredPlayers(game, board, [30, 20, 10]);
    const keys = await Promise.all(Array.from({ length: MOST / 100 }, () => createThirdPartyKey(game)));
    const url = `${server.url}/api/v1/third_party/leaderboards/${board}/live?limit=10`;
    let refused: EventStream | undefined;
    for (let opened = 0; opened < MOST && !refused; opened += 100) {
      const batch = await Promise.all(
        Array.from({ length: 100 }, (_, i) => openEventStream(url, { 'Api-Key': keys[Math.floor((opened + i) / 100)]!.apiKey }, agent)),
      );
      for (const stream of batch) {
        if (stream.status === 200) streams.push(stream);
        else refused ??= stream;
      }
    }
    console.log(`      ${streams.length} streams open when the heap guard refused the next`);
    expect(refused, `a refusal before ${MOST} streams`).to.not.equal(undefined);
    expect(refused!.status).to.equal(503);
    expect(refused!.body?.error?.code).to.equal('unavailable');
    expect(refused!.headers['retry-after']).to.match(/^\d+$/);
    // Refused for its heap, well before MAX_LIVE_CONNECTIONS, and with room left: the process lives on.
    expect(streams.length).to.be.above(500).and.below(MOST);
    await Promise.all(streams.map((s) => s.next(30_000)));
    const newcomer = await signup(game);
    await reportScore(game, newcomer, board, 25).expect(200);
    await Promise.all(streams.map((s) => s.next(10_000)));
    for (const stream of streams) expect(JSON.parse(stream.events[1]!.data).entries[1].score).to.equal(25);
    expect(server.child.exitCode).to.equal(null);
  });
});
