import { AxeBuilder } from '@axe-core/playwright';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { testUrl } from '../helpers/context.js';
import { ADMIN } from '../helpers/fixtures.js';
import { DESKTOP } from '../helpers/browser.js';
import { openPage, type Observed } from '../browser/support.js';

/** The dashboard's tests share these: URLs, signing in (in Chromium and over HTTP), and the axe check. */
export const ADMIN_TOKEN = ADMIN.Authorization.replace('Bearer ', '');

export function dashboardUrl(path = ''): string {
  return new URL(`/dashboard${path}`, testUrl()).toString();
}

/** Signs in with a game's secret key in a fresh browser context; the page is on the Overview. */
export async function signInWithSecretKey(browser: Browser, secretKey: string, viewport = DESKTOP): Promise<Observed> {
  const observed = await openPage(browser, dashboardUrl('/sign-in'), viewport);
  await observed.page.getByLabel('Secret key').fill(secretKey);
  await observed.page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await observed.page.waitForURL(/\/dashboard\/overview$/);
  return observed;
}

/** Signs in with the admin token and opens a game by its name from the picker. */
export async function signInAsAdmin(browser: Browser, gameName?: string, viewport = DESKTOP): Promise<Observed> {
  const observed = await openPage(browser, dashboardUrl('/sign-in'), viewport);
  const { page } = observed;
  await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(/\/dashboard\/games$/);
  if (gameName !== undefined) {
    const open = page.getByRole('button', { name: `Open ${gameName}`, exact: true });
    // The picker pages oldest first, 50 at a time.
    while ((await open.count()) === 0) await page.getByRole('link', { name: 'Next page', exact: true }).click();
    await open.click();
    await page.waitForURL(/\/dashboard\/overview$/);
  }
  return observed;
}

/** Opens a section by its navigation link, as a person would. */
export async function openSection(
  page: Page,
  name: 'Overview' | 'Leaderboards' | 'Players' | 'Review' | 'Audit log' | 'Settings',
): Promise<void> {
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true }).click();
  await page.waitForLoadState();
}

/** axe-core on the page as it stands: no serious or critical violation. */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => String(n.target)).join(', ')}`),
    `axe on ${where}`,
  ).to.deep.equal([]);
  // axe no longer checks this: a repeated id sends a label, a popover button or a link to the wrong element.
  const repeatedIds = await page.$$eval('[id]', (elements) => {
    const ids = elements.map((element) => element.id);
    return ids.filter((id, at) => ids.indexOf(id) !== at);
  });
  expect(repeatedIds, `ids used twice on ${where}`).to.deep.equal([]);
}

/** A dashboard session over plain HTTP: its cookie jar, and the CSRF token of the last page read. */
export interface HttpSession {
  agent: ReturnType<typeof request.agent>;
  /** The CSRF token of the last page read (read another page to refresh it). */
  csrf: string;
  /** GETs a dashboard page and keeps its form token. */
  page(path: string): Promise<request.Response>;
  /** Posts a form with this session's token (or the one given: '' sends none). */
  post(path: string, fields?: Record<string, string>, csrf?: string): Promise<request.Response>;
}

export function csrfOf(html: string): string | undefined {
  return /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
}

/** A new HTTP session signed in with a secret key, or (admin) with the admin token. */
export async function httpSession(credential: { secretKey: string } | { admin: true }): Promise<HttpSession> {
  const agent = request.agent(testUrl());
  const session: HttpSession = {
    agent,
    csrf: '',
    async page(path) {
      const res = await agent.get(`/dashboard${path}`);
      session.csrf = csrfOf(res.text) ?? session.csrf;
      return res;
    },
    async post(path, fields = {}, csrf = session.csrf) {
      const form = csrf === '' ? fields : { ...fields, _csrf: csrf };
      const res = await agent.post(`/dashboard${path}`).type('form').send(form);
      session.csrf = csrfOf(res.text) ?? session.csrf;
      return res;
    },
  };
  await session.page('/sign-in');
  const fields: Record<string, string> = 'secretKey' in credential ? { secret_key: credential.secretKey } : { admin_token: ADMIN_TOKEN };
  const res = await session.post('/sign-in', fields);
  expect(res.status, `sign-in: ${res.text.slice(0, 300)}`).to.equal(303);
  return session;
}

/** A signed-in session as raw headers: its Cookie header and the CSRF token its forms carry. */
export async function sessionHeaders(secretKey: string): Promise<{ cookie: string; csrf: string }> {
  const jar = new Map<string, string>();
  const keep = (res: request.Response) => {
    for (const line of (res.headers['set-cookie'] as unknown as string[] | undefined) ?? []) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const signIn = await request(testUrl()).get('/dashboard/sign-in');
  keep(signIn);
  const res = await request(testUrl())
    .post('/dashboard/sign-in')
    .set('Cookie', cookie())
    .type('form')
    .send({ secret_key: secretKey, _csrf: csrfOf(signIn.text) });
  expect(res.status, `sign-in: ${res.text.slice(0, 200)}`).to.equal(303);
  keep(res);
  const page = await request(testUrl()).get('/dashboard/overview').set('Cookie', cookie());
  keep(page);
  return { cookie: cookie(), csrf: csrfOf(page.text)! };
}
