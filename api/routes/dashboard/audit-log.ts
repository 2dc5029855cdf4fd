import { endpoint } from '../endpoint.js';
import { beforeEntry, limit, object } from '../schemas.js';
import { html } from '../../html.js';
import { pager } from './pager.js';
import { dashboardPage, dataTable, href, pageReply, screenOf } from './view.js';

export const auditLogPageEndpoint = endpoint({
  method: 'get',
  path: '/dashboard/audit-log',
  operationId: 'listDashboardAuditLog',
  tag: 'Dashboard',
  summary: 'Audit log',
  description:
    'The game’s audit log (as GET /api/v1/server/audit_log), newest first, `limit` (50) entries a page; "Older entries" passes next_before as `before`.',
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  query: object({ limit, before: beforeEntry }),
  responses: { 200: { content: 'text/html', description: 'The page' } },
  errors: [400],
  async handler({ caller: { game }, query, app, req, res }) {
    const screen = screenOf(app, req, res, game);
    const { entries, nextBefore } = await app.engine.auditLog.page(game.id, query.before, query.limit);
    const rows = entries.map(
      (entry) =>
        html`<tr>
          <td><time datetime="${entry.at.toISOString()}">${entry.at.toISOString().replace('T', ' ').slice(0, 19)}</time></td>
          <td>${entry.actor}</td>
          <td><code>${entry.action}</code></td>
          <td>${entry.target}</td>
          <td><code class="details">${JSON.stringify(entry.details)}</code></td>
        </tr>`,
    );
    // Read by a cursor (the last entry shown), not an offset: back to the newest, or on to older ones.
    const newest = query.before !== undefined ? { href: href(screen, `/audit-log?limit=${query.limit}`), label: 'Newest entries' } : null;
    const older =
      nextBefore !== null ? { href: href(screen, `/audit-log?limit=${query.limit}&before=${nextBefore}`), label: 'Older entries' } : null;
    const body = html`<section class="card">
      ${
        entries.length === 0
          ? html`<p>No entry yet.</p>`
          : html`${dataTable(['Time (UTC)', 'Actor', 'Action', 'Target', 'Details'], rows, { className: 'audit-log' })}`
      }
      ${pager('Audit log pages', newest, older)}
    </section>`;
    return pageReply(dashboardPage(screen, { title: 'Audit log', section: 'Audit log', body }));
  },
});

export const auditLogEndpoints = [auditLogPageEndpoint];
