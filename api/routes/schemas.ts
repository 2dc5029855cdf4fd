import Joi from 'joi';

/** Input rules shared by the routes (CONTRACT section 1). */
export const leaderboardId = Joi.string().pattern(/^[A-Za-z0-9_.-]{1,64}$/).messages({
  'string.pattern.base': 'must be 1-64 characters of A-Z, a-z, 0-9, _ . -',
});
export const clanId = leaderboardId;
/** Any shape is accepted: a player id no player has is a 404, never a 400. */
export const playerId = Joi.string().min(1).max(1024);
export const aliasType = Joi.string().pattern(/^[a-z0-9_]{1,32}$/).messages({
  'string.pattern.base': 'must be 1-32 characters of a-z, 0-9, _',
});

/** A string the service stores: PostgreSQL text cannot hold U+0000. */
const storedText = () =>
  Joi.string()
    .custom((value: string, helpers) => (value.includes('\u0000') ? helpers.error('string.nul') : value))
    .messages({ 'string.nul': 'must not contain the NUL character (U+0000)' });

export const aliasId = storedText().min(1).max(128);
export const deviceId = storedText().min(1).max(128);
/** The name of a game, leaderboard, clan or third-party key. */
export const name = storedText().trim().min(1).max(100);

/** A finite number, or a string holding a decimal number. */
export const score = Joi.number().unsafe().messages({
  'number.base': 'must be a finite number',
  'number.infinity': 'must be a finite number',
});

const digits = (min: number, max: number, fallback: number) =>
  Joi.string()
    .pattern(/^\d{1,15}$/)
    .custom((value: string, helpers) => {
      const n = Number(value);
      return n < min || n > max ? helpers.error('number.range') : n;
    })
    .default(fallback)
    .messages({
      'string.pattern.base': `must be a whole number from ${min} to ${max}`,
      'number.range': `must be a whole number from ${min} to ${max}`,
    });

export const limit = digits(1, 1000, 50);
export const offset = digits(0, Number.MAX_SAFE_INTEGER, 0);
export const flag = Joi.boolean().truthy('1').falsy('0').default(false);

export const displayName = Joi.string()
  .trim()
  .min(1)
  .max(32)
  .pattern(/^[^\p{Cc}]*$/u)
  .messages({ 'string.pattern.base': 'must not contain control characters' });

export const leaderboardParams = Joi.object({ leaderboard_id: leaderboardId.required() });
export const pageQuery = Joi.object({ limit, offset, clan: flag });
/** The paging of management lists (leaderboards, games, keys). */
export const listQuery = Joi.object({ limit, offset });
