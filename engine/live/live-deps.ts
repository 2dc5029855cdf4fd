import type { LiveStateGuard } from './live-state-guard.js';
import type { PersistenceHooks } from './persistence-hooks.js';
import type { RedisClient } from './redis.js';

/** What the live layer's gateways are built from (engine/live/create-live.ts wires them). */
export interface LiveDeps {
  redis: RedisClient;
  /** The deployment's Redis key prefix (REDIS_KEY_PREFIX). */
  prefix: string;
  persistence: PersistenceHooks;
  guard: LiveStateGuard;
}
