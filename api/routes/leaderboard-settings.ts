import Joi from 'joi';
import type { LeaderboardSettings } from '../../engine/leaderboards/leaderboard-store.js';
import {
  name,
  nullable,
  object,
  oneOf,
  optional,
  rewardBands,
  tieBreak,
  tiebreakerColumns,
  updateStrategy,
  type Value,
} from './schemas.js';

const bound = nullable(Joi.number()).messages({ 'number.base': 'must be a finite number or null' });
/** Whether the cron and zone mean anything is checked by the service (400 with the reason). */
const resetSchedule = nullable(
  object({
    cron: Joi.string().max(200).example('0 0 * * 1').description('5-field cron: minute hour day-of-month month day-of-week'),
    timezone: Joi.string().max(64).example('Europe/Paris').description('IANA time zone, daylight saving included'),
  }),
)
  .description('null (default): never reset by schedule')
  .example({ cron: '0 0 * * 1', timezone: 'Europe/Paris' });

/** An instant of a one-off window: ISO 8601 with its offset, or null for none (open-ended). */
const windowInstant = (description: string) =>
  nullable(Joi.string().isoDate().max(40).messages({ 'string.isoDate': 'must be an ISO 8601 date and time, or null' }))
    // null: a request built from the examples (the typed clients, the security matrix) makes a board
    // that takes reports whenever it runs.
    .example(null)
    .description(`${description}; e.g. 2026-11-28T18:00:00Z`);

/**
 * The example league: what a request built from the examples sets (the typed clients, the security
 * suites, whose world's board is such a league).
 */
export const LEAGUE_EXAMPLE = { size: 5, tiers: ['bronze', 'silver', 'gold'], promote: 1, relegate: 1 };

/** A league's groups: the `groups` setting (docs/competitions.md, part 6). */
export const leagueGroups = nullable(
  object({
    size: Joi.number().strict().integer().min(5).max(1000).required().example(50).description('Most players in one group'),
    tiers: Joi.array()
      .items(
        Joi.string()
          .pattern(/^[a-z0-9_]{1,32}$/)
          .messages({ 'string.pattern.base': 'must be 1-32 characters of a-z, 0-9 and _' }),
      )
      .min(1)
      .max(20)
      .required()
      .example(['bronze', 'silver', 'gold'])
      .description('Tier names, lowest first; a new player starts in the lowest'),
    promote: Joi.number()
      .strict()
      .integer()
      .min(0)
      .max(1000)
      .required()
      .example(5)
      .description("How many of each group move up a tier at the season's end"),
    relegate: Joi.number().strict().integer().min(0).max(1000).required().example(5).description('How many of each group move down a tier'),
  }),
)
  .example(LEAGUE_EXAMPLE)
  .description(
    "A league: each season a player joins a group of their tier on entering or on their first report; set or removed only before the board's first score (then only tiers added at the top); null: no groups",
  );

/** A review rule's value: a finite number, or null (missing too) for no such rule. */
const reviewRule = (schema: Joi.NumberSchema, example: number, description: string) =>
  optional(nullable(schema.strict()).example(example).description(`${description}; null (default): no such rule`));

/** When client reports are held for review instead of ranked: the `review` setting (docs/review.md). */
export const reviewRules = nullable(
  object({
    above: reviewRule(
      Joi.number(),
      100_000,
      "A client report whose resulting score is better than this, by the board's sort order, is held",
    ),
    max_gain_per_second: reviewRule(
      Joi.number().min(0),
      50,
      "A client report beating the player's kept score by more than this times the seconds since that score was reached is held (>= 0)",
    ),
    outlier_factor: reviewRule(
      Joi.number().positive(),
      2,
      "A client report better than the first entry's score by more than this times its absolute value is held (> 0)",
    ),
  }),
)
  // null: a request built from the examples makes a board whose reports are never held.
  .example(null)
  .description('When client reports are held for review instead of ranked (docs/review.md); null (default): never');

/** A leaderboard's settings as the API names them: the body of PUT /api/v1/server/leaderboards/:leaderboard_id. */
export const settingsBody = object({
  name: optional(name),
  type: optional(oneOf('individual', 'clan')),
  sort_order: optional(oneOf('desc', 'asc')),
  client_reports: optional(Joi.boolean().strict()),
  min_score: optional(bound),
  max_score: optional(bound),
  reset_schedule: optional(resetSchedule),
  keep_seasons: optional(
    Joi.number().strict().integer().min(1).max(1000).example(52).description('Archived seasons kept, 1-1000 (default 52)'),
  ),
  update_strategy: optional(updateStrategy),
  tie_break: optional(tieBreak),
  tiebreakers: optional(tiebreakerColumns),
  opens_at: optional(windowInstant("When the current season starts accepting reports; null: from the season's start")),
  closes_at: optional(windowInstant('When the current season stops accepting reports, for good until the next reset; null: never')),
  rewards: optional(rewardBands.example([]).example([{ rank_from: 1, rank_to: 3, reward: { coins: 500 } }])),
  listed: optional(Joi.boolean().strict().example(false).description("Players find it in the client's competitions list (default false)")),
  join_required: optional(
    Joi.boolean()
      .strict()
      .example(false)
      .description('Players must enter each season (POST …/entry, PUT …/entries/:player_id) before reporting (default false)'),
  ),
  max_players: optional(
    nullable(Joi.number().strict().integer().min(1).max(1_000_000))
      .example(null)
      .description('At most this many players enter, or hold a score, in one season (1-1,000,000); null: no limit'),
  ),
  max_attempts: optional(
    nullable(Joi.number().strict().integer().min(1).max(10_000))
      .example(null)
      .description('Reports each player may make in one season (1-10,000); null: no limit'),
  ),
  groups: optional(leagueGroups),
  notify_top: optional(
    Joi.number()
      .strict()
      .integer()
      .min(0)
      .max(1000)
      .example(0)
      .description(
        'player.overtaken names the players a report passes who ranked within the first notify_top (0-1,000); 0 (default): none',
      ),
  ),
  review: optional(reviewRules),
  rewards_by: optional(
    oneOf('rank', 'group_rank')
      .example('rank')
      .description("Which rank the bands read: rank (default), or group_rank on a league's board (groups)"),
  ),
  open_seconds: optional(
    nullable(Joi.number().strict().integer().min(60).max(31_622_400))
      .example(null)
      .description(
        "With a reset_schedule: each season accepts reports for this many seconds from its start (60 up to the shortest time between the schedule's runs); null: the whole season",
      ),
  ),
});
export type SettingsFields = Value<typeof settingsBody>;

/**
 * The settings given, as the engine names them: the API's body and the dashboard's form both come
 * through here. A field left out (undefined) is left as it is, or takes its default on a new board.
 */
export function settingsOf(fields: SettingsFields): Partial<LeaderboardSettings> {
  return {
    ...(fields.name !== undefined && { name: fields.name }),
    ...(fields.type !== undefined && { type: fields.type }),
    ...(fields.sort_order !== undefined && { sortOrder: fields.sort_order }),
    ...(fields.client_reports !== undefined && { clientReports: fields.client_reports }),
    ...(fields.min_score !== undefined && { minScore: fields.min_score }),
    ...(fields.rewards_by !== undefined && { rewardsBy: fields.rewards_by }),
    ...(fields.max_score !== undefined && { maxScore: fields.max_score }),
    ...(fields.reset_schedule !== undefined && { resetSchedule: fields.reset_schedule }),
    ...(fields.keep_seasons !== undefined && { keepSeasons: fields.keep_seasons }),
    ...(fields.update_strategy !== undefined && { updateStrategy: fields.update_strategy }),
    ...(fields.tie_break !== undefined && { tieBreak: fields.tie_break }),
    ...(fields.tiebreakers !== undefined && {
      tiebreakers: fields.tiebreakers.map((column) => ({ name: column.name, sortOrder: column.sort_order })),
    }),
    ...(fields.opens_at !== undefined && { opensAt: fields.opens_at === null ? null : new Date(fields.opens_at) }),
    ...(fields.closes_at !== undefined && { closesAt: fields.closes_at === null ? null : new Date(fields.closes_at) }),
    ...(fields.open_seconds !== undefined && { openSeconds: fields.open_seconds }),
    ...(fields.listed !== undefined && { listed: fields.listed }),
    ...(fields.join_required !== undefined && { joinRequired: fields.join_required }),
    ...(fields.max_players !== undefined && { maxPlayers: fields.max_players }),
    ...(fields.max_attempts !== undefined && { maxAttempts: fields.max_attempts }),
    ...(fields.groups !== undefined && { groups: fields.groups }),
    ...(fields.notify_top !== undefined && { notifyTop: fields.notify_top }),
    ...(fields.review !== undefined && {
      review: fields.review && {
        above: fields.review.above ?? null,
        maxGainPerSecond: fields.review.max_gain_per_second ?? null,
        outlierFactor: fields.review.outlier_factor ?? null,
      },
    }),
    ...(fields.rewards !== undefined && {
      rewards: fields.rewards.map((band) => ({ rankFrom: band.rank_from, rankTo: band.rank_to, reward: band.reward })),
    }),
  };
}
