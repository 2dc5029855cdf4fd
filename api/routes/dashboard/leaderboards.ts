import Joi from 'joi';
import { ConflictError, NotFoundError, ValidationError } from '../../../engine/errors.js';
import type { Leaderboard, LeaderboardSettings } from '../../../engine/leaderboards/leaderboard-store.js';
import type { PlayerEntry } from '../../../engine/ranking/leaderboard-reader.js';
import type { ResetSchedule } from '../../../engine/seasons/schedule.js';
import { nextResetAt } from '../../../engine/seasons/schedule.js';
import { endpoint } from '../endpoint.js';
import { leaderboardId, name, object, oneOf, optional, playerId, playerSearch, season, updateStrategy, wholeNumber } from '../schemas.js';
import { html, type Html } from '../../html.js';
import { confirmButton, dashboardPage, dataTable, href, notice, pageReply, postForm, type Screen, screenOf, seeOther } from './view.js';
import { csrfField } from '../../middleware/dashboard-session.js';

const PAGE = 50;
const FOUND = 20;
/** `?limit=`: entries a page, 1-200 (default 50). */
const pageSize = wholeNumber(1, 200, PAGE);

/** What a change redirects with (`?done=`): fixed words, so a link cannot put any text on the page. */
const DONE = {
  created: 'Leaderboard created.',
  updated: 'Settings saved.',
  removed: 'Score removed.',
  reset: 'Season reset: the ended season is archived below.',
  deleted: 'Leaderboard deleted.',
} as const;
type Done = keyof typeof DONE;
const done = optional(oneOf(...(Object.keys(DONE) as Done[])).empty(''));

/** Reset schedules a person picks from; "custom" takes a cron expression. */
const PRESETS = { daily: '0 0 * * *', weekly: '0 0 * * 1', monthly: '0 0 1 * *' } as const;
type Preset = keyof typeof PRESETS;
const SCHEDULE_LABELS: Record<Preset | 'none' | 'custom', string> = {
  none: 'Never (no scheduled reset)',
  daily: 'Daily, at midnight',
  weekly: 'Weekly, Mondays at midnight',
  monthly: 'Monthly, on the 1st at midnight',
  custom: 'Custom cron expression',
};

const boardParams = object({ leaderboard_id: leaderboardId.description('The leaderboard') });

/**
 * The settings form's fields: the API's rules (the engine checks bounds and schedules the same way),
 * read from a form, where an empty field means "not given" and a checkbox left unticked is absent.
 */
const bound = optional(Joi.number().empty('').messages({ 'number.base': 'must be a finite number or empty' }));
const settingsFields = {
  name: optional(name.empty('')),
  type: optional(oneOf('individual', 'clan')),
  sort_order: optional(oneOf('desc', 'asc')),
  update_strategy: optional(updateStrategy),
  client_reports: optional(Joi.boolean().truthy('on').empty('')),
  min_score: bound,
  max_score: bound,
  schedule: optional(oneOf('none', 'daily', 'weekly', 'monthly', 'custom')),
  cron: optional(Joi.string().trim().max(200).empty('')),
  timezone: optional(Joi.string().trim().max(64).empty('')),
  keep_seasons: optional(Joi.number().integer().min(1).max(1000).empty('')),
  ...csrfField,
};
type SettingsForm = {
  name?: string | undefined;
  type?: 'individual' | 'clan' | undefined;
  sort_order?: 'desc' | 'asc' | undefined;
  update_strategy?: 'best' | 'latest' | 'sum' | undefined;
  client_reports?: boolean | undefined;
  min_score?: number | undefined;
  max_score?: number | undefined;
  schedule?: 'none' | Preset | 'custom' | undefined;
  cron?: string | undefined;
  timezone?: string | undefined;
  keep_seasons?: number | undefined;
};

function scheduleOf(form: SettingsForm): ResetSchedule | null {
  const choice = form.schedule ?? 'none';
  if (choice === 'none') return null;
  const timezone = form.timezone ?? 'UTC';
  if (choice === 'custom') {
    if (form.cron === undefined) {
      throw new ValidationError('cron: a custom schedule needs a cron expression.', [
        { field: 'cron', message: 'is required for a custom schedule' },
      ]);
    }
    return { cron: form.cron, timezone };
  }
  return { cron: PRESETS[choice], timezone };
}

/** The whole form, as the settings the engine takes: every field of it is shown, so an empty bound is no bound. */
function settingsOf(form: SettingsForm): Partial<LeaderboardSettings> {
  return {
    ...(form.name !== undefined && { name: form.name }),
    ...(form.type !== undefined && { type: form.type }),
    ...(form.sort_order !== undefined && { sortOrder: form.sort_order }),
    ...(form.update_strategy !== undefined && { updateStrategy: form.update_strategy }),
    clientReports: form.client_reports ?? false,
    minScore: form.min_score ?? null,
    maxScore: form.max_score ?? null,
    resetSchedule: scheduleOf(form),
    ...(form.keep_seasons !== undefined && { keepSeasons: form.keep_seasons }),
  };
}

const boardPath = (id: string) => `/leaderboards/${encodeURIComponent(id)}`;
const when = (date: Date | null | undefined) => (date ? date.toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : '—');

function describeSchedule(schedule: ResetSchedule | null): string {
  if (!schedule) return 'Never';
  const preset = (Object.keys(PRESETS) as Preset[]).find((key) => PRESETS[key] === schedule.cron);
  return `${preset ? preset[0]!.toUpperCase() + preset.slice(1) : schedule.cron} (${schedule.timezone})`;
}

function option(value: string, label: string, selected: boolean): Html {
  return html`<option value="${value}" ${selected ? html`selected` : html``}>${label}</option>`;
}

/** The settings form, empty for "Create leaderboard" or filled with a board's settings. */
function settingsForm(screen: Screen, board: Leaderboard | null): Html {
  const p = board ? 'edit' : 'new';
  const schedule = board?.resetSchedule ?? null;
  const preset = schedule ? ((Object.keys(PRESETS) as Preset[]).find((key) => PRESETS[key] === schedule.cron) ?? 'custom') : 'none';
  const fields = html` ${
      board
        ? html``
        : html`<label for="${p}-id">Id</label>
            <input id="${p}-id" name="id" required maxlength="64" pattern="[A-Za-z0-9_.\\-]{1,64}" aria-describedby="${p}-id-hint" />
            <p class="hint" id="${p}-id-hint">1-64 characters of A-Z, a-z, 0-9, _ . - (used in the API's URLs)</p>`
    }
    <label for="${p}-name">Name</label>
    <input id="${p}-name" name="name" maxlength="100" value="${board?.name ?? ''}" ${board ? html`required` : html``} />
    <label for="${p}-type">Type</label>
    <select id="${p}-type" name="type">
      ${option('individual', 'Individual', board?.type !== 'clan')}
      ${option('clan', 'Clan (members’ scores add up)', board?.type === 'clan')}
    </select>
    <label for="${p}-order">Order</label>
    <select id="${p}-order" name="sort_order">
      ${option('desc', 'Highest score first', board?.sortOrder !== 'asc')}
      ${option('asc', 'Lowest score first', board?.sortOrder === 'asc')}
    </select>
    <label for="${p}-strategy">Strategy</label>
    <select id="${p}-strategy" name="update_strategy">
      ${option('best', 'Best: keep the best score', (board?.updateStrategy ?? 'best') === 'best')}
      ${option('latest', 'Latest: each report replaces the score', board?.updateStrategy === 'latest')}
      ${option('sum', 'Sum: each report adds to the score', board?.updateStrategy === 'sum')}
    </select>
    ${board ? html`<p class="hint">Type, order and strategy cannot change once the leaderboard has scores.</p>` : html``}
    <fieldset>
      <legend>Score bounds (empty: none)</legend>
      <div class="lb-pair">
        <div>
          <label for="${p}-min">Minimum score</label>
          <input id="${p}-min" name="min_score" type="number" step="any" value="${board?.minScore ?? ''}" />
        </div>
        <div>
          <label for="${p}-max">Maximum score</label>
          <input id="${p}-max" name="max_score" type="number" step="any" value="${board?.maxScore ?? ''}" />
        </div>
      </div>
    </fieldset>
    <div class="lb-check">
      <input id="${p}-client" name="client_reports" type="checkbox" value="on" ${(board?.clientReports ?? true) ? html`checked` : html``} />
      <label for="${p}-client">Client reports: game clients may report scores</label>
    </div>
    <fieldset>
      <legend>Reset schedule</legend>
      <div class="stack-fields">
        <label for="${p}-schedule">Reset schedule: a new season starts</label>
        <select id="${p}-schedule" name="schedule">
          ${(['none', 'daily', 'weekly', 'monthly', 'custom'] as const).map((key) => option(key, SCHEDULE_LABELS[key], key === preset))}
        </select>
        <label for="${p}-cron">Custom cron expression</label>
        <input
          id="${p}-cron"
          name="cron"
          maxlength="200"
          value="${preset === 'custom' ? schedule!.cron : ''}"
          placeholder="0 0 * * 1"
          aria-describedby="${p}-cron-hint"
        />
        <p class="hint" id="${p}-cron-hint">Used with "Custom": 5 fields, minute hour day-of-month month day-of-week.</p>
        <label for="${p}-tz">Time zone</label>
        <input id="${p}-tz" name="timezone" maxlength="64" value="${schedule?.timezone ?? 'UTC'}" aria-describedby="${p}-tz-hint" />
        <p class="hint" id="${p}-tz-hint">An IANA time zone such as Europe/Paris (daylight saving included).</p>
        <label for="${p}-keep">Archived seasons kept</label>
        <input id="${p}-keep" name="keep_seasons" type="number" min="1" max="1000" step="1" value="${board?.keepSeasons ?? 52}" />
      </div>
    </fieldset>
    <button type="submit" class="button primary">${board ? 'Save settings' : 'Create leaderboard'}</button>`;
  return postForm(screen, board ? boardPath(board.id) : '/leaderboards', fields, html`class="stack"`);
}

export const leaderboardsPageEndpoint = endpoint({
  method: 'get',
  path: '/dashboard/leaderboards',
  operationId: 'listDashboardLeaderboards',
  tag: 'Dashboard',
  summary: 'Leaderboards',
  description: "The game's leaderboards (id, name, type, order, strategy, season), 50 a page, and a form to create one.",
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  query: object({ limit: pageSize, offset: wholeNumber(0, Number.MAX_SAFE_INTEGER, 0), done }),
  responses: { 200: { content: 'text/html', description: 'The page' } },
  errors: [400],
  async handler({ caller: { game }, query, app, req, res }) {
    const { offset, limit } = query;
    const { total, leaderboards } = await app.engine.leaderboards.list(game.id, offset, limit);
    const screen = screenOf(app, req, res, game);
    const rows = leaderboards.map(
      (board) =>
        html`<tr>
          <td>
            <a href="${href(screen, boardPath(board.id))}">${board.name}</a>
          </td>
          <td><code>${board.id}</code></td>
          <td>${board.type}</td>
          <td>${board.sortOrder === 'desc' ? 'Highest first' : 'Lowest first'}</td>
          <td>${board.updateStrategy}</td>
          <td class="number">${board.season}</td>
          <td>${describeSchedule(board.resetSchedule)}</td>
        </tr>`,
    );
    const pager = html`<nav class="pager" aria-label="Leaderboard pages">
      ${offset > 0 ? html`<a href="${href(screen, `/leaderboards?limit=${limit}&offset=${Math.max(0, offset - limit)}`)}">Previous page</a>` : html``}
      <span class="muted"
        >${total === 0 ? 'None yet' : `${Math.min(offset + 1, total)}–${Math.min(total, offset + limit)} of ${total}`}</span
      >
      ${offset + limit < total ? html`<a href="${href(screen, `/leaderboards?limit=${limit}&offset=${offset + limit}`)}">Next page</a>` : html``}
    </nav>`;
    const body = html`${notice(query.done && DONE[query.done])}
      <section class="card">
        <h2>The game's boards (${total})</h2>
        ${dataTable(['Name', 'Id', 'Type', 'Order', 'Strategy', { label: 'Season', numeric: true }, 'Reset'], rows)} ${pager}
      </section>
      <section class="card">
        <h2>Create leaderboard</h2>
        ${settingsForm(screen, null)}
      </section>`;
    return pageReply(dashboardPage(screen, { title: 'Leaderboards', section: 'Leaderboards', body }));
  },
});

export const createLeaderboardEndpoint = endpoint({
  method: 'post',
  path: '/dashboard/leaderboards',
  operationId: 'createDashboardLeaderboard',
  tag: 'Dashboard',
  summary: 'Create a leaderboard',
  description:
    'Creates the leaderboard with the settings of the form (as PUT /api/v1/server/leaderboards/:leaderboard_id, audited as the dashboard). An id already in use is 409 already_exists.',
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  body: object({ id: leaderboardId.required().example('weekly-race'), ...settingsFields }),
  responses: { 303: { description: 'On to the new leaderboard' } },
  errors: [400, 409],
  async handler({ caller: { game }, body, app, res }) {
    const exists = await app.engine.leaderboards.get(game.id, body.id).then(
      () => true,
      (error: unknown) => {
        if (error instanceof NotFoundError) return false;
        throw error;
      },
    );
    if (exists) throw new ConflictError(`A leaderboard with the id '${body.id}' already exists.`, 'already_exists');
    await app.engine.leaderboards.put(game.id, body.id, settingsOf(body), 'dashboard');
    return seeOther(app, res, `${boardPath(body.id)}?done=created`);
  },
});

export const updateLeaderboardEndpoint = endpoint({
  method: 'post',
  path: '/dashboard/leaderboards/:leaderboard_id',
  operationId: 'updateDashboardLeaderboard',
  tag: 'Dashboard',
  summary: "Change a leaderboard's settings",
  description:
    'Sets every setting of the form (as PUT /api/v1/server/leaderboards/:leaderboard_id on an existing board, audited as the dashboard). Changing type, order or strategy once scores exist is 409 conflict.',
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  params: boardParams,
  body: object(settingsFields),
  responses: { 303: { description: 'Back to the leaderboard' } },
  errors: [400, 404, 409],
  async handler({ caller: { game }, params, body, app, res }) {
    await app.engine.leaderboards.get(game.id, params.leaderboard_id);
    await app.engine.leaderboards.put(game.id, params.leaderboard_id, settingsOf(body), 'dashboard');
    return seeOther(app, res, `${boardPath(params.leaderboard_id)}?done=updated`);
  },
});

export const removeScoreEndpoint = endpoint({
  method: 'post',
  path: '/dashboard/leaderboards/:leaderboard_id/scores/:player_id/remove',
  operationId: 'deleteDashboardScore',
  tag: 'Dashboard',
  summary: "Remove a player's score",
  description:
    "Removes the player's score from the current season (as DELETE /api/v1/server/leaderboards/:leaderboard_id/scores/:player_id, audited as score.remove by the dashboard).",
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  params: object({
    leaderboard_id: leaderboardId.description('The leaderboard'),
    player_id: playerId.description("The service's player id"),
  }),
  body: object(csrfField),
  responses: { 303: { description: 'Back to the leaderboard' } },
  errors: [400, 404],
  async handler({ caller: { game }, params, app, res }) {
    await app.engine.moderation.removeScore(game.id, params.leaderboard_id, params.player_id, undefined, 'dashboard');
    return seeOther(app, res, `${boardPath(params.leaderboard_id)}?done=removed`);
  },
});

export const resetLeaderboardEndpoint = endpoint({
  method: 'post',
  path: '/dashboard/leaderboards/:leaderboard_id/reset',
  operationId: 'resetDashboardLeaderboard',
  tag: 'Dashboard',
  summary: 'End the current season now',
  description:
    'Ends the current season and starts the next (as POST /api/v1/server/leaderboards/:leaderboard_id/reset, audited as leaderboard.reset by the dashboard).',
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  params: boardParams,
  body: object(csrfField),
  responses: { 303: { description: 'Back to the leaderboard' } },
  errors: [400, 404],
  async handler({ caller: { game }, params, app, res }) {
    const board = await app.engine.leaderboards.get(game.id, params.leaderboard_id);
    await app.engine.seasons.reset(board, 'dashboard');
    return seeOther(app, res, `${boardPath(board.id)}?done=reset`);
  },
});

export const deleteLeaderboardEndpoint = endpoint({
  method: 'post',
  path: '/dashboard/leaderboards/:leaderboard_id/delete',
  operationId: 'deleteDashboardLeaderboard',
  tag: 'Dashboard',
  summary: 'Delete a leaderboard',
  description:
    'Deletes the leaderboard and all its scores for good (as DELETE /api/v1/server/leaderboards/:leaderboard_id, audited as the dashboard).',
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  params: boardParams,
  body: object(csrfField),
  responses: { 303: { description: 'Back to the list' } },
  errors: [400, 404],
  async handler({ caller: { game }, params, app, res }) {
    await app.engine.leaderboards.delete(game.id, params.leaderboard_id, 'dashboard');
    return seeOther(app, res, '/leaderboards?done=deleted');
  },
});

function entriesTable(screen: Screen, board: Leaderboard, entries: PlayerEntry[], archived: boolean, caption: string): Html {
  if (entries.length === 0) return html`<p class="muted">No scores.</p>`;
  return html`${dataTable(
    [{ label: 'Rank', numeric: true }, 'Name', { label: 'Score', numeric: true }, 'Metadata', ...(archived ? [] : [{ hidden: 'Remove' }])],
    entries.map(
      (entry) =>
        html`<tr>
          <td class="number">${entry.rank}</td>
          <td>
            <span class="lb-name">${entry.player.displayName}</span><br />
            <code class="muted lb-id">${entry.player.id}</code>
          </td>
          <td class="number">${entry.score}</td>
          <td>
            ${entry.metadata === null ? html`<span class="muted">—</span>` : html`<code class="lb-metadata">${JSON.stringify(entry.metadata)}</code>`}
          </td>
          ${
            archived
              ? html``
              : html`<td>
                  ${confirmButton(
                    screen,
                    `${boardPath(board.id)}/scores/${encodeURIComponent(entry.player.id)}/remove`,
                    { text: 'Remove score', name: `Remove score of ${entry.player.displayName}` },
                    'Remove this score from the season? The player may report again.',
                    'Yes, remove the score',
                  )}
                </td>`
          }
        </tr>`,
    ),
    { caption: caption },
  )}`;
}

export const leaderboardPageEndpoint = endpoint({
  method: 'get',
  path: '/dashboard/leaderboards/:leaderboard_id',
  operationId: 'getDashboardLeaderboard',
  tag: 'Dashboard',
  summary: 'A leaderboard',
  description:
    'Its settings (a form to change them), its entries 50 a page (rank, name, score, metadata) with "Remove score", finding a player, "Reset season", and its seasons: `?season=N` shows an archived season read-only.',
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  params: boardParams,
  query: object({
    limit: pageSize,
    offset: wholeNumber(0, Number.MAX_SAFE_INTEGER, 0),
    season,
    search: optional(playerSearch.empty('')),
    done,
  }),
  responses: { 200: { content: 'text/html', description: 'The page' } },
  errors: [400, 404],
  async handler({ caller: { game }, params, query, app, req, res }) {
    const { offset, limit, search } = query;
    const board = await app.engine.leaderboards.get(game.id, params.leaderboard_id);
    const asked = query.season !== undefined && query.season !== board.season ? query.season : undefined;
    const archived = asked !== undefined;
    const [page, seasons] = await Promise.all([
      app.engine.reader.page(game.id, board.id, 'players', offset, limit, asked),
      app.engine.seasons.list(board),
    ]);
    const entries = page.entries as PlayerEntry[];
    const screen = screenOf(app, req, res, game);
    const here = (extra: Record<string, string | number>) => {
      const q = new URLSearchParams();
      if (asked !== undefined) q.set('season', String(asked));
      if (limit !== PAGE) q.set('limit', String(limit));
      for (const [key, value] of Object.entries(extra)) q.set(key, String(value));
      const text = q.toString();
      return href(screen, boardPath(board.id) + (text ? `?${text}` : ''));
    };
    const seasonLabel = archived ? `Season ${asked} (archived)` : `Season ${board.season} (current)`;

    let found: Html = html``;
    if (search !== undefined) {
      const { players } = await app.engine.playerLookup.search(game.id, search, 0, FOUND);
      const rows = await Promise.all(
        players.map(async (player) => {
          const around = await app.engine.reader.around(game.id, board.id, player.id, 0, asked).catch((error: unknown) => {
            if (error instanceof NotFoundError) return undefined;
            throw error;
          });
          const entry = around?.entries.find((e) => e.player.id === player.id);
          return entry ?? { player, missing: true as const };
        }),
      );
      const held = rows.filter((row): row is PlayerEntry => !('missing' in row));
      const without = rows.filter((row) => 'missing' in row).map((row) => row.player);
      found = html`<div class="lb-found" role="region" aria-label="Players found">
        <p>${players.length === 0 ? `No player matches “${search}”.` : `${players.length} player(s) match “${search}”.`}</p>
        ${held.length > 0 ? entriesTable(screen, board, held, archived, `Players found in ${seasonLabel}`) : html``}
        ${
          without.length > 0
            ? html`<p>No score in ${seasonLabel.toLowerCase()}:</p>
                <ul>
                  ${without.map((p) => html`<li>${p.displayName} <code class="muted">${p.id}</code></li>`)}
                </ul>`
            : html``
        }
      </div>`;
    }

    const pager = html`<nav class="pager" aria-label="Entry pages">
      ${offset > 0 ? html`<a href="${here({ offset: Math.max(0, offset - limit) })}">Previous page</a>` : html``}
      <span class="muted"
        >${page.total === 0 ? 'No entries' : `${Math.min(offset + 1, page.total)}–${Math.min(page.total, offset + limit)} of ${page.total}`}</span
      >
      ${offset + limit < page.total ? html`<a href="${here({ offset: offset + limit })}">Next page</a>` : html``}
    </nav>`;

    const next = board.resetSchedule ? nextResetAt(board.resetSchedule, new Date()) : null;
    const seasonRows = seasons.seasons.map(
      (s) =>
        html`<tr>
          <th scope="row">${s.endedAt === null ? html`${s.season} <span class="muted">(current)</span>` : s.season}</th>
          <td>${when(s.startedAt)}</td>
          <td>${s.endedAt === null ? 'Running' : when(s.endedAt)}</td>
          <td class="number">${s.total}</td>
          <td>
            ${
              (s.endedAt === null ? !archived : asked === s.season)
                ? html`<span class="muted">Shown</span>`
                : html`<a href="${href(screen, boardPath(board.id) + (s.endedAt === null ? '' : `?season=${s.season}`))}"
                    >View season ${s.season}</a
                  >`
            }
          </td>
        </tr>`,
    );

    const body = html`${notice(query.done && DONE[query.done])}
      <p><a href="${href(screen, '/leaderboards')}">Back to the list</a></p>
      <section class="card">
        <h2>Current season</h2>
        <dl class="lb-facts">
          <dt>Id</dt>
          <dd><code>${board.id}</code></dd>
          <dt>Season</dt>
          <dd>${board.season}, since ${when(board.seasonStartedAt)}</dd>
          <dt>Reset</dt>
          <dd>${describeSchedule(board.resetSchedule)}${next ? `, next ${when(next)}` : ''}</dd>
        </dl>
        ${confirmButton(
          screen,
          `${boardPath(board.id)}/reset`,
          'Reset season',
          `End season ${board.season} now? Its entries are archived and season ${board.season + 1} starts empty.`,
          `Yes, end season ${board.season}`,
        )}
      </section>
      <section class="card" aria-labelledby="entries-heading">
        <h2 id="entries-heading">Entries: ${seasonLabel}</h2>
        ${archived ? html`<p><a href="${href(screen, boardPath(board.id))}">Back to the current season</a></p>` : html``}
        <form method="get" action="${href(screen, boardPath(board.id))}" class="row" role="search" aria-label="Player search">
          ${archived ? html`<input type="hidden" name="season" value="${asked}" />` : html``}
          <div class="stack-fields">
            <label for="find-player">Find a player</label>
            <input
              id="find-player"
              name="search"
              type="search"
              maxlength="64"
              value="${search ?? ''}"
              aria-describedby="find-player-hint"
            />
            <p class="hint" id="find-player-hint">A player id, an alias id or the start of a display name</p>
          </div>
          <button type="submit" class="button">Find</button>
        </form>
        ${found} ${entriesTable(screen, board, entries, archived, `Entries of ${seasonLabel}`)} ${pager}
      </section>
      <section class="card">
        <h2>Seasons</h2>
        ${dataTable(['Season', 'Started', 'Ended', { label: 'Entries', numeric: true }, { hidden: 'View' }], seasonRows)}
      </section>
      <section class="card">
        <h2>Settings</h2>
        ${settingsForm(screen, board)}
      </section>
      <section class="card">
        <h2>Delete</h2>
        ${confirmButton(
          screen,
          `${boardPath(board.id)}/delete`,
          'Delete leaderboard',
          'Delete this leaderboard and all its scores, archived seasons included? This cannot be undone.',
          'Yes, delete the leaderboard',
        )}
      </section>`;
    return pageReply(dashboardPage(screen, { title: board.name, section: 'Leaderboards', body }));
  },
});

export const leaderboardsEndpoints = [
  leaderboardsPageEndpoint,
  createLeaderboardEndpoint,
  leaderboardPageEndpoint,
  updateLeaderboardEndpoint,
  removeScoreEndpoint,
  resetLeaderboardEndpoint,
  deleteLeaderboardEndpoint,
];
