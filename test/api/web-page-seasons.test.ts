import { expect } from 'chai';
import { api } from '../helpers/context.js';
import {
  createClan,
  createGame,
  createLeaderboard,
  joinClan,
  reportScores,
  secretKey,
  signupMany,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';

type WebEntry = { player_id: string; rank: number; score: number; is_viewer: boolean };
const summary = (entries: WebEntry[]) => entries.map((e) => [e.player_id, e.rank, e.score, e.is_viewer]);
const unescape = (href: string) => href.replace(/&amp;/g, '&');

/** Three seasons: 1 and 2 ended (their ranks differ), 3 current. No worker: ended seasons read from Redis until archived. */
describe('The web page and its entries with ?season=N', () => {
  let game: TestGame;
  let board: string;
  let players: TestPlayer[];
  let viewer: TestPlayer;
  let token: string;
  let clan: string;

  before(async () => {
    game = await createGame();
    board = await createLeaderboard(game, { type: 'clan', name: 'Weekly' });
    players = await signupMany(game, 4);
    viewer = players[3]!;
    token = encodeURIComponent(viewer.token);
    clan = await createClan(game);
    await joinClan(game, clan, [viewer, players[2]!]);
    const reset = () => api().post(`/api/v1/server/leaderboards/${board}/reset`).set(secretKey(game)).expect(200);
    await reportScores(
      game,
      board,
      players.map((player, i) => [player, 400 - i * 100]),
    );
    await reset();
    await reportScores(game, board, [
      [viewer, 9_000],
      [players[0]!, 8_000],
    ]);
    await reset();
    await reportScores(game, board, [[players[1]!, 1]]);
  });

  const entries = (query: string) => api().get(`/leaderboards/${board}/entries?token=${token}&${query}`);
  const page = (query: string) => api().get(`/leaderboards/${board}?token=${token}&${query}`);

  it("when the entries of a past season are asked for, then that season's entries, ranks and scores, the viewer marked", async () => {
    const first = await entries('season=1&offset=2&limit=2').expect(200);
    expect(first.body).to.include({ total: 4, offset: 2, limit: 2 });
    expect(summary(first.body.entries)).to.deep.equal([
      [players[2]!.playerId, 3, 200, false],
      [viewer.playerId, 4, 100, true],
    ]);
    const second = await entries('season=2').expect(200);
    expect(summary(second.body.entries)).to.deep.equal([
      [viewer.playerId, 1, 9_000, true],
      [players[0]!.playerId, 2, 8_000, false],
    ]);
    const current = await entries('').expect(200);
    expect(summary(current.body.entries)).to.deep.equal([[players[1]!.playerId, 1, 1, false]]);
    expect((await entries('season=3').expect(200)).body).to.deep.equal(current.body);
  });

  it("when a past season's clan totals are asked for, then that season's totals with the viewer's clan marked", async () => {
    const clans = (season: number) => entries(`view=clans&season=${season}`).expect(200);
    const pick = (res: { body: { entries: { clan_id: string; score: number; rank: number; is_viewer: boolean }[] } }) =>
      res.body.entries.map((e) => [e.clan_id, e.score, e.rank, e.is_viewer]);
    expect(pick(await clans(1))).to.deep.equal([[clan, 300, 1, true]]);
    expect(pick(await clans(2))).to.deep.equal([[clan, 9_000, 1, true]]);
    expect(pick(await clans(3))).to.deep.equal([]);
  });

  it('when the season is not a positive whole number, then 400 validation_failed; when the board never had it, 404 season_not_found', async () => {
    for (const season of ['0', '-1', '1.5', 'x', '', '99999999999999999']) {
      const res = await entries(`season=${season}`).expect(400);
      expect(res.body.error.code).to.equal('validation_failed', season);
    }
    const missing = await entries('season=4').expect(404);
    expect(missing.body.error.code).to.equal('season_not_found');
  });

  it('when the page is opened for a past season, then it shows that season and tells "more" to load the same one', async () => {
    const res = await page('season=2').expect(200);
    expect(res.text).to.contain('<title>Weekly · Season 2</title>');
    expect(res.text).to.contain('9,000').and.contain('8,000').and.not.contain('>400<');
    expect(res.text).to.match(/<li class="row me[^"]*" data-id="[^"]+" aria-current="true"><span class="rank">1</);
    expect(res.text).to.contain('data-season="2"');
  });

  it('when the board has several seasons, then a "Season" switcher links to each, latest first, the current one labelled', async () => {
    const res = await page('season=2&hideCloseButton=0').expect(200);
    const nav = /<nav class="seasons" aria-label="Season">(.*?)<\/nav>/.exec(res.text)?.[1] ?? '';
    const links = [...nav.matchAll(/<a class="season" href="([^"]+)"( aria-current="page")?>([^<]+)<\/a>/g)].map((m) => ({
      href: unescape(m[1]!),
      shown: Boolean(m[2]),
      label: m[3],
    }));
    expect(links.map((link) => [link.label, link.shown])).to.deep.equal([
      ['Season 3 (current)', false],
      ['Season 2', true],
      ['Season 1', false],
    ]);
    // Each link is the page's own query with another season (none for the current one): the token and close setting stay.
    expect(links.map((link) => new URLSearchParams(link.href.slice(1)).get('season'))).to.deep.equal([null, '2', '1']);
    for (const link of links) {
      const params = new URLSearchParams(link.href.slice(1));
      expect([params.get('token'), params.get('hideCloseButton')]).to.deep.equal([viewer.token, '0']);
    }
    const followed = await api().get(`/leaderboards/${board}${links[2]!.href}`).expect(200);
    expect(followed.text).to.contain('data-season="1"').and.contain('<title>Weekly · Season 1</title>');
  });

  it('when a past season is shown, then the players/clans links and the close link keep its season', async () => {
    const res = await page('season=1').expect(200);
    const tabs = [...res.text.matchAll(/<a class="tab" href="([^"]+)"/g)].map((m) => new URLSearchParams(unescape(m[1]!).slice(1)));
    expect(tabs.map((params) => [params.get('view'), params.get('season')])).to.deep.equal([
      ['players', '1'],
      ['clans', '1'],
    ]);
    const close = /id="close" role="button" aria-label="Close" title="Close" href="([^"]+)"/.exec(res.text)![1]!;
    expect(unescape(close)).to.equal(`?token=${token}&season=1&sdk_action=close_window`);
  });

  it('when the season value is odd, then the page shows the current season, as it does for other odd values', async () => {
    for (const season of ['0', '-2', 'abc', '1.5', '99999999999']) {
      const res = await page(`season=${season}`).expect(200);
      expect(res.text).to.contain('<title>Weekly</title>');
      expect(res.text).to.not.contain('data-season');
      expect(res.text).to.match(/<summary class="season-pick">Season 3 \(current\)/);
    }
  });

  it('when the board never had the season, then the HTML 404 page offers the current season', async () => {
    const res = await page('season=7&hideCloseButton=1').expect(404);
    expect(res.headers['content-type']).to.match(/^text\/html/);
    expect(res.text).to.contain('Season not found');
    const onward = new URLSearchParams(unescape(/<a class="onward" href="([^"]+)"/.exec(res.text)![1]!).slice(1));
    expect([...onward]).to.deep.equal([
      ['token', viewer.token],
      ['hideCloseButton', '1'],
    ]);
  });

  it('when a board has one season only, then the page has no switcher', async () => {
    const single = await createLeaderboard(game);
    await reportScores(game, single, [[viewer, 5]]);
    const res = await api().get(`/leaderboards/${single}?token=${token}`).expect(200);
    expect(res.text).to.contain('aria-current="true"');
    expect(res.text).to.not.contain('aria-label="Season"');
  });
});
