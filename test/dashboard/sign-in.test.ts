import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { api } from '../helpers/context.js';
import { ADMIN, createGame, secretKey, type TestGame } from '../helpers/fixtures.js';
import { launchBrowser, PHONE } from '../helpers/browser.js';
import { openPage } from '../browser/support.js';
import { ADMIN_TOKEN, dashboardUrl, expectAccessible, signInAsAdmin, signInWithSecretKey } from './support.js';

describe('The dashboard in Chromium: signing in and out', function () {
  this.timeout(120_000);
  let browser: Browser;
  let game: TestGame;
  const gameName = `Sign-in game ${Date.now()}`;

  before(async function () {
    this.timeout(15 * 60_000);
    browser = await launchBrowser();
    game = await createGame(gameName);
  });

  after(async () => {
    await browser?.close();
  });

  it('when the game’s secret key is entered, then the Overview of that game opens with the six sections', async () => {
    const { page, close, problems } = await signInWithSecretKey(browser, game.secretKey);
    expect(await page.locator('.game-name').textContent()).to.equal(gameName);
    const links = await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link').allTextContents();
    expect(links).to.deep.equal(['Overview', 'Leaderboards', 'Players', 'Review', 'Audit log', 'Settings']);
    expect(problems).to.deep.equal([]);
    await close();
  });

  it('when a wrong key is entered, then the sign-in page says so and nothing opens', async () => {
    const { page, close } = await openPage(browser, dashboardUrl('/sign-in'), PHONE);
    await page.getByLabel('Secret key').fill('sk_not-a-real-key');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    expect(await page.getByRole('alert').textContent()).to.match(/^Invalid secret key/);
    await page.goto(dashboardUrl('/overview'));
    expect(new URL(page.url()).pathname).to.equal('/dashboard/sign-in');
    await expectAccessible(page, 'the sign-in page with an error');
    await close();
  });

  it('when the admin token is entered in the secret key field, then the game picker opens; with both fields empty, the page says what to enter', async () => {
    const { page, close } = await openPage(browser, dashboardUrl('/sign-in'), PHONE);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    expect(await page.getByRole('alert').textContent()).to.match(/Enter the game's secret key/);
    await page.getByLabel('Secret key').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/dashboard\/games$/);
    expect(await page.getByRole('button', { name: 'Create game', exact: true }).count()).to.equal(1);
    await close();
  });

  it('when the admin token is entered, then the games are listed, one opens, and a new game can be created', async () => {
    const { page, close } = await signInAsAdmin(browser, gameName);
    expect(await page.locator('.game-name').textContent()).to.equal(gameName);
    await page.getByRole('link', { name: 'Games' }).click();
    await expectAccessible(page, 'the game picker');
    const name = `Created in the dashboard ${Date.now()}`;
    await page.getByLabel('Name').fill(name);
    await page.getByRole('button', { name: 'Create game' }).click();
    const created = (await page.locator('#new-secret-key').textContent())!;
    // The key shown once works against the API.
    const res = await api().get('/api/v1/server/leaderboards').set({ 'Secret-Key': created });
    expect(res.status).to.equal(200);
    await close();
  });

  it('when "Sign out" is pressed, then the session is over: its pages send back to sign-in', async () => {
    const { page, close } = await signInWithSecretKey(browser, game.secretKey);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/dashboard\/sign-in$/);
    await page.goto(dashboardUrl('/settings'));
    expect(new URL(page.url()).pathname).to.equal('/dashboard/sign-in');
    await close();
  });

  it('when the secret key is rotated through the API, then a session signed in with the old key ends', async () => {
    const { page, close } = await signInWithSecretKey(browser, game.secretKey);
    const res = await api().post(`/api/v1/admin/games/${game.gameId}/secret_key`).set(ADMIN);
    expect(res.status).to.equal(200);
    game.secretKey = res.body.secret_key;
    await page.goto(dashboardUrl('/overview'));
    expect(new URL(page.url()).pathname).to.equal('/dashboard/sign-in');
    expect(secretKey(game)['Secret-Key']).to.equal(game.secretKey);
    await close();
  });
});
