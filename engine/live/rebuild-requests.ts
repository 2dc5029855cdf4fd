import { requestRebuildKeys } from './keys.js';
import type { RedisClient } from './redis.js';

/** Which boards a rebuild walk visits: those that lost their live state, or every one (merged back). */
export type RebuildMode = 'lost' | 'all';

/**
 * Asks for a rebuild walk from the start (engine/recovery/rebuild.ts carries it out); a walk of every
 * board is never narrowed. Here, below both, so the dataset guard and the rebuild ask the same way.
 */
export async function requestRebuild(redis: RedisClient, prefix: string, mode: RebuildMode): Promise<void> {
  await redis.requestRebuild(...requestRebuildKeys(prefix), mode);
}
