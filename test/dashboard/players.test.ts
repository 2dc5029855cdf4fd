import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { api, testStores } from '../helpers/context.js';
import {
  createClan,
  createGame,
  createLeaderboard,
  internalBoard,
  namedPlayer,
  reportScore,
  reportScores,
  secretKey,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { DESKTOP, launchBrowser, PHONE } from '../helpers/browser.js';
import { dashboardUrl, expectAccessible, httpSession, openSection, signInWithSecretKey } from './support.js';

const XSS_NAME = '<script>alert(1)</script>';

/** The UTC day `back` days before today. */
const daysAgo = (back: number) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);

/** Three days of `player`'s rank on the board, as the worker's daily snapshots record them (docs/history.md): a season change before the last. */
const HISTORY = [
  { day: daysAgo(3), season: 1, rank: 5, score: 120 },
  { day: daysAgo(2), season: 1, rank: 2, score: 480 },
  { day: daysAgo(1), season: 2, rank: 3, score: 500 },
];
async function recordHistory(internalId: number, playerId: string): Promise<void> {
  const { pool } = testStores();
  for (const { day, season, rank, score } of HISTORY) {
    await pool.query('INSERT INTO rank_snapshot_days (leaderboard_internal_id, day, season, entries) VALUES ($1, $2, $3, 10)', [
      internalId,
      day,
      season,
    ]);
    await pool.query(
      'INSERT INTO rank_snapshots (leaderboard_internal_id, day, player_id, season, rank, score) VALUES ($1, $2, $3, $4, $5, $6)',
      [internalId, day, playerId, season, rank, score],
    );
  }
}

/** The player ids a client reading the whole leaderboard sees. */
async function listedIds(game: TestGame, reader: TestPlayer, leaderboardId: string): Promise<string[]> {
  const res = await api()
    .get(`/api/v1/client/leaderboards/${leaderboardId}?limit=1000`)
    .set('Publishable-Key', game.publishableKey)
    .set('Anonymous-Authorization', reader.token)
    .expect(200);
  return res.body.entries.map((entry: { player_id: string }) => entry.player_id);
}

async function search(page: Page, text: string): Promise<void> {
  await page.getByLabel('Search players').fill(text);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.waitForURL(/\/dashboard\/players\?search=/);
}

/** The search results' rows: id and display name, as shown. */
async function resultRows(page: Page): Promise<{ id: string; name: string }[]> {
  return page
    .locator('table tbody tr')
    .evaluateAll((rows) => rows.map((row) => ({ name: row.children[0]!.textContent!.trim(), id: row.children[1]!.textContent!.trim() })));
}

describe("The dashboard's Players and Audit log sections in Chromium", function () {
  this.timeout(120_000);
  let browser: Browser;
  let game: TestGame;
  let leaderboard: string;
  let clan: string;
  let target: TestPlayer;
  let other: TestPlayer;
  let scripted: TestPlayer;
  const name = `Quasar Lynx ${Date.now() % 100000}`;

  before(async function () {
    this.timeout(15 * 60_000);
    browser = await launchBrowser();
    game = await createGame(`Players game ${Date.now()}`);
    leaderboard = await createLeaderboard(game);
    clan = await createClan(game);
    target = await namedPlayer(game, name);
    other = await namedPlayer(game, 'Other Player');
    scripted = await namedPlayer(game, XSS_NAME);
    for (const n of [1, 2, 3]) await namedPlayer(game, `Pager ${n}`);
    await reportScores(game, leaderboard, [
      [target, 500],
      [other, 300],
    ]);
    await recordHistory((await internalBoard(game, leaderboard)).internalId, target.playerId);
  });

  after(async () => {
    await browser?.close();
  });

  it('when a player is searched by the start of their name and by their id, then they are found, and the list passes axe', async () => {
    const { page, close, problems } = await signInWithSecretKey(browser, game.secretKey);
    await openSection(page, 'Players');
    await expectAccessible(page, 'the Players page');
    await search(page, name.slice(0, 8).toLowerCase());
    expect(await resultRows(page)).to.deep.include({ id: target.playerId, name });
    await expectAccessible(page, 'the search results');
    await search(page, target.playerId);
    expect(await resultRows(page)).to.deep.equal([{ id: target.playerId, name }]);
    expect(problems).to.deep.equal([]);
    await close();
  });

  it('when a search finds more players than a page holds, then "Next page" and "Previous page" page through them', async () => {
    const { page, close } = await signInWithSecretKey(browser, game.secretKey, PHONE);
    await page.goto(dashboardUrl('/players?search=pager&limit=2'));
    const first = (await resultRows(page)).map((row) => row.name);
    expect(first).to.deep.equal(['Pager 1', 'Pager 2']);
    expect(await page.getByRole('heading', { name: 'Results (3)' }).count()).to.equal(1);
    await page.getByRole('link', { name: 'Next page', exact: true }).click();
    await page.waitForURL(/offset=2/);
    expect((await resultRows(page)).map((row) => row.name)).to.deep.equal(['Pager 3']);
    await page.getByRole('link', { name: 'Previous page', exact: true }).click();
    await page.waitForURL(/offset=0/);
    expect((await resultRows(page)).map((row) => row.name)).to.deep.equal(first);
    await close();
  });

  it('when a player is opened, then their score and rank on each leaderboard show, linking to the leaderboard', async () => {
    const { page, close } = await signInWithSecretKey(browser, game.secretKey);
    await openSection(page, 'Players');
    await search(page, target.playerId);
    // The name links to the player's page.
    await page.getByRole('link', { name, exact: true }).click();
    await page.waitForURL(/\/dashboard\/players\/[^?]+$/);
    expect(await page.locator('h1').textContent()).to.equal(name);
    const row = page.locator('table tbody tr').first();
    expect(await row.locator('td').allTextContents()).to.deep.equal([leaderboard, '500', '1']);
    const link = await row.getByRole('link', { name: leaderboard }).getAttribute('href');
    expect(link).to.equal(`/dashboard/leaderboards/${leaderboard}`);
    await expectAccessible(page, 'a player page');
    await close();
  });

  it('when a player with daily ranks is opened, then their rank history shows as a drawn chart described in words, with the same numbers as a table', async () => {
    const { page, close, problems } = await signInWithSecretKey(browser, game.secretKey);
    await page.goto(dashboardUrl(`/players/${target.playerId}`));
    const history = page.getByRole('region', { name: 'Rank history, last 90 days' });
    expect(await history.getByRole('heading', { level: 3 }).allTextContents()).to.deep.equal([leaderboard]);
    const chart = history.getByRole('img');
    expect(await chart.getAttribute('aria-label')).to.equal(
      `Daily rank on ${leaderboard}, 3 days from ${HISTORY[0]!.day} to ${HISTORY[2]!.day}: 5 then 3, best 2.`,
    );
    // uPlot drew it: a canvas as wide as its card.
    const drawn = await chart.locator('canvas').evaluate((canvas: HTMLCanvasElement) => canvas.width);
    expect(drawn).to.be.greaterThan(200);
    await history.getByText(`Daily ranks on ${leaderboard} as a table`).click();
    const rows = await history
      .locator('table tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent!.trim())));
    expect(rows).to.deep.equal(HISTORY.map(({ day, season, rank, score }) => [day, String(season), String(rank), String(score)]));
    await expectAccessible(page, "a player's rank history");
    expect(problems).to.deep.equal([]);

    // A player without any: said in words, no chart and no script.
    await page.goto(dashboardUrl(`/players/${other.playerId}`));
    const none = page.getByRole('region', { name: 'Rank history, last 90 days' });
    expect(await none.textContent()).to.include('No daily rank yet');
    expect(await none.getByRole('img').count()).to.equal(0);
    await close();
  });

  it('when the name, clan and an alias are changed in the form, then the API shows the player so changed', async () => {
    const { page, close } = await signInWithSecretKey(browser, game.secretKey);
    await page.goto(dashboardUrl(`/players/${target.playerId}`));
    await page.getByLabel('Display name').fill(`${name} II`);
    await page.getByLabel('Clan id').fill(clan);
    await page.getByLabel('Alias type').fill('steam');
    await page.getByLabel('Alias id').fill('76561198000000042');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(/\?done=updated$/);
    expect(await page.getByRole('status').textContent()).to.equal('Saved.');
    const { body } = await api().get(`/api/v1/server/players/${target.playerId}`).set(secretKey(game)).expect(200);
    expect(body).to.deep.include({ display_name: `${name} II`, clan_id: clan, aliases: { steam: '76561198000000042' } });

    // One alias removed (an empty id), the clan left (an empty clan id).
    await page.getByLabel('Clan id').fill('');
    await page.getByLabel('Alias type').fill('steam');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(/\?done=updated$/);
    const after = await api().get(`/api/v1/server/players/${target.playerId}`).set(secretKey(game)).expect(200);
    expect(after.body).to.deep.include({ display_name: `${name} II`, clan_id: null, aliases: {} });
    await close();
  });

  it('when a change is refused by the API rules, then the page says why and nothing changes', async () => {
    const { page, close } = await signInWithSecretKey(browser, game.secretKey);
    await page.goto(dashboardUrl(`/players/${target.playerId}`));
    await page.getByLabel('Clan id').fill('no-such-clan');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForLoadState();
    expect(await page.locator('.error-code').textContent()).to.contain('clan_not_found');
    const { body } = await api().get(`/api/v1/server/players/${target.playerId}`).set(secretKey(game)).expect(200);
    expect(body.clan_id).to.equal(null);
    await close();
  });

  it('when a player is banned in the UI, then reads no longer list them and their reports get 403; an unban brings them back', async () => {
    const { page, close } = await signInWithSecretKey(browser, game.secretKey);
    await page.goto(dashboardUrl(`/players/${target.playerId}`));
    await page.getByRole('button', { name: 'Ban', exact: true }).click();
    await page.getByLabel('Reason (optional)').fill('Impossible run');
    await page.getByRole('button', { name: 'Ban this player' }).click();
    await page.waitForURL(/\?done=banned$/);
    expect(await page.locator('dl.keys').textContent()).to.contain('Impossible run');
    expect(await listedIds(game, other, leaderboard)).to.deep.equal([other.playerId]);
    const refused = await reportScore(game, target, leaderboard, 900).expect(403);
    expect(refused.body.error.code).to.equal('player_banned');
    await expectAccessible(page, 'a banned player page');

    await page.getByRole('button', { name: 'Unban' }).click();
    await page.waitForURL(/\?done=unbanned$/);
    expect(await listedIds(game, other, leaderboard)).to.deep.equal([target.playerId, other.playerId]);
    await reportScore(game, target, leaderboard, 900).expect(200);
    await close();
  });

  it('when a player is shadow-banned in the UI, then others no longer see them while their reports are still answered', async () => {
    const { page, close } = await signInWithSecretKey(browser, game.secretKey);
    await page.goto(dashboardUrl(`/players/${target.playerId}`));
    await page.getByRole('button', { name: 'Ban', exact: true }).click();
    await page.getByLabel(/Shadow ban/).check();
    await page.getByRole('button', { name: 'Ban this player' }).click();
    await page.waitForURL(/\?done=banned$/);
    expect(await page.locator('dl.keys').textContent()).to.contain('Shadow ban');
    expect(await listedIds(game, other, leaderboard)).to.deep.equal([other.playerId]);
    const answered = await reportScore(game, target, leaderboard, 950).expect(200);
    expect(answered.body).to.include({ best_score: 950, rank: 1 });
    expect(await listedIds(game, other, leaderboard)).to.deep.equal([other.playerId]);
    const { body } = await api().get(`/api/v1/server/players/${target.playerId}`).set(secretKey(game)).expect(200);
    expect(body).to.include({ banned: true, ban_kind: 'shadow' });
    await expectAccessible(page, 'a shadow-banned player page');

    await page.getByRole('button', { name: 'Unban' }).click();
    await page.waitForURL(/\?done=unbanned$/);
    // What the shadow ban held is dropped: the counted score comes back.
    expect(await listedIds(game, other, leaderboard)).to.deep.equal([target.playerId, other.playerId]);
    await close();
  });

  it('when the Audit log is opened, then the dashboard’s changes and sign-ins are listed newest first', async () => {
    // A player of its own, renamed, banned and unbanned through the dashboard's forms.
    const subject = await namedPlayer(game, 'Audit Subject');
    const forms = await httpSession({ secretKey: game.secretKey });
    const path = `/players/${encodeURIComponent(subject.playerId)}`;
    for (const [action, fields] of [
      ['', { display_name: 'Audit Subject Renamed' }],
      ['/ban', { reason: 'Impossible run' }],
      ['/unban', {}],
    ] as const) {
      await forms.page(path);
      expect((await forms.post(`${path}${action}`, fields)).status, action || 'update').to.equal(303);
    }
    const { page, close } = await signInWithSecretKey(browser, game.secretKey);
    await openSection(page, 'Audit log');
    const rows = await page.locator('table tbody tr').evaluateAll((trs) =>
      trs.map((tr) => ({
        at: tr.querySelector('time')!.getAttribute('datetime')!,
        actor: tr.children[1]!.textContent!.trim(),
        action: tr.children[2]!.textContent!.trim(),
        target: tr.children[3]!.textContent!.trim(),
      })),
    );
    const index = (action: string) => rows.findIndex((row) => row.action === action && row.target === subject.playerId);
    for (const action of ['player.update', 'player.ban', 'player.unban']) {
      expect(index(action), action).to.be.at.least(0);
      expect(rows[index(action)]!.actor, action).to.equal('dashboard');
    }
    expect(index('player.unban')).to.be.below(index('player.ban'));
    expect(index('player.ban')).to.be.below(index('player.update'));
    const signIn = rows.find((row) => row.action === 'dashboard.sign_in');
    expect(signIn?.actor).to.equal('dashboard');
    const times = rows.map((row) => Date.parse(row.at));
    expect(times).to.deep.equal([...times].sort((a, b) => b - a));
    expect(await page.locator('table tbody').textContent()).to.contain('Impossible run');
    await expectAccessible(page, 'the Audit log');

    // A page at a time: "Older entries" goes on where the page ended.
    await page.goto(dashboardUrl('/audit-log?limit=2'));
    const actions = () => page.locator('table tbody tr td:nth-child(3)').allTextContents();
    expect(await actions()).to.deep.equal(rows.slice(0, 2).map((row) => row.action));
    await page.getByRole('link', { name: 'Older entries' }).click();
    await page.waitForURL(/before=\d+/);
    expect(await actions()).to.deep.equal(rows.slice(2, 4).map((row) => row.action));
    await close();
  });

  it('when a player is named <script>alert(1)</script>, then the name shows as text in the results and on their page, and runs nothing', async () => {
    const observed = await signInWithSecretKey(browser, game.secretKey);
    const { page } = observed;
    await openSection(page, 'Players');
    await search(page, '<script>');
    expect(await resultRows(page)).to.deep.equal([{ id: scripted.playerId, name: XSS_NAME }]);
    await page.getByRole('link', { name: XSS_NAME, exact: true }).click();
    await page.waitForURL(/\/dashboard\/players\/[^?]+$/);
    expect(await page.locator('h1').textContent()).to.equal(XSS_NAME);
    expect(await page.getByLabel('Display name').inputValue()).to.equal(XSS_NAME);
    expect(observed.dialogs).to.deep.equal([]);
    expect(observed.problems).to.deep.equal([]);
    await observed.close();
  });

  for (const [label, viewport] of [
    ['DESKTOP', DESKTOP],
    ['PHONE', PHONE],
  ] as const) {
    it(`when the players list, a player page and the audit log are shown at ${label} size, then axe finds no serious violation and nothing overflows`, async () => {
      const { page, close } = await signInWithSecretKey(browser, game.secretKey, viewport);
      const pages = [
        `/players?search=${encodeURIComponent(target.playerId)}`,
        `/players/${encodeURIComponent(target.playerId)}`,
        '/audit-log',
      ];
      for (const path of pages) {
        await page.goto(dashboardUrl(path));
        await expectAccessible(page, `${path} at ${label}`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${path} at ${label} scrolls sideways`).to.be.at.most(0);
      }
      await close();
    });
  }
});
