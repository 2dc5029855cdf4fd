import type { RequestHandler } from 'express';
import Joi from 'joi';
import type { Engine } from '../../../engine/engine.js';
import { validate } from '../../middleware/validate.js';
import { avatarUrl } from '../../views.js';
import { leaderboardParams, limit, offset } from '../schemas.js';
import { readRows, type Row } from './rows.js';

export const viewSchema = Joi.string().valid('players', 'clans').default('players');
const entriesQuery = Joi.object({ token: Joi.any(), offset, limit, view: viewSchema });

/** The token from ?token= (a repeated parameter counts as none). */
export function queryToken(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function entryView(baseUrl: string, row: Row) {
  if (row.memberCount !== undefined) {
    return { clan_id: row.id, name: row.name, member_count: row.memberCount, score: row.score, rank: row.rank, is_viewer: row.viewer };
  }
  return {
    player_id: row.id,
    display_name: row.name,
    avatar_url: avatarUrl(baseUrl, row.id),
    clan_id: row.clanId ?? null,
    score: row.score,
    rank: row.rank,
    is_viewer: row.viewer,
  };
}

/**
 * The page's "more" data: further entries as JSON, authenticated by the page's own token. Errors
 * are the API's JSON errors, since the page's script (not a person) reads them.
 */
export function entriesRoute(engine: Engine): RequestHandler[] {
  const authenticate: RequestHandler = (req, res, next) => {
    res.locals.viewer = engine.credentials.viewer(queryToken(req.query.token));
    next();
  };
  const handle: RequestHandler = async (_req, res) => {
    const { params, query, viewer } = res.locals;
    const { leaderboard, view, total, rows } = await readRows(engine, viewer, params.leaderboard_id, query.view, query.offset, query.limit);
    res.json({
      leaderboard_id: leaderboard.id,
      view,
      total,
      limit: query.limit,
      offset: query.offset,
      entries: rows.map((row) => entryView(engine.config.baseUrl, row)),
    });
  };
  return [authenticate, validate({ params: leaderboardParams, query: entriesQuery }), handle];
}
