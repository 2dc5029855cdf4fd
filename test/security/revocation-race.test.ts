import { expect } from 'chai';
import { api, testUrl } from '../helpers/context.js';
import { ADMIN, createGame, createLeaderboard, type TestGame } from '../helpers/fixtures.js';
import { inParallel } from '../helpers/persistence.js';
import { startApi, type ServiceProcess } from '../helpers/processes.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';

const TRIALS = 50;
const USES_PER_TRIAL = 24;
// Every third use goes to the second process: 8, fewer than its 10 database connections, so all its
// lookups read at once, before the revocation commits.
const SECOND_PROCESS_EVERY = 3;
// The uses start within this many milliseconds; the revocation starts right after.
const USES_SPREAD_MS = 10;
// The second process reaches PostgreSQL over a slower path (a busy or distant database), so its
// lookups are still on their way back when the revocation commits and is announced.
const SECOND_PROCESS_DB_LATENCY_MS = 40;
const GRACE_MS = 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Use = (baseUrl: string) => Promise<number>;

/**
 * A credential used in parallel, in two API processes, while it is revoked: once the revocation has
 * answered, no process may accept it for more than 1 s, whatever lookups were in flight meanwhile.
 */
describe('revoking a credential while it is in use', function () {
  this.timeout(120_000);
  let proxy: TcpProxy;
  let second: ServiceProcess;

  before(async () => {
    const database = new URL(process.env.DATABASE_URL!);
    proxy = await new TcpProxy(database.hostname, Number(database.port || 5432)).start();
    database.host = `127.0.0.1:${proxy.port}`;
    second = await startApi({ DATABASE_URL: database.toString() });
    proxy.latencyMs = SECOND_PROCESS_DB_LATENCY_MS;
  });

  after(async () => {
    await second?.stop();
    await proxy?.stop();
  });

  /**
   * Fires the uses around the revocation and waits for all of them (so none is in flight any more),
   * then asks each process until it refuses the credential. Returns the processes that still
   * accepted it in a request sent more than 1 s after the revocation answered.
   */
  async function trial(use: Use, revoke: () => Promise<void>): Promise<string[]> {
    const processes = { 'in-process': testUrl(), second: second.url };
    let revokedAt = 0;
    await Promise.all([
      ...Array.from({ length: USES_PER_TRIAL }, async (_, i) => {
        await sleep(Math.random() * USES_SPREAD_MS);
        await use(i % SECOND_PROCESS_EVERY === 0 ? processes.second : processes['in-process']);
      }),
      (async () => {
        await sleep(USES_SPREAD_MS);
        await revoke();
        revokedAt = Date.now();
      })(),
    ]);
    const late: string[] = [];
    for (const [name, baseUrl] of Object.entries(processes)) {
      for (;;) {
        const sentAt = Date.now();
        if ((await use(baseUrl)) === 401) break;
        if (sentAt - revokedAt > GRACE_MS) {
          late.push(name);
          break;
        }
        await sleep(20);
      }
    }
    return late;
  }

  /** Runs the trials one after another: a later revocation would clear what an earlier one left. */
  async function lateAcceptances(trials: { use: Use; revoke: () => Promise<void> }[]) {
    const failed: { trial: number; acceptedBy: string[] }[] = [];
    for (const [i, { use, revoke }] of trials.entries()) {
      const acceptedBy = await trial(use, revoke);
      if (acceptedBy.length > 0) failed.push({ trial: i, acceptedBy });
    }
    return failed;
  }

  it('when third-party keys are revoked during 24 parallel uses, then none is accepted 1 s after the revocation answered (50 trials)', async () => {
    const game = await createGame();
    const leaderboard = await createLeaderboard(game);
    const keys: { key_id: string; api_key: string }[] = await inParallel(
      Array.from(
        { length: TRIALS },
        (_, i) => async () =>
          (
            await api()
              .post('/api/v1/server/third_party_keys')
              .set('Secret-Key', game.secretKey)
              .send({ name: `bot ${i}` })
              .expect(201)
          ).body,
      ),
      10,
    );
    const late = await lateAcceptances(
      keys.map((key) => ({
        use: (baseUrl) =>
          fetch(`${baseUrl}/api/v1/third_party/leaderboards/${leaderboard}?limit=1`, { headers: { 'Api-Key': key.api_key } }).then(
            (r) => r.status,
          ),
        revoke: async () => {
          await api().delete(`/api/v1/server/third_party_keys/${key.key_id}`).set('Secret-Key', game.secretKey).expect(204);
        },
      })),
    );
    expect(late, 'trials whose revoked key was still accepted 1 s later').to.deep.equal([]);
  });

  it('when secret keys are rotated during 24 parallel uses, then no old key is accepted 1 s after the rotation answered (50 trials)', async () => {
    const games: TestGame[] = await inParallel(
      Array.from({ length: TRIALS }, () => () => createGame()),
      10,
    );
    const late = await lateAcceptances(
      games.map((game) => ({
        use: (baseUrl) =>
          fetch(`${baseUrl}/api/v1/server/leaderboards`, { headers: { 'Secret-Key': game.secretKey } }).then((r) => r.status),
        revoke: async () => {
          await api().post(`/api/v1/admin/games/${game.gameId}/secret_key`).set(ADMIN).expect(200);
        },
      })),
    );
    expect(late, 'trials whose old secret key was still accepted 1 s later').to.deep.equal([]);
  });
});
