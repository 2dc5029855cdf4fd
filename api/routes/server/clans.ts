import { Router } from 'express';
import Joi from 'joi';
import type { Engine } from '../../../engine/engine.js';
import type { Authenticators } from '../../middleware/auth.js';
import { validate } from '../../middleware/validate.js';
import { aliasId, aliasType, clanId, displayName, name, playerId } from '../schemas.js';
import { clanView, playerView } from '../../views.js';

const clanParams = Joi.object({ clan_id: clanId.required() });
const clanBody = Joi.object({ name });
const playerParams = Joi.object({ player_id: playerId.required() });
const playerBody = Joi.object({
  display_name: displayName,
  clan_id: clanId.allow(null),
  aliases: Joi.object().pattern(aliasType, aliasId.allow(null)),
});

/** Clans and player metadata, managed by the game server. */
export function serverClanRoutes(engine: Engine, auth: Authenticators): Router {
  const router = Router();

  router.put('/clans/:clan_id', auth.secretKey, validate({ params: clanParams, body: clanBody }), async (_req, res) => {
    const { clan, created } = await engine.clans.put(res.locals.game.id, res.locals.params.clan_id, res.locals.body.name);
    res.status(created ? 201 : 200).json(clanView(clan));
  });

  router.delete('/clans/:clan_id', auth.secretKey, validate({ params: clanParams }), async (_req, res) => {
    await engine.clans.delete(res.locals.game.id, res.locals.params.clan_id);
    res.status(204).end();
  });

  router.patch('/players/:player_id', auth.secretKey, validate({ params: playerParams, body: playerBody }), async (_req, res) => {
    const body = res.locals.body;
    const { profile, aliases } = await engine.players.update(res.locals.game.id, res.locals.params.player_id, {
      ...(body.display_name !== undefined && { displayName: body.display_name }),
      ...(body.clan_id !== undefined && { clanId: body.clan_id }),
      ...(body.aliases !== undefined && { aliases: body.aliases }),
    });
    res.json(playerView(profile, aliases));
  });
  return router;
}
