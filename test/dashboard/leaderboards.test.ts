import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { api } from '../helpers/context.js';
import {
  createGame,
  createLeaderboard,
  namedPlayer,
  reportScores,
  scoredPlayers,
  secretKey,
  signup,
  uniqueId,
  type TestGame,
} from '../helpers/fixtures.js';
import { DESKTOP, launchBrowser, PHONE, screenshot } from '../helpers/browser.js';
import { dashboardUrl, expectAccessible, openSection, signInWithSecretKey } from './support.js';

interface AuditEntry {
  actor: string;
  action: string;
  target: string;
}

async function boardFromApi(game: TestGame, id: string): Promise<Record<string, unknown> | undefined> {
  const res = await api().get('/api/v1/server/leaderboards').query({ limit: 1000 }).set(secretKey(game)).expect(200);
  return (res.body.leaderboards as Record<string, unknown>[]).find((board) => board.leaderboard_id === id);
}

function record(game: TestGame, board: string, playerId: string, season?: number) {
  return api()
    .get(`/api/v1/client/leaderboards/${board}/players/${encodeURIComponent(playerId)}`)
    .query(season === undefined ? {} : { season })
    .set(secretKey(game));
}

/** The entries table's rows as [rank, name, score] (the first table of the "Entries" section). */
async function entryRows(page: Page): Promise<string[][]> {
  const rows = page.locator('section[aria-labelledby="entries-heading"] > .table-wrap tbody tr');
  const out: string[][] = [];
  for (const row of await rows.all()) {
    const cells = await row.locator('td').allTextContents();
    out.push([cells[0]!.trim(), (await row.locator('.lb-name').textContent())!.trim(), cells[2]!.trim(), cells[3]!.trim()]);
  }
  return out;
}

describe("The dashboard's Leaderboards section in Chromium", function () {
  this.timeout(120_000);
  let browser: Browser;
  let game: TestGame;

  before(async function () {
    this.timeout(15 * 60_000);
    browser = await launchBrowser();
    game = await createGame(`Leaderboards game ${Date.now()}`);
  });

  after(async () => {
    await browser?.close();
  });

  it('when a leaderboard is created in the form with a weekly schedule, then the API shows its settings and the audit log its creation by the dashboard', async () => {
    const { page, close, problems } = await signInWithSecretKey(browser, game.secretKey);
    await openSection(page, 'Leaderboards');
    const id = uniqueId('weekly');
    await page.getByLabel('Id', { exact: true }).fill(id);
    await page.getByLabel('Name', { exact: true }).fill('Weekly race');
    await page.getByLabel('Order').selectOption('asc');
    await page.getByLabel('Strategy').selectOption('latest');
    await page.getByLabel('Minimum score').fill('0');
    await page.getByLabel('Maximum score').fill('5000');
    await page.getByLabel('Client reports').uncheck();
    await page.getByLabel('Reset schedule').selectOption('weekly');
    await page.getByLabel('Time zone').fill('Europe/Paris');
    await page.getByLabel('Archived seasons kept').fill('10');
    await page.getByRole('button', { name: 'Create leaderboard' }).click();
    await page.waitForURL(new RegExp(`/dashboard/leaderboards/${id}\\?done=created$`));
    expect(await page.getByRole('status').textContent()).to.equal('Leaderboard created.');

    const board = await boardFromApi(game, id);
    expect(board).to.deep.include({
      name: 'Weekly race',
      type: 'individual',
      sort_order: 'asc',
      update_strategy: 'latest',
      client_reports: false,
      min_score: 0,
      max_score: 5000,
      reset_schedule: { cron: '0 0 * * 1', timezone: 'Europe/Paris' },
      keep_seasons: 10,
    });
    expect(board!.next_reset_at).to.be.a('string');

    // The edit form shows every setting back; a change is saved.
    expect(await page.getByLabel('Reset schedule').inputValue()).to.equal('weekly');
    await page.getByLabel('Name', { exact: true }).fill('Weekly race, renamed');
    await page.getByLabel('Maximum score').fill('');
    await page.getByLabel('Reset schedule').selectOption('custom');
    await page.getByLabel('Custom cron expression').fill('30 6 * * 0');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.waitForURL(/\?done=updated$/);
    expect(await boardFromApi(game, id)).to.deep.include({
      name: 'Weekly race, renamed',
      max_score: null,
      min_score: 0,
      client_reports: false,
      reset_schedule: { cron: '30 6 * * 0', timezone: 'Europe/Paris' },
    });

    const audit = await api().get('/api/v1/server/audit_log').set(secretKey(game)).expect(200);
    const mine = (audit.body.entries as AuditEntry[]).filter((entry) => entry.actor === 'dashboard').map((entry) => entry.action);
    expect(mine).to.include('leaderboard.create');
    expect(problems).to.deep.equal([]);
    await close();
  });

  it('when a leaderboard is created in the form with a window, then the API shows it, the board says whether it is open, and the form shows it back', async () => {
    const { page, close, problems } = await signInWithSecretKey(browser, game.secretKey);
    await openSection(page, 'Leaderboards');
    const id = uniqueId('cup');
    const opens = new Date(Date.now() - 3_600_000).toISOString().slice(0, 19);
    const closes = new Date(Date.now() + 3_600_000).toISOString().slice(0, 19);
    await page.getByLabel('Id', { exact: true }).fill(id);
    await page.getByLabel('Opens at (UTC)').fill(opens);
    await page.getByLabel('Closes at (UTC)').fill(closes);
    await page.getByLabel("Listed: players find it in the game's competitions list").check();
    await page.getByRole('button', { name: 'Create leaderboard' }).click();
    await page.waitForURL(new RegExp(`/dashboard/leaderboards/${id}\\?done=created$`));
    expect(await boardFromApi(game, id)).to.deep.include({
      opens_at: `${opens}.000Z`,
      closes_at: `${closes}.000Z`,
      state: 'open',
      listed: true,
    });
    expect(await page.locator('dl.lb-facts').textContent()).to.include(`Open: from ${opens.replace('T', ' ').slice(0, 16)} UTC`);
    // The browser shows whole minutes without their :00.
    expect(new Date(`${await page.getByLabel('Closes at (UTC)').inputValue()}Z`).getTime()).to.equal(new Date(`${closes}Z`).getTime());
    // Closed now: the page says so, and the season's window can no longer change.
    const closed = new Date(Date.now() - 60_000).toISOString().slice(0, 19);
    await page.getByLabel('Closes at (UTC)').fill(closed);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.waitForURL(/\?done=updated$/);
    expect(await page.locator('dl.lb-facts').textContent()).to.include('Closed (final until the next reset)');
    await page.getByLabel('Closes at (UTC)').fill(closes);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('window has closed').waitFor();
    expect((await boardFromApi(game, id))?.closes_at).to.equal(`${closed}.000Z`);
    await expectAccessible(page, 'a leaderboard with a closed window');
    // The refused change answers 409, which the browser reports; nothing else went wrong.
    expect(problems.filter((p) => !/status of 409/.test(p))).to.deep.equal([]);
    await close();
  });

  it('when a scheduled leaderboard is created in the form open an hour after each reset, then the API shows it and the board says until when', async () => {
    const { page, close, problems } = await signInWithSecretKey(browser, game.secretKey);
    await openSection(page, 'Leaderboards');
    const id = uniqueId('daily');
    await page.getByLabel('Id', { exact: true }).fill(id);
    await page.getByLabel('Reset schedule: a new season starts').selectOption('daily');
    await page.getByLabel('Open for (seconds after each reset; empty: the whole season)').fill('3600');
    await page.getByRole('button', { name: 'Create leaderboard' }).click();
    await page.waitForURL(new RegExp(`/dashboard/leaderboards/${id}\\?done=created$`));
    const board = await boardFromApi(game, id);
    expect(board).to.deep.include({ open_seconds: 3600, state: 'open' });
    expect(await page.locator('dl.lb-facts').textContent()).to.include(
      `until ${String(board!.closes_at).replace('T', ' ').slice(0, 16)} UTC`,
    );
    expect(await page.getByLabel('Open for (seconds after each reset; empty: the whole season)').inputValue()).to.equal('3600');
    expect(problems).to.deep.equal([]);
    await close();
  });

  it('when a leaderboard is created in the form with entry required, a seat limit and attempts, then the API shows them and the board counts its players', async () => {
    const { page, close, problems } = await signInWithSecretKey(browser, game.secretKey);
    await openSection(page, 'Leaderboards');
    const id = uniqueId('cup');
    await page.getByLabel('Id', { exact: true }).fill(id);
    await page.getByLabel('Entry required: players enter before reporting').check();
    await page.getByLabel('Most players (empty: no limit)').fill('64');
    await page.getByLabel('Attempts per player (empty: no limit)').fill('3');
    await page.getByRole('button', { name: 'Create leaderboard' }).click();
    await page.waitForURL(new RegExp(`/dashboard/leaderboards/${id}\\?done=created$`));
    expect(await boardFromApi(game, id)).to.deep.include({ join_required: true, max_players: 64, max_attempts: 3 });
    const player = await signup(game);
    await api().put(`/api/v1/server/leaderboards/${id}/entries/${player.playerId}`).set(secretKey(game)).expect(200);
    await page.reload();
    expect(await page.locator('dl.lb-facts').textContent()).to.include('1 of 64, entry required, 3 attempts each');
    expect(await page.getByLabel('Most players (empty: no limit)').inputValue()).to.equal('64');
    // Cleared in the form: no limit.
    await page.getByLabel('Most players (empty: no limit)').fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.waitForURL(/\?done=updated$/);
    expect(await boardFromApi(game, id)).to.deep.include({ join_required: true, max_players: null, max_attempts: 3 });
    await expectAccessible(page, 'a leaderboard with entries');
    expect(problems).to.deep.equal([]);
    await close();
  });

  it('when review rules are set in the form, then the API shows them, the form shows them back, and emptied they are gone', async () => {
    const { page, close, problems } = await signInWithSecretKey(browser, game.secretKey);
    await openSection(page, 'Leaderboards');
    const id = uniqueId('held');
    const [above, gain, factor] = [
      page.getByLabel('Hold client scores above'),
      page.getByLabel('Hold gains per second above'),
      page.getByLabel('Hold scores beyond the leader by a factor of'),
    ];
    await page.getByLabel('Id', { exact: true }).fill(id);
    await above.fill('5000');
    await factor.fill('1.5');
    await page.getByRole('button', { name: 'Create leaderboard' }).click();
    await page.waitForURL(new RegExp(`/dashboard/leaderboards/${id}\\?done=created$`));
    expect((await boardFromApi(game, id))?.review).to.deep.equal({ above: 5000, max_gain_per_second: null, outlier_factor: 1.5 });
    expect([await above.inputValue(), await gain.inputValue(), await factor.inputValue()]).to.deep.equal(['5000', '', '1.5']);

    await gain.fill('0.25');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.waitForURL(/\?done=updated$/);
    expect((await boardFromApi(game, id))?.review).to.deep.equal({ above: 5000, max_gain_per_second: 0.25, outlier_factor: 1.5 });

    // A factor must be above 0: refused, and the rules stay.
    await factor.fill('0');
    await page.getByRole('button', { name: 'Save settings' }).click();
    expect(await page.locator('h1').textContent()).to.equal('That did not work');
    expect(await page.locator('main').textContent()).to.include('review_outlier_factor');
    expect((await boardFromApi(game, id))?.review).to.deep.equal({ above: 5000, max_gain_per_second: 0.25, outlier_factor: 1.5 });

    // All three emptied: no review.
    await page.goto(dashboardUrl(`/leaderboards/${id}`));
    for (const field of [above, gain, factor]) await field.fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.waitForURL(/\?done=updated$/);
    expect((await boardFromApi(game, id))?.review).to.equal(null);
    // Chromium logs the error page's 400 answer as a console error: only other problems count.
    expect(problems.filter((p) => !/status of 400/.test(p))).to.deep.equal([]);
    await close();
  });

  it('when league groups are set in the form and players report, then the API shows them and the board lists its groups', async () => {
    const { page, close, problems } = await signInWithSecretKey(browser, game.secretKey);
    await openSection(page, 'Leaderboards');
    const id = uniqueId('league');
    const league = { size: 5, tiers: ['bronze', 'silver'], promote: 1, relegate: 1 };
    await page.getByLabel('Id', { exact: true }).fill(id);
    await page.getByLabel('League groups (JSON; empty: none)').fill(JSON.stringify(league));
    await page.getByLabel('Rewards follow').selectOption('group_rank');
    await page.getByRole('button', { name: 'Create leaderboard' }).click();
    await page.waitForURL(new RegExp(`/dashboard/leaderboards/${id}\\?done=created$`));
    expect((await boardFromApi(game, id))?.groups).to.deep.equal(league);
    expect((await boardFromApi(game, id))?.rewards_by).to.equal('group_rank');
    expect(await page.getByLabel('Rewards follow').inputValue()).to.equal('group_rank');
    await scoredPlayers(game, id, [1, 2, 3, 4, 5, 6]);
    await page.reload();
    const card = page.getByRole('region', { name: /Groups in season 1: 2/ });
    const rows = (await card.getByRole('row').allTextContents()).map((row) => row.replace(/\s+/g, ' ').trim());
    expect(rows).to.deep.equal(['GroupTierPlayers', '1 bronze 5 of 5', '2 bronze 1 of 5']);
    // A bad value is refused with its reason, and nothing changes.
    await page.getByLabel('League groups (JSON; empty: none)').fill('{"size": 2}');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('groups:').first().waitFor();
    expect((await boardFromApi(game, id))?.groups).to.deep.equal(league);
    await expectAccessible(page, 'a league board');
    expect(problems.filter((p) => !/status of 400/.test(p))).to.deep.equal([]);
    await close();
  });

  it('when rewards are set in the form and a player claims one, then the API shows the bands and the board lists the claim', async () => {
    const { page, close, problems } = await signInWithSecretKey(browser, game.secretKey);
    await openSection(page, 'Leaderboards');
    const id = uniqueId('prize');
    const bands = [{ rank_from: 1, rank_to: 3, reward: { coins: 500 } }];
    await page.getByLabel('Id', { exact: true }).fill(id);
    await page.getByLabel('Rewards (JSON; empty: none)').fill(JSON.stringify(bands));
    await page.getByRole('button', { name: 'Create leaderboard' }).click();
    await page.waitForURL(new RegExp(`/dashboard/leaderboards/${id}\\?done=created$`));
    expect((await boardFromApi(game, id))?.rewards).to.deep.equal(bands);
    expect(await page.getByRole('heading', { name: 'Rewards claimed in season 1: 0' }).count()).to.equal(1);

    const winner = await namedPlayer(game, 'Winner');
    await api()
      .post(`/api/v1/client/leaderboards/${id}/report_score`)
      .set('Publishable-Key', game.publishableKey)
      .set('Anonymous-Authorization', winner.token)
      .send({ score: 70 })
      .expect(200);
    await api()
      .put(`/api/v1/server/leaderboards/${id}`)
      .set(secretKey(game))
      .send({ closes_at: new Date(Date.now() - 1).toISOString() })
      .expect(200);
    await api().post(`/api/v1/server/leaderboards/${id}/seasons/1/claims/${winner.playerId}`).set(secretKey(game)).expect(200);
    await page.reload();
    expect(await page.getByRole('heading', { name: 'Rewards claimed in season 1: 1' }).count()).to.equal(1);
    const row = (await page.locator('section[aria-labelledby="claims-heading"] tbody tr td').allTextContents()).map((text) => text.trim());
    expect(row.slice(0, 3)).to.deep.equal(['1', `Winner ${winner.playerId}`, '{"coins":500}']);
    // Bad JSON in the form: refused with a message, nothing changed.
    await page.getByLabel('Rewards (JSON; empty: none)').fill('[{"rank_from": 1');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('must be a JSON array of bands').waitFor();
    expect((await boardFromApi(game, id))?.rewards).to.deep.equal(bands);
    await expectAccessible(page, 'a leaderboard with rewards claimed');
    expect(problems.filter((p) => !/status of 400/.test(p))).to.deep.equal([]);
    await close();
  });

  it('when a leaderboard is created in the form with earliest ties and two tiebreakers, then the API shows them and its entries table has a column for each', async () => {
    const { page, close, problems } = await signInWithSecretKey(browser, game.secretKey);
    await openSection(page, 'Leaderboards');
    const id = uniqueId('trial');
    await page.getByLabel('Id', { exact: true }).fill(id);
    await page.getByLabel('Equal scores').selectOption('earliest');
    await page.getByLabel('Tiebreaker 1 name').fill('time_left');
    await page.getByLabel('Tiebreaker 2 name').fill('crashes');
    await page.getByLabel('Tiebreaker 2 direction').selectOption('asc');
    await page.getByRole('button', { name: 'Create leaderboard' }).click();
    await page.waitForURL(new RegExp(`/dashboard/leaderboards/${id}\\?done=created$`));
    expect(await boardFromApi(game, id)).to.deep.include({
      tie_break: 'earliest',
      tiebreakers: [
        { name: 'time_left', sort_order: 'desc' },
        { name: 'crashes', sort_order: 'asc' },
      ],
    });

    const [ada, bo] = await Promise.all(['Ada', 'Bo'].map((name) => namedPlayer(game, name)));
    for (const [player, tiebreakers] of [
      [ada!, [10, 1]],
      [bo!, [10, 0]],
    ] as const) {
      await api()
        .post(`/api/v1/client/leaderboards/${id}/report_score`)
        .set('Publishable-Key', game.publishableKey)
        .set('Anonymous-Authorization', player.token)
        .send({ score: 70, tiebreakers })
        .expect(200);
    }
    await page.reload();
    const table = page.locator('section[aria-labelledby="entries-heading"] > .table-wrap table');
    const headings = (await table.locator('thead th').allTextContents()).map((text) => text.trim());
    expect(headings.slice(0, 6)).to.deep.equal(['Rank', 'Name', 'Score', 'time_left', 'crashes', 'Reached']);
    const rows = await table.locator('tbody tr').all();
    const shown = await Promise.all(
      rows.map(async (row) => (await row.locator('td').allTextContents()).slice(0, 5).map((cell) => cell.trim())),
    );
    expect(shown.map(([rank, , score, timeLeft, crashes]) => [rank, score, timeLeft, crashes])).to.deep.equal([
      ['1', '70', '10', '0'],
      ['2', '70', '10', '1'],
    ]);
    // The edit form shows the settings back, and the ties cannot change now the board has scores.
    expect(await page.getByLabel('Equal scores').inputValue()).to.equal('earliest');
    expect(await page.getByLabel('Tiebreaker 2 name').inputValue()).to.equal('crashes');
    await expectAccessible(page, 'a leaderboard with tiebreakers');
    expect(problems).to.deep.equal([]);
    await close();
  });

  it('when reported scores are listed, searched, removed and the season reset in the UI, then the API reads and the audit log agree', async () => {
    const board = await createLeaderboard(game, { name: 'Kills' });
    const [ada, bob, cyd] = [
      await namedPlayer(game, 'Ada Lovelace'),
      await namedPlayer(game, 'Bob Marley'),
      await namedPlayer(game, 'Cyd Charisse'),
    ];
    await reportScores(game, board, [
      [ada!, 300],
      [bob!, 200],
      [cyd!, 100],
    ]);
    await api()
      .post('/api/v1/server/report_scores')
      .set(secretKey(game))
      .send({ player_id: ada!.playerId, leaderboard_ids: [board], scores: [310], metadata: [{ car: 'red' }] })
      .expect(200);

    const { page, close, problems } = await signInWithSecretKey(browser, game.secretKey);
    await openSection(page, 'Leaderboards');
    await page.getByRole('link', { name: 'Kills', exact: true }).click();
    await page.waitForURL(new RegExp(`/dashboard/leaderboards/${board}$`));
    expect(await entryRows(page)).to.deep.equal([
      ['1', 'Ada Lovelace', '310', '{"car":"red"}'],
      ['2', 'Bob Marley', '200', '—'],
      ['3', 'Cyd Charisse', '100', '—'],
    ]);

    // Find a player by the start of their name, then by their id.
    await page.getByLabel('Find a player').fill('bob');
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    const found = page.getByRole('region', { name: 'Players found' });
    expect(await found.locator('tbody tr .lb-name').allTextContents()).to.deep.equal(['Bob Marley']);
    expect((await found.locator('tbody tr td').first().textContent())!.trim()).to.equal('2');
    await page.getByLabel('Find a player').fill(cyd!.playerId);
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    expect(await page.getByRole('region', { name: 'Players found' }).locator('tbody tr .lb-name').allTextContents()).to.deep.equal([
      'Cyd Charisse',
    ]);

    // Remove Bob's score: asked first, then gone from the API's reads; Cyd moves up.
    await page.goto(dashboardUrl(`/leaderboards/${board}`));
    await page.getByRole('button', { name: 'Remove score of Bob Marley', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, remove the score' }).click();
    await page.waitForURL(/\?done=removed$/);
    expect(await page.getByRole('status').textContent()).to.equal('Score removed.');
    expect((await entryRows(page)).map((row) => row.slice(0, 3))).to.deep.equal([
      ['1', 'Ada Lovelace', '310'],
      ['2', 'Cyd Charisse', '100'],
    ]);
    expect((await record(game, board, bob!.playerId)).status).to.equal(404);
    expect((await record(game, board, cyd!.playerId).expect(200)).body.rank).to.equal(2);

    // Reset the season: the current one starts empty, season 1 reads as it stood, in the UI and the API.
    await page.getByRole('button', { name: 'Reset season', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, end season 1' }).click();
    await page.waitForURL(/\?done=reset$/);
    expect(await page.getByRole('heading', { name: /^Entries: Season 2 \(current\)$/ }).count()).to.equal(1);
    expect(await entryRows(page)).to.deep.equal([]);
    await page.getByRole('link', { name: 'View season 1' }).click();
    await page.waitForURL(/\?season=1$/);
    expect(await page.getByRole('heading', { name: /Season 1 \(archived\)/ }).count()).to.equal(1);
    expect((await entryRows(page)).map((row) => row.slice(0, 3))).to.deep.equal([
      ['1', 'Ada Lovelace', '310'],
      ['2', 'Cyd Charisse', '100'],
    ]);
    // Archived: read-only.
    expect(await page.getByText(/^Remove score of/).count()).to.equal(0);
    const archived = await record(game, board, ada!.playerId, 1).expect(200);
    expect(archived.body).to.deep.include({ score: 310, rank: 1 });
    expect((await record(game, board, ada!.playerId)).status).to.equal(404);
    const seasons = await api().get(`/api/v1/server/leaderboards/${board}/seasons`).set(secretKey(game)).expect(200);
    expect(seasons.body.current_season).to.equal(2);
    expect(seasons.body.seasons.map((s: { season: number; total: number }) => [s.season, s.total])).to.deep.equal([
      [2, 0],
      [1, 2],
    ]);

    const audit = await api().get('/api/v1/server/audit_log').set(secretKey(game)).expect(200);
    // This board's story: created through the API, then a score removed and the season reset in the dashboard.
    const story = (audit.body.entries as AuditEntry[])
      .filter((entry) => entry.target === board || entry.target === bob!.playerId)
      .map((entry) => `${entry.action} by ${entry.actor}`);
    expect(story).to.deep.equal(['leaderboard.reset by dashboard', 'score.remove by dashboard', 'leaderboard.create by secret_key']);
    expect(problems).to.deep.equal([]);
    await close();
  });

  it('when a board has more entries than a page, then "Next" pages on; a bad schedule or a taken id is refused; "Delete leaderboard" deletes it', async () => {
    const board = await createLeaderboard(game, { name: 'Paged' });
    await scoredPlayers(game, board, [70, 60, 50, 40, 30, 20, 10]);
    const { page, close, problems } = await signInWithSecretKey(browser, game.secretKey);
    await page.goto(dashboardUrl(`/leaderboards/${board}?limit=5`));
    expect((await entryRows(page)).map((row) => row[0])).to.deep.equal(['1', '2', '3', '4', '5']);
    expect(await page.getByRole('navigation', { name: 'Entry pages' }).textContent()).to.include('1–5 of 7');
    await page.getByRole('link', { name: 'Next page', exact: true }).click();
    expect((await entryRows(page)).map((row) => [row[0], row[2]])).to.deep.equal([
      ['6', '20'],
      ['7', '10'],
    ]);
    await page.getByRole('link', { name: 'Previous page', exact: true }).click();
    expect((await entryRows(page)).map((row) => row[0])).to.deep.equal(['1', '2', '3', '4', '5']);

    // The engine's validation, as the API's: a cron that is not one, an id already taken.
    await openSection(page, 'Leaderboards');
    await page.getByLabel('Id', { exact: true }).fill(uniqueId('badcron'));
    await page.getByLabel('Reset schedule').selectOption('custom');
    await page.getByLabel('Custom cron expression').fill('every monday');
    await page.getByRole('button', { name: 'Create leaderboard' }).click();
    expect(await page.locator('h1').textContent()).to.equal('That did not work');
    expect(await page.locator('main').textContent()).to.include('reset_schedule');
    await page.goto(dashboardUrl('/leaderboards'));
    await page.getByLabel('Id', { exact: true }).fill(board);
    await page.getByRole('button', { name: 'Create leaderboard' }).click();
    expect(await page.locator('main').textContent()).to.include('already_exists');
    expect(await boardFromApi(game, board)).to.deep.include({ name: 'Paged' });

    await page.goto(dashboardUrl(`/leaderboards/${board}`));
    await page.getByRole('button', { name: 'Delete leaderboard', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, delete the leaderboard' }).click();
    await page.waitForURL(/\/dashboard\/leaderboards\?done=deleted$/);
    expect(await boardFromApi(game, board)).to.equal(undefined);
    const audit = await api().get('/api/v1/server/audit_log').set(secretKey(game)).expect(200);
    expect((audit.body.entries as AuditEntry[]).some((e) => e.actor === 'dashboard' && e.action === 'leaderboard.delete')).to.equal(true);
    // Chromium logs the error pages' 400 and 409 answers as console errors: only other problems count.
    expect(problems.filter((p) => !/status of (400|409)/.test(p))).to.deep.equal([]);
    await close();
  });

  for (const [where, viewport] of [
    ['a desktop', DESKTOP],
    ['a 360 px phone', PHONE],
  ] as const) {
    it(`when the list and a leaderboard's page are opened on ${where}, then axe finds no serious violation and nothing overflows`, async () => {
      const board = await createLeaderboard(game, { name: `Axe board ${where}`, reset_schedule: { cron: '0 0 * * *', timezone: 'UTC' } });
      const player = await namedPlayer(game, 'Axe Player');
      await reportScores(game, board, [[player, 42]]);
      await api().post(`/api/v1/server/leaderboards/${board}/reset`).set(secretKey(game)).expect(200);
      await reportScores(game, board, [[player, 43]]);

      const { page, close, problems } = await signInWithSecretKey(browser, game.secretKey, viewport);
      await openSection(page, 'Leaderboards');
      await expectAccessible(page, `the leaderboard list on ${where}`);
      await page.goto(dashboardUrl(`/leaderboards/${board}`));
      await screenshot(page, `dashboard-leaderboard-${viewport === PHONE ? 'phone' : 'desktop'}`);
      await page.goto(dashboardUrl(`/leaderboards/${board}?search=Axe`));
      await expectAccessible(page, `a leaderboard's page with a search on ${where}`);
      await page.goto(dashboardUrl(`/leaderboards/${board}?season=1`));
      await expectAccessible(page, `an archived season on ${where}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, 'horizontal overflow of the page').to.be.at.most(0);
      expect(problems).to.deep.equal([]);
      await close();
    });
  }

  it('when a leaderboard and a player are named <script>alert(1)</script>, then both show as text and no dialog opens', async () => {
    const evil = '<script>alert(1)</script>';
    const board = await createLeaderboard(game, { name: evil });
    const player = await namedPlayer(game, evil);
    await reportScores(game, board, [[player, 7]]);
    await api()
      .post('/api/v1/server/report_scores')
      .set(secretKey(game))
      .send({ player_id: player.playerId, leaderboard_ids: [board], scores: [8], metadata: [{ note: evil }] })
      .expect(200);

    const observed = await signInWithSecretKey(browser, game.secretKey);
    const { page } = observed;
    await openSection(page, 'Leaderboards');
    expect(await page.locator('tbody td', { hasText: evil }).count()).to.be.greaterThan(0);
    await page.goto(dashboardUrl(`/leaderboards/${board}?search=${encodeURIComponent('<script>')}`));
    expect(await page.locator('h1').textContent()).to.equal(evil);
    expect(await page.locator('section[aria-labelledby="entries-heading"] > .table-wrap .lb-name').first().textContent()).to.equal(evil);
    expect(await page.locator('.lb-metadata').first().textContent()).to.equal(JSON.stringify({ note: evil }));
    // The name in the accessible name of its "Remove score" button (an attribute), as text too; the question it opens names nobody.
    await page
      .getByRole('table', { name: /^Entries of/ })
      .getByRole('button', { name: `Remove score of ${evil}`, exact: true })
      .click();
    expect(await page.getByRole('dialog').locator('p').textContent()).to.equal(
      'Remove this score from the season? The player may report again.',
    );
    expect(await page.locator('script:not([src])').count()).to.equal(0);
    expect(observed.dialogs).to.deep.equal([]);
    expect(observed.problems).to.deep.equal([]);
    await observed.close();
  });
});
