import { Router, type RequestHandler } from 'express';
import { constantTimeEqual } from '../../../engine/credentials.js';
import type { Engine } from '../../../engine/engine.js';
import { AuthenticationError } from '../../../engine/errors.js';
import type { HttpMetrics } from '../../metrics.js';

/**
 * /metrics tells Node's version, memory and every route's traffic: only a scraper that holds
 * METRICS_TOKEN may read it.
 */
function metricsToken(token: string): RequestHandler {
  return (req, _res, next) => {
    const presented = req.headers.authorization?.replace(/^Bearer\s+/i, '').trim();
    if (!presented) throw new AuthenticationError('missing_token', 'Send the metrics token as "Authorization: Bearer <METRICS_TOKEN>".');
    if (!constantTimeEqual(presented, token)) throw new AuthenticationError('invalid_token', 'The metrics token is not valid.');
    next();
  };
}

/**
 * Liveness, readiness (Redis, PostgreSQL, persistence backlog) and Prometheus metrics (only when
 * METRICS_TOKEN is set; otherwise /metrics is an unknown route).
 */
export function operationRoutes(engine: Engine, metrics: HttpMetrics): Router {
  const router = Router();

  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  // Follows the boards with recent changes only, so a probe costs the same with 100,000 leaderboards.
  router.get('/readyz', async (_req, res) => {
    const { redis, postgres, pendingPersistence } = await engine.maintenance.readiness();
    if (pendingPersistence !== null) metrics.pendingPersistence.set(pendingPersistence);
    const ready = redis === 'ok' && postgres === 'ok';
    if (!ready) res.setHeader('Retry-After', '1');
    res.status(ready ? 200 : 503).json({ redis, postgres, pending_persistence: pendingPersistence });
  });

  const token = engine.config.metricsToken;
  if (token) {
    router.get('/metrics', metricsToken(token), async (_req, res) => {
      res.setHeader('Content-Type', metrics.registry.contentType);
      res.send(await metrics.registry.metrics());
    });
  }
  return router;
}
