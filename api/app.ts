import express, { type Express } from 'express';
import helmet from 'helmet';
import type { Engine } from '../engine/engine.js';
import { HttpMetrics } from './metrics.js';
import { authenticators } from './middleware/auth.js';
import { errorHandler, notFound } from './middleware/errors.js';
import { jsonBody } from './middleware/json-body.js';
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
  app.set('trust proxy', engine.config.trustProxy);
  const auth = authenticators(engine.credentials);
  const limits = rateLimits(engine.redis, engine.config);

  app.use(requestContext(engine.logger, metrics));
  app.use(helmet());
  app.use(jsonBody());

  app.use(operationRoutes(engine, metrics));
  app.use(documentationRoutes());
  app.use(webRoutes(engine));
  app.use(signupRoutes(engine, auth, limits));
  app.use(adminRoutes(engine, auth));
  app.use(clientScoreRoutes(engine, auth, limits));
  app.use(clientPlayerRoutes(engine, auth));
  app.use(clientLeaderboardRoutes(engine, auth));
  app.use(serverScoreRoutes(engine, auth));
  app.use(serverLeaderboardRoutes(engine, auth));
  app.use(serverClanRoutes(engine, auth));
  app.use(serverThirdPartyKeyRoutes(engine, auth));
  app.use(thirdPartyRoutes(engine, auth, limits));

  app.use(notFound());
  app.use(errorHandler(engine.logger));
  return app;
}
