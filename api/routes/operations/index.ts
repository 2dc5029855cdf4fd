import { Router } from 'express';
import type { Engine } from '../../../engine/engine.js';
import type { HttpMetrics } from '../../metrics.js';

/** Liveness, readiness (Redis, PostgreSQL, persistence backlog) and Prometheus metrics. */
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

  router.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', metrics.registry.contentType);
    res.send(await metrics.registry.metrics());
  });
  return router;
}
