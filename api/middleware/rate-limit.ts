import type { Request, RequestHandler, Response } from 'express';
import type { Config } from '../../engine/config.js';
import type { RateLimits as EngineRateLimits } from '../../engine/rate-limits.js';

/**
 * Abuse limits, counted by the engine in Redis so every API process shares them: signups per IP,
 * client reports per player, third-party reads per key, and the web page and avatars per IP (no
 * credential bounds those). A limit of 0 is off.
 */
export function rateLimits(limits: EngineRateLimits, config: Readonly<Config>) {
  const { signupsPerIpPerMinute, reportsPerPlayerPerSecond, thirdPartyPerKeyPerSecond, webPerIpPerMinute } = config.rateLimits;
  return {
    signups: limit(limits, 'signup', signupsPerIpPerMinute, 60, (req) => req.ip ?? 'unknown'),
    reports: limit(limits, 'report', reportsPerPlayerPerSecond, 1, (_req, res) => res.locals.playerId!),
    thirdParty: limit(limits, 'third-party', thirdPartyPerKeyPerSecond, 1, (_req, res) => res.locals.apiKeyId!),
    web: limit(limits, 'web', webPerIpPerMinute, 60, (req) => req.ip ?? 'unknown'),
  };
}

export type RateLimits = ReturnType<typeof rateLimits>;

function limit(
  limits: EngineRateLimits,
  name: string,
  points: number,
  durationSeconds: number,
  keyOf: (req: Request, res: Response) => string,
): RequestHandler {
  if (points === 0) return (_req, _res, next) => next();
  const limiter = limits.limiter(name, points, durationSeconds);
  return async (req, res, next) => {
    await limiter.consume(keyOf(req, res));
    next();
  };
}
