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
/** Its minimum length is MIN_DEVICE_ID_LENGTH (the signup route sets it). */
export const deviceId = storedText().max(128);

const HIDDEN = /[\p{Cc}\p{Cf}]/u;
// A letter, digit, punctuation mark or symbol that renders: fillers such as U+3164 are letters that draw nothing.
const VISIBLE = /(?!\p{Default_Ignorable_Code_Point})[\p{L}\p{N}\p{P}\p{S}]/u;

/**
 * A name people read. NFC-normalised, so one name has one spelling; no control or format
 * characters (bidi overrides such as U+202E, zero-width characters), with which a name could pass
 * for another or reorder what follows it; and at least one visible character.
 */
const readableName = (max: number) =>
  Joi.string()
    .normalize('NFC')
    .trim()
    .min(1)
    .max(max)
    .custom((value: string, helpers) => {
      if (HIDDEN.test(value)) return helpers.error('name.hidden');
      return VISIBLE.test(value) ? value : helpers.error('name.invisible');
    })
    .messages({
      'name.hidden': 'must not contain control or format characters (such as U+202E or zero-width characters)',
      'name.invisible': 'must contain at least one visible character',
    });

/** The name of a game, leaderboard, clan or third-party key. */
export const name = readableName(100);

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

export const displayName = readableName(32);

export const leaderboardParams = Joi.object({ leaderboard_id: leaderboardId.required() });
export const pageQuery = Joi.object({ limit, offset, clan: flag });
/** The paging of management lists (leaderboards, games, keys). */
export const listQuery = Joi.object({ limit, offset });
