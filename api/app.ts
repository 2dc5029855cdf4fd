import express, { type Express } from 'express';
import helmet from 'helmet';
import type { Engine } from '../engine/engine.js';
import { HttpMetrics } from './metrics.js';
import { authenticators } from './middleware/auth.js';
import { DashboardSessions, dashboardMiddleware, isDashboard } from './middleware/dashboard-session.js';
import { errorHandler, notFound } from './middleware/errors.js';
import { jsonBody } from './middleware/json-body.js';
import { noStoreWhenCredentialed } from './middleware/no-store.js';
import { rateLimits } from './middleware/rate-limit.js';
import { requestContext } from './middleware/request-context.js';
import { REFERENCE_CSP } from './openapi/reference/page.js';
import { ENDPOINTS, ROUTE_GROUPS } from './routes/index.js';
import { mountRoutes } from './routes/mount.js';
import { dashboardErrors } from './routes/dashboard/errors.js';
import { Assets } from './routes/web/asset-files.js';
import { basePath } from './routes/web/html.js';
import { webErrors } from './routes/web/index.js';

/** Builds the HTTP app without listening: main.ts listens, tests drive it in-process. */
export function createApp(engine: Engine, metrics = new HttpMetrics()): Express {
  const app = express();
  app.disable('x-powered-by');
  // Bodies are not hashed for ETags: API answers are live data, and the avatar and assets set their own.
  app.set('etag', false);
  app.set('trust proxy', engine.config.trustProxy);
  const sessions = new DashboardSessions(engine);
  const auth = authenticators(engine.credentials, engine.config, sessions);
  const limits = rateLimits(engine.rateLimits, engine.config);
  const base = basePath(engine.config.appUrl);
  const assets = new Assets(base);
  const context = { engine, metrics, assets, base, sessions, endpoints: ENDPOINTS };

  app.use(requestContext(engine.logger, metrics));
  app.use(noStoreWhenCredentialed());
  // helmet's full set (CSP, HSTS, frame and referrer policies…) is for what a browser renders; JSON
  // answers need only nosniff, and a dozen headers per report cost real throughput.
  app.use(['/leaderboards', '/web-assets', '/api/v1/users'], helmet());
  // The API reference runs Swagger UI: its own policy, as strict as Swagger UI allows (why, beside REFERENCE_CSP).
  app.use('/docs', helmet({ contentSecurityPolicy: { useDefaults: false, directives: REFERENCE_CSP } }));
  // Sessions, form bodies and CSRF checks are the dashboard's alone: the API's paths never pay for them.
  app.use('/dashboard', dashboardMiddleware(engine, base, limits.dashboard));
  const json = jsonBody();
  app.use((req, res, next) => (isDashboard(req.path) ? next() : json(req, res, next)));

  mountRoutes(app, ROUTE_GROUPS, context, auth, limits);

  app.use(webErrors(assets, engine.logger));
  app.use(notFound());
  app.use(dashboardErrors(context, engine.logger));
  app.use(errorHandler(engine.logger));
  return app;
}
