import { createServer, type Server } from 'node:http';
import type { Express } from 'express';
import type { Config } from '../engine/config.js';

type ServerLimits = Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs' | 'maxConnections'>;

/**
 * The API's HTTP server, not yet listening. Slow clients are cut off (headers within
 * HEADERS_TIMEOUT_MS, the whole request within REQUEST_TIMEOUT_MS, answered 408) and open
 * connections are capped by MAX_CONNECTIONS, so clients that trickle bytes cannot hold the
 * process's sockets for minutes.
 */
export function createHttpServer(app: Express, limits: Readonly<ServerLimits>): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // Node checks both timeouts on this interval; its default of 30 s would let a 10 s limit run to 40 s.
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    },
    app,
  );
  // Longer than the usual load balancer's idle timeout (60 s), so the balancer always closes first.
  server.keepAliveTimeout = 65_000;
  if (limits.maxConnections > 0) server.maxConnections = limits.maxConnections;
  return server;
}
