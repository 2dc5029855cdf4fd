import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { createGame, createLeaderboard, signup, type TestGame, type TestPlayer } from '../helpers/fixtures.js';
import { launchBrowser, PHONE, screenshot } from '../helpers/browser.js';
import { openPage, pageUrl } from './support.js';

describe('The leaderboard page in Chromium: empty, unauthorised and unknown', function () {
  this.timeout(120_000);
  let browser: Browser;
  let game: TestGame;
  let player: TestPlayer;

  before(async function () {
    this.timeout(15 * 60_000);
    browser = await launchBrowser();
    game = await createGame();
    player = await signup(game);
  });

  after(async () => {
    await browser?.close();
  });

  it('when the leaderboard has no scores, then a friendly empty state shows and nothing is pinned', async () => {
    const board = await createLeaderboard(game, { name: 'Brand New' });
    const { page, problems, close } = await openPage(browser, pageUrl(board, player.token), PHONE);
    expect(await page.getByRole('heading', { name: 'No scores yet' }).isVisible()).to.equal(true);
    expect(await page.locator('#entries').count()).to.equal(0);
    expect(await page.locator('#pinned').count()).to.equal(0);
    expect(await page.locator('#more').count()).to.equal(0);
    expect(problems).to.deep.equal([]);
    await screenshot(page, 'leaderboard-empty-360x740');
    await close();
  });

  it('when the token is bad, then a readable 401 page keeps its close button', async () => {
    const board = await createLeaderboard(game);
    const { page, close } = await openPage(browser, pageUrl(board, 'not-a-token'), PHONE);
    expect(await page.getByRole('heading', { name: 'Sign-in needed' }).isVisible()).to.equal(true);
    await screenshot(page, 'error-401-360x740');
    await page.getByRole('button', { name: 'Close' }).click();
    await page.waitForURL(/sdk_action=close_window/);
    await close();
  });

  it('when the leaderboard is unknown, then a readable 404 page shows', async () => {
    const { page, close } = await openPage(browser, pageUrl('no-such-board', player.token), PHONE);
    expect(await page.getByRole('heading', { name: 'Leaderboard not found' }).isVisible()).to.equal(true);
    await close();
  });
});
