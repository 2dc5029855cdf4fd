import { existsSync } from 'node:fs';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { testUrl } from '../helpers/context.js';
import { createGame, createLeaderboard, namedPlayer, reportScores, type TestGame, type TestPlayer } from '../helpers/fixtures.js';
import { DESKTOP, launchBrowser, PHONE, screenshot } from '../helpers/browser.js';
import { imageWidths, openPage, pageUrl, shownRows } from './support.js';

const XSS_NAME = '<img src=x onerror=alert(1)>';
const BOARD_NAME = 'Weekly <b>Cup</b>';

describe('The leaderboard page in Chromium: a short leaderboard', function () {
  this.timeout(120_000);
  let browser: Browser;
  let game: TestGame;
  let board: string;
  let viewer: TestPlayer;

  before(async function () {
    this.timeout(15 * 60_000); // the first run may install Chromium
    browser = await launchBrowser();
    game = await createGame();
    board = await createLeaderboard(game, { name: BOARD_NAME });
    const [alice, bob, carol, mallory, dave] = await Promise.all(
      ['Alice', 'Bob', 'Carol', XSS_NAME, 'Dave'].map((name) => namedPlayer(game, name)),
    );
    viewer = carol!;
    await reportScores(game, board, [
      [alice!, 1234567],
      [bob!, 98765],
      [carol!, 4321],
      [mallory!, 1000],
      [dave!, 12.5],
    ]);
  });

  after(async () => {
    await browser?.close();
  });

  it('when the page opens, then the entries appear in rank order with their names and formatted scores', async () => {
    const { page, close } = await openPage(browser, pageUrl(board, viewer.token));
    const rows = await shownRows(page);
    expect(rows.map(({ rank, name, score }) => [rank, name, score])).to.deep.equal([
      ['1', 'Alice', '1,234,567'],
      ['2', 'Bob', '98,765'],
      ['3', 'Carol', '4,321'],
      ['4', XSS_NAME, '1,000'],
      ['5', 'Dave', '12.5'],
    ]);
    expect(await page.locator('h1').textContent()).to.equal(BOARD_NAME);
    await close();
  });

  it('when the viewer is on the first page, then their row is highlighted and nothing is pinned', async () => {
    const { page, close } = await openPage(browser, pageUrl(board, viewer.token));
    const mine = page.locator('#entries > li.me');
    expect(await mine.count()).to.equal(1);
    expect(await mine.locator('.name').textContent()).to.equal('Carol');
    expect(await mine.getAttribute('aria-current')).to.equal('true');
    expect(await mine.locator('.you').textContent()).to.equal('You');
    const background = (selector: string) => page.$eval(selector, (el) => getComputedStyle(el).backgroundColor);
    expect(await background('#entries > li.me')).to.not.equal(await background('#entries > li:not(.me)'));
    expect(await page.locator('#pinned').isHidden()).to.equal(true);
    await close();
  });

  it('when a display name and the leaderboard name hold HTML, then they show as text and run nothing', async () => {
    const { page, dialogs, problems, close } = await openPage(browser, pageUrl(board, viewer.token));
    await page.waitForLoadState('load');
    expect(await page.getByText(XSS_NAME, { exact: true }).isVisible()).to.equal(true);
    expect(await page.locator('#entries img:not(.avatar)').count()).to.equal(0);
    expect(await page.locator('h1 b').count()).to.equal(0);
    expect(dialogs).to.deep.equal([]);
    expect(problems).to.deep.equal([]);
    await close();
  });

  it('when the page has loaded, then every avatar image has loaded', async () => {
    const { page, close } = await openPage(browser, pageUrl(board, viewer.token));
    const widths = await imageWidths(page);
    expect(widths).to.have.length(6); // five rows and the (hidden) pinned copy of the viewer's
    for (const width of widths) expect(width).to.be.greaterThan(0);
    await close();
  });

  it('when the page loads, then every request goes to the service itself and the CSP blocks nothing', async () => {
    const { page, requests, problems, close } = await openPage(browser, pageUrl(board, viewer.token));
    await page.waitForLoadState('networkidle');
    expect(requests.length).to.be.greaterThan(2);
    for (const url of requests) expect(url.startsWith(testUrl() + '/')).to.equal(true, url);
    expect(problems).to.deep.equal([]);
    await close();
  });

  it('when the close button is clicked, then the page goes to its own URL with sdk_action=close_window added', async () => {
    const url = pageUrl(board, viewer.token);
    const { page, close } = await openPage(browser, url);
    await page.getByRole('button', { name: 'Close' }).click();
    await page.waitForURL(/sdk_action=close_window/);
    const landed = new URL(page.url());
    expect(landed.pathname).to.equal(new URL(url).pathname);
    expect(landed.searchParams.get('sdk_action')).to.equal('close_window');
    expect(landed.searchParams.get('token')).to.equal(viewer.token);
    await close();
  });

  it('when hideCloseButton is true or 1, then there is no close button', async () => {
    for (const value of ['true', '1']) {
      const { page, close } = await openPage(browser, pageUrl(board, viewer.token, { hideCloseButton: value }));
      expect(await page.getByRole('button', { name: 'Close' }).count()).to.equal(0, value);
      expect(await page.locator('#entries > li').count()).to.equal(5);
      await close();
    }
    const { page, close } = await openPage(browser, pageUrl(board, viewer.token, { hideCloseButton: 'false' }));
    expect(await page.getByRole('button', { name: 'Close' }).count()).to.equal(1);
    await close();
  });

  it('when the page is shown on a phone and on a desktop, then screenshots are written', async () => {
    for (const [size, viewport] of [
      ['360x740', PHONE],
      ['1280x800', DESKTOP],
    ] as const) {
      const { page, close } = await openPage(browser, pageUrl(board, viewer.token), viewport);
      await imageWidths(page);
      const file = await screenshot(page, `leaderboard-${size}`);
      expect(existsSync(file)).to.equal(true);
      // Nothing sideways at 360 px: the page is exactly as wide as the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.equal(viewport.width);
      await close();
    }
  });
});
