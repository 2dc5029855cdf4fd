import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../../engine/logger.js';
import type { HttpMetrics } from '../metrics.js';

const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request an id (echoing a valid incoming X-Request-Id) and the headers every answer
 * carries, and logs and measures it once it has been answered.
 */
export function requestContext(logger: Logger, metrics: HttpMetrics): RequestHandler {
  const logsRequests = logger.isLevelEnabled('info');
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    // Every answer gets nosniff; helmet's full set is only for browser-rendered paths (app.ts).
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = req.route ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
      metrics.observe(req.method, route, res.statusCode, seconds);
      if (logsRequests) {
        logger.info({ reqId: id, method: req.method, route, status: res.statusCode, ms: Math.round(seconds * 1e4) / 10 }, 'request');
      }
    });
    next();
  };
}
