import { Router } from 'express';
import Joi from 'joi';
import type { Engine } from '../../../engine/engine.js';
import type { Authenticators } from '../../middleware/auth.js';
import { validate } from '../../middleware/validate.js';
import { listQuery, name } from '../schemas.js';

const keyBody = Joi.object({ name: name.required() });
const keyParams = Joi.object({ key_id: Joi.string().min(1).max(128).required() });

/** Read-only keys for outside integrations: created, listed and revoked by the game server. */
export function serverThirdPartyKeyRoutes(engine: Engine, auth: Authenticators): Router {
  const router = Router();

  router.post('/third_party_keys', auth.secretKey, validate({ body: keyBody }), async (_req, res) => {
    const key = await engine.thirdPartyKeys.create(res.locals.game.id, res.locals.body.name);
    res.status(201).json({ key_id: key.id, name: key.name, api_key: key.apiKey });
  });

  router.get('/third_party_keys', auth.secretKey, validate({ query: listQuery }), async (_req, res) => {
    const { limit, offset } = res.locals.query;
    const { total, keys } = await engine.thirdPartyKeys.list(res.locals.game.id, offset, limit);
    res.json({
      keys: keys.map((key) => ({
        key_id: key.id,
        name: key.name,
        created_at: key.createdAt.toISOString(),
        revoked_at: key.revokedAt?.toISOString() ?? null,
      })),
      total,
      limit,
      offset,
    });
  });

  router.delete('/third_party_keys/:key_id', auth.secretKey, validate({ params: keyParams }), async (_req, res) => {
    await engine.thirdPartyKeys.revoke(res.locals.game.id, res.locals.params.key_id);
    res.status(204).end();
  });
  return router;
}
