import { html } from '../../../html.js';
import { endpoint } from '../../endpoint.js';
import { leaderboardId, object } from '../../schemas.js';
import { offsetPager } from '../pager.js';
import { dashboardPage, dataTable, href, notice, pageReply, screenOf, seeOther } from '../view.js';
import { boardPath, DONE, done, pageOffset, pageSize } from './common.js';
import { describeSchedule, formSettings, settingsFields, settingsFormHtml } from './form.js';

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
  query: object({ limit: pageSize, offset: pageOffset, done }),
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
    const pager = offsetPager(
      'Leaderboard pages',
      { offset, limit, total },
      (at) => href(screen, `/leaderboards?limit=${limit}&offset=${at}`),
      { empty: 'None yet' },
    );
    const body = html`${notice(query.done && DONE[query.done])}
      <section class="card">
        <h2>The game's boards (${total})</h2>
        ${dataTable(['Name', 'Id', 'Type', 'Order', 'Strategy', { label: 'Season', numeric: true }, 'Reset'], rows)} ${pager}
      </section>
      <section class="card">
        <h2>Create leaderboard</h2>
        ${settingsFormHtml(screen, null)}
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
    await app.engine.leaderboards.create(game.id, body.id, formSettings(body), 'dashboard');
    return seeOther(app, res, `${boardPath(body.id)}?done=created`);
  },
});
