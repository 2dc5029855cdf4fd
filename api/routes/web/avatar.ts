import { createHash } from 'node:crypto';
import { toPng } from 'jdenticon';
import Joi from 'joi';
import { LRUCache } from 'lru-cache';
import { NotFoundError } from '../../../engine/errors.js';
import { cachePublicly } from '../../middleware/no-store.js';
import { endpoint } from '../endpoint.js';
import { object, wholeNumber } from '../schemas.js';

const size = wholeNumber(16, 512, 128)
  .description('Pixels, 16-512 (default 128), drawn at the nearest of the sizes above')
  .example(128)
  .example(512);

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
 * Drawing an avatar takes a few milliseconds, and a leaderboard page asks for dozens at once, so
 * drawn images are kept (bounded by bytes), one per player and drawn size, for the process: an
 * image never changes for an id and size.
 */
const drawn = new LRUCache<string, { png: Buffer; etag: string }>({
  maxSize: 16 * 1024 * 1024,
  sizeCalculation: (value) => value.png.length + 64,
});

/** A player's identicon; browsers may keep it long and revalidate with the content-hash ETag. */
export const avatarEndpoint = endpoint({
  method: 'get',
  path: '/api/v1/users/:player_id/avatar.png',
  operationId: 'getAvatar',
  tag: 'Web page',
  summary: "The player's avatar: a deterministic identicon PNG",
  description:
    "No credentials; the same image for the same player every time. The image is drawn at the nearest of 16, 24, 32, 48, 64, 96, 128, 192, 256, 384 and 512 pixels to the size asked for (the PNG's own dimensions say which). A strong ETag and Cache-Control (public, a week) are set; a matching If-None-Match gives 304. An unknown player id of any shape is 404 player_not_found.",
  credentials: 'none',
  rateLimit: 'web',
  // Any shape: an id no player has is 404 player_not_found, never 400.
  params: object({ player_id: Joi.string().description("The service's player id") }),
  query: object({ size }).unknown(true),
  responses: {
    200: { content: 'image/png', description: 'The PNG' },
    304: { description: 'Not modified: the If-None-Match given is the current version' },
  },
  errors: [400, 404, 429],
  async handler({ params: { player_id: playerId }, query, app: { engine }, req, res }) {
    const size = snapAvatarSize(query.size);
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
    if (req.fresh) return { status: 304 };
    return { status: 200, body: image.png };
  },
});
