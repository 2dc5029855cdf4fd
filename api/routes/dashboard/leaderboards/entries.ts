import { NotFoundError } from '../../../../engine/errors.js';
import type { Leaderboard } from '../../../../engine/leaderboards/leaderboard-store.js';
import type { PlayerEntry } from '../../../../engine/reads/leaderboard-reader.js';
import { html, type Html } from '../../../html.js';
import { csrfField } from '../../../middleware/dashboard-session.js';
import { endpoint } from '../../endpoint.js';
import { leaderboardId, object, playerId } from '../../schemas.js';
import { offsetPager } from '../pager.js';
import { confirmButton, dataTable, href, type Screen, seeOther } from '../view.js';
import { boardPath, PAGE } from './common.js';

/** Players a search on a board's page shows at most. */
const FOUND = 20;

/** What a board's page shows of its entries: a season (undefined: the current one), a page of it, a search. */
export interface EntriesShown {
  asked: number | undefined;
  offset: number;
  limit: number;
  search: string | undefined;
}

const seasonLabelOf = (board: Leaderboard, asked: number | undefined) =>
  asked !== undefined ? `Season ${asked} (archived)` : `Season ${board.season} (current)`;

function entriesTable(screen: Screen, board: Leaderboard, entries: PlayerEntry[], archived: boolean, caption: string): Html {
  if (entries.length === 0) return html`<p class="muted">No scores.</p>`;
  // Each tiebreaker is a column headed by its name; an earliest board also shows when each entry was reached.
  const columns = board.tiebreakers.map((column) => ({ label: column.name, numeric: true as const }));
  const earliest = board.tieBreak === 'earliest';
  return html`${dataTable(
    [
      { label: 'Rank', numeric: true },
      'Name',
      { label: 'Score', numeric: true },
      ...columns,
      ...(earliest ? ['Reached'] : []),
      'Metadata',
      ...(archived ? [] : [{ hidden: 'Remove' }]),
    ],
    entries.map(
      (entry) =>
        html`<tr>
          <td class="number">${entry.rank}</td>
          <td>
            <span class="lb-name">${entry.player.displayName}</span><br />
            <code class="muted lb-id">${entry.player.id}</code>
          </td>
          <td class="number">${entry.score}</td>
          ${(entry.tiebreakers ?? []).map((value) => html`<td class="number">${value}</td>`)}
          ${earliest ? html`<td>${entry.achievedAt === undefined ? '' : new Date(entry.achievedAt).toISOString()}</td>` : html``}
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

/** The players a search finds, with their entry in the season shown, or under "No score" without one. */
async function playersFound(screen: Screen, board: Leaderboard, { asked, search }: EntriesShown): Promise<Html> {
  if (search === undefined) return html``;
  const { engine } = screen.app;
  const seasonLabel = seasonLabelOf(board, asked);
  const { players } = await engine.playerLookup.search(board.gameId, search, 0, FOUND);
  const rows = await Promise.all(
    players.map(async (player) => {
      const around = await engine.reader.around(board.gameId, board.id, player.id, 0, asked).catch((error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      });
      const entry = around?.entries.find((e) => e.player.id === player.id);
      return entry ?? { player, missing: true as const };
    }),
  );
  const held = rows.filter((row): row is PlayerEntry => !('missing' in row));
  const without = rows.filter((row) => 'missing' in row).map((row) => row.player);
  return html`<div class="lb-found" role="region" aria-label="Players found">
    <p>${players.length === 0 ? `No player matches “${search}”.` : `${players.length} player(s) match “${search}”.`}</p>
    ${held.length > 0 ? entriesTable(screen, board, held, asked !== undefined, `Players found in ${seasonLabel}`) : html``}
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

/** A board page's "Entries" card: a page of the season shown, a player search, and the pager. */
export async function entriesCard(screen: Screen, board: Leaderboard, shown: EntriesShown): Promise<Html> {
  const { asked, offset, limit, search } = shown;
  const archived = asked !== undefined;
  const page = await screen.app.engine.reader.page(board.gameId, board.id, 'players', offset, limit, asked);
  const found = await playersFound(screen, board, shown);
  const seasonLabel = seasonLabelOf(board, asked);
  // The pages keep the season and the page size shown.
  const at = (from: number) => {
    const q = new URLSearchParams();
    if (asked !== undefined) q.set('season', String(asked));
    if (limit !== PAGE) q.set('limit', String(limit));
    q.set('offset', String(from));
    return href(screen, `${boardPath(board.id)}?${q.toString()}`);
  };
  const pager = offsetPager('Entry pages', { offset, limit, total: page.total }, at, { empty: 'No entries' });
  return html`<section class="card" aria-labelledby="entries-heading">
    <h2 id="entries-heading">Entries: ${seasonLabel}</h2>
    ${archived ? html`<p><a href="${href(screen, boardPath(board.id))}">Back to the current season</a></p>` : html``}
    <form method="get" action="${href(screen, boardPath(board.id))}" class="row" role="search" aria-label="Player search">
      ${archived ? html`<input type="hidden" name="season" value="${asked}" />` : html``}
      <div class="stack-fields">
        <label for="find-player">Find a player</label>
        <input id="find-player" name="search" type="search" maxlength="64" value="${search ?? ''}" aria-describedby="find-player-hint" />
        <p class="hint" id="find-player-hint">A player id, an alias id or the start of a display name</p>
      </div>
      <button type="submit" class="button">Find</button>
    </form>
    ${found} ${entriesTable(screen, board, page.entries as PlayerEntry[], archived, `Entries of ${seasonLabel}`)} ${pager}
  </section>`;
}

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
