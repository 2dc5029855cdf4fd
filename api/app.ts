import express, { type Express } from 'express';
import helmet from 'helmet';
import type { Engine } from '../engine/engine.js';
import { HttpMetrics } from './metrics.js';
import { authenticators } from './middleware/auth.js';
import { errorHandler, notFound } from './middleware/errors.js';
import { jsonBody } from './middleware/json-body.js';
import { noStoreWhenCredentialed } from './middleware/no-store.js';
import { rateLimits } from './middleware/rate-limit.js';
import { requestContext } from './middleware/request-context.js';
import { adminRoutes } from './routes/admin/index.js';
import { clientLeaderboardRoutes } from './routes/client/leaderboards.js';
import { clientPlayerRoutes } from './routes/client/players.js';
import { clientScoreRoutes } from './routes/client/scores.js';
import { documentationRoutes } from './routes/documentation/index.js';
import { operationRoutes } from './routes/operations/index.js';
import { serverClanRoutes } from './routes/server/clans.js';
import { serverLeaderboardRoutes } from './routes/server/leaderboards.js';
import { serverScoreRoutes } from './routes/server/scores.js';
import { serverThirdPartyKeyRoutes } from './routes/server/third-party-keys.js';
import { thirdPartyRoutes } from './routes/third-party/index.js';
import { signupRoutes } from './routes/signup/index.js';
import { webRoutes } from './routes/web/index.js';

/** Builds the HTTP app without listening: main.ts listens, tests drive it in-process. */
export function createApp(engine: Engine, metrics = new HttpMetrics()): Express {
  const app = express();
  app.disable('x-powered-by');
  // Bodies are not hashed for ETags: API answers are live data, and the avatar and assets set their own.
  app.set('etag', false);
  app.set('trust proxy', engine.config.trustProxy);
  const auth = authenticators(engine.credentials);
  const limits = rateLimits(engine.rateLimits, engine.config);

  app.use(requestContext(engine.logger, metrics));
  app.use(noStoreWhenCredentialed());
  // helmet's full set (CSP, HSTS, frame and referrer policies…) is for what a browser renders; JSON
  // answers need only nosniff, and a dozen headers per report cost real throughput.
  app.use(['/leaderboards', '/web-assets', '/docs', '/api/v1/users'], helmet());
  app.use(jsonBody());

  // Each router sits under its own prefix, so a request only walks the routes that can match it;
  // the hottest come first.
  app.use('/api/v1/client', clientScoreRoutes(engine, auth, limits), clientLeaderboardRoutes(engine, auth), clientPlayerRoutes(engine, auth));
  app.use('/api/v1/server', serverScoreRoutes(engine, auth), serverLeaderboardRoutes(engine, auth), serverClanRoutes(engine, auth), serverThirdPartyKeyRoutes(engine, auth));
  app.use('/api/v1/third_party', thirdPartyRoutes(engine, auth, limits));
  app.use('/api/v1/signup', signupRoutes(engine, auth, limits));
  app.use('/api/v1/admin', adminRoutes(engine, auth));
  app.use(webRoutes(engine, limits));
  app.use(operationRoutes(engine, metrics));
  app.use(documentationRoutes());

  app.use(notFound());
  app.use(errorHandler(engine.logger));
  return app;
}
