import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { api } from '../helpers/context.js';
import {
  createGame,
  createLeaderboard,
  createThirdPartyKey,
  namedPlayer,
  reportScore,
  secretKey,
  type TestGame,
  type TestPlayer,
} from '../helpers/fixtures.js';
import { DESKTOP, launchBrowser, PHONE } from '../helpers/browser.js';
import { dashboardUrl, expectAccessible, httpSession, openSection, signInWithSecretKey } from './support.js';

/**
 * The dashboard's Review section (docs/review.md, "4. Deciding"): the held scores of the game, oldest
 * first, each approved (it counts) or rejected (dropped, the player banned if asked) from the list.
 */

interface Row {
  leaderboard: string;
  player: string;
  held: string;
  previous: string;
  reason: string;
  at: string;
}

/** The list's rows as shown: each cell's text, and the time's datetime. */
async function rows(page: Page): Promise<Row[]> {
  return page.locator('table tbody tr').evaluateAll((trs) =>
    trs.map((tr) => {
      const cell = (i: number) => tr.children[i]!.textContent!.replace(/\s+/g, ' ').trim();
      return {
        leaderboard: cell(0),
        player: cell(1),
        held: cell(2),
        previous: cell(3),
        reason: cell(4),
        at: tr.querySelector('time')!.getAttribute('datetime')!,
      };
    }),
  );
}

/** The board as a third-party bot reads it: ids, scores and ranks in order. */
async function ranked(apiKey: string, leaderboard: string): Promise<[string, number, number][]> {
  const { body } = await api().get(`/api/v1/third_party/leaderboards/${leaderboard}?limit=100`).set('Api-Key', apiKey).expect(200);
  return body.entries.map((e: { player_id: string; score: number; rank: number }) => [e.player_id, e.score, e.rank]);
}

async function queueTotal(game: TestGame): Promise<number> {
  const { body } = await api().get('/api/v1/server/reviews').set(secretKey(game)).expect(200);
  return body.total;
}

describe("The dashboard's Review section in Chromium", function () {
  this.timeout(120_000);
  let browser: Browser;
  let game: TestGame;
  let empty: TestGame;
  let apiKey: string;
  let board: string;
  let honest: TestPlayer;
  let alice: TestPlayer;
  let bob: TestPlayer;
  const started = Date.now();

  before(async function () {
    this.timeout(15 * 60_000);
    browser = await launchBrowser();
    game = await createGame(`Review game ${Date.now()}`);
    empty = await createGame(`Review game without holds ${Date.now()}`);
    apiKey = (await createThirdPartyKey(game)).apiKey;
    board = await createLeaderboard(game, { review: { above: 100 } });
    honest = await namedPlayer(game, 'Honest Heron');
    alice = await namedPlayer(game, 'Alice Held');
    bob = await namedPlayer(game, 'Bob Held');
    await reportScore(game, honest, board, 50).expect(200);
    await reportScore(game, alice, board, 40).expect(200);
    // Two client reports the rule holds: Alice's beside her counted 40, then Bob's first score.
    await reportScore(game, alice, board, 500).expect(200);
    await reportScore(game, bob, board, 900).expect(200);
    expect(await queueTotal(game)).to.equal(2);
  });

  after(async () => {
    await browser?.close();
  });

  it('when Review is opened, then both held scores are listed oldest first with their board, player, scores, reason and time', async () => {
    const { page, close, problems } = await signInWithSecretKey(browser, game.secretKey);
    await openSection(page, 'Review');
    expect(new URL(page.url()).pathname).to.equal('/dashboard/reviews');
    expect(await page.locator('h1').textContent()).to.equal('Review');
    expect(await page.getByRole('link', { name: 'Review', exact: true }).getAttribute('aria-current')).to.equal('page');
    const shown = await rows(page);
    const above = "Better than the leaderboard's review limit";
    expect(shown.map(({ at: _at, ...row }) => row)).to.deep.equal([
      { leaderboard: board, player: `Alice Held ${alice.playerId}`, held: '500', previous: '40', reason: above },
      { leaderboard: board, player: `Bob Held ${bob.playerId}`, held: '900', previous: '—', reason: above },
    ]);
    for (const { at } of shown) expect(Date.parse(at)).to.be.within(started - 60_000, Date.now() + 60_000);
    expect(Date.parse(shown[0]!.at)).to.be.at.most(Date.parse(shown[1]!.at));
    const first = page.locator('table tbody tr').first();
    expect(await first.getByRole('link', { name: board }).getAttribute('href')).to.equal(`/dashboard/leaderboards/${board}`);
    expect(await first.getByRole('link', { name: 'Alice Held' }).getAttribute('href')).to.equal(`/dashboard/players/${alice.playerId}`);
    // Each row's buttons say whose score they decide.
    expect(await page.getByRole('button', { name: `Approve Alice Held's score of 500 on ${board}` }).count()).to.equal(1);
    expect(await page.getByRole('button', { name: `Reject Bob Held's score of 900 on ${board}` }).count()).to.equal(1);
    expect(problems).to.deep.equal([]);
    await close();
  });

  it('when the list is longer than a page, then "Next page" and "Previous page" page through it, oldest first', async () => {
    const { page, close } = await signInWithSecretKey(browser, game.secretKey, PHONE);
    await page.goto(dashboardUrl('/reviews?limit=1'));
    const pager = page.getByRole('navigation', { name: 'Review pages' });
    expect((await pager.textContent())!.replace(/\s+/g, ' ').trim()).to.equal('1–1 of 2 Next page');
    expect((await rows(page)).map((row) => row.held)).to.deep.equal(['500']);
    await pager.getByRole('link', { name: 'Next page', exact: true }).click();
    await page.waitForURL(/offset=1/);
    expect((await rows(page)).map((row) => row.held)).to.deep.equal(['900']);
    await page.getByRole('link', { name: 'Previous page', exact: true }).click();
    await page.waitForURL(/offset=0/);
    expect((await rows(page)).map((row) => row.held)).to.deep.equal(['500']);
    await close();
  });

  for (const [label, viewport] of [
    ['DESKTOP', DESKTOP],
    ['PHONE', PHONE],
  ] as const) {
    it(`when the list, its Reject question and the empty list are shown at ${label} size, then axe finds no serious violation and nothing overflows`, async () => {
      const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      const held = await signInWithSecretKey(browser, game.secretKey, viewport);
      await held.page.goto(dashboardUrl('/reviews'));
      await expectAccessible(held.page, `the Review list at ${label}`);
      expect(await overflow(held.page), `the Review list at ${label} scrolls sideways`).to.be.at.most(0);
      await held.page.getByRole('button', { name: `Reject Bob Held's score of 900 on ${board}` }).click();
      await expectAccessible(held.page, `the Reject question at ${label}`);
      expect(await overflow(held.page), `the Reject question at ${label} scrolls sideways`).to.be.at.most(0);
      await held.close();

      const none = await signInWithSecretKey(browser, empty.secretKey, viewport);
      await openSection(none.page, 'Review');
      await expectAccessible(none.page, `the empty Review list at ${label}`);
      expect(await overflow(none.page), `the empty Review list at ${label} scrolls sideways`).to.be.at.most(0);
      await none.close();
    });
  }

  it('when a held score is approved, then it leaves the list and the leaderboard ranks it', async () => {
    const { page, close } = await signInWithSecretKey(browser, game.secretKey);
    await page.goto(dashboardUrl('/reviews'));
    expect(await ranked(apiKey, board)).to.deep.equal([
      [honest.playerId, 50, 1],
      [alice.playerId, 40, 2],
    ]);
    await page.getByRole('button', { name: `Approve Alice Held's score of 500 on ${board}` }).click();
    await page.waitForURL(/\/dashboard\/reviews\?done=approved$/);
    expect(await page.getByRole('status').textContent()).to.equal('Approved: the score counts from now on.');
    expect((await rows(page)).map((row) => row.held)).to.deep.equal(['900']);
    expect(await ranked(apiKey, board)).to.deep.equal([
      [alice.playerId, 500, 1],
      [honest.playerId, 50, 2],
    ]);
    const { body: log } = await api().get('/api/v1/server/audit_log').set(secretKey(game)).expect(200);
    const approval = log.entries.find((e: { action: string }) => e.action === 'review.approve');
    expect(approval).to.include({ actor: 'dashboard' });
    await expectAccessible(page, 'the Review list after an approval');
    await close();
  });

  it('when a held score is rejected with "Also ban the player", then it leaves the list and the player is banned', async () => {
    const { page, close } = await signInWithSecretKey(browser, game.secretKey, PHONE);
    await openSection(page, 'Review');
    await page.getByRole('button', { name: `Reject Bob Held's score of 900 on ${board}` }).click();
    const question = page.getByRole('dialog');
    await question.getByLabel('Also ban the player').check();
    await question.getByLabel('Ban reason (optional)').fill('Impossible score');
    await question.getByRole('button', { name: 'Yes, reject the score' }).click();
    await page.waitForURL(/\/dashboard\/reviews\?done=banned$/);
    expect(await page.getByRole('status').textContent()).to.match(/^Rejected, and the player banned/);
    // The empty list says so in a sentence.
    expect(await page.locator('table').count()).to.equal(0);
    expect(await page.locator('main').textContent()).to.contain('No held score is waiting for review.');
    expect(await queueTotal(game)).to.equal(0);

    const refused = await reportScore(game, bob, board, 10).expect(403);
    expect(refused.body.error.code).to.equal('player_banned');
    const { body: player } = await api().get(`/api/v1/server/players/${bob.playerId}`).set(secretKey(game)).expect(200);
    expect(player).to.include({ banned: true, ban_reason: 'Impossible score' });
    // Never counted: the board is as it was.
    expect((await ranked(apiKey, board)).map(([id]) => id)).to.deep.equal([alice.playerId, honest.playerId]);
    await close();
  });

  it('when a game has no held score, then Review says none waits', async () => {
    const { page, close } = await signInWithSecretKey(browser, empty.secretKey, PHONE);
    await openSection(page, 'Review');
    expect(await page.locator('table').count()).to.equal(0);
    expect(await page.locator('main').textContent()).to.contain('No held score is waiting for review.');
    await close();
  });

  it('when a review decided in another tab is approved again, then the dashboard shows the 409 conflict as an error page, and an unknown one 404', async () => {
    const carol = await namedPlayer(game, 'Carol Held');
    await reportScore(game, carol, board, 300).expect(200);
    const observed = await signInWithSecretKey(browser, game.secretKey);
    const first = observed.page;
    await first.goto(dashboardUrl('/reviews'));
    // The same list in a second tab of the same session: the same form, submitted twice.
    const second = await first.context().newPage();
    await second.goto(dashboardUrl('/reviews'));
    const approve = `Approve Carol Held's score of 300 on ${board}`;
    await first.getByRole('button', { name: approve }).click();
    await first.waitForURL(/\?done=approved$/);
    const [answer] = await Promise.all([
      second.waitForResponse((res) => res.request().method() === 'POST' && res.url().endsWith('/approve')),
      second.getByRole('button', { name: approve }).click(),
    ]);
    expect(answer.status()).to.equal(409);
    await second.waitForLoadState();
    expect(await second.locator('h1').textContent()).to.equal('Conflict');
    expect(await second.locator('.error-code').textContent())
      .to.contain('409')
      .and.contain('conflict');
    expect(await second.locator('main').textContent()).to.contain('was approved already');
    await expectAccessible(second, 'the conflict page');
    expect(await ranked(apiKey, board)).to.deep.include([carol.playerId, 300, 2]);

    const forms = await httpSession({ secretKey: game.secretKey });
    await forms.page('/reviews');
    const unknown = await forms.post('/reviews/3f0c6f5e-2b7a-4c1e-9d55-7a0b1c2d3e4f/reject', { ban: 'on' });
    expect(unknown.status).to.equal(404);
    expect(unknown.headers['content-type']).to.match(/^text\/html/);
    expect(unknown.text).to.contain('review_not_found');
    await observed.close();
  });
});
