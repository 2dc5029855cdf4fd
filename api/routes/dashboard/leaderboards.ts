import { endpoint } from '../endpoint.js';
import { dashboardPage, html, pageReply, screenOf } from './view.js';

export const leaderboardsPageEndpoint = endpoint({
  method: 'get',
  path: '/dashboard/leaderboards',
  operationId: 'listDashboardLeaderboards',
  tag: 'Dashboard',
  summary: 'Leaderboards',
  description: 'The Leaderboards page.',
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  responses: { 200: { content: 'text/html', description: 'The page' } },
  errors: [],
  handler({ caller: { game }, app, req, res }) {
    const screen = screenOf(app, req, res, game);
    return pageReply(dashboardPage(screen, { title: 'Leaderboards', section: 'Leaderboards', body: html`<p>To be built.</p>` }));
  },
});

export const leaderboardsEndpoints = [leaderboardsPageEndpoint];
