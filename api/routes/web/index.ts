import { Router } from 'express';
import type { Engine } from '../../../engine/engine.js';

/** The leaderboard web page for webviews and the player avatars. */
export function webRoutes(_engine: Engine): Router {
  return Router();
}
