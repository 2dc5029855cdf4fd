import { endpoint } from '../endpoint.js';
import { dashboardPage, html, pageReply, screenOf } from './view.js';

export const settingsPageEndpoint = endpoint({
  method: 'get',
  path: '/dashboard/settings',
  operationId: 'getDashboardSettings',
  tag: 'Dashboard',
  summary: 'Settings',
  description: 'The Settings page.',
  credentials: 'dashboard',
  servedFromAppUrl: true,
  rateLimit: 'dashboard',
  responses: { 200: { content: 'text/html', description: 'The page' } },
  errors: [],
  handler({ caller: { game }, app, req, res }) {
    const screen = screenOf(app, req, res, game);
    return pageReply(dashboardPage(screen, { title: 'Settings', section: 'Settings', body: html`<p>To be built.</p>` }));
  },
});

export const settingsEndpoints = [settingsPageEndpoint];
