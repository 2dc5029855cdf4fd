import { expect } from 'chai';
import request from 'supertest';
import { appWith, testStores } from '../helpers/context.js';
import { createGame, uniqueId } from '../helpers/fixtures.js';
import { MATRIX_ROWS, rowName, type MatrixWorld } from '../security/matrix-rows.js';
import { snapshotGames } from '../security/snapshot.js';
import { buildGameWorld } from '../security/world.js';
import { ADMIN_TOKEN, csrfOf, httpSession, type HttpSession } from './support.js';

/** Every dashboard request that changes something, as the auth matrix builds it from the route descriptors. */
const CHANGES = MATRIX_ROWS.filter((row) => row.endpoint.tag === 'Dashboard' && row.method !== 'get');

describe('dashboard security: CSRF, cookies, limits and games kept apart', function () {
  this.timeout(60_000);
  let w: MatrixWorld;

  before(async function () {
    this.timeout(60_000);
    const device = uniqueId('device');
    const [a, b, rotated] = await Promise.all([buildGameWorld(device, [5011, 7013]), buildGameWorld(device, [5023, 7027]), createGame()]);
    w = { a, b, rotatedGameId: rotated.gameId };
  });

  it("when a page's ?done= names no notice of its own (constructor, toString, __proto__, any text), then the page shows no notice", async () => {
    const session = await httpSession({ secretKey: w.a.game.secretKey });
    const pages = ['/settings', '/leaderboards', `/leaderboards/${w.a.board}`, `/players/${w.a.player.playerId}`, '/reviews'];
    for (const path of pages) {
      for (const done of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'Your account is closed']) {
        const res = await session.page(`${path}?done=${encodeURIComponent(done)}`);
        // Settings reads its query leniently (200); the other pages refuse a word they do not know (400).
        expect(res.status, `${path}?done=${done}`).to.equal(path === '/settings' ? 200 : 400);
        expect(res.text, `${path}?done=${done}`).not.to.match(/class="notice|native code/);
      }
    }
  });

  it('covers every state-changing dashboard route', () => {
    expect(CHANGES.map(rowName)).to.include.members(['POST /dashboard/settings/keys', 'POST /dashboard/settings/secret-key/rotate']);
  });

  for (const row of CHANGES) {
    it(`when ${rowName(row)} comes without the CSRF token, with another session's, or from another site, then 403 and nothing changes`, async () => {
      const mine = await httpSession({ secretKey: w.a.game.secretKey });
      const theirs = await httpSession({ secretKey: w.a.game.secretKey });
      await Promise.all([mine.page('/overview'), theirs.page('/overview')]);
      const before = await snapshotGames([w.a.game.gameId, w.b.game.gameId]);
      const body = (row.body?.(w) ?? {}) as Record<string, string>;
      const attempts: [string, () => request.Test][] = [
        ['no token', () => mine.agent.post(row.path(w)).type('form').send(body)],
        [
          "another session's token",
          () =>
            mine.agent
              .post(row.path(w))
              .type('form')
              .send({ ...body, _csrf: theirs.csrf }),
        ],
        [
          'a token that is not one',
          () =>
            mine.agent
              .post(row.path(w))
              .type('form')
              .send({ ...body, _csrf: `${mine.csrf}x` }),
        ],
        [
          'another origin',
          () =>
            mine.agent
              .post(row.path(w))
              .set('Origin', 'https://evil.example')
              .type('form')
              .send({ ...body, _csrf: mine.csrf }),
        ],
        [
          'a cross-site fetch',
          () =>
            mine.agent
              .post(row.path(w))
              .set('Sec-Fetch-Site', 'cross-site')
              .type('form')
              .send({ ...body, _csrf: mine.csrf }),
        ],
      ];
      for (const [how, send] of attempts) {
        const res = await send();
        expect(res.status, `${how}: ${res.text.slice(0, 200)}`).to.equal(403);
        expect(res.headers['content-type'], how).to.match(/^text\/html/);
        expect(res.text, how).to.include('Nothing was changed');
      }
      expect(await snapshotGames([w.a.game.gameId, w.b.game.gameId]), 'stored data').to.deep.equal(before);
      // The same session with its own token still works: the refusals were about the token alone.
      expect((await mine.page('/overview')).status).to.equal(200);
    });
  }

  it('when the sign-in form comes without its page’s CSRF token or from another site, then 403 and no session begins', async () => {
    const agent = request.agent((await import('../helpers/context.js')).testUrl());
    const csrf = csrfOf((await agent.get('/dashboard/sign-in')).text);
    const before = await snapshotGames([w.a.game.gameId]);
    const refused = [
      await agent.post('/dashboard/sign-in').type('form').send({ secret_key: w.a.game.secretKey }),
      await agent
        .post('/dashboard/sign-in')
        .set('Origin', 'https://evil.example')
        .type('form')
        .send({ secret_key: w.a.game.secretKey, _csrf: csrf }),
    ];
    expect(refused.map((res) => res.status)).to.deep.equal([403, 403]);
    expect((await agent.get('/dashboard/overview')).status, 'signed in').to.equal(303);
    // No sign-in was recorded either.
    expect(await snapshotGames([w.a.game.gameId])).to.deep.equal(before);
  });

  it('when a session signs in, then its cookie is HttpOnly, SameSite=Strict, scoped to /dashboard and lives 8 hours idle, in Redis', async () => {
    const agent = request.agent((await import('../helpers/context.js')).testUrl());
    const page = await agent.get('/dashboard/sign-in');
    const res = await agent
      .post('/dashboard/sign-in')
      .type('form')
      .send({ secret_key: w.a.game.secretKey, _csrf: csrfOf(page.text) });
    expect(res.status).to.equal(303);
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('lb_dashboard='))!;
    expect(cookie)
      .to.match(/; HttpOnly/)
      .and.match(/; SameSite=Strict/)
      .and.match(/; Path=\/dashboard(;|$)/);
    expect(cookie, 'Secure over plain http').to.not.match(/; Secure/);
    const expires = Date.parse(/Expires=([^;]+)/.exec(cookie)![1]!);
    expect(expires - Date.now()).to.be.within(8 * 3600_000 - 60_000, 8 * 3600_000 + 1000);
    const sid = decodeURIComponent(/^lb_dashboard=([^;]+)/.exec(cookie)![1]!)
      .slice(2)
      .split('.')[0]!;
    const { redis, prefix } = testStores();
    const ttl = await redis.ttl(`${prefix}:dashboard-session:${sid}`);
    expect(ttl).to.be.within(8 * 3600 - 60, 8 * 3600);
    // The session holds who signed in and the key's generation, never the key.
    const stored = await redis.get(`${prefix}:dashboard-session:${sid}`);
    expect(stored).to.include('"keyGeneration"').and.not.include(w.a.game.secretKey);
  });

  it('when APP_URL is https, then the session cookie is also Secure', async () => {
    const app = appWith({ APP_URL: 'https://dashboard.example' });
    const agent = request.agent(app);
    const page = await agent.get('/dashboard/sign-in').set('X-Forwarded-Proto', 'https');
    const cookie = (page.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('lb_dashboard='))!;
    expect(cookie)
      .to.match(/; Secure/)
      .and.match(/; HttpOnly/)
      .and.match(/; SameSite=Strict/);
  });

  it('when sign-in is attempted too often from one IP, then 429 with Retry-After, and a right key is refused too until the minute ends', async () => {
    const agent = request.agent(appWith({ RATE_LIMIT_DASHBOARD_SIGNINS_PER_IP_PER_MINUTE: '3' }));
    const csrf = csrfOf((await agent.get('/dashboard/sign-in')).text);
    for (let i = 0; i < 3; i++) {
      expect((await agent.post('/dashboard/sign-in').type('form').send({ secret_key: 'sk_wrong', _csrf: csrf })).status).to.equal(401);
    }
    const res = await agent.post('/dashboard/sign-in').type('form').send({ secret_key: w.a.game.secretKey, _csrf: csrf });
    expect(res.status).to.equal(429);
    expect(res.headers['retry-after']).to.match(/^\d+$/);
    expect(res.headers['content-type']).to.match(/^text\/html/);
  });

  it('when a right key signs in more often than the limit, then every sign-in succeeds: only failed attempts count', async () => {
    const app = appWith({ RATE_LIMIT_DASHBOARD_SIGNINS_PER_IP_PER_MINUTE: '3' });
    // Each attempt from a fresh browser (its own sign-in page and token), all from one IP.
    const signIn = async (fields: Record<string, string>) => {
      const agent = request.agent(app);
      const csrf = csrfOf((await agent.get('/dashboard/sign-in')).text);
      return agent
        .post('/dashboard/sign-in')
        .type('form')
        .send({ ...fields, _csrf: csrf });
    };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await signIn({ secret_key: w.a.game.secretKey })).status);
    for (let i = 0; i < 2; i++) statuses.push((await signIn({ admin_token: ADMIN_TOKEN })).status);
    expect(statuses).to.deep.equal([303, 303, 303, 303, 303]);
    // The three failures the limit allows, then 429 for a wrong key and a right one alike.
    const failures: number[] = [];
    for (let i = 0; i < 4; i++) failures.push((await signIn({ secret_key: 'sk_wrong' })).status);
    failures.push((await signIn({ secret_key: w.a.game.secretKey })).status);
    expect(failures).to.deep.equal([401, 401, 401, 429, 429]);
  });

  it('when one IP asks for more dashboard pages than its limit, then 429', async () => {
    const agent = request.agent(appWith({ RATE_LIMIT_DASHBOARD_PER_IP_PER_MINUTE: '5' }));
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await agent.get('/dashboard/sign-in')).status);
    expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 429, 429]);
  });

  it("when a session of one game asks for another game's key, board or player, then 404 and that game is untouched", async () => {
    const b: HttpSession = await httpSession({ secretKey: w.b.game.secretKey });
    await b.page('/settings');
    const before = await snapshotGames([w.a.game.gameId]);
    const revoke = await b.post(`/settings/keys/${encodeURIComponent(w.a.keyId)}/revoke`);
    expect(revoke.status).to.equal(404);
    for (const path of [`/leaderboards/${w.a.board}`, `/players/${w.a.player.playerId}`]) {
      const res = await b.page(path);
      expect(res.status, path).to.equal(404);
      expect(res.text, path).to.not.include(w.a.mark);
    }
    for (const path of ['/overview', '/leaderboards', '/players', '/reviews', '/audit-log', '/settings']) {
      const res = await b.page(path);
      expect(res.status, path).to.equal(200);
      expect(res.text, path).to.include(w.b.mark).and.not.include(w.a.mark);
    }
    expect(await snapshotGames([w.a.game.gameId])).to.deep.equal(before);
  });

  it('when a session has ended, then a page or a form sends the browser to sign in (303) and nothing changes', async () => {
    const session = await httpSession({ secretKey: w.a.game.secretKey });
    await session.page('/settings');
    await session.post('/sign-out');
    const before = await snapshotGames([w.a.game.gameId]);
    const page = await session.agent.get('/dashboard/settings');
    expect(page.status).to.equal(303);
    expect(page.headers.location).to.equal('/dashboard/sign-in');
    const form = await session.post('/settings/keys', { name: 'after sign-out' });
    expect(form.status).to.equal(303);
    expect(form.headers.location).to.equal('/dashboard/sign-in');
    expect(await snapshotGames([w.a.game.gameId])).to.deep.equal(before);
  });
});
