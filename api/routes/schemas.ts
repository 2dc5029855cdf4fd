import Joi from 'joi';
import { joinersJoin } from './joiners.js';

/**
 * The joi schemas the endpoints share, and the few helpers that give a schema the TypeScript type of
 * the value its validation produces. Handlers receive those values, so a schema and the type a handler
 * sees cannot disagree: an object's keys are required unless wrapped in optional() (or given a default),
 * and optional() is also what makes a key's type include undefined.
 */

/** The value a schema produces once validated (with conversion). */
export type Value<S> = S extends Joi.AnySchema<infer V> ? V : never;

type Shape = Record<string, Joi.AnySchema>;
/** The value an object() of these keys produces once validated. */
export type ObjectValue<S extends Shape> = { [K in keyof S]: Value<S[K]> };

/** A key that may be absent. */
export function optional<V>(schema: Joi.AnySchema<V>): Joi.AnySchema<V | undefined> {
  // joi's types do not track presence; this is the one place that widens the type to match.
  return schema.optional() as Joi.AnySchema<V | undefined>;
}

/** A value that may also be null. */
export function nullable<V>(schema: Joi.AnySchema<V>): Joi.AnySchema<V | null> {
  // joi's types do not track allow(null); this is the one place that widens the type to match.
  return schema.allow(null) as Joi.AnySchema<V | null>;
}

/** An object of exactly these keys: each required, unless optional() or defaulted. */
export function object<S extends Shape>(shape: S): Joi.ObjectSchema<ObjectValue<S>> {
  const keys: Shape = {};
  for (const [key, schema] of Object.entries(shape)) {
    const mayBeAbsent = schema.$_getFlag('presence') === 'optional' || schema.$_getFlag('default') !== undefined;
    keys[key] = mayBeAbsent ? schema : schema.required();
  }
  return Joi.object<ObjectValue<S>>(keys);
}

export function arrayOf<V>(items: Joi.AnySchema<V>): Joi.ArraySchema<V[]> {
  return Joi.array<V[]>().items(items.required());
}

export function oneOf<const T extends readonly string[]>(...values: T): Joi.StringSchema<T[number]> {
  return Joi.string<T[number]>().valid(...values);
}

/**
 * What the OpenAPI document shows for a value instead of joi's own description: for the values joi
 * converts (a score may arrive as a decimal string) or tolerates (the web page never refuses a query).
 */
export function documentedAs<S extends Joi.AnySchema>(schema: S, jsonSchema: object): S {
  return schema.meta({ 'x-document-as': jsonSchema });
}

// ---- Identifiers (their patterns are written here only; the OpenAPI document takes them from here) ----

const ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
const ALIAS_TYPE_PATTERN = /^[a-z0-9_]{1,32}$/;

/** Input rules shared by the routes. */
export const leaderboardId = Joi.string().pattern(ID_PATTERN).messages({
  'string.pattern.base': 'must be 1-64 characters of A-Z, a-z, 0-9, _ . -',
});
export const clanId = leaderboardId;
/** Any shape is accepted: a player id no player has is a 404, never a 400. */
export const playerId = Joi.string().min(1).max(1024);
export const aliasType = Joi.string().pattern(ALIAS_TYPE_PATTERN).messages({
  'string.pattern.base': 'must be 1-32 characters of a-z, 0-9, _',
});

/** A string the service stores: PostgreSQL text cannot hold U+0000. */
// In a /u pattern a surrogate pair is one code point, so only an unpaired surrogate matches.
const UNPAIRED_SURROGATE = /\p{Cs}/u;
const UNPAIRED_MESSAGE = 'must be well-formed Unicode (no unpaired surrogate such as \\ud83d)';

/**
 * Text PostgreSQL stores (and the audit log's JSON holds): no NUL, which text columns refuse, and no
 * unpaired surrogate, which UTF-8 cannot carry and jsonb refuses.
 */
const storedText = () =>
  Joi.string()
    .custom((value: string, helpers) => {
      const problem = unstorable(value);
      return problem ? helpers.error(problem) : value;
    })
    .messages({ 'string.nul': 'must not contain the NUL character (U+0000)', 'string.unpaired': UNPAIRED_MESSAGE });

/** What keeps a string from being stored: a NUL, or an unpaired surrogate. */
function unstorable(value: string): 'string.nul' | 'string.unpaired' | undefined {
  if (value.includes('\u0000')) return 'string.nul';
  return UNPAIRED_SURROGATE.test(value) ? 'string.unpaired' : undefined;
}

export const aliasId = storedText().min(1).max(128);
/** A player's aliases by type; a null removes one. A key that is not an alias type "is not allowed". */
export const aliasChanges = documentedAs(Joi.object<Record<string, string | null>>().pattern(ALIAS_TYPE_PATTERN, aliasId.allow(null)), {
  type: 'object',
  propertyNames: { pattern: ALIAS_TYPE_PATTERN.source },
  additionalProperties: { type: ['string', 'null'], minLength: 1, maxLength: 128 },
});
/** What support searches players by: an id, an alias id or the start of a display name; trimmed. */
export const playerSearch = storedText()
  .trim()
  .min(1)
  .max(64)
  .description('A player id, an alias id (any type), or the start of a display name (case-insensitive); 1-64 characters once trimmed')
  .example('Swift Otter')
  .example('76561198000000000');
/** Its minimum length is MIN_DEVICE_ID_LENGTH (the signup route sets it). */
export const deviceId = storedText().max(128);
/** A webhook's URL as sent (the service checks what it may reach: docs/events.md). */
export const webhookUrl = storedText()
  .max(2048)
  .description(
    'Where deliveries are posted: https:// (http:// only when the service allows it), not a loopback, private, link-local or metadata address, checked again at every delivery',
  )
  .example('https://bots.example.com/leaderboard-events');

// Control and format characters, but the zero width joiner and non-joiner (joinersJoin judges those).
const HIDDEN = /(?![\u200c\u200d])[\p{Cc}\p{Cf}]/u;
// A letter, digit, punctuation mark or symbol that renders: fillers such as U+3164 are letters that draw nothing.
const VISIBLE = /(?!\p{Default_Ignorable_Code_Point})[\p{L}\p{N}\p{P}\p{S}]/u;
const NAME_RULES =
  'NFC-normalised and trimmed; no control or format characters (bidi controls such as U+202E, zero-width characters), but a zero width joiner or non-joiner where it joins visible characters as Unicode allows in identifiers (emoji sequences, Indic and Arabic-script names); at least one visible character';

/**
 * A name people read. NFC-normalised, so one name has one spelling; no control or format
 * characters (bidi overrides such as U+202E, zero-width characters), with which a name could pass
 * for another or reorder what follows it, except the joiners that names in Persian, Indic scripts
 * and emoji sequences need, where they join; and at least one visible character.
 */
const readableName = (max: number) =>
  Joi.string()
    .normalize('NFC')
    .trim()
    .min(1)
    .max(max)
    .custom((value: string, helpers) => {
      if (UNPAIRED_SURROGATE.test(value)) return helpers.error('name.unpaired');
      if (HIDDEN.test(value) || !joinersJoin(value)) return helpers.error('name.hidden');
      return VISIBLE.test(value) ? value : helpers.error('name.invisible');
    })
    .messages({
      'name.unpaired': UNPAIRED_MESSAGE,
      'name.hidden':
        'must not contain control or format characters (such as U+202E or zero-width characters); a zero width joiner or non-joiner only where it joins letters or emoji',
      'name.invisible': 'must contain at least one visible character',
    })
    .description(NAME_RULES);

/** The name of a game, leaderboard, clan or third-party key. */
export const name = readableName(100);
export const displayName = readableName(32);
/** Why a player was banned: read by people in the audit log and the dashboard, so held to the same rules. */
export const banReason = readableName(500);

/** A finite number, or a string holding a decimal number. */
export const score = documentedAs(
  Joi.number()
    .unsafe()
    .messages({
      'number.base': 'must be a finite number',
      'number.infinity': 'must be a finite number',
    })
    .example(1),
  { anyOf: [{ type: 'number' }, { type: 'string', description: 'a decimal number' }] },
);

/** A whole number in a query string: its digits, turned into a number once checked (documented as the integer it is). */
const whole = (min: number, max: number) =>
  documentedAs(
    Joi.string<number>()
      .pattern(/^\d{1,15}$/)
      .custom((value: string, helpers) => {
        const n = Number(value);
        return n < min || n > max ? helpers.error('number.range') : n;
      })
      .messages({
        'string.pattern.base': `must be a whole number from ${min} to ${max}`,
        'number.range': `must be a whole number from ${min} to ${max}`,
      }),
    { type: 'integer', minimum: min, maximum: max },
  );
export const wholeNumber = (min: number, max: number, fallback: number) => whole(min, max).default(fallback);

export const limit = wholeNumber(1, 1000, 50).description('Page size, 1-1000 (default 50)').example(50).example(1000);
/** How many first entries a live stream shows (engine/live/rankings.ts LIVE_TOP). */
export const liveLimit = wholeNumber(1, 100, 10).description('Entries the stream shows, 1-100 (default 10)').example(10).example(100);
export const offset = wholeNumber(0, Number.MAX_SAFE_INTEGER, 0).description('Entries to skip, >= 0 (default 0)').example(0).example(100);
/** true/false or 1/0; documented as the words a client generator turns a boolean into. */
export const flag = documentedAs(Joi.boolean().truthy('1').falsy('0').default(false), { type: 'boolean' });

/** The highest season number a request may name (PostgreSQL keeps it in an integer). */
export const MAX_SEASON = 2_147_483_647;

/** `?season=N`: a positive season number; absent, the current season. */
export const season = optional(whole(1, MAX_SEASON))
  .description('A season (1 is the first); default: the current season')
  .example(1)
  .example(2);

/** A UTC day, `YYYY-MM-DD`: an inclusive bound of a rank history. */
export const historyDay = Joi.string()
  .pattern(/^\d{4}-\d{2}-\d{2}$/)
  .custom((value: string, helpers) => {
    const parsed = Date.parse(`${value}T00:00:00Z`);
    return Number.isNaN(parsed) || new Date(parsed).toISOString().slice(0, 10) !== value ? helpers.error('day.real') : value;
  })
  .messages({ 'string.pattern.base': '{{#label}} must be a date as YYYY-MM-DD', 'day.real': '{{#label}} must be a real date' })
  .example('2026-11-01');

/** The days a rank history covers: `from` and `to`, inclusive, either left open. */
export const historyRange = {
  from: optional(historyDay.description('The first day (UTC) of the history, inclusive; absent: from the oldest kept')),
  to: optional(historyDay.description('The last day (UTC) of the history, inclusive; absent: to the newest')),
};
export const historyQuery = object(historyRange);

/** A season named in a path (1 is the first). */
export const seasonNumber = whole(1, MAX_SEASON).description('The season (1 is the first)').example(1);

/** `?before=N`: an audit log entry id; absent, from the newest entry. */
export const beforeEntry = optional(whole(1, Number.MAX_SAFE_INTEGER))
  .description('An entry id (next_before of the previous page): entries older than it; default: from the newest')
  .example(4131);

export const leaderboardParams = object({ leaderboard_id: leaderboardId.description('The leaderboard') });
export const pageQuery = object({
  limit,
  offset,
  clan: flag.description('true: the clans view (clan leaderboards only)').example(true).example(false),
  season,
});
/** The paging of management lists (leaderboards, games, keys). */
export const listQuery = object({ limit, offset });

/** A league group's id within its season (docs/competitions.md, part 6). */
export const groupId = Joi.string()
  .pattern(/^[1-9][0-9]{0,9}$/)
  .messages({ 'string.pattern.base': 'must be a group number' })
  .description('A group of the season')
  .example('1');
/** A league tier's name. */
export const tierName = Joi.string()
  .pattern(/^[a-z0-9_]{1,32}$/)
  .messages({ 'string.pattern.base': 'must be 1-32 characters of a-z, 0-9 and _' })
  .description("One of the league's tiers")
  .example('silver');

// ---- Score rules ----

/** How a leaderboard keeps a player's score. */
export const updateStrategy = oneOf('best', 'latest', 'sum')
  .description('best: keep the best score (default); latest: each report replaces it; sum: each report adds to it')
  .example('best')
  .example('sum');

// ---- Ties (docs/ordering.md) ----

/** How a leaderboard ranks entries equal on every column. */
export const tieBreak = oneOf('shared', 'earliest')
  .description(
    'shared (default): equal entries share a rank (1, 2, 2, 4); earliest: the one reached first ranks higher, every rank distinct',
  )
  .example('shared')
  .example('earliest');

/** A leaderboard's tiebreaker columns, compared in turn after the score (none: an empty list). */
export const tiebreakerColumns = Joi.array<{ name: string; sort_order: 'desc' | 'asc' }[]>()
  .items(
    object({
      name: Joi.string()
        .pattern(/^[a-z0-9_]{1,32}$/)
        .example('time_left')
        .messages({ 'string.pattern.base': 'must be 1-32 characters of a-z, 0-9 and _' }),
      sort_order: oneOf('desc', 'asc').example('desc').description('desc: higher is better; asc: lower is better'),
    }),
  )
  .max(4)
  .unique('name')
  .description('Up to 4 columns that order entries of equal score, each in its own direction (default: none)')
  .example([])
  .example([{ name: 'time_left', sort_order: 'desc' }]);

/** One number per tiebreaker column of the leaderboard, in their order: finite JSON numbers (none: an empty list). */
export const tiebreakers = Joi.array<number[]>()
  .items(Joi.number().unsafe())
  .max(4)
  // Strictness and messages are set on the array, once, not on each number: joi merges a schema's
  // own preferences on every value it checks, which on the item cost 4 numbers twice the array's time.
  .strict()
  .messages({ 'number.base': 'must be a finite number', 'number.infinity': 'must be a finite number' })
  // No example: a request to a leaderboard without tiebreakers (the default) must leave it out.
  .description(
    'One finite number per tiebreaker column of the leaderboard, in their order, e.g. [42.5] (only on leaderboards with tiebreakers)',
  );

// ---- Lists of players (their ranks) ----

/** How many distinct players a list of ranks may name. */
export const MAX_LISTED_PLAYERS = 100;

/** `player_ids=a,b,c`: player ids, comma-separated, each once (duplicates dropped), 1-100 of them. */
export const playerIdList = documentedAs(
  Joi.string<string[]>()
    .max(8192)
    .custom((value: string, helpers) => {
      const ids = [...new Set(value.split(','))];
      if (ids.some((id) => id.length === 0 || id.length > 64)) return helpers.error('list.item');
      return ids.length > MAX_LISTED_PLAYERS ? helpers.error('list.many') : ids;
    })
    .messages({
      'list.item': 'must be player ids separated by commas, each 1-64 characters',
      'list.many': `must name at most ${MAX_LISTED_PLAYERS} distinct players`,
    }),
  { type: 'string', description: `Player ids, comma-separated (at most ${MAX_LISTED_PLAYERS} distinct)` },
).example('VrjGW7VgCyKW,Qm9sdF9zcGFj');

/** `alias_ids=a&alias_ids=b`: alias ids, one parameter each (an alias id may hold a comma), 1-100 distinct. */
export const aliasIdList = Joi.array<string[]>()
  .items(aliasId)
  .single()
  .min(1)
  .custom((ids: string[], helpers) => {
    const distinct = [...new Set(ids)];
    return distinct.length > MAX_LISTED_PLAYERS ? helpers.error('list.many') : distinct;
  })
  .messages({ 'list.many': `must name at most ${MAX_LISTED_PLAYERS} distinct players` });

/** Metadata's bounds: the UTF-8 length of its compact JSON, and how deep it nests. */
export const MAX_METADATA_BYTES = 1024;
export const MAX_METADATA_DEPTH = 8;

/** Depth of a JSON value, stopping as soon as it passes `limit` (so a depth bomb costs nothing). */
function depthBeyond(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (limit === 0) return true;
  return Object.values(value).some((inner) => depthBeyond(inner, limit - 1));
}

/** The first string of a JSON value (keys included) that could not be stored, and why. */
function unstorableWithin(value: unknown): 'string.nul' | 'string.unpaired' | undefined {
  if (typeof value === 'string') return unstorable(value);
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const problem = (Array.isArray(value) ? undefined : unstorable(key)) ?? unstorableWithin(inner);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * A report's metadata: a JSON object of at most 1 KiB (compact), nested at most 8 levels, whose keys
 * and strings follow the rules of every stored string (no NUL, no unpaired surrogate).
 */
export const metadata = Joi.object<Record<string, unknown>>()
  .unknown(true)
  .custom((value: Record<string, unknown>, helpers) => {
    if (depthBeyond(value, MAX_METADATA_DEPTH)) return helpers.error('metadata.depth');
    if (Buffer.byteLength(JSON.stringify(value)) > MAX_METADATA_BYTES) return helpers.error('metadata.size');
    const problem = unstorableWithin(value);
    return problem ? helpers.error(`metadata.${problem}`) : value;
  })
  .messages({
    'object.base': 'must be a JSON object',
    'metadata.depth': `must not nest deeper than ${MAX_METADATA_DEPTH} levels`,
    'metadata.size': `must be at most ${MAX_METADATA_BYTES} bytes as compact JSON`,
    'metadata.string.nul': 'must not contain the NUL character (U+0000) in any key or string',
    'metadata.string.unpaired': `must be well-formed Unicode in every key and string (no unpaired surrogate such as \\ud83d)`,
  })
  .description(
    `Kept with the score (a JSON object, at most ${MAX_METADATA_BYTES} bytes as compact JSON, nested at most ${MAX_METADATA_DEPTH} levels; no NUL character or unpaired surrogate in any key or string)`,
  )
  .example({ car: 'red', replay_id: 'r_8f2k' });

/** What ranks earn once a season has closed: up to 50 non-overlapping bands (the engine checks the overlaps). */
export const rewardBands = Joi.array()
  .items(
    object({
      rank_from: Joi.number().strict().integer().min(1).max(1_000_000_000).example(1),
      rank_to: Joi.number().strict().integer().min(1).max(1_000_000_000).example(3),
      reward: metadata
        .description('The reward (a JSON object of the game’s own, at most 1,024 bytes as compact JSON)')
        .example({ coins: 500, badge: 'podium' }),
    }),
  )
  .max(50)
  .description(
    'Up to 50 non-overlapping bands of ranks and what each earns; once a season has closed, each player record of it carries its reward, claimed once',
  );

/** The Idempotency-Key header: 1-128 printable ASCII characters. */
export const idempotencyKey = Joi.string()
  .pattern(/^[\x20-\x7e]{1,128}$/)
  .messages({ 'string.pattern.base': 'must be 1-128 printable ASCII characters' })
  .description(
    'Makes a retry safe: a request repeated with the same key (per game, and per player for client reports) within 24 hours is answered with the first answer and applied once; the same key with another body is 409 conflict',
  )
  .example('run-2026-11-24-0042');
