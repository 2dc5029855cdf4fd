import express, { type RequestHandler } from 'express';
import { AppError } from '../../engine/errors.js';

const parseJson = express.json({ limit: '64kb', strict: false, type: () => true });
const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * JSON bodies only, at most 64 KiB. A request without body bytes has no body (whatever its headers
 * say), and a body on a GET or a DELETE (no endpoint reads one) is ignored.
 */
export function jsonBody(): RequestHandler {
  return (req, res, next) => {
    req.body = undefined;
    if (!METHODS_WITH_BODY.has(req.method)) return next();
    const length = req.headers['content-length'];
    if (length === '0' || (length === undefined && req.headers['transfer-encoding'] === undefined)) return next();
    if (!req.is(['application/json', 'application/*+json'])) {
      return next(
        new AppError('unsupported_media_type', 'Send the request body as JSON with "Content-Type: application/json".'),
      );
    }
    parseJson(req, res, next);
  };
}
