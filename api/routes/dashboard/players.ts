import type { PlayerDetails, PlayerSummary } from '../../../engine/players/player-lookup.js';
import { RECENT_HISTORY } from '../../../engine/history/rank-history.js';
import type { HistoryPoint } from '../../../engine/history/rank-snapshot-store.js';
import Joi from 'joi';
import { endpoint } from '../endpoint.js';
import {
  aliasId,
  aliasType,
  banReason,
  clanId,
  displayName,
  object,
  oneOf,
  optional,
  playerId,
  playerSearch,
  limit,
  offset,
} from '../schemas.js';
import { html } from '../../html.js';
import {
  confirmButton,
  dashboardPage,
  dataTable,
  href,
  notice,
  pageReply,
  postButton,
  postForm,
  type Screen,
  screenOf,
  seeOther,
} from './view.js';
import { offsetPager } from './pager.js';
import { csrfField } from '../../middleware/dashboard-session.js';

const playerParams = object({ player_id: playerId.description("The service's player id") });

/** What a change says on the player's page after its redirect (`?done=`): a code, never free text. */
const DONE = {
  updated: 'Saved.',
  banned: 'Banned: the player is hidden from every leaderboard and their reports are refused.',
  unbanned: 'Unbanned: every score is back.',
} as const;

function playerPath(id: string, done?: keyof typeof DONE): string {
  return `/players/${encodeURIComponent(id)}${done ? `?done=${done}` : ''}`;
}

function day(date: Date): string {
  return date.toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
}

function aliasList(aliases: Record<string, string>) {
  const pairs = Object.entries(aliases);
  if (pairs.length === 0) return html`<span class="muted">None</span>`;
  return html`<ul class="aliases">
    ${pairs.map(([type, id]) => html`<li><code>${type}</code>: ${id}</li>`)}
  </ul>`;
}

function searchForm(screen: Screen, search: string | undefined) {
  return html`<form method="get" action="${href(screen, '/players')}" class="row" role="search">
      <div class="field">
        <label for="player-search">Search players</label>
        <input id="player-search" name="search" type="search" maxlength="64" value="${search ?? ''}" />
      </div>
      <button type="submit" class="button primary">Search</button>
    </form>
    <p class="hint">A player id, an alias id, or the start of a display name.</p>`;
}

function resultsTable(screen: Screen, players: PlayerSummary[]) {
  return html`${dataTable(
    ['Display name', 'Id', 'Clan', 'Banned'],
    players.map(
      (player) =>
        html`<tr>
          <td>
            <a href="${href(screen, playerPath(player.id))}">${player.displayName}</a>
          </td>
          <td><code>${player.id}</code></td>
          <td>${player.clanId ?? html`<span class="muted">None</span>`}</td>
          <td>${player.bannedAt ? (player.banKind === 'shadow' ? 'Shadow ban' : 'Banned') : 'No'}</td>
        </tr>`,
    ),
  )}`;
}

export const playersPageEndpoint = endpoint({
  method: 'get',
  path: '/dashboard/players',
  operationId: 'listDashboardPlayers',
  tag: 'Dashboard',
  summary: 'Players',
  description:
    'Finds players (as GET /api/v1/server/players): by id, alias id or the start of a display name, `limit` (50) a page, each linking to their page.',
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  query: object({ search: optional(playerSearch.empty('')), limit, offset }),
  responses: { 200: { content: 'text/html', description: 'The page' } },
  errors: [400],
  async handler({ caller: { game }, query, app, req, res }) {
    const screen = screenOf(app, req, res, game);
    const { search, limit, offset } = query;
    let results = html``;
    if (search !== undefined) {
      const found = await app.engine.playerLookup.search(game.id, search, offset, limit);
      const pager = offsetPager('Result pages', { offset, limit, total: found.total }, (at) =>
        href(screen, `/players?search=${encodeURIComponent(search)}&limit=${limit}&offset=${at}`),
      );
      results = html`<section class="card" aria-labelledby="results-heading">
        <h2 id="results-heading">Results (${found.totalExact ? String(found.total) : `at least ${found.total}`})</h2>
        ${found.players.length > 0 ? resultsTable(screen, found.players) : html`<p>No player matches “${search}”.</p>`} ${pager}
      </section>`;
    }
    const body = html`<section class="card">${searchForm(screen, search)}</section>
      ${results}`;
    return pageReply(dashboardPage(screen, { title: 'Players', section: 'Players', body }));
  },
});

function scoresTable(screen: Screen, player: PlayerDetails) {
  if (player.scores.length === 0) return html`<p class="muted">No score this season.</p>`;
  return html`${dataTable(
    ['Leaderboard', { label: 'Score', numeric: true }, { label: 'Rank', numeric: true }],
    player.scores.map(
      (held) =>
        html`<tr>
          <td><a href="${href(screen, `/leaderboards/${encodeURIComponent(held.leaderboardId)}`)}">${held.leaderboardId}</a></td>
          <td class="number">${String(held.score)}</td>
          <td class="number">${held.rank === null ? html`<span class="muted">Hidden (banned)</span>` : String(held.rank)}</td>
        </tr>`,
    ),
  )}`;
}

/**
 * The player's daily ranks on each board as a chart (drawn by dashboard.js with uPlot, best rank on
 * top, a gap between seasons), described in words for screen readers, and as a table.
 */
function rankHistory(history: { leaderboardId: string; points: HistoryPoint[] }[]) {
  if (history.length === 0) {
    return html`<p class="muted">
      No daily rank yet on the leaderboards where the player holds a score: ranks are recorded once a day, on each leaderboard that changed.
    </p>`;
  }
  return history.map(({ leaderboardId, points }, i) => {
    const first = points[0]!;
    const last = points.at(-1)!;
    const best = Math.min(...points.map((point) => point.rank));
    const id = `rank-history-${i}`;
    const label =
      points.length === 1
        ? `Rank on ${leaderboardId}: ${first.rank} on ${first.day}.`
        : `Daily rank on ${leaderboardId}, ${points.length} days from ${first.day} to ${last.day}: ${first.rank} then ${last.rank}, best ${best}.`;
    return html`<h3 id="${id}-title">${leaderboardId}</h3>
      <div id="${id}" class="chart rank-chart" role="img" aria-label="${label}" data-rank-history="${id}-data"></div>
      <details>
        <summary>Daily ranks on ${leaderboardId} as a table</summary>
        ${dataTable(
          ['Day (UTC)', { label: 'Season', numeric: true }, { label: 'Rank', numeric: true }, { label: 'Score', numeric: true }],
          points.map(
            (point) =>
              html`<tr>
                <td>${point.day}</td>
                <td class="number">${String(point.season)}</td>
                <td class="number">${String(point.rank)}</td>
                <td class="number">${String(point.score)}</td>
              </tr>`,
          ),
          { caption: `Daily ranks on ${leaderboardId}` },
        )}
      </details>
      <script type="application/json" id="${id}-data">
        ${JSON.stringify(points.map((point) => [Date.parse(`${point.day}T00:00:00Z`) / 1000, point.rank, point.season]))}
      </script>`;
  });
}

export const playerPageEndpoint = endpoint({
  method: 'get',
  path: '/dashboard/players/:player_id',
  operationId: 'getDashboardPlayer',
  tag: 'Dashboard',
  summary: 'A player',
  description:
    "A player's details (as GET /api/v1/server/players/:player_id) with their score and rank on each leaderboard, their daily ranks over the last 90 days as charts (and tables), and forms to change their display name, clan and aliases and to ban or unban them.",
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  params: playerParams,
  query: object({ done: optional(oneOf('updated', 'banned', 'unbanned')) }),
  responses: { 200: { content: 'text/html', description: 'The page' } },
  errors: [400, 404],
  notFound: ['player_not_found'],
  async handler({ caller: { game }, params, query, app, req, res }) {
    const player = await app.engine.playerLookup.details(game.id, params.player_id);
    const history = await app.engine.history.recentOf(
      game.id,
      player.id,
      player.scores.map((held) => held.leaderboardId),
    );
    const screen = screenOf(app, req, res, game);
    const path = playerPath(player.id);
    const banned = player.banKind === 'shadow' ? 'Shadow-banned' : 'Banned';
    const ban = player.bannedAt
      ? html`<p>${banned} since ${day(player.bannedAt)}${player.banReason ? html`: ${player.banReason}` : html``}.</p>
          ${postButton(screen, `${path}/unban`, 'Unban', 'button primary')}`
      : confirmButton(
          screen,
          `${path}/ban`,
          'Ban',
          'Ban this player? They disappear from every leaderboard of the game and their reports are refused, until an unban.',
          'Ban this player',
          html`<label for="ban-reason">Reason (optional)</label> <input id="ban-reason" name="reason" maxlength="500" autofocus />
            <div class="lb-check">
              <input id="ban-shadow" name="shadow" type="checkbox" value="on" />
              <label for="ban-shadow">Shadow ban: the player is not told, and sees their scores as if counted</label>
            </div>`,
        );
    const body = html`${notice(query.done ? DONE[query.done] : undefined)}
      <section class="card">
        <h2>Details</h2>
        <dl class="keys">
          <dt>Player id</dt>
          <dd><code>${player.id}</code></dd>
          <dt>Clan</dt>
          <dd>${player.clanId ?? html`<span class="muted">None</span>`}</dd>
          <dt>Aliases</dt>
          <dd>${aliasList(player.aliases)}</dd>
          <dt>Banned</dt>
          <dd>${player.bannedAt ? html`${player.banKind === 'shadow' ? 'Shadow ban' : 'Yes'}, since ${day(player.bannedAt)}` : 'No'}</dd>
          ${
            player.banReason
              ? html`<dt>Ban reason</dt>
                  <dd>${player.banReason}</dd>`
              : html``
          }
          <dt>Created</dt>
          <dd>${day(player.createdAt)}</dd>
        </dl>
      </section>
      <section class="card">
        <h2>Scores and ranks</h2>
        ${scoresTable(screen, player)}
      </section>
      <section class="card" aria-labelledby="rank-history-title">
        <h2 id="rank-history-title">Rank history, last ${String(RECENT_HISTORY.days)} days</h2>
        ${rankHistory(history)}
      </section>
      <section class="card">
        <h2>Change</h2>
        ${postForm(
          screen,
          path,
          html`<label for="display-name">Display name</label>
            <input id="display-name" name="display_name" maxlength="32" value="${player.displayName}" />
            <label for="clan-id">Clan id</label>
            <input id="clan-id" name="clan_id" maxlength="64" value="${player.clanId ?? ''}" aria-describedby="clan-id-hint" />
            <p class="hint" id="clan-id-hint">Empty: in no clan.</p>
            <fieldset>
              <legend>One alias</legend>
              <label for="alias-type">Alias type</label>
              <input id="alias-type" name="alias_type" maxlength="32" aria-describedby="alias-hint" />
              <label for="alias-id">Alias id</label>
              <input id="alias-id" name="alias_id" maxlength="128" />
              <p class="hint" id="alias-hint">
                An alias type (a-z, 0-9, _) such as steam, and its id; an empty id removes that type's alias. Leave the type empty to keep
                the aliases.
              </p>
            </fieldset>
            <button type="submit" class="button primary">Save changes</button>`,
          html`class="stack"`,
        )}
      </section>
      <section class="card">
        <h2>Moderation</h2>
        ${ban}
      </section>`;
    return pageReply(
      dashboardPage(screen, {
        title: player.displayName,
        section: 'Players',
        body,
        ...(history.length > 0 && { scripts: ['uPlot.iife.min.js', 'dashboard.js'], styles: ['uPlot.min.css'] }),
      }),
    );
  },
});

export const updatePlayerEndpoint = endpoint({
  method: 'post',
  path: '/dashboard/players/:player_id',
  operationId: 'updateDashboardPlayer',
  tag: 'Dashboard',
  summary: "Change a player's display name, clan and one alias",
  description:
    'As PATCH /api/v1/server/players/:player_id (audited as player.update by the dashboard): an empty clan id leaves the clan (an absent one keeps it), an alias type with an empty id removes that alias, an empty alias type leaves the aliases.',
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  params: playerParams,
  body: object({
    display_name: optional(displayName.empty('')),
    // '' (the form's empty field) leaves the clan; absent, the clan stays as it is.
    clan_id: optional(clanId.allow('')),
    alias_type: optional(aliasType.empty('')),
    alias_id: optional(aliasId.empty('')),
    ...csrfField,
  }),
  responses: { 303: { description: "Back to the player's page" } },
  errors: [400, 404, 409],
  notFound: ['player_not_found', 'clan_not_found'],
  async handler({ caller: { game }, params, body, app, res }) {
    await app.engine.players.update(
      game.id,
      params.player_id,
      {
        ...(body.display_name !== undefined && { displayName: body.display_name }),
        ...(body.clan_id !== undefined && { clanId: body.clan_id === '' ? null : body.clan_id }),
        ...(body.alias_type !== undefined && { aliases: { [body.alias_type]: body.alias_id ?? null } }),
      },
      'dashboard',
    );
    return seeOther(app, res, playerPath(params.player_id, 'updated'));
  },
});

export const banPlayerEndpoint = endpoint({
  method: 'post',
  path: '/dashboard/players/:player_id/ban',
  operationId: 'banDashboardPlayer',
  tag: 'Dashboard',
  summary: 'Ban a player',
  description:
    'As POST /api/v1/server/players/:player_id/ban (audited as player.ban by the dashboard): the player is hidden from every leaderboard and their reports are refused until an unban; with `shadow` ticked, a shadow ban (docs/review.md): the player is not told.',
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  params: playerParams,
  body: object({ reason: optional(banReason.empty('')), shadow: optional(Joi.boolean().truthy('on').empty('')), ...csrfField }),
  responses: { 303: { description: "Back to the player's page" } },
  errors: [400, 404],
  notFound: ['player_not_found'],
  async handler({ caller: { game }, params, body, app, res }) {
    await app.engine.moderation.ban(game.id, params.player_id, body.reason ?? null, 'dashboard', body.shadow ? 'shadow' : 'ban');
    return seeOther(app, res, playerPath(params.player_id, 'banned'));
  },
});

export const unbanPlayerEndpoint = endpoint({
  method: 'post',
  path: '/dashboard/players/:player_id/unban',
  operationId: 'unbanDashboardPlayer',
  tag: 'Dashboard',
  summary: 'Unban a player',
  description:
    'As DELETE /api/v1/server/players/:player_id/ban (audited as player.unban by the dashboard): every score and clan contribution comes back.',
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  params: playerParams,
  body: object(csrfField),
  responses: { 303: { description: "Back to the player's page" } },
  errors: [400, 404],
  notFound: ['player_not_found'],
  async handler({ caller: { game }, params, app, res }) {
    await app.engine.moderation.unban(game.id, params.player_id, 'dashboard');
    return seeOther(app, res, playerPath(params.player_id, 'unbanned'));
  },
});

export const playersEndpoints = [playersPageEndpoint, playerPageEndpoint, updatePlayerEndpoint, banPlayerEndpoint, unbanPlayerEndpoint];
