import { endpoint } from '../endpoint.js';
import { dashboardPage, html, pageReply, screenOf } from './view.js';

export const overviewPageEndpoint = endpoint({
  method: 'get',
  path: '/dashboard/overview',
  operationId: 'getDashboardOverview',
  tag: 'Dashboard',
  summary: 'Overview',
  description: 'The Overview page.',
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  responses: { 200: { content: 'text/html', description: 'The page' } },
  errors: [],
  handler({ caller: { game }, app, req, res }) {
    const screen = screenOf(app, req, res, game);
    return pageReply(dashboardPage(screen, { title: 'Overview', section: 'Overview', body: html`<p>To be built.</p>` }));
  },
});

export const overviewEndpoints = [overviewPageEndpoint];
