import { expect } from 'chai';
import { api } from '../helpers/context.js';
import {
  createClan,
  createGame,
  createLeaderboard,
  joinClan,
  namedPlayer,
  reportScores,
  signup,
  signupMany,
  uniqueId,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';

const html = (res: { headers: Record<string, string> }) => expect(res.headers['content-type']).to.match(/^text\/html/);
const page = (board: string, query: string) => api().get(`/leaderboards/${board}?${query}`);

function expectStrictCsp(res: { headers: Record<string, string> }) {
  const csp = res.headers['content-security-policy']!;
  for (const directive of ["default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self'", "connect-src 'self'"]) {
    expect(csp).to.contain(directive);
  }
  expect(csp).to.not.contain('unsafe-inline');
}

describe('GET /leaderboards/:leaderboard_id (the web page)', () => {
  let game: TestGame;
  let board: string;
  let viewer: TestPlayer;

  before(async () => {
    game = await createGame();
    board = await createLeaderboard(game, { name: 'Cup & <Co>' });
    viewer = await namedPlayer(game, `"><script>x()</script>`);
    const other = await namedPlayer(game, 'Zed');
    await reportScores(game, board, [
      [viewer, 1500],
      [other, 2_000_000],
    ]);
  });

  it('when the viewer opens it, then HTML with a strict CSP, no caching, escaped names and formatted scores', async () => {
    const res = await page(board, `token=${encodeURIComponent(viewer.token)}`).expect(200);
    html(res);
    expectStrictCsp(res);
    expect(res.headers['cache-control']).to.equal('no-store');
    expect(res.text).to.contain('<h1>Cup &amp; &lt;Co&gt;</h1>');
    expect(res.text).to.contain('&quot;&gt;&lt;script&gt;x()&lt;/script&gt;');
    expect(res.text).to.not.contain('<script>x()');
    expect(res.text).to.contain('2,000,000').and.contain('1,500');
    expect(res.text).to.not.match(/<script>|<style>|style="/); // nothing inline for the CSP to allow
  });

  it('when the token arrives without URL-encoding, then the page still knows the viewer', async () => {
    const res = await page(board, `token=${viewer.token}`).expect(200);
    expect(res.text).to.contain('aria-current="true"');
  });

  it("when the close button is shown, then it links to the page's own query with sdk_action=close_window added", async () => {
    const query = `token=${encodeURIComponent(viewer.token)}&hideCloseButton=false`;
    const res = await page(board, query).expect(200);
    expect(res.text).to.contain(`href="?${query.replace(/&/g, '&amp;')}&amp;sdk_action=close_window"`);
    expect(res.text).to.contain('aria-label="Close"');
  });

  it('when hideCloseButton is true or 1, then the page has no close button', async () => {
    for (const value of ['true', '1']) {
      const res = await page(board, `token=${encodeURIComponent(viewer.token)}&hideCloseButton=${value}`).expect(200);
      expect(res.text).to.not.contain('sdk_action').and.not.contain('aria-label="Close"');
    }
  });

  it('when the token is missing or bad, then an HTML 401 page under the same CSP', async () => {
    for (const query of ['', 'token=', 'token=bm90LWEtdG9rZW4%3D', `token=${encodeURIComponent(viewer.token.slice(0, -6))}`]) {
      const res = await page(board, query).expect(401);
      html(res);
      expectStrictCsp(res);
      expect(res.text).to.contain('Sign-in needed');
    }
  });

  it('when the leaderboard is unknown, malformed or of another game, then an HTML 404 page', async () => {
    const stranger = await signup(await createGame());
    const cases: [string, string][] = [
      ['no-such-board', viewer.token],
      ['bad%20id%3F', viewer.token],
      ['%E0%A4%A', viewer.token], // not even valid percent-encoding
      [board, stranger.token],
    ];
    for (const [id, token] of cases) {
      const res = await page(id, `token=${encodeURIComponent(token)}`).expect(404);
      html(res);
      expect(res.text).to.contain('Leaderboard not found');
    }
  });

  it('when the first page holds 50 long names full of characters to escape, then it weighs under 50 KiB', async () => {
    const big = await createLeaderboard(game);
    const players = await Promise.all(
      Array.from({ length: 60 }, (_, i) => namedPlayer(game, `<&>"'`.repeat(5) + String(i).padStart(7, '~'))),
    );
    await reportScores(
      game,
      big,
      players.map((player, i) => [player, 1_000_000_000 + i]),
    );
    const res = await page(big, `token=${encodeURIComponent(players[0]!.token)}`).expect(200);
    expect(res.text.match(/<li /g)).to.have.length(51); // 50 rows and the pinned copy of the viewer's
    expect(Buffer.byteLength(res.text)).to.be.below(50 * 1024);
  });

  it("when the page's stylesheet, script and icon are fetched, then they come with their types and long caching", async () => {
    const res = await page(board, `token=${encodeURIComponent(viewer.token)}`).expect(200);
    const assets = [...res.text.matchAll(/(?:href|src)="(\/web-assets\/[^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    expect(assets).to.have.length(3);
    for (const url of assets) {
      const asset = await api().get(url).expect(200);
      expect(asset.headers['content-type']).to.match(/^(text\/css|text\/javascript|image\/svg\+xml)/);
      expect(asset.headers['cache-control']).to.contain('immutable');
      await api().get(url).set('If-None-Match', asset.headers.etag!).expect(304);
    }
    const missing = await api().get('/web-assets/nope.js').expect(404);
    expect(missing.body.error.code).to.equal('not_found');
  });
});

describe('GET /leaderboards/:leaderboard_id/entries (the page’s "more")', () => {
  let game: TestGame;
  let board: string;
  let players: TestPlayer[];

  before(async () => {
    game = await createGame();
    board = await createLeaderboard(game, { type: 'clan' });
    players = await signupMany(game, 6);
    await reportScores(
      game,
      board,
      players.map((player, i) => [player, 600 - i * 100]),
    );
  });

  const entries = (query: string) => api().get(`/leaderboards/${board}/entries?${query}`);

  it('when the next entries are asked for, then JSON in rank order with the viewer marked', async () => {
    const viewer = players[3]!;
    const res = await entries(`token=${encodeURIComponent(viewer.token)}&offset=2&limit=2`).expect(200);
    expect(res.headers['cache-control']).to.equal('no-store');
    expect(res.body).to.include({ leaderboard_id: board, view: 'players', total: 6, offset: 2, limit: 2 });
    expect(
      res.body.entries.map((e: { player_id: string; rank: number; score: number; is_viewer: boolean }) => [
        e.player_id,
        e.rank,
        e.score,
        e.is_viewer,
      ]),
    ).to.deep.equal([
      [players[2]!.playerId, 3, 400, false],
      [viewer.playerId, 4, 300, true],
    ]);
  });

  it('when the clans view is asked for, then the clan totals with the viewer’s clan marked', async () => {
    const clan = await createClan(game, uniqueId('clan'), 'The <Best>');
    await joinClan(game, clan, [players[0]!, players[5]!]);
    const res = await entries(`token=${encodeURIComponent(players[5]!.token)}&view=clans`).expect(200);
    expect(res.body.entries).to.deep.equal([{ clan_id: clan, name: 'The <Best>', member_count: 2, score: 700, rank: 1, is_viewer: true }]);
  });

  it('when the token is missing or bad, then 401 in the JSON error format', async () => {
    expect((await entries('offset=50').expect(401)).body.error.code).to.equal('missing_token');
    expect((await entries('token=garbage').expect(401)).body.error.code).to.equal('invalid_token');
  });

  it('when the leaderboard is unknown, then 404 leaderboard_not_found', async () => {
    const res = await api()
      .get(`/leaderboards/nope/entries?token=${encodeURIComponent(players[0]!.token)}`)
      .expect(404);
    expect(res.body.error.code).to.equal('leaderboard_not_found');
  });

  it('when paging or the view is invalid, then 400 validation_failed', async () => {
    const token = encodeURIComponent(players[0]!.token);
    for (const query of ['limit=0', 'limit=1001', 'offset=-1', 'offset=x', 'view=teams']) {
      expect((await entries(`token=${token}&${query}`).expect(400)).body.error.code).to.equal('validation_failed', query);
    }
  });

  it('when clans are asked for on an individual leaderboard, then 400 not_a_clan_leaderboard', async () => {
    const individual = await createLeaderboard(game);
    const res = await api()
      .get(`/leaderboards/${individual}/entries?token=${encodeURIComponent(players[0]!.token)}&view=clans`)
      .expect(400);
    expect(res.body.error.code).to.equal('not_a_clan_leaderboard');
  });
});
