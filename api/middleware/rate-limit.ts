import type { Request, RequestHandler, Response } from 'express';
import type { RedisClient } from '../../engine/redis.js';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimitedError } from '../../engine/errors.js';
import { rateLimitPrefix } from '../../engine/keys.js';
import type { Config } from '../../engine/config.js';

/**
 * Abuse limits, counted in Redis so every API process shares them: signups per IP, client reports
 * per player, third-party reads per key, and the web page and avatars per IP (no credential bounds
 * those). A limit of 0 is off.
 */
export function rateLimits(redis: RedisClient, config: Readonly<Config>) {
  const prefix = rateLimitPrefix(config.redisKeyPrefix);
  const { signupsPerIpPerMinute, reportsPerPlayerPerSecond, thirdPartyPerKeyPerSecond, webPerIpPerMinute } = config.rateLimits;
  return {
    signups: limit(redis, `${prefix}:signup`, signupsPerIpPerMinute, 60, (req) => req.ip ?? 'unknown'),
    reports: limit(redis, `${prefix}:report`, reportsPerPlayerPerSecond, 1, (_req, res) => res.locals.playerId!),
    thirdParty: limit(redis, `${prefix}:third-party`, thirdPartyPerKeyPerSecond, 1, (_req, res) => res.locals.apiKeyId!),
    web: limit(redis, `${prefix}:web`, webPerIpPerMinute, 60, (req) => req.ip ?? 'unknown'),
  };
}

export type RateLimits = ReturnType<typeof rateLimits>;

function limit(
  redis: RedisClient,
  keyPrefix: string,
  points: number,
  duration: number,
  keyOf: (req: Request, res: Response) => string,
): RequestHandler {
  if (points === 0) return (_req, _res, next) => next();
  const limiter = new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration });
  return async (req, res, next) => {
    try {
      await limiter.consume(keyOf(req, res));
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw new RateLimitedError(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
      throw rejection;
    }
    next();
  };
}
