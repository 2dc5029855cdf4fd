import type { Request, RequestHandler, Response } from 'express';
import type { Config } from '../../engine/config.js';
import type { RateLimits as EngineRateLimits } from '../../engine/rate-limits.js';

/**
 * Abuse limits, counted by the engine in Redis so every API process shares them: signups per IP,
 * client reports per player, third-party reads per key, and the web page and avatars per IP (no
 * credential bounds those), and the dashboard and its sign-in attempts per IP. A limit of 0 is off.
 */
export function rateLimits(limits: EngineRateLimits, config: Readonly<Config>) {
  const {
    signupsPerIpPerMinute,
    reportsPerPlayerPerSecond,
    thirdPartyPerKeyPerSecond,
    webPerIpPerMinute,
    dashboardPerIpPerMinute,
    dashboardSignInsPerIpPerMinute,
  } = config.rateLimits;
  return {
    signups: limit(limits, 'signup', signupsPerIpPerMinute, 60, (req) => req.ip ?? 'unknown'),
    reports: limit(limits, 'report', reportsPerPlayerPerSecond, 1, (_req, res) => callerId(res, 'playerId')),
    thirdParty: limit(limits, 'third-party', thirdPartyPerKeyPerSecond, 1, (_req, res) => callerId(res, 'keyId')),
    web: limit(limits, 'web', webPerIpPerMinute, 60, (req) => req.ip ?? 'unknown'),
    dashboard: limit(limits, 'dashboard', dashboardPerIpPerMinute, 60, (req) => req.ip ?? 'unknown'),
    // Failed sign-ins only: a right key gives its attempt back (`refundAttempt`), so signing in often is never held up.
    dashboardSignIn: limit(limits, 'dashboard-sign-in', dashboardSignInsPerIpPerMinute, 60, (req) => req.ip ?? 'unknown', {
      refundable: true,
    }),
  };
}

export type RateLimits = ReturnType<typeof rateLimits>;

/** Gives back the attempt a refundable limit counted for this request (a success that should not count). */
export async function refundAttempt(res: Response): Promise<void> {
  const refund = res.locals.refundAttempt as (() => Promise<void>) | undefined;
  await refund?.();
}

/** The id a per-caller limit counts by, from the caller the endpoint's authenticator left. */
function callerId(res: Response, field: 'playerId' | 'keyId'): string {
  const id = (res.locals.caller as Partial<Record<typeof field, unknown>>)[field];
  if (typeof id !== 'string') throw new Error(`a per-caller limit must follow the authenticator that proves ${field}`);
  return id;
}

function limit(
  limits: EngineRateLimits,
  name: string,
  points: number,
  durationSeconds: number,
  keyOf: (req: Request, res: Response) => string,
  { refundable = false } = {},
): RequestHandler {
  if (points === 0) return (_req, _res, next) => next();
  const limiter = limits.limiter(name, points, durationSeconds);
  return async (req, res, next) => {
    const key = keyOf(req, res);
    // Counted before the work, so a flood is refused before anything is checked; the route may give it back.
    await limiter.consume(key);
    if (refundable) res.locals.refundAttempt = () => limiter.refund(key);
    next();
  };
}
