import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import {
  createGame,
  createLeaderboard,
  namedPlayer,
  reportScore,
  reportScores,
  sendReport,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { launchBrowser } from '../helpers/browser.js';
import { until } from '../helpers/processes.js';
import { openPage, pageUrl, shownRows } from './support.js';

/**
 * The page keeps its first rows current from the leaderboard's live stream, without polling; a
 * browser without EventSource polls the entries every 10 s instead.
 */
describe('The leaderboard page in Chromium: live updates', function () {
  this.timeout(120_000);
  let browser: Browser;
  let game: TestGame;
  let board: string;
  let viewer: TestPlayer;

  before(async function () {
    this.timeout(15 * 60_000);
    browser = await launchBrowser();
    game = await createGame();
    board = await createLeaderboard(game, { name: 'Live cup' });
    const [alice, bob] = await Promise.all(['Alice', 'Bob'].map((name) => namedPlayer(game, name)));
    viewer = bob!;
    await reportScores(game, board, [
      [alice!, 300],
      [bob!, 100],
    ]);
  });

  after(async () => {
    await browser?.close();
  });

  const entryRequests = (requests: string[]) => requests.filter((url) => new URL(url).pathname.endsWith('/entries'));

  it('when a score changes the first rows, then the open page shows it within seconds, from the stream and without polling', async () => {
    const { page, requests, problems, close } = await openPage(browser, pageUrl(board, viewer.token));
    await until(() => requests.some((url) => url.includes('/live?')), 'the page to open its stream');
    const carol = await namedPlayer(game, 'Carol');
    await reportScore(game, carol, board, 200).expect(200);
    await page.waitForFunction(() => document.querySelectorAll('#entries > li').length === 3, undefined, { timeout: 5000 });
    expect((await shownRows(page)).map(({ rank, name, score, me }) => [rank, name, score, me])).to.deep.equal([
      ['1', 'Alice', '300', false],
      ['2', 'Carol', '200', false],
      ['3', 'Bob', '100', true],
    ]);
    expect(await page.locator('.bar .meta').textContent()).to.equal('3 players');

    // The viewer climbs to the top: their row, marked as theirs, moves there.
    await reportScore(game, viewer, board, 400).expect(200);
    await page.waitForFunction(() => document.querySelector('#entries > li.me .rank')?.textContent === '1', undefined, { timeout: 5000 });
    expect(entryRequests(requests), 'polled entries').to.deep.equal([]);
    expect(
      requests.filter((url) => url.includes('/live?')),
      'streams opened',
    ).to.have.length(1);
    expect(problems).to.deep.equal([]);
    await close();
  });

  it('when only a tiebreaker of a shown entry changes, then the open page shows the new value from the stream', async () => {
    const tied = await createLeaderboard(game, { name: 'Tied cup', tiebreakers: [{ name: 'time_left', sort_order: 'desc' }] });
    const racer = await namedPlayer(game, 'Dana');
    const report = (timeLeft: number) =>
      sendReport(game, racer, tied, { score: 50, tiebreakers: [timeLeft] }).then((res) => expect(res.status).to.equal(200));
    await report(7);
    const { page, requests, problems, close } = await openPage(browser, pageUrl(tied, viewer.token));
    await until(() => requests.some((url) => url.includes('/live?')), 'the page to open its stream');
    expect(await page.locator('#entries > li .tb').first().textContent()).to.equal('time_left 7');
    // Same score, same rank: only the tiebreaker tells the entries apart.
    await report(9);
    await page.waitForFunction(() => document.querySelector('#entries > li .tb')?.textContent === 'time_left 9', undefined, {
      timeout: 5000,
    });
    expect(entryRequests(requests), 'polled entries').to.deep.equal([]);
    expect(problems).to.deep.equal([]);
    await close();
  });

  it('when the browser has no EventSource, then the page polls the first rows every 10 s', async function () {
    this.timeout(60_000);
    const context = await browser.newContext();
    await context.addInitScript(() => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      delete (window as any).EventSource;
    });
    const page = await context.newPage();
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(pageUrl(board, viewer.token));
    const dave = await namedPlayer(game, 'Dave');
    await reportScore(game, dave, board, 1000).expect(200);
    const started = Date.now();
    await page.waitForFunction(() => document.querySelector('#entries > li .name')?.textContent === 'Dave', undefined, { timeout: 15_000 });
    expect(Date.now() - started, 'ms until the poll showed it').to.be.below(12_000);
    expect(entryRequests(requests)).to.have.length(1);
    expect(requests.filter((url) => url.includes('/live?'))).to.deep.equal([]);
    await context.close();
  });
});
