import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import {
  createGame,
  createLeaderboard,
  namedPlayer,
  reportScores,
  signupMany,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { DESKTOP, launchBrowser, PHONE, screenshot } from '../helpers/browser.js';
import { imageWidths, openPage, pageUrl, shownRows } from './support.js';

const LOADED_XSS = '<script>alert(2)</script>';

describe('The leaderboard page in Chromium: 260 players, the viewer 250th', function () {
  this.timeout(120_000);
  let browser: Browser;
  let game: TestGame;
  let board: string;
  let players: TestPlayer[];
  let viewer: TestPlayer;

  before(async function () {
    this.timeout(15 * 60_000);
    browser = await launchBrowser();
    game = await createGame();
    board = await createLeaderboard(game, { name: 'Season 7' });
    players = await signupMany(game, 258);
    // Rank 60 (loaded by "more", so built by the script) and the viewer at rank 250 have names.
    players.splice(59, 0, await namedPlayer(game, LOADED_XSS));
    players.splice(249, 0, await namedPlayer(game, 'Viewer Vic'));
    viewer = players[249]!;
    await reportScores(
      game,
      board,
      players.map((player, i) => [player, (300 - i) * 100]),
    );
  });

  after(async () => {
    await browser?.close();
  });

  it('when the viewer ranks 250th, then their row is pinned at the bottom with rank 250', async () => {
    const { page, close } = await openPage(browser, pageUrl(board, viewer.token));
    const pinned = page.locator('#pinned');
    expect(await pinned.isVisible()).to.equal(true);
    expect(await pinned.locator('.rank').textContent()).to.equal('250');
    expect(await pinned.locator('.name').textContent()).to.equal('Viewer Vic');
    expect(await pinned.locator('.score').textContent()).to.equal('5,100');
    expect(await pinned.locator('li').getAttribute('class')).to.contain('me');
    const box = (await pinned.boundingBox())!;
    expect(box.y + box.height).to.be.closeTo(PHONE.height, 1);
    expect(await page.locator('#entries > li').count()).to.equal(50);
    await close();
  });

  it('when "Show more" is clicked, then the next entries load in rank order', async () => {
    const { page, dialogs, close } = await openPage(browser, pageUrl(board, viewer.token));
    await page.getByRole('button', { name: 'Show more' }).click();
    await page.waitForFunction(() => document.querySelectorAll('#entries > li').length >= 100);
    const rows = await shownRows(page);
    expect(rows.map((row) => row.id)).to.deep.equal(players.slice(0, rows.length).map((p) => p.playerId));
    expect(rows.map((row) => row.rank)).to.deep.equal(rows.map((_, i) => String(i + 1)));
    expect(rows[50]!.score).to.equal('25,000');
    // A name loaded by the script is text too.
    expect(await page.getByText(LOADED_XSS, { exact: true }).isVisible()).to.equal(true);
    expect(dialogs).to.deep.equal([]);
    for (const width of await imageWidths(page)) expect(width).to.be.greaterThan(0);
    await close();
  });

  it('when the list is scrolled to its end, then further entries load without a click', async () => {
    const { page, close } = await openPage(browser, pageUrl(board, viewer.token));
    for (let i = 0; i < 20 && (await page.locator('#entries > li').count()) < 150; i++) {
      await page.mouse.wheel(0, 5000);
      await page.waitForTimeout(150);
    }
    expect(await page.locator('#entries > li').count()).to.be.at.least(150);
    const ranks = (await shownRows(page)).map((row) => Number(row.rank));
    expect(ranks).to.deep.equal(ranks.map((_, i) => i + 1));
    await close();
  });

  it("when the viewer's own row scrolls into view, then the pinned copy hides, and shows again when it leaves", async () => {
    const { page, close } = await openPage(browser, pageUrl(board, viewer.token));
    // "Show more" until the viewer's row is in the list. Clicked in the page, in one step with the
    // check: a click scrolls the list's end into view, which may load the last entries by itself and
    // hide the button before a click from outside arrives.
    await page.waitForFunction(
      () => {
        const more = document.querySelector<HTMLButtonElement>('#more')!;
        if (document.querySelector('#entries > li.me')) return true;
        if (!more.disabled && !more.hidden) more.click();
        return false;
      },
      undefined,
      { polling: 100 },
    );
    const mine = page.locator('#entries > li.me');
    expect(await mine.locator('.rank').textContent()).to.equal('250');
    await mine.evaluate((li) => li.scrollIntoView({ block: 'center' }));
    await page.locator('#pinned').waitFor({ state: 'hidden' });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('#pinned').waitFor({ state: 'visible' });
    await close();
  });

  it('when the long page is shown on a phone and on a desktop, then screenshots with the pinned row are written', async () => {
    for (const [size, viewport] of [
      ['360x740', PHONE],
      ['1280x800', DESKTOP],
    ] as const) {
      const { page, close } = await openPage(browser, pageUrl(board, viewer.token), viewport);
      await imageWidths(page);
      await page.evaluate(() => window.scrollTo(0, 400));
      await page.waitForTimeout(100);
      await screenshot(page, `leaderboard-pinned-${size}`);
      expect(await page.locator('#pinned').isVisible()).to.equal(true);
      await close();
    }
    // Phones in dark mode get the dark palette.
    const { page, close } = await openPage(browser, pageUrl(board, viewer.token), PHONE, 'dark');
    await imageWidths(page);
    await screenshot(page, 'leaderboard-pinned-dark-360x740');
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).to.equal('rgb(14, 16, 22)');
    await close();
  });
});
