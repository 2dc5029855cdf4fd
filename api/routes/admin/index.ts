import { Router } from 'express';
import Joi from 'joi';
import type { Engine } from '../../../engine/engine.js';
import type { Authenticators } from '../../middleware/auth.js';
import { validate } from '../../middleware/validate.js';
import { gameView } from '../../views.js';
import { listQuery, name } from '../schemas.js';

const gameBody = Joi.object({ name: name.required() });
const gameParams = Joi.object({ game_id: Joi.string().min(1).max(64).required() });

/** Games and their keys, for whoever runs the service (ADMIN_TOKEN). */
export function adminRoutes(engine: Engine, auth: Authenticators): Router {
  const router = Router();
  router.use(auth.admin);

  router.post('/games', validate({ body: gameBody }), async (_req, res) => {
    const game = await engine.games.create(res.locals.body.name);
    res.status(201).json({
      game_id: game.id,
      name: game.name,
      publishable_key: game.publishableKey,
      secret_key: game.secretKey,
    });
  });

  router.get('/games', validate({ query: listQuery }), async (_req, res) => {
    const { limit, offset } = res.locals.query;
    const { total, games } = await engine.games.list(offset, limit);
    res.json({ games: games.map(gameView), total, limit, offset });
  });

  router.post('/games/:game_id/secret_key', validate({ params: gameParams }), async (_req, res) => {
    res.json({ secret_key: await engine.games.rotateSecretKey(res.locals.params.game_id) });
  });
  return router;
}
