import { Router } from 'express';
import Joi from 'joi';
import type { Engine } from '../../../engine/engine.js';
import type { Authenticators } from '../../middleware/auth.js';
import { validate } from '../../middleware/validate.js';
import { displayName } from '../schemas.js';
import { playerView } from '../../views.js';

const renameBody = Joi.object({ display_name: displayName.required() });

/** A player renames themself. */
export function clientPlayerRoutes(engine: Engine, auth: Authenticators): Router {
  const router = Router();
  router.patch('/players/me', auth.gameClient, validate({ body: renameBody }), async (_req, res) => {
    const player = await engine.players.rename(res.locals.game.id, res.locals.playerId!, res.locals.body.display_name);
    res.json(playerView(player, await engine.players.aliasesOf(player.id)));
  });
  return router;
}
