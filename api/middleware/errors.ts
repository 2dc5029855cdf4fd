import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError, RateLimitedError, UnavailableError, isUnavailable, type ErrorCode } from '../../engine/errors.js';
import type { Logger } from '../../engine/logger.js';

/** The one place that knows which HTTP status each error code means (a code without one does not compile). */
const STATUS: Record<ErrorCode, number> = {
  invalid_json: 400,
  validation_failed: 400,
  not_a_clan_leaderboard: 400,
  missing_key: 401,
  invalid_key: 401,
  missing_token: 401,
  invalid_token: 401,
  missing_admin_token: 401,
  invalid_admin_token: 401,
  client_reports_disabled: 403,
  forbidden: 403,
  player_banned: 403,
  leaderboard_closed: 403,
  not_entered: 403,
  attempts_exhausted: 403,
  not_found: 404,
  leaderboard_not_found: 404,
  player_not_found: 404,
  record_not_found: 404,
  season_not_found: 404,
  clan_not_found: 404,
  game_not_found: 404,
  key_not_found: 404,
  group_not_found: 404,
  webhook_not_found: 404,
  review_not_found: 404,
  delivery_not_found: 404,
  already_exists: 409,
  conflict: 409,
  leaderboard_full: 409,
  already_claimed: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
};

export function statusOf(code: ErrorCode): number {
  return STATUS[code];
}

/** Turns anything thrown (a domain error, a body-parser error, an outage, a bug) into an AppError. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (isUnavailable(error)) return new UnavailableError();
  // The router could not decode a path parameter: a path that is not valid percent-encoding names nothing.
  if (error instanceof URIError) return new AppError('not_found', 'The path is not valid percent-encoding, so it names nothing.');
  const type = (error as { type?: unknown } | null)?.type;
  switch (type) {
    case 'entity.parse.failed':
      return new AppError('invalid_json', 'The request body is not valid JSON.');
    case 'entity.too.large': {
      // The parser that refused it says its limit: 64 KiB, or 128 KiB for a server batch.
      const limit = (error as { limit?: unknown }).limit;
      const kib = typeof limit === 'number' ? limit / 1024 : 64;
      return new AppError('payload_too_large', `The request body is larger than ${kib} KiB.`);
    }
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('unsupported_media_type', 'Send the request body as UTF-8 JSON.');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new AppError('invalid_json', 'The request body could not be read completely.');
  }
  return new AppError('internal', 'Something went wrong on our side; the request id identifies it in our logs.');
}

export function notFound(): RequestHandler {
  return (req, _res, next) => {
    next(new AppError('not_found', `No endpoint answers ${req.method} ${req.path}.`));
  };
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, _req, res, _next) => {
    const appError = toAppError(error);
    const status = statusOf(appError.code);
    if (status >= 500) {
      logger.error(
        { err: error, reqId: res.locals.requestId },
        appError.code === 'internal' ? 'unhandled error' : 'backing service unavailable',
      );
    }
    if (res.headersSent) return;
    if (appError instanceof RateLimitedError) res.setHeader('Retry-After', String(appError.retryAfterSeconds));
    if (status === 503) res.setHeader('Retry-After', '1');
    res.status(status).json({
      error: {
        code: appError.code,
        message: appError.message,
        ...(appError.details ? { details: appError.details } : {}),
      },
    });
  };
}
