import { endpoint } from '../endpoint.js';
import { dashboardPage, html, pageReply, screenOf } from './view.js';

export const auditLogPageEndpoint = endpoint({
  method: 'get',
  path: '/dashboard/audit-log',
  operationId: 'listDashboardAuditLog',
  tag: 'Dashboard',
  summary: 'Audit log',
  description: 'The Audit log page.',
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  responses: { 200: { content: 'text/html', description: 'The page' } },
  errors: [],
  handler({ caller: { game }, app, req, res }) {
    const screen = screenOf(app, req, res, game);
    return pageReply(dashboardPage(screen, { title: 'Audit log', section: 'Audit log', body: html`<p>To be built.</p>` }));
  },
});

export const auditLogEndpoints = [auditLogPageEndpoint];
