/**
 * The one error hierarchy. Engine and worker code throw these with a stable `code`; only the API's
 * error middleware knows which HTTP status each code means.
 */
export interface ErrorDetail {
  field: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(message: string, details?: ErrorDetail[], code = 'validation_failed') {
    super(code, message, details);
  }
}

export class NotFoundError extends AppError {}

export class AuthenticationError extends AppError {}

export class ForbiddenError extends AppError {
  constructor(message: string, code = 'forbidden') {
    super(code, message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, code = 'conflict') {
    super(code, message);
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

const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);

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
