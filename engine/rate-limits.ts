import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimitedError } from './errors.js';
import { rateLimitPrefix } from './live/keys.js';
import type { RedisClient } from './live/redis.js';

export interface Limiter {
  /** Counts one use by `key`; throws RateLimitedError when it is over the limit. */
  consume(key: string): Promise<void>;
  /** Gives back the use `consume` counted (for limits that count only failures). */
  refund(key: string): Promise<void>;
}

const UNLIMITED: Limiter = { consume: async () => undefined, refund: async () => undefined };

/** Abuse limits, counted in Redis so every process shares them. */
export class RateLimits {
  constructor(
    private readonly deps: {
      redis: RedisClient;
      keyPrefix: string;
    },
  ) {}

  /** At most `points` uses per key in each window of `durationSeconds`; 0 points is no limit. */
  limiter(name: string, points: number, durationSeconds: number): Limiter {
    if (points === 0) return UNLIMITED;
    const limiter = new RateLimiterRedis({
      storeClient: this.deps.redis,
      keyPrefix: `${rateLimitPrefix(this.deps.keyPrefix)}:${name}`,
      points,
      duration: durationSeconds,
    });
    return {
      async consume(key) {
        try {
          await limiter.consume(key);
        } catch (rejection) {
          if (rejection instanceof RateLimiterRes) throw new RateLimitedError(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
          throw rejection;
        }
      },
      async refund(key) {
        await limiter.reward(key, 1);
      },
    };
  }
}
