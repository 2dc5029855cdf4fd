import { Router, type ErrorRequestHandler } from 'express';
import type { Engine } from '../../../engine/engine.js';
import { NotFoundError } from '../../../engine/errors.js';
import type { RateLimits } from '../../middleware/rate-limit.js';
import { Assets } from './assets.js';
import { avatarRoute } from './avatar.js';
import { entriesRoute } from './entries.js';
import { htmlErrors } from './error-page.js';
import { basePath } from './html.js';
import { pageRoute } from './page.js';

const PAGE_PATH = /^\/leaderboards\/[^/]+\/?$/;
const AVATAR_PATH = /^\/api\/v1\/users\/[^/]+\/avatar\.png$/;

/**
 * The leaderboard web page for webviews (with its data and assets) and the player avatars. The page,
 * its entries and the avatars take no key, so a per-IP limit bounds what one client can ask of them.
 */
export function webRoutes(engine: Engine, limits: RateLimits): Router {
  const router = Router();
  const base = basePath(engine.config.appUrl);
  const assets = new Assets(base);
  const pageErrors = htmlErrors(assets, engine.logger);

  router.get('/web-assets/:file', assets.handler());
  router.get('/api/v1/users/:player_id/avatar.png', limits.web, ...avatarRoute(engine));
  router.get('/leaderboards/:leaderboard_id/entries', limits.web, ...entriesRoute(engine));
  router.get('/leaderboards/:leaderboard_id', limits.web, pageRoute(engine, assets, base));

  // Errors of the page become pages. An id that is not even valid percent-encoding fails before
  // any route runs; it names no player and no leaderboard either.
  const errors: ErrorRequestHandler = (error, req, res, next) => {
    if (PAGE_PATH.test(req.path)) return pageErrors(error, req, res, next);
    if (error instanceof URIError && AVATAR_PATH.test(req.path)) {
      return next(new NotFoundError('player_not_found', 'No player has this id.'));
    }
    next(error);
  };
  router.use(errors);
  return router;
}
