import { endpoint } from '../endpoint.js';
import { Health, Ready } from '../responses.js';

const HEALTHY = { status: 'ok' } as const;

/**
 * Liveness, readiness (Redis, PostgreSQL, persistence backlog) and Prometheus metrics (only when
 * METRICS_TOKEN is set; otherwise /metrics is an unknown route).
 */
export const operationEndpoints = [
  endpoint({
    method: 'get',
    path: '/healthz',
    operationId: 'getHealth',
    tag: 'Operations',
    summary: 'The process is alive',
    description: '200 while the process runs; it checks nothing else (see /readyz).',
    credentials: 'none',
    responses: { 200: { schema: Health } },
    errors: [],
    handler: () => ({ status: 200, body: HEALTHY }),
  }),

  endpoint({
    method: 'get',
    path: '/readyz',
    operationId: 'getReadiness',
    tag: 'Operations',
    summary: 'Redis and PostgreSQL answer (200), else 503; with the persistence backlog',
    description:
      '200 when Redis and PostgreSQL both answer, else 503 with the part that is down. `pending_persistence` counts score changes accepted but not yet written to PostgreSQL (0 once the worker has caught up).',
    credentials: 'none',
    responses: { 200: { schema: Ready }, 503: { schema: Ready, description: 'Also 503' } },
    errors: [],
    // Follows the boards with recent changes only, so a probe costs the same with 100,000 leaderboards.
    async handler({ app: { engine, metrics }, res }) {
      const { redis, postgres, pendingPersistence } = await engine.maintenance.readiness();
      if (pendingPersistence !== null) metrics.pendingPersistence.set(pendingPersistence);
      const ready = redis === 'ok' && postgres === 'ok';
      const body = { redis, postgres, pending_persistence: pendingPersistence };
      if (ready) return { status: 200, body };
      res.setHeader('Retry-After', '1');
      return { status: 503, body };
    },
  }),

  endpoint({
    method: 'get',
    path: '/metrics',
    operationId: 'getMetrics',
    tag: 'Operations',
    summary: 'Prometheus metrics of this API process',
    description: 'Served only when METRICS_TOKEN is set (otherwise 404 not_found), to "Authorization: Bearer <METRICS_TOKEN>".',
    credentials: 'metrics',
    enabled: (config) => Boolean(config.metricsToken),
    responses: {
      200: {
        content: 'text/plain',
        description: 'Prometheus text exposition format',
        example:
          '# HELP http_request_duration_seconds Time to answer HTTP requests, by route and status\n# TYPE http_request_duration_seconds histogram\n',
      },
    },
    errors: [404],
    async handler({ app: { metrics }, res }) {
      res.setHeader('Content-Type', metrics.registry.contentType);
      return { status: 200, body: await metrics.registry.metrics() };
    },
  }),
];
