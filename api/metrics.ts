import { Histogram, Registry, collectDefaultMetrics, Gauge } from 'prom-client';

/** Prometheus metrics of one API process. */
export class HttpMetrics {
  readonly registry = new Registry();
  private readonly duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly pendingPersistence = new Gauge({
    name: 'leaderboard_pending_persistence',
    help: 'Score changes accepted but not yet written to PostgreSQL (as of the last /readyz or scrape)',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  // One child per method, route and status: observing through it skips hashing the labels each time.
  private readonly series = new Map<string, { observe(seconds: number): void }>();

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.series.get(key);
    if (!series) {
      series = this.duration.labels(method, route, String(status));
      this.series.set(key, series);
    }
    series.observe(seconds);
  }
}
