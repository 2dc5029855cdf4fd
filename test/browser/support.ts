import type { Browser, Page } from 'playwright-core';
import { api, testEngine, testUrl } from '../helpers/context.js';
import { signup, type TestGame, type TestPlayer } from '../helpers/fixtures.js';
import { PHONE } from '../helpers/browser.js';

/** Arrangements shared by the browser tests: named players, scores, clans, and an observed page. */
export async function namedPlayer(game: TestGame, name: string): Promise<TestPlayer> {
  const player = await signup(game);
  await api()
    .patch('/api/v1/client/players/me')
    .set('Publishable-Key', game.publishableKey)
    .set('Anonymous-Authorization', player.token)
    .send({ display_name: name })
    .expect(200);
  return player;
}

/** Reports each player's score through the server batch, 25 requests at a time. */
export async function reportScores(game: TestGame, leaderboardId: string, scores: [TestPlayer, number][]): Promise<void> {
  for (let i = 0; i < scores.length; i += 25) {
    await Promise.all(
      scores.slice(i, i + 25).map(([player, score]) =>
        api()
          .post('/api/v1/server/report_scores')
          .set('Secret-Key', game.secretKey)
          .send({ player_id: player.playerId, scores: [score], leaderboard_ids: [leaderboardId] })
          .expect(200),
      ),
    );
  }
}

/** Clans are set up through the engine: their server endpoints are not part of this change. */
export async function joinClan(game: TestGame, clanId: string, name: string, members: TestPlayer[]): Promise<void> {
  await testEngine().clans.put(game.gameId, clanId, name);
  for (const member of members) await testEngine().players.update(game.gameId, member.playerId, { clanId });
}

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
export async function openPage(browser: Browser, url: string, viewport = PHONE, colorScheme: 'light' | 'dark' = 'light'): Promise<Observed> {
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
