/**
 * The one error hierarchy. Engine and worker code throw these with a stable `code`; only the API's
 * error middleware knows which HTTP status each code means.
 */
/** Every error code a client can receive: the list is closed, and the API maps each to one HTTP status. */
export const ERROR_CODES = [
  'invalid_json',
  'validation_failed',
  'not_a_clan_leaderboard',
  'missing_key',
  'invalid_key',
  'missing_token',
  'invalid_token',
  'missing_admin_token',
  'invalid_admin_token',
  'client_reports_disabled',
  'forbidden',
  'player_banned',
  'leaderboard_closed',
  'not_entered',
  'attempts_exhausted',
  'not_found',
  'leaderboard_not_found',
  'player_not_found',
  'record_not_found',
  'clan_not_found',
  'game_not_found',
  'key_not_found',
  'season_not_found',
  'group_not_found',
  'webhook_not_found',
  'review_not_found',
  'delivery_not_found',
  'already_exists',
  'conflict',
  'leaderboard_full',
  'already_claimed',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'unavailable',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorDetail {
  field: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(
    message: string,
    details?: ErrorDetail[],
    code: Extract<ErrorCode, 'validation_failed' | 'not_a_clan_leaderboard'> = 'validation_failed',
  ) {
    super(code, message, details);
  }
}

export class NotFoundError extends AppError {
  constructor(code: Extract<ErrorCode, 'not_found' | `${string}_not_found`>, message: string) {
    super(code, message);
  }
}

export class AuthenticationError extends AppError {
  constructor(
    code: Extract<
      ErrorCode,
      'missing_key' | 'invalid_key' | 'missing_token' | 'invalid_token' | 'missing_admin_token' | 'invalid_admin_token'
    >,
    message: string,
  ) {
    super(code, message);
  }
}

/** A signed token whose player was erased is refused like a forged one: that player is gone. */
export function erasedPlayerToken(): AuthenticationError {
  return new AuthenticationError('invalid_token', 'The anonymous token belongs to a player who no longer exists.');
}

export class ForbiddenError extends AppError {
  constructor(
    message: string,
    code: Extract<
      ErrorCode,
      'forbidden' | 'client_reports_disabled' | 'player_banned' | 'leaderboard_closed' | 'not_entered' | 'attempts_exhausted'
    > = 'forbidden',
    details?: ErrorDetail[],
  ) {
    super(code, message, details);
  }
}

export class ConflictError extends AppError {
  constructor(
    message: string,
    code: Extract<ErrorCode, 'conflict' | 'already_exists' | 'leaderboard_full' | 'already_claimed'> = 'conflict',
    details?: ErrorDetail[],
  ) {
    super(code, message, details);
  }
}

export class RateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super('rate_limited', `Too many requests; retry after ${retryAfterSeconds} s.`);
  }
}

export class UnavailableError extends AppError {
  constructor(message = 'A backing service is unreachable; retry shortly.') {
    super('unavailable', message);
  }
}

const CONNECTION_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);

/**
 * True for failures that mean Redis or PostgreSQL is unreachable (as opposed to a bug): these become
 * 503 for clients and a retry for worker jobs.
 */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof UnavailableError) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (CONNECTION_ERROR_CODES.has(code)) return true;
    // PostgreSQL SQLSTATE classes 08 (connection exception) and 57P (operator intervention).
    if (/^(08|57P)/.test(code)) return true;
  }
  const text = error.message;
  return (
    error.name === 'MaxRetriesPerRequestError' ||
    /Stream isn't writeable|Connection is closed|Command timed out|Connection terminated|timeout exceeded when trying to connect|CLUSTERDOWN|TRYAGAIN|LOADING|MASTERDOWN/i.test(
      text,
    )
  );
}
