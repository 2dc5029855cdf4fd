import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import {
  createClan,
  createGame,
  createLeaderboard,
  joinClan,
  namedPlayer,
  reportScores,
  uniqueId,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { DESKTOP, launchBrowser, PHONE, screenshot } from '../helpers/browser.js';
import { openPage, pageUrl, shownRows } from './support.js';

const RED = 'Red <Dragons>';

describe('The leaderboard page in Chromium: the clan view', function () {
  this.timeout(120_000);
  let browser: Browser;
  let game: TestGame;
  let board: string;
  let viewer: TestPlayer;

  before(async function () {
    this.timeout(15 * 60_000);
    browser = await launchBrowser();
    game = await createGame();
    board = await createLeaderboard(game, { name: 'Clan Wars', type: 'clan' });
    const names = ['Ann', 'Ben', 'Cat', 'Dan', 'Eve', 'Fay', 'Gus'];
    const [ann, ben, cat, dan, eve, fay, gus] = await Promise.all(names.map((name) => namedPlayer(game, name)));
    viewer = ann!;
    await joinClan(game, await createClan(game, uniqueId('red'), RED), [ann!, ben!, cat!, dan!]);
    await joinClan(game, await createClan(game, uniqueId('blue'), 'Blue Wolves'), [eve!, fay!]);
    await reportScores(game, board, [
      [ann!, 100],
      [ben!, 200],
      [cat!, 300],
      [dan!, 50],
      [eve!, 500],
      [fay!, 400],
      [gus!, 1000], // no clan: counts for no clan total
    ]);
  });

  after(async () => {
    await browser?.close();
  });

  it('when the Clans switch is chosen, then the clans appear in rank order with their totals', async () => {
    const { page, dialogs, close } = await openPage(browser, pageUrl(board, viewer.token));
    expect(await page.getByRole('link', { name: 'Players' }).getAttribute('aria-current')).to.equal('page');
    expect((await shownRows(page)).map((row) => row.name)).to.deep.equal(['Gus', 'Eve', 'Fay', 'Cat', 'Ben', 'Ann', 'Dan']);

    await page.getByRole('link', { name: 'Clans' }).click();
    await page.waitForURL(/view=clans/);
    expect(await page.getByRole('link', { name: 'Clans' }).getAttribute('aria-current')).to.equal('page');
    const rows = await shownRows(page);
    expect(rows.map(({ rank, name, score, me }) => [rank, name, score, me])).to.deep.equal([
      ['1', 'Blue Wolves', '900', false],
      ['2', RED, '650', true],
    ]);
    expect(await page.locator('#entries > li.me .sub').textContent()).to.equal('4 members');
    expect(await page.locator('.meta').textContent()).to.equal('2 clans');
    expect(dialogs).to.deep.equal([]);
    await close();
  });

  it('when the clan view is closed, then the close URL keeps the view and adds sdk_action=close_window', async () => {
    const { page, close } = await openPage(browser, pageUrl(board, viewer.token, { view: 'clans' }));
    await page.getByRole('button', { name: 'Close' }).click();
    await page.waitForURL(/sdk_action=close_window/);
    expect(new URL(page.url()).searchParams.get('view')).to.equal('clans');
    await close();
  });

  it('when the clan view is shown on a phone and on a desktop, then screenshots are written', async () => {
    for (const [size, viewport] of [
      ['360x740', PHONE],
      ['1280x800', DESKTOP],
    ] as const) {
      const { page, close } = await openPage(browser, pageUrl(board, viewer.token, { view: 'clans' }), viewport);
      await screenshot(page, `leaderboard-clans-${size}`);
      await close();
    }
  });
});
