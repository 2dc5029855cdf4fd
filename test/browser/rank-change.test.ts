import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { testStores } from '../helpers/context.js';
import {
  createGame,
  createLeaderboard,
  internalBoard,
  namedPlayer,
  reportScore,
  reportScores,
  type TestGame,
} from '../helpers/fixtures.js';
import { launchBrowser } from '../helpers/browser.js';
import { until } from '../helpers/processes.js';
import { expectAccessible } from '../dashboard/support.js';
import { openPage, pageUrl } from './support.js';

/** Each row's name with its move mark as shown, and as read out. */
function shownMoves(page: Page) {
  return page.$$eval('#entries > li', (items) =>
    items.map((li) => {
      const move = li.querySelector('.move');
      const parts = move ? [...move.childNodes] : [];
      const text = (keep: (node: ChildNode) => boolean) =>
        parts
          .filter(keep)
          .map((node) => node.textContent)
          .join('')
          .trim();
      return {
        name: li.querySelector('.name')?.textContent ?? '',
        // What the eye sees (the words are visually hidden), and what a screen reader says (the arrow is hidden from it).
        mark: text((node) => !(node as Element).classList?.contains('sr-only')),
        spoken: text((node) => (node as Element).getAttribute?.('aria-hidden') !== 'true'),
      };
    }),
  );
}

describe('The leaderboard page in Chromium: rank_change marks (docs/history.md)', function () {
  this.timeout(120_000);
  let browser: Browser;
  let game: TestGame;

  before(async function () {
    this.timeout(15 * 60_000);
    browser = await launchBrowser();
    game = await createGame();
  });

  after(async () => {
    await browser?.close();
  });

  it('when rows moved since the last daily snapshot, then each shows an up or down mark with the places, read out in words, and a live update redraws them', async () => {
    const board = await createLeaderboard(game, { name: 'Daily climb' });
    const { internalId } = await internalBoard(game, board);
    const [ann, ben, cat] = await Promise.all(['Ann', 'Ben', 'Cat'].map((name) => namedPlayer(game, name)));
    await reportScores(game, board, [
      [ann!, 300],
      [ben!, 200],
      [cat!, 100],
    ]);
    // Yesterday's snapshot, as the worker writes it (test/worker/rank-history.test.ts takes real ones): Cat led, Ann was 3rd.
    const { pool } = testStores();
    await pool.query(`INSERT INTO rank_snapshot_days (leaderboard_internal_id, day, season, entries) VALUES ($1, '2030-01-01', 1, 3)`, [
      internalId,
    ]);
    await pool.query(
      `INSERT INTO rank_snapshots (leaderboard_internal_id, day, player_id, season, rank, score)
       SELECT $1, '2030-01-01', u.id, 1, u.rank, 0 FROM unnest($2::text[], $3::int[]) AS u (id, rank)`,
      [internalId, [cat!.playerId, ben!.playerId, ann!.playerId], [1, 2, 3]],
    );

    const { page, requests, problems, close } = await openPage(browser, pageUrl(board, ben!.token));
    expect(await shownMoves(page)).to.deep.equal([
      { name: 'Ann', mark: '▲2', spoken: '2 places up' },
      { name: 'Ben', mark: '', spoken: '' },
      { name: 'Cat', mark: '▼2', spoken: '2 places down' },
    ]);
    await expectAccessible(page, 'the page with move marks');

    // Cat climbs back over Ben: the stream's rows come drawn by the page's script.
    await until(() => requests.some((url) => url.includes('/live?')), 'the page to open its stream');
    await reportScore(game, cat!, board, 250).expect(200);
    await page.waitForFunction(() => document.querySelectorAll('#entries > li .name')[1]?.textContent === 'Cat', undefined, {
      timeout: 5000,
    });
    expect(await shownMoves(page)).to.deep.equal([
      { name: 'Ann', mark: '▲2', spoken: '2 places up' },
      { name: 'Cat', mark: '▼1', spoken: '1 place down' },
      { name: 'Ben', mark: '▼1', spoken: '1 place down' },
    ]);
    expect(problems).to.deep.equal([]);
    await close();
  });
});
