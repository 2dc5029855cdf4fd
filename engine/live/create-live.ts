import { LiveStateGuard, type ApplyMoves, type Recover } from './live-state-guard.js';
import type { PersistenceHooks } from './persistence-hooks.js';
import { Rankings } from './rankings.js';
import type { RedisClient } from './redis.js';
import { SeasonRotation } from './season-rotation.js';

/**
 * The live layer: a board's reads and writes (Rankings) and its seasons (SeasonRotation), sharing
 * one guard, so a call that finds its season due ends it through the rotation and asks again. The
 * recovery of a board that lost its live state lives above this layer: it is given with `recoverWith`.
 */
export function createLive(deps: { redis: RedisClient; prefix: string; persistence: PersistenceHooks }) {
  const guard = new LiveStateGuard();
  const rankings = new Rankings({ ...deps, guard });
  const rotation = new SeasonRotation({ ...deps, guard });
  guard.endDueWith((board, season) => rotation.reset(board, season, 'due'));
  return {
    rankings,
    rotation,
    /** How a board that lost its live state is rebuilt before a call on it is asked again. */
    recoverWith: (recover: Recover) => guard.recoverWith(recover),
    /** How an ended season's league moves are applied before a player joins a group of the next one. */
    movesWith: (applyMoves: ApplyMoves) => guard.movesWith(applyMoves),
  };
}
