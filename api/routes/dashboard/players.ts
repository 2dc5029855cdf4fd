import { endpoint } from '../endpoint.js';
import { dashboardPage, html, pageReply, screenOf } from './view.js';

export const playersPageEndpoint = endpoint({
  method: 'get',
  path: '/dashboard/players',
  operationId: 'listDashboardPlayers',
  tag: 'Dashboard',
  summary: 'Players',
  description: 'The Players page.',
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  responses: { 200: { content: 'text/html', description: 'The page' } },
  errors: [],
  handler({ caller: { game }, app, req, res }) {
    const screen = screenOf(app, req, res, game);
    return pageReply(dashboardPage(screen, { title: 'Players', section: 'Players', body: html`<p>To be built.</p>` }));
  },
});

export const playersEndpoints = [playersPageEndpoint];
