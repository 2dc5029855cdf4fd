import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { api, testUrl } from '../helpers/context.js';
import {
  createClan,
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  joinClan,
  namedPlayer,
  secretKey,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { launchBrowser } from '../helpers/browser.js';
import { dashboardUrl, signInAsAdmin, signInWithSecretKey } from './support.js';

// Each would run, or break the markup, if any page put it in unescaped.
const GAME = `<script>alert('game')</script> ${Date.now()}`;
const BOARD = '<img src=x onerror=alert(1)>';
const PLAYER = '<script>alert(2)</script>';
const CLAN = '"><svg onload=alert(3)>';
const KEY = "</td><script>alert('key')</script>";
const METADATA = { note: '</script><script>alert(4)</script>' };

describe('The dashboard in Chromium: stored text that looks like markup', function () {
  this.timeout(120_000);
  let browser: Browser;
  let game: TestGame;
  let board: string;
  let player: TestPlayer;

  before(async function () {
    this.timeout(15 * 60_000);
    browser = await launchBrowser();
    game = await createGame(GAME);
    board = await createLeaderboard(game, { name: BOARD });
    player = await namedPlayer(game, PLAYER);
    const clan = await createClan(game, 'markup-clan', CLAN);
    await joinClan(game, clan, [player]);
    await api()
      .post('/api/v1/server/report_scores')
      .set(secretKey(game))
      .send({ player_id: player.playerId, leaderboard_ids: [board], scores: [42], metadata: [METADATA] })
      .expect(200);
    await createThirdPartyKey(game, KEY);
  });

  after(async () => {
    await browser?.close();
  });

  it('when every page that shows a stored name opens, then the name reads as text and no script runs', async () => {
    const { page, dialogs, problems, requests, close } = await signInWithSecretKey(browser, game.secretKey);
    const pages: [string, string[]][] = [
      ['/overview', [GAME]],
      ['/leaderboards', [BOARD]],
      [`/leaderboards/${encodeURIComponent(board)}`, [BOARD, PLAYER]],
      [`/players?search=${encodeURIComponent(player.playerId)}`, [PLAYER]],
      [`/players/${encodeURIComponent(player.playerId)}`, [PLAYER]],
      ['/audit-log', [KEY]],
      ['/settings', [KEY]],
    ];
    for (const [path, names] of pages) {
      const res = await page.goto(dashboardUrl(path));
      expect(res?.status(), path).to.equal(200);
      const text = await page.locator('body').innerText();
      for (const name of names) expect(text, `${path} shows ${name} as text`).to.include(name);
      expect(
        await page.locator('main script:not([type="application/json"]), main img, main svg').count(),
        `${path}: markup from stored text`,
      ).to.equal(0);
    }
    const board_ = await page.goto(dashboardUrl(`/leaderboards/${encodeURIComponent(board)}`));
    expect(board_?.status()).to.equal(200);
    expect(await page.locator('body').innerText(), 'metadata as text').to.include(METADATA.note);
    expect(dialogs, 'dialogs opened').to.deep.equal([]);
    expect(problems, 'console errors').to.deep.equal([]);
    // An <img src=x> that ran would ask the service for /dashboard/x; nothing goes to another origin either.
    const origin = new URL(testUrl()).origin;
    expect(
      requests.filter((url) => new URL(url).origin !== origin),
      'requests to another origin',
    ).to.deep.equal([]);
    expect(
      requests.filter((url) => new URL(url).pathname.endsWith('/x')),
      'requests made by stored markup',
    ).to.deep.equal([]);
    await close();
  });

  it('when the admin lists the games, then a game named like markup is text there too', async () => {
    const { page, dialogs, close } = await signInAsAdmin(browser);
    await page.goto(dashboardUrl(`/games?offset=0`));
    let text = await page.locator('body').innerText();
    // The picker pages oldest first: follow "Next" until the game shows.
    while (!text.includes(GAME) && (await page.getByRole('link', { name: 'Next page', exact: true }).count()) > 0) {
      await page.getByRole('link', { name: 'Next page', exact: true }).click();
      text = await page.locator('body').innerText();
    }
    expect(text).to.include(GAME);
    expect(dialogs).to.deep.equal([]);
    await close();
  });
});
