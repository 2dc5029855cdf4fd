import express, { type RequestHandler } from 'express';
import { AppError } from '../../engine/errors.js';

const parseJson = express.json({ limit: '64kb', strict: false, type: () => true });
// A server batch of 100 pairs may carry 1 KiB of metadata per pair.
const LARGE_BODY_PATHS = new Set(['/api/v1/server/report_scores']);
const parseLargeJson = express.json({ limit: '128kb', strict: false, type: () => true });
const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
// An ignored body is still read (and dropped), so the answer never races a client still sending it;
// past this size the connection is cut instead.
const IGNORED_BODY_LIMIT = 1024 * 1024;

/**
 * JSON bodies only, at most 64 KiB (128 KiB for a server batch). A request without body bytes has no body (whatever its headers
 * say), and a body on a GET or a DELETE (no endpoint reads one) is ignored.
 */
export function jsonBody(): RequestHandler {
  return (req, res, next) => {
    req.body = undefined;
    const length = req.headers['content-length'];
    const hasBody = !(length === '0' || (length === undefined && req.headers['transfer-encoding'] === undefined));
    if (!METHODS_WITH_BODY.has(req.method)) return hasBody ? discardBody(req, next) : next();
    if (!hasBody) return next();
    if (!req.is(['application/json', 'application/*+json'])) {
      return next(new AppError('unsupported_media_type', 'Send the request body as JSON with "Content-Type: application/json".'));
    }
    (LARGE_BODY_PATHS.has(req.path) ? parseLargeJson : parseJson)(req, res, next);
  };
}

function discardBody(req: Parameters<RequestHandler>[0], next: () => void): void {
  let received = 0;
  req.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > IGNORED_BODY_LIMIT) req.destroy();
  });
  req.once('end', () => next());
  req.resume();
}
