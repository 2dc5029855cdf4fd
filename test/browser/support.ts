import type { Browser, Page } from 'playwright-core';
import { testUrl } from '../helpers/context.js';
import { PHONE } from '../helpers/browser.js';

/** What the browser tests share: the page URL for a player, and an observed page. */
export function pageUrl(leaderboardId: string, token: string, extra: Record<string, string> = {}): string {
  const url = new URL(`/leaderboards/${encodeURIComponent(leaderboardId)}`, testUrl());
  url.searchParams.set('token', token);
  for (const [key, value] of Object.entries(extra)) url.searchParams.set(key, value);
  return url.toString();
}

export interface Observed {
  page: Page;
  dialogs: string[];
  problems: string[];
  requests: string[];
  close(): Promise<void>;
}

/** Opens a page in a fresh context, recording dialogs, console errors (CSP reports among them) and requests. */
export async function openPage(
  browser: Browser,
  url: string,
  viewport = PHONE,
  colorScheme: 'light' | 'dark' = 'light',
): Promise<Observed> {
  const context = await browser.newContext({ viewport, colorScheme });
  const page = await context.newPage();
  const observed: Observed = { page, dialogs: [], problems: [], requests: [], close: () => context.close() };
  page.on('dialog', (dialog) => {
    observed.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (message.type() === 'error') observed.problems.push(message.text());
  });
  page.on('pageerror', (error) => observed.problems.push(error.message));
  page.on('request', (request) => observed.requests.push(request.url()));
  await page.goto(url);
  return observed;
}

export interface ShownRow {
  id: string;
  rank: string;
  name: string;
  score: string;
  me: boolean;
}

export function shownRows(page: Page, selector = '#entries > li'): Promise<ShownRow[]> {
  return page.$$eval(selector, (items) =>
    items.map((li) => ({
      id: (li as HTMLElement).dataset.id ?? '',
      rank: li.querySelector('.rank')?.textContent ?? '',
      name: li.querySelector('.name')?.textContent ?? '',
      score: li.querySelector('.score')?.textContent ?? '',
      me: li.classList.contains('me'),
    })),
  );
}

/** Waits until every image has finished (loaded or failed) and returns their natural widths. */
export async function imageWidths(page: Page): Promise<number[]> {
  await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete));
  return page.$$eval('img', (images) => images.map((img) => (img as HTMLImageElement).naturalWidth));
}
