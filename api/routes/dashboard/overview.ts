import { endpoint } from '../endpoint.js';
import { html } from '../../html.js';
import { dashboardPage, dataTable, pageReply, screenOf } from './view.js';

const number = new Intl.NumberFormat('en-US');
const clock = (ms: number) => new Date(ms).toISOString().slice(11, 16);

/** The game at a glance: counts (cached up to 60 s), reports per minute over the last hour, pending persistence. */
export const overviewPageEndpoint = endpoint({
  method: 'get',
  path: '/dashboard/overview',
  operationId: 'getDashboardOverview',
  tag: 'Dashboard',
  summary: 'Overview',
  description:
    'Players, leaderboards and ranked entries (counted at most once a minute), score reports per minute over the last hour as a chart (with the same numbers as a table), and the changes not yet persisted.',
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  responses: { 200: { content: 'text/html', description: 'The page' } },
  errors: [],
  async handler({ caller: { game }, app, req, res }) {
    const { engine } = app;
    const [counts, series] = await Promise.all([engine.gameStats.counts(game.id), engine.reportCounter.lastHour(game.id)]);
    const total = series.reduce((sum, point) => sum + point.reports, 0);
    const stat = (label: string, value: number, id: string) =>
      html`<div class="stat">
        <dt id="${id}-label">${label}</dt>
        <dd aria-labelledby="${id}-label">${number.format(value)}</dd>
      </div>`;
    const screen = screenOf(app, req, res, game);
    const body = html`<section class="card" aria-labelledby="counts-title">
        <h2 id="counts-title">Counts</h2>
        <dl class="grid">
          ${stat('Players', counts.players, 'players')} ${stat('Leaderboards', counts.leaderboards, 'leaderboards')}
          ${stat('Ranked entries', counts.rankedEntries, 'ranked')} ${stat('Pending persistence', counts.pendingPersistence, 'pending')}
        </dl>
        <p class="hint">
          Counted at ${counts.countedAt.toISOString().slice(11, 19)} UTC (at most a minute ago). Pending: score changes accepted but not yet
          written to PostgreSQL.
        </p>
      </section>
      <section class="card" aria-labelledby="reports-title">
        <h2 id="reports-title">Reports per minute, last hour</h2>
        <p><span id="reports-total">${number.format(total)}</span> reports in the last hour (UTC times).</p>
        <div id="reports-chart" class="chart" role="img" aria-label="Chart of score reports per minute over the last hour"></div>
        <details>
          <summary>The numbers as a table</summary>
          ${dataTable(
            ['Minute (UTC)', { label: 'Reports', numeric: true }],
            series.map(
              (point) =>
                html`<tr>
                  <td>${clock(point.minute)}</td>
                  <td class="number">${point.reports}</td>
                </tr>`,
            ),
            { id: 'reports-table' },
          )}
        </details>
        <script type="application/json" id="reports-data">
          ${JSON.stringify(series.map((point) => [point.minute / 1000, point.reports]))}
        </script>
      </section>`;
    return pageReply(
      dashboardPage(screen, {
        title: 'Overview',
        section: 'Overview',
        body,
        scripts: ['uPlot.iife.min.js', 'dashboard.js'],
        styles: ['uPlot.min.css'],
      }),
    );
  },
});

export const overviewEndpoints = [overviewPageEndpoint];
