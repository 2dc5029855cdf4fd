import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { createGame, createLeaderboard, namedPlayer, sendReport, type TestGame, type TestPlayer } from '../helpers/fixtures.js';
import { DESKTOP, launchBrowser, PHONE } from '../helpers/browser.js';
import { openPage, pageUrl } from './support.js';

/** What a row shows: its name, its score and each tiebreaker cell as read (name and value). */
function tiebreakerCells(page: import('playwright-core').Page) {
  return page.$$eval('#entries > li', (items) =>
    items.map((li) => ({
      name: li.querySelector('.name')?.textContent ?? '',
      score: li.querySelector('.score')?.textContent ?? '',
      tiebreakers: Array.from(li.querySelectorAll('.tb')).map((cell) => (cell.textContent ?? '').replace(/\s+/g, ' ').trim()),
    })),
  );
}

describe('The leaderboard page in Chromium: a board with tiebreakers', function () {
  this.timeout(120_000);
  let browser: Browser;
  let game: TestGame;
  let board: string;
  let viewer: TestPlayer;

  before(async function () {
    this.timeout(15 * 60_000);
    browser = await launchBrowser();
    game = await createGame();
    board = await createLeaderboard(game, {
      name: 'Time trial',
      tiebreakers: [
        { name: 'time_left', sort_order: 'desc' },
        { name: 'crashes', sort_order: 'asc' },
      ],
    });
    const [ada, bo, cy] = await Promise.all(['Ada', 'Bo', 'Cy'].map((name) => namedPlayer(game, name)));
    viewer = cy!;
    // Equal scores: time_left decides, then crashes.
    for (const [player, tiebreakers] of [
      [ada!, [10, 2]],
      [bo!, [12.5, 0]],
      [cy!, [10, 1]],
    ] as const) {
      await sendReport(game, player, board, { score: 500, tiebreakers }).expect(200);
    }
  });

  after(async () => {
    await browser?.close();
  });

  it('when the page opens on a desktop, then each tiebreaker is a column headed by its name, in the board order', async () => {
    const { page, problems, close } = await openPage(browser, pageUrl(board, viewer.token), DESKTOP);
    const heads = page.locator('.heads');
    expect(await heads.isVisible()).to.equal(true);
    expect((await heads.locator('span').allTextContents()).filter(Boolean)).to.deep.equal(['Score', 'time_left', 'crashes']);
    expect(await tiebreakerCells(page)).to.deep.equal([
      { name: 'Bo', score: '500', tiebreakers: ['time_left 12.5', 'crashes 0'] },
      { name: 'Cy', score: '500', tiebreakers: ['time_left 10', 'crashes 1'] },
      { name: 'Ada', score: '500', tiebreakers: ['time_left 10', 'crashes 2'] },
    ]);
    // Each column's cells stand right under its head.
    const head = await page.locator('.heads span', { hasText: 'crashes' }).boundingBox();
    const cell = await page.locator('#entries > li').first().locator('.tb').nth(1).boundingBox();
    expect(Math.abs(head!.x + head!.width - (cell!.x + cell!.width))).to.be.below(2);
    expect(problems).to.deep.equal([]);
    await close();
  });

  it('when the page opens on a phone, then every row names its tiebreakers and nothing overflows the screen', async () => {
    const { page, close } = await openPage(browser, pageUrl(board, viewer.token), PHONE);
    expect(await page.locator('.heads').isVisible()).to.equal(false);
    const first = page.locator('#entries > li').first();
    expect(await first.locator('.tb-name').first().isVisible()).to.equal(true);
    expect(await first.locator('.tb-name').allTextContents()).to.deep.equal(['time_left', 'crashes']);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).to.be.at.most(0);
    await close();
  });
});
