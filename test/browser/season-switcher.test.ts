import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { api, testStores } from '../helpers/context.js';
import {
  createGame,
  createLeaderboard,
  internalBoard,
  namedPlayer,
  reportScores,
  secretKey,
  signupMany,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { launchBrowser, PHONE, screenshot } from '../helpers/browser.js';
import { waitForPersistence } from '../helpers/persistence.js';
import { startWorker, type ServiceProcess } from '../helpers/processes.js';
import { openPage, pageUrl, shownRows } from './support.js';

/**
 * Season 1: 60 players, the viewer 55th (beyond the first page), archived to PostgreSQL by a running
 * worker. Season 2: four of them, the viewer 2nd. Season 3 (current): two of them, the viewer 1st.
 */
describe('The season switcher in Chromium', function () {
  this.timeout(120_000);
  let browser: Browser;
  let worker: ServiceProcess;
  let game: TestGame;
  let board: string;
  let players: TestPlayer[];
  let viewer: TestPlayer;
  const firstSeason = (i: number) => 10_000 - i * 10;

  before(async function () {
    this.timeout(5 * 60_000);
    [browser, worker] = await Promise.all([launchBrowser(), startWorker()]);
    game = await createGame();
    board = await createLeaderboard(game, { name: 'Weekly Cup' });
    players = await signupMany(game, 59);
    viewer = await namedPlayer(game, 'Viewer Vic');
    players.splice(54, 0, viewer);
    const reset = () => api().post(`/api/v1/server/leaderboards/${board}/reset`).set(secretKey(game)).expect(200);

    await reportScores(
      game,
      board,
      players.map((player, i) => [player, firstSeason(i)]),
    );
    await reset();
    await reportScores(game, board, [
      [players[3]!, 700],
      [viewer, 650],
      [players[0]!, 600],
      [players[10]!, 5],
    ]);
    await reset();
    await reportScores(game, board, [
      [viewer, 42],
      [players[1]!, 41],
    ]);
    const internal = await internalBoard(game, board);
    await waitForPersistence(internal);
    const { rows } = await testStores().pool.query<{ season: number }>(
      'SELECT season FROM leaderboard_seasons WHERE leaderboard_internal_id = $1 ORDER BY season',
      [internal.internalId],
    );
    expect(rows.map((row) => row.season)).to.deep.equal([1, 2]); // both ended seasons now read from the archive
  });

  after(async () => {
    await browser?.close();
    await worker?.stop();
  });

  /** The switcher's button: the season shown. */
  const pick = (page: Page) => page.getByRole('navigation', { name: 'Season' }).locator('summary');
  const seasonLinks = (page: Page) =>
    page
      .getByRole('navigation', { name: 'Season' })
      .getByRole('link')
      .evaluateAll((links) => links.map((a) => [a.textContent, a.getAttribute('aria-current')]));

  it('when the page opens, then the switcher lists the seasons latest first, the current one labelled and shown', async () => {
    const { page, problems, close } = await openPage(browser, pageUrl(board, viewer.token));
    const switcher = page.getByRole('navigation', { name: 'Season' });
    expect(await pick(page).textContent()).to.equal('Season 3 (current)');
    expect(await switcher.locator('a').first().isVisible()).to.equal(false); // closed until asked
    await pick(page).click();
    expect(await seasonLinks(page)).to.deep.equal([
      ['Season 3 (current)', 'page'],
      ['Season 2', null],
      ['Season 1', null],
    ]);
    // At 360 px the open list stays on screen, above the rows.
    for (const link of await switcher.getByRole('link').all()) {
      const box = (await link.boundingBox())!;
      expect(box.x).to.be.at.least(0);
      expect(box.x + box.width).to.be.at.most(PHONE.width);
      expect(box.height).to.be.at.least(44);
    }
    await screenshot(page, 'season-switcher-open-360x740');
    expect((await shownRows(page)).map((row) => [row.rank, row.score, row.me])).to.deep.equal([
      ['1', '42', true],
      ['2', '41', false],
    ]);
    await page.keyboard.press('Escape');
    expect(await switcher.locator('a').first().isVisible()).to.equal(false);
    expect(problems).to.deep.equal([]);
    await close();
  });

  it("when a past season is chosen, then that season's entries and ranks show, the viewer's row highlighted", async () => {
    const { page, problems, close } = await openPage(browser, pageUrl(board, viewer.token));
    await pick(page).click();
    await page.getByRole('link', { name: 'Season 2', exact: true }).click();
    await page.waitForURL(/[?&]season=2(&|$)/);
    expect(await page.title()).to.equal('Weekly Cup · Season 2');
    const rows = await shownRows(page);
    expect(rows.map((row) => [row.id, row.rank, row.score, row.me])).to.deep.equal([
      [players[3]!.playerId, '1', '700', false],
      [viewer.playerId, '2', '650', true],
      [players[0]!.playerId, '3', '600', false],
      [players[10]!.playerId, '4', '5', false],
    ]);
    expect(await page.locator('#entries > li.me').getAttribute('aria-current')).to.equal('true');
    expect(await pick(page).textContent()).to.equal('Season 2');
    expect(problems).to.deep.equal([]);
    await close();
  });

  it('when "Show more" is used in an archived season, then its further entries load, the viewer pinned until their row arrives highlighted', async () => {
    const { page, problems, requests, close } = await openPage(browser, pageUrl(board, viewer.token, { season: '1' }));
    const pinned = page.locator('#pinned');
    expect(await pinned.isVisible()).to.equal(true);
    expect([await pinned.locator('.rank').textContent(), await pinned.locator('.score').textContent()]).to.deep.equal(['55', '9,460']);
    expect(await page.locator('#entries > li').count()).to.equal(50);

    // A click scrolls the button into view first, and reaching the list's end loads the rest by itself
    // (tested on the long page): the button, hidden once nothing is left, could lose that race. The
    // button's own click is dispatched where it stands.
    await page.getByRole('button', { name: 'Show more' }).dispatchEvent('click');
    await page.waitForFunction(() => document.querySelectorAll('#entries > li').length === 60);
    const rows = await shownRows(page);
    expect(rows.map((row) => row.id)).to.deep.equal(players.map((player) => player.playerId));
    expect(rows.map((row) => row.rank)).to.deep.equal(players.map((_, i) => String(i + 1)));
    expect(rows[59]!.score).to.equal(new Intl.NumberFormat('en-US').format(firstSeason(59)));
    expect(rows.filter((row) => row.me).map((row) => row.rank)).to.deep.equal(['55']);
    const loaded = requests.filter((url) => url.includes('/entries?')).map((url) => new URL(url).searchParams.get('season'));
    expect(loaded).to.deep.equal(['1']);

    await page.locator('#entries > li.me').evaluate((li) => li.scrollIntoView({ block: 'center' }));
    await pinned.waitFor({ state: 'hidden' });
    expect(problems).to.deep.equal([]);
    await close();
  });

  it('when script is off, then the switcher still opens and its links still change the season', async () => {
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(pageUrl(board, viewer.token));
    await pick(page).click();
    await page.getByRole('link', { name: 'Season 1', exact: true }).click();
    await page.waitForURL(/[?&]season=1(&|$)/);
    expect((await shownRows(page)).slice(0, 2).map((row) => [row.rank, row.score])).to.deep.equal([
      ['1', '10,000'],
      ['2', '9,990'],
    ]);
    await context.close();
  });

  it('when the season does not exist, then the 404 page says so and links back to the current season', async () => {
    const { page, close } = await openPage(browser, pageUrl(board, viewer.token, { season: '9' }));
    expect(await page.getByRole('heading', { name: 'Season not found' }).isVisible()).to.equal(true);
    expect(await page.locator('.message-code').textContent()).to.equal('404');
    await screenshot(page, 'season-not-found-360x740');
    await page.getByRole('link', { name: 'Show the current season' }).click();
    await page.waitForURL((url) => !url.searchParams.has('season'));
    expect(await pick(page).textContent()).to.equal('Season 3 (current)');
    await close();
  });
});
