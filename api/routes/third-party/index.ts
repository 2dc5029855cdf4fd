import { Router } from 'express';
import Joi from 'joi';
import type { Engine } from '../../../engine/engine.js';
import { NotFoundError } from '../../../engine/errors.js';
import type { Authenticators } from '../../middleware/auth.js';
import type { RateLimits } from '../../middleware/rate-limit.js';
import { validate } from '../../middleware/validate.js';
import { aliasId, aliasType, clanId, flag, leaderboardId, leaderboardParams, limit, offset, pageQuery } from '../schemas.js';
import { clanRecordView, memberEntryView, pageView, playerRecordView } from '../../views.js';

const playerParams = Joi.object({ leaderboard_id: leaderboardId.required(), alias_id: aliasId.required() });
const playerQuery = Joi.object({ alias_type: aliasType, clan: flag });
const clanParams = Joi.object({ leaderboard_id: leaderboardId.required(), clan_id: clanId.required() });
const membersQuery = Joi.object({ limit, offset });

/** Endpoints 7-10: read-only access for outside integrations (Api-Key). */
export function thirdPartyRoutes(engine: Engine, auth: Authenticators, limits: RateLimits): Router {
  const router = Router();
  const base = '/leaderboards/:leaderboard_id';

  router.get(base, auth.thirdParty, limits.thirdParty, validate({ params: leaderboardParams, query: pageQuery }), async (_req, res) => {
    const { limit, offset, clan } = res.locals.query;
    const page = await engine.reader.page(res.locals.game.id, res.locals.params.leaderboard_id, clan ? 'clans' : 'players', offset, limit);
    res.json(pageView(engine.config.baseUrl, page, limit, offset));
  });

  router.get(`${base}/player/:alias_id`, auth.thirdParty, limits.thirdParty, validate({ params: playerParams, query: playerQuery }), async (_req, res) => {
    const gameId = res.locals.game.id;
    const { leaderboard_id, alias_id } = res.locals.params;
    const { alias_type, clan } = res.locals.query;
    const playerId = alias_type ? await engine.players.findByAlias(gameId, alias_type, alias_id) : alias_id;
    if (!playerId) throw new NotFoundError('player_not_found', `No player of this game has the ${alias_type} alias '${alias_id}'.`);
    if (!clan) {
      res.json(playerRecordView(engine.config.baseUrl, await engine.scores.record(gameId, leaderboard_id, playerId)));
      return;
    }
    const player = await engine.players.get(gameId, playerId);
    if (!player.clanId) throw new NotFoundError('clan_not_found', `Player '${playerId}' is not in a clan.`);
    res.json(clanRecordView(await engine.reader.clanRecord(gameId, leaderboard_id, player.clanId)));
  });

  router.get(`${base}/clans/:clan_id`, auth.thirdParty, limits.thirdParty, validate({ params: clanParams }), async (_req, res) => {
    const { leaderboard_id, clan_id } = res.locals.params;
    res.json(clanRecordView(await engine.reader.clanRecord(res.locals.game.id, leaderboard_id, clan_id)));
  });

  router.get(`${base}/clans/:clan_id/members`, auth.thirdParty, limits.thirdParty, validate({ params: clanParams, query: membersQuery }), async (_req, res) => {
    const { leaderboard_id, clan_id } = res.locals.params;
    const { limit, offset } = res.locals.query;
    const members = await engine.reader.clanMembers(res.locals.game.id, leaderboard_id, clan_id, offset, limit);
    res.json({
      leaderboard_id: members.leaderboard.id,
      clan_id: members.clan.id,
      total: members.total,
      limit,
      offset,
      entries: members.entries.map((entry) => memberEntryView(engine.config.baseUrl, entry)),
    });
  });
  return router;
}
