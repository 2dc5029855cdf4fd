import type { Leaderboard } from '../../../../engine/leaderboards/leaderboard-store.js';
import type { SeasonSummary } from '../../../../engine/seasons/season-service.js';
import { nextResetAt } from '../../../../engine/seasons/schedule.js';
import { windowOf, windowState, type ReportWindow } from '../../../../engine/competitions/window.js';
import type { ClaimService } from '../../../../engine/competitions/claim-service.js';
import { hasEntryRules } from '../../../../engine/competitions/entry-rules.js';
import type { LeagueReads } from '../../../../engine/competitions/league-reads.js';
import { html, type Html } from '../../../html.js';
import { csrfField } from '../../../middleware/dashboard-session.js';
import { endpoint } from '../../endpoint.js';
import { object, optional, playerSearch, season } from '../../schemas.js';
import { confirmButton, dashboardPage, dataTable, href, notice, pageReply, type Screen, screenOf, seeOther } from '../view.js';
import { boardParams, boardPath, DONE, done, pageOffset, pageSize, when } from './common.js';
import { entriesCard } from './entries.js';
import { describeSchedule, formSettings, settingsFields, settingsFormHtml } from './form.js';

/** Every season of the board, each linking to its entries; `asked` is the archived season shown, if any. */
function seasonsTable(screen: Screen, board: Leaderboard, seasons: SeasonSummary[], asked: number | undefined): Html {
  const rows = seasons.map(
    (s) =>
      html`<tr>
        <th scope="row">${s.endedAt === null ? html`${s.season} <span class="muted">(current)</span>` : s.season}</th>
        <td>${when(s.startedAt)}</td>
        <td>${s.endedAt === null ? 'Running' : when(s.endedAt)}</td>
        <td class="number">${s.total}</td>
        <td>
          ${
            (s.endedAt === null ? asked === undefined : asked === s.season)
              ? html`<span class="muted">Shown</span>`
              : html`<a href="${href(screen, boardPath(board.id) + (s.endedAt === null ? '' : `?season=${s.season}`))}"
                  >View season ${s.season}</a
                >`
          }
        </td>
      </tr>`,
  );
  return dataTable(['Season', 'Started', 'Ended', { label: 'Entries', numeric: true }, { hidden: 'View' }], rows);
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
  query: object({ limit: pageSize, offset: pageOffset, season, search: optional(playerSearch.empty('')), done }),
  responses: { 200: { content: 'text/html', description: 'The page' } },
  errors: [400, 404],
  async handler({ caller: { game }, params, query, app, req, res }) {
    const { offset, limit, search } = query;
    const board = await app.engine.leaderboards.get(game.id, params.leaderboard_id);
    const asked = query.season !== undefined && query.season !== board.season ? query.season : undefined;
    const screen = screenOf(app, req, res, game);
    const [entries, seasons, claims, seats, groups] = await Promise.all([
      entriesCard(screen, board, { asked, offset, limit, search }),
      app.engine.seasons.list(board),
      claimsCard(app.engine.claims, board, asked ?? board.season),
      // The seats taken (read for no player in particular).
      hasEntryRules(board) ? app.engine.leaderboards.seatOf(board, '') : undefined,
      asked === undefined ? groupsCard(app.engine.leagues, board) : html``,
    ]);
    const next = board.resetSchedule ? nextResetAt(board.resetSchedule, new Date()) : null;
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
          <dt>Reports</dt>
          <dd>${describeWindow(windowOf(board, board.season, board.seasonStartedAt))}</dd>
          ${
            seats
              ? html`<dt>Players</dt>
                  <dd>
                    ${seats.players}${board.maxPlayers === null ? '' : ` of ${board.maxPlayers}`}${board.joinRequired ? ', entry required' : ''}${
                      board.maxAttempts === null ? '' : `, ${board.maxAttempts} attempts each`
                    }
                  </dd>`
              : html``
          }
        </dl>
        ${confirmButton(
          screen,
          `${boardPath(board.id)}/reset`,
          'Reset season',
          `End season ${board.season} now? Its entries are archived and season ${board.season + 1} starts empty.`,
          `Yes, end season ${board.season}`,
        )}
      </section>
      ${entries} ${claims} ${groups}
      <section class="card">
        <h2>Seasons</h2>
        ${seasonsTable(screen, board, seasons.seasons, asked)}
      </section>
      <section class="card">
        <h2>Settings</h2>
        ${settingsFormHtml(screen, board)}
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
    await app.engine.leaderboards.put(game.id, params.leaderboard_id, formSettings(body), 'dashboard');
    return seeOther(app, res, `${boardPath(params.leaderboard_id)}?done=updated`);
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

/** The shown season's reward claims, newest first, on boards with rewards (or claims). */
async function claimsCard(claims: ClaimService, board: Leaderboard, season: number): Promise<Html> {
  const { total, claims: listed } = await claims.list(board, season, CLAIMS_SHOWN);
  if (board.rewards.length === 0 && total === 0) return html``;
  const rows = listed.map(
    (claim) =>
      html`<tr>
        <td class="number">${claim.rank}</td>
        <td>${claim.displayName} <code class="muted">${claim.playerId}</code></td>
        <td><code>${JSON.stringify(claim.reward)}</code></td>
        <td>${when(claim.claimedAt)}</td>
      </tr>`,
  );
  const shown = total > listed.length ? ` (the newest ${listed.length})` : '';
  return html`<section class="card" aria-labelledby="claims-heading">
    <h2 id="claims-heading">Rewards claimed in season ${season}: ${total}${shown}</h2>
    ${total === 0 ? html`<p class="muted">None yet: players claim their reward once the season has closed or ended.</p>` : dataTable([{ label: 'Rank', numeric: true }, 'Player', 'Reward', 'Claimed'], rows)}
  </section>`;
}

const CLAIMS_SHOWN = 50;

/** The current season's league groups, oldest first (the first GROUPS_SHOWN), on league boards. */
async function groupsCard(leagues: LeagueReads, board: Leaderboard): Promise<Html> {
  if (!board.groups) return html``;
  const { total, groups } = await leagues.groups(board.gameId, board.id, undefined, 0, GROUPS_SHOWN);
  const rows = groups.map(
    (group) =>
      html`<tr>
        <th scope="row">${group.groupId}</th>
        <td>${group.tier}</td>
        <td class="number">${group.players} of ${board.groups!.size}</td>
      </tr>`,
  );
  const shown = total > groups.length ? ` (the first ${groups.length})` : '';
  return html`<section class="card" aria-labelledby="groups-heading">
    <h2 id="groups-heading">Groups in season ${board.season}: ${total}${shown}</h2>
    ${total === 0 ? html`<p class="muted">None yet: players join a group on entering or on their first report.</p>` : dataTable(['Group', 'Tier', { label: 'Players', numeric: true }], rows)}
  </section>`;
}

const GROUPS_SHOWN = 50;

/** Whether the current season accepts reports, and its window. */
function describeWindow(window: ReportWindow | null): string {
  if (!window) return 'Open (no window)';
  const span = `${window.opensAt ? `from ${when(window.opensAt)}` : ''}${window.opensAt && window.closesAt ? ' ' : ''}${window.closesAt ? `until ${when(window.closesAt)}` : ''}`;
  const state = windowState(window, Date.now());
  return `${state === 'open' ? 'Open' : state === 'upcoming' ? 'Not open yet' : 'Closed (final until the next reset)'}: ${span}`;
}
