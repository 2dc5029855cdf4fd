import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import { toPng } from 'jdenticon';
import Joi from 'joi';
import { LRUCache } from 'lru-cache';
import type { Engine } from '../../../engine/engine.js';
import { NotFoundError } from '../../../engine/errors.js';
import { cachePublicly } from '../../middleware/no-store.js';
import { validate } from '../../middleware/validate.js';

const sizeQuery = Joi.object({
  size: Joi.string()
    .pattern(/^\d{1,3}$/)
    .custom((value: string, helpers) => {
      const n = Number(value);
      return n < 16 || n > 512 ? helpers.error('number.range') : n;
    })
    .default(128)
    .messages({
      'string.pattern.base': 'must be a whole number of pixels from 16 to 512',
      'number.range': 'must be a whole number of pixels from 16 to 512',
    }),
}).unknown(true);

/**
 * The sizes avatars are drawn at. A requested size snaps to the nearest (the larger of two equally
 * near, for a crisper image), so asking for every size from 16 to 512 draws no more than 11 images
 * per player, and a flood of distinct sizes costs about what one size does.
 */
export const AVATAR_SIZES = [16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512];

export function snapAvatarSize(size: number): number {
  return AVATAR_SIZES.reduce((best, candidate) => (Math.abs(candidate - size) <= Math.abs(best - size) ? candidate : best));
}

// Generated ids are at most 16 characters; anything far longer is unknown without asking PostgreSQL.
const LONGEST_ID = 64;

/**
 * Endpoint 6: a player's identicon. Drawing one takes a few milliseconds, and a leaderboard page
 * asks for dozens at once, so drawn images are kept (bounded by bytes), one per player and drawn
 * size. The image never changes for an id and size, so browsers may keep it long and revalidate
 * with the content-hash ETag.
 */
export function avatarRoute(engine: Engine): RequestHandler[] {
  const drawn = new LRUCache<string, { png: Buffer; etag: string }>({
    maxSize: 16 * 1024 * 1024,
    sizeCalculation: (value) => value.png.length + 64,
  });

  const handle: RequestHandler = async (req, res) => {
    const playerId = String(req.params.player_id);
    const size = snapAvatarSize(res.locals.query.size);
    // PostgreSQL refuses NUL in text: such an id cannot be anyone's, so it is not looked up.
    const lookUp = playerId.length <= LONGEST_ID && !playerId.includes('\u0000');
    const player = lookUp ? await engine.players.find(playerId) : undefined;
    if (!player) throw new NotFoundError('player_not_found', `No player has the id '${playerId.slice(0, LONGEST_ID)}'.`);

    const key = `${size}:${player.id}`;
    let image = drawn.get(key);
    if (!image) {
      const png = toPng(player.id, size);
      image = { png, etag: `"${createHash('sha256').update(png).digest('base64url').slice(0, 27)}"` };
      drawn.set(key, image);
    }
    res.setHeader('Content-Type', 'image/png');
    res.setHeader('ETag', image.etag);
    cachePublicly(res, 'public, max-age=604800');
    // Game clients on other origins show these images too; helmet's default would forbid that.
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    if (req.fresh) return res.status(304).end();
    res.send(image.png);
  };
  return [validate({ query: sizeQuery }), handle];
}
