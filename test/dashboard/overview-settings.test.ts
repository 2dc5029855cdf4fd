import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { api, testEngine } from '../helpers/context.js';
import { createGame, createLeaderboard, namedPlayer, reportScores, secretKey, type TestGame } from '../helpers/fixtures.js';
import { DESKTOP, launchBrowser, PHONE, screenshot } from '../helpers/browser.js';
import { dashboardUrl, expectAccessible, openSection, signInWithSecretKey } from './support.js';

/** The audit log's entries through the API, newest first, as action/actor pairs. */
async function auditTrail(game: TestGame): Promise<string[]> {
  const res = await api().get('/api/v1/server/audit_log?limit=50').set(secretKey(game));
  expect(res.status).to.equal(200);
  return (res.body.entries as { action: string; actor: string }[]).map((e) => `${e.action} by ${e.actor}`);
}

/** The actions the dashboard's Audit log page lists, top to bottom. */
function auditLogPage(page: Page): Promise<string[]> {
  return page.locator('table tbody tr td:nth-child(3)').allTextContents();
}

describe('The dashboard’s Overview and Settings in Chromium', function () {
  this.timeout(120_000);
  let browser: Browser;
  let game: TestGame;
  let board: string;

  before(async function () {
    this.timeout(15 * 60_000);
    browser = await launchBrowser();
    game = await createGame(`Overview game ${Date.now()}`);
    board = await createLeaderboard(game, { name: 'Weekly cup' });
    await createLeaderboard(game, { name: 'All time' });
    const players = await Promise.all(['Ada', 'Bo', 'Cy'].map((name) => namedPlayer(game, name)));
    await reportScores(game, board, [
      [players[0]!, 300],
      [players[1]!, 200],
      [players[2]!, 100],
    ]);
    // What every process flushes every few seconds, now.
    await testEngine().reportCounter.flush();
  });

  after(async () => {
    await browser?.close();
  });

  it('when the Overview opens, then it counts players, leaderboards, ranked entries and this hour’s reports, and draws the chart', async () => {
    const { page, close, problems } = await signInWithSecretKey(browser, game.secretKey);
    const stat = async (label: string) =>
      page
        .locator('.stat', { has: page.getByText(label, { exact: true }) })
        .locator('dd')
        .textContent();
    expect(await stat('Players')).to.equal('3');
    expect(await stat('Leaderboards')).to.equal('2');
    expect(await stat('Ranked entries')).to.equal('3');
    expect(await page.locator('#reports-total').textContent()).to.equal('3');
    // uPlot drew into the chart's box (a canvas), under the strict CSP: no console errors.
    await page.locator('#reports-chart canvas').waitFor();
    const rows = await page.locator('#reports-table tbody tr').count();
    expect(rows).to.equal(61);
    expect(problems).to.deep.equal([]);
    await expectAccessible(page, 'Overview (desktop)');
    await screenshot(page, 'dashboard-overview-desktop');
    await page.setViewportSize(PHONE);
    await expectAccessible(page, 'Overview (phone)');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'page wider than a 360 px screen').to.be.at.most(0);
    await screenshot(page, 'dashboard-overview-phone');
    await close();
  });

  it('when a third-party key is created in Settings > External Service Settings, then it reads endpoint 7, and once revoked there it is refused within 1 s', async () => {
    const { page, close } = await signInWithSecretKey(browser, game.secretKey);
    await openSection(page, 'Settings');
    await expect(page.getByRole('heading', { name: 'External Service Settings' }).count()).to.not.equal(undefined);
    await page.getByLabel('Name').fill('Discord <bot>');
    await page.getByRole('button', { name: 'Create key' }).click();
    const apiKey = (await page.locator('#new-api-key').textContent())!;
    expect(apiKey).to.match(/^tpk_/);
    const read = () => api().get(`/api/v1/third_party/leaderboards/${board}`).set({ 'Api-Key': apiKey });
    expect((await read()).status).to.equal(200);
    // The list shows it (name as text), and after a reload the key itself is nowhere on the page.
    await page.goto(dashboardUrl('/settings'));
    expect(await page.content()).to.not.include(apiKey);
    const row = page.locator('tr', { hasText: 'Discord <bot>' });
    await expectAccessible(page, 'Settings (desktop)');
    await screenshot(page, 'dashboard-settings-desktop');
    await page.setViewportSize(PHONE);
    await expectAccessible(page, 'Settings (phone)');
    await screenshot(page, 'dashboard-settings-phone');
    await page.setViewportSize(DESKTOP);
    // By keyboard: the "Revoke" button opens the question with the focus on "Cancel"; Escape closes it unchanged.
    await row.getByRole('button', { name: 'Revoke', exact: true }).focus();
    await page.keyboard.press('Enter');
    const question = row.getByRole('dialog', { name: /^Revoke this key\?/ });
    await question.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Cancel');
    await expectAccessible(page, 'the question before a revocation');
    await page.keyboard.press('Escape');
    await question.waitFor({ state: 'hidden' });
    expect((await read()).status, 'still works after Escape').to.equal(200);
    await row.getByRole('button', { name: 'Revoke', exact: true }).click();
    await question.getByRole('button', { name: 'Yes, revoke the key' }).click();
    await page.waitForURL(/\/dashboard\/settings\?done=revoked$/);
    const revokedAt = Date.now();
    let status = 200;
    while (status !== 401 && Date.now() - revokedAt < 1000) status = (await read()).status;
    expect(status, 'refused within 1 s of the revocation').to.equal(401);
    expect(await page.locator('tr', { hasText: 'Discord <bot>' }).locator('td').nth(3).textContent()).to.match(/^Revoked \d{4}-/);
    const trail = await auditTrail(game);
    expect(trail.slice(0, 2)).to.deep.equal(['third_party_key.revoke by dashboard', 'third_party_key.create by dashboard']);
    // The dashboard's own Audit log shows the same, newest first.
    await openSection(page, 'Audit log');
    expect((await auditLogPage(page)).slice(0, 2)).to.deep.equal(['third_party_key.revoke', 'third_party_key.create']);
    await close();
  });

  it('when the secret key is rotated in Settings, then the new key is shown once, this session goes on, and every other session and the old key are refused', async () => {
    const other = await signInWithSecretKey(browser, game.secretKey);
    const { page, close } = await signInWithSecretKey(browser, game.secretKey);
    const oldKey = game.secretKey;
    await openSection(page, 'Settings');
    await page.getByRole('button', { name: 'Rotate secret key', exact: true }).click();
    await page.getByRole('button', { name: 'Yes, rotate the secret key' }).click();
    const newKey = (await page.locator('#new-secret-key').textContent())!;
    expect(newKey).to.match(/^sk_/).and.not.equal(oldKey);
    game.secretKey = newKey;
    expect((await api().get('/api/v1/server/leaderboards').set({ 'Secret-Key': oldKey })).status).to.equal(401);
    expect((await api().get('/api/v1/server/leaderboards').set({ 'Secret-Key': newKey })).status).to.equal(200);
    // This session is still signed in…
    await openSection(page, 'Overview');
    expect(new URL(page.url()).pathname).to.equal('/dashboard/overview');
    // …the other one is not.
    await other.page.goto(dashboardUrl('/overview'));
    expect(new URL(other.page.url()).pathname).to.equal('/dashboard/sign-in');
    const trail = await auditTrail(game);
    expect(trail[0]).to.equal('game.rotate_secret_key by dashboard');
    expect(trail).to.include('dashboard.sign_in by dashboard');
    // The dashboard's own Audit log shows it first.
    await openSection(page, 'Audit log');
    expect((await auditLogPage(page))[0]).to.equal('game.rotate_secret_key');
    await Promise.all([close(), other.close()]);
  });
  it('when a webhook is added in Settings > Webhooks, then its secret shows once, a test event shows in its deliveries, and it can be turned off and deleted', async () => {
    const own = await createGame(`Webhook game ${Date.now()}`);
    const ownBoard = await createLeaderboard(own, { name: 'Cup' });
    const { page, close } = await signInWithSecretKey(browser, own.secretKey);
    await openSection(page, 'Settings');
    await page.getByLabel('URL').fill('https://hooks.example.com/events?token=abc');
    await page.getByLabel('player.overtaken').uncheck();
    await page.getByLabel('Leaderboards (ids, separated by commas; empty for all)').fill(ownBoard);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const secret = (await page.locator('#new-webhook-secret').textContent())!;
    expect(secret).to.match(/^whsec_/);
    const listed = await api().get('/api/v1/server/webhooks').set(secretKey(own)).expect(200);
    expect(listed.body.webhooks).to.have.length(1);
    const [webhook] = listed.body.webhooks;
    expect(webhook).to.include({ url: 'https://hooks.example.com/events?token=abc', enabled: true });
    expect(webhook.leaderboard_ids).to.deep.equal([ownBoard]);
    expect(webhook.events).to.deep.equal(['season.ended', 'leaderboard.closed', 'player.moved', 'score.held']);
    // After a reload the secret is nowhere on the page, nor the URL's query.
    await page.goto(dashboardUrl('/settings'));
    expect(await page.content())
      .to.not.include(secret)
      .and.not.include('token=abc');
    const row = page.locator('tr', { hasText: 'https://hooks.example.com/events' });
    await expectAccessible(page, 'Settings with a webhook');

    await row.getByRole('button', { name: 'Send test' }).click();
    await page.waitForURL(/done=webhook-test/);
    await row.getByRole('link', { name: `Deliveries of ${webhook.webhook_id}` }).click();
    await page.getByRole('heading', { name: /^Deliveries to/ }).waitFor();
    const cells = await page.locator('table tbody tr').first().locator('td').allTextContents();
    expect(cells.slice(2, 4)).to.deep.equal(['webhook.test', '1']);
    // No worker runs in this suite: the attempt waits (one that ran would fail, the host being fictional).
    expect(cells[4]).to.be.oneOf(['pending', 'failed']);
    await expectAccessible(page, 'a webhook’s deliveries');
    // The attempt still waits: "Redeliver" sends that one now rather than adding a second.
    const attempts = await page.locator('table tbody tr').count();
    await page
      .getByRole('button', { name: /^Send event msg_/ })
      .first()
      .click();
    await page.waitForURL(/done=redelivered/);
    expect(await page.getByRole('status').textContent()).to.equal('The event is queued to be sent again.');
    expect(await page.locator('table tbody tr').count()).to.equal(attempts);

    await page.goto(dashboardUrl('/settings'));
    await row.getByRole('button', { name: 'Turn off' }).click();
    await page.waitForURL(/done=webhook-disable/);
    expect(await row.locator('td').nth(3).textContent()).to.equal('Off');
    await row.getByRole('button', { name: `Delete webhook ${webhook.webhook_id}` }).click();
    await row.getByRole('button', { name: 'Yes, delete the webhook' }).click();
    await page.waitForURL(/done=webhook-delete/);
    expect(await page.locator('tr', { hasText: 'https://hooks.example.com/events' }).count()).to.equal(0);
    const trail = await auditTrail(own);
    expect(trail.slice(0, 3)).to.deep.equal(['webhook.delete by dashboard', 'webhook.update by dashboard', 'webhook.create by dashboard']);
    await close();
  });
});
