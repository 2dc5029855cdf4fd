import type { ErrorRequestHandler } from 'express';
import { NotFoundError } from '../../../engine/errors.js';
import type { Logger } from '../../../engine/logger.js';
import type { Assets } from './asset-files.js';
import { assetsEndpoint } from './assets.js';
import { avatarEndpoint } from './avatar.js';
import { entriesEndpoint } from './entries.js';
import { htmlErrors } from './error-page.js';
import { pageEndpoint } from './page.js';

/**
 * The leaderboard web page for webviews (with its data and assets) and the player avatars. The page,
 * its entries and the avatars take no key, so a per-IP limit bounds what one client can ask of them.
 */
export const webEndpoints = [assetsEndpoint, avatarEndpoint, entriesEndpoint, pageEndpoint];

const PAGE_PATH = /^\/leaderboards\/[^/]+\/?$/;
const AVATAR_PATH = /^\/api\/v1\/users\/[^/]+\/avatar\.png$/;

/**
 * Errors of the page become pages. An id that is not even valid percent-encoding fails before
 * any route runs; it names no player and no leaderboard either.
 */
export function webErrors(assets: Assets, logger: Logger): ErrorRequestHandler {
  const pageErrors = htmlErrors(assets, logger);
  return (error, req, res, next) => {
    if (PAGE_PATH.test(req.path)) return pageErrors(error, req, res, next);
    if (error instanceof URIError && AVATAR_PATH.test(req.path)) {
      return next(new NotFoundError('player_not_found', 'No player has this id.'));
    }
    next(error);
  };
}
