import { Router } from 'express';
import Joi from 'joi';
import type { Engine } from '../../../engine/engine.js';
import type { Authenticators } from '../../middleware/auth.js';
import type { RateLimits } from '../../middleware/rate-limit.js';
import { validate } from '../../middleware/validate.js';
import { deviceId } from '../schemas.js';

/**
 * Endpoint 1: an anonymous token for a device; the same device always gets the same player. So a
 * device id is a bearer secret: MIN_DEVICE_ID_LENGTH can refuse ids too short to be unguessable.
 */
export function signupRoutes(engine: Engine, auth: Authenticators, limits: RateLimits): Router {
  const router = Router();
  const signupBody = Joi.object({ device_id: deviceId.min(engine.config.minDeviceIdLength) });
  router.post('/anonymous', limits.signups, auth.publishableKey, validate({ body: signupBody }), async (_req, res) => {
    const { player, token, created } = await engine.players.signup(res.locals.game.id, res.locals.body.device_id ?? null);
    res.status(created ? 201 : 200).json({ token, player_id: player.id });
  });
  return router;
}
