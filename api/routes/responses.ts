import Joi from 'joi';
import { COUNT_AHEAD } from '../../engine/players/player-lookup.js';
import { DELIVERY_ERRORS, EVENT_TYPES } from '../../engine/events/webhook-store.js';
import { arrayOf, documentedAs, nullable, object, oneOf, optional, type Value } from './schemas.js';

/**
 * The JSON bodies the API answers with, as joi schemas: the OpenAPI document's named components
 * (each schema's id is its name there) and the types the views in api/views.ts build. They are never
 * run against a response: the integration tests check every response against the document instead.
 */
const str = () => Joi.string();
const int = () => Joi.number().integer();
const num = () => Joi.number();
const bool = () => Joi.boolean();
const time = () => Joi.string().isoDate().example('2026-11-24T08:00:00.000Z');
const boardType = () => oneOf('individual', 'clan');
const sortOrder = () => oneOf('desc', 'asc');
const view = () => oneOf('players', 'clans');

// Each field's example, written once: the document's examples of whole bodies are put together from them.
const leaderboardId = () => str().example('weekly_race');
const playerId = () => str().example('VrjGW7VgCyKW');
const clanId = () => str().example('red_foxes');
const gameId = () => str().example('g_Qm9sdF9zcGFj');
const keyId = () => str().example('key_3hXo0T1c2qZr');
const publishableKey = () => str().example('pk_195qInmQ6yfhmkfBnxZ9ssGHBMf1IBdH');
const score = () => num().example(1250);
const rank = () => int().min(1).example(1);
const total = () => int().min(0).example(240);
const memberCount = () => int().min(0).example(12);
const season = () => int().min(1).example(1);
const metadata = () =>
  nullable(Joi.object().unknown(true))
    .example({ car: 'red', replay_id: 'r_8f2k' })
    .description('What the score was made with, as reported with it; null for none');
/** What an entry shows of its order beyond the score (docs/ordering.md): only on boards that have it. */
const tieFields = () => ({
  tiebreakers: optional(
    arrayOf(num())
      .example([42.5])
      .description("The entry's tiebreakers, one per column of the leaderboard; only on leaderboards with tiebreakers"),
  ),
  achieved_at: optional(
    Joi.string()
      .isoDate()
      .example('2026-11-24T08:00:00.123Z')
      .description('When the entry was reached (ISO 8601 UTC, milliseconds); only on earliest leaderboards'),
  ),
});
/** A leaderboard's reset schedule: request bodies and responses share it. */
export const resetSchedule = () =>
  object({
    cron: str().example('0 0 * * 1').description('5-field cron: minute hour day-of-month month day-of-week'),
    timezone: str().example('Europe/Paris').description('IANA time zone the cron is read in, daylight saving included'),
  });
const avatarUrl = () => Joi.string().uri().example('http://localhost:3000/api/v1/users/VrjGW7VgCyKW/avatar.png');
export const ErrorBody = object({
  error: object({
    code: str().example('validation_failed'),
    message: str().example('The request is not valid.'),
    details: optional(arrayOf(object({ field: str().example('score'), message: str().example('must be a finite number') }))),
  }),
}).id('Error');

export const Token = object({
  token: str()
    .description('Standard base64 of JSON {user_id, game_id, iat, sig}')
    .example(
      'eyJ1c2VyX2lkIjoiVnJqR1c3VmdDeUtXIiwiZ2FtZV9pZCI6ImdfUW05c2RGOXpjR0ZqIiwiaWF0IjoxNzk1NTEwODAwLCJzaWciOiJYYjFIMHAyY0UzbnE4cktaeVliN2RRVzFoTTVicTBmNHVLOXNMeDJhSnRFIn0=',
    ),
  player_id: playerId(),
}).id('Token');

const attemptsLeft = () =>
  int().min(0).example(2).description('On a leaderboard with max_attempts: the reports the player has left this season');

const tierName = () => str().example('silver');
const groupId = () => str().example('12');
const zone = () =>
  oneOf('promote', 'stay', 'relegate')
    .example('stay')
    .description('While the season runs: where its end would move the player as the group stands now');

const leagueSettings = () =>
  object({
    size: int().min(5).max(1000).example(50),
    tiers: arrayOf(str().example('bronze')).example(['bronze', 'silver', 'gold']),
    promote: int().min(0).example(5),
    relegate: int().min(0).example(5),
  });

export const ReportResult = object({
  leaderboard_id: leaderboardId(),
  player_id: playerId(),
  submitted_score: score(),
  best_score: score().description("The score the player holds after this report (by the leaderboard's update_strategy)"),
  improved: bool().example(true).description('Whether this report changed the score held'),
  rank: rank(),
  total: total(),
  season: season().description('The season the report counted in'),
  ...tieFields(),
  attempts_left: optional(attemptsLeft()),
}).id('ReportResult');

export const BatchResult = object({
  player_id: playerId(),
  results: arrayOf(
    object({
      leaderboard_id: leaderboardId(),
      submitted_score: score(),
      best_score: score(),
      improved: bool().example(true),
      rank: rank(),
      season: season().description('The season the report counted in'),
      ...tieFields(),
      attempts_left: optional(attemptsLeft()),
    }),
  ),
}).id('BatchResult');

export const Entry = object({
  leaderboard_id: leaderboardId(),
  season: season().description('The season entered (the current one)'),
  player_id: playerId(),
  entered: bool().example(true).description('Whether the player is entered in the season after this request'),
  players: int().min(0).example(42).description('Seats taken in the season: players entered or holding a score (banned ones keep theirs)'),
  max_players: nullable(int().min(1)).example(100).description('At most this many players per season; null: no limit'),
}).id('Entry');

const displayName = () => str().example('Ada');
const playerFields = () => ({ player_id: playerId(), display_name: displayName(), avatar_url: avatarUrl(), clan_id: nullable(clanId()) });
const clanFields = () => ({ clan_id: clanId(), name: str().example('Red Foxes'), member_count: memberCount() });

export const PlayerRecord = object({
  leaderboard_id: leaderboardId(),
  ...playerFields(),
  score: score(),
  rank: rank(),
  total: total(),
  metadata: metadata(),
  ...tieFields(),
  best_rank: nullable(rank()).description(
    "The best rank the player's reports reached on the leaderboard this season (each report's answered rank); null in an archived season",
  ),
  best_rank_at: nullable(time()).description('When the player first reached best_rank; null in an archived season'),
  reward: optional(
    nullable(Joi.object().unknown(true))
      .example({ coins: 500 })
      .description(
        'Once the season has closed or been archived: the reward of the rank shown, or with rewards_by group_rank of the group rank (the claimed one once claimed), or null; absent while it is open',
      ),
  ),
  reward_claimed_at: optional(
    nullable(time()).example(null).description('Once the season has closed or been archived: when the reward was claimed, or null'),
  ),
  tier: optional(tierName().description("On a league board (groups), in the season read: the player's tier")),
  group_id: optional(groupId().description('On a league board, in the season read: the group the player is in')),
  group_rank: optional(
    nullable(rank()).description(
      'On a league board, in the season read: the rank within the group (an archived season’s as it ended, closed up)',
    ),
  ),
}).id('PlayerRecord');

export const RankHistory = object({
  leaderboard_id: leaderboardId(),
  player_id: playerId(),
  best_rank: nullable(rank()).description("The best rank the player's reports reached on the leaderboard this season; null before any"),
  best_rank_at: nullable(time()).description('When the player first reached best_rank'),
  points: arrayOf(
    object({
      date: Joi.string().example('2026-11-24').description('The day (UTC) of the snapshot'),
      season: season(),
      rank: rank(),
      score: score(),
    }),
  ).description(
    "The player's daily rank snapshots on the leaderboard (the first RANK_SNAPSHOT_TOP entries of each day the leaderboard changed), oldest first, at most 400 (the newest of the days asked)",
  ),
}).id('RankHistory');

export const ClaimedReward = object({
  leaderboard_id: leaderboardId(),
  season: season().description('The season claimed'),
  player_id: playerId(),
  rank: rank().description('The rank the reward was claimed at (frozen)'),
  reward: Joi.object().unknown(true).example({ coins: 500 }).description("The band's reward (frozen)"),
  claimed_at: time(),
}).id('ClaimedReward');

export const ClanRecord = object({
  leaderboard_id: leaderboardId(),
  ...clanFields(),
  score: score().description("Sum of the members' best scores (0 while none has a score)"),
  rank: nullable(rank()).description('null while no member has a score'),
  total: total(),
}).id('ClanRecord');

export const PlayerOrClanRecord = Joi.alternatives<Value<typeof PlayerRecord> | Value<typeof ClanRecord>>()
  .try(PlayerRecord, ClanRecord)
  .id('PlayerOrClanRecord');

/** docs/history.md: how far the entry moved since the board's latest daily snapshot. */
const rankChange = () =>
  nullable(int())
    .example(3)
    .description(
      "The entry's rank at the leaderboard's latest daily rank snapshot minus its rank now (positive: moved up); null when it was not in that snapshot, the snapshot holds another season, or the season read is archived",
    );

export const PlayerEntry = object({
  ...playerFields(),
  score: score(),
  rank: rank(),
  metadata: metadata(),
  ...tieFields(),
  rank_change: rankChange(),
}).id('PlayerEntry');
export const ClanEntry = object({ ...clanFields(), score: score(), rank: rank() }).id('ClanEntry');

const paging = () => ({ total: total(), limit: int().min(1).example(50), offset: int().min(0).example(0) });

export const LeaderboardPage = object({
  leaderboard_id: leaderboardId(),
  name: str().example('Weekly race'),
  type: boardType(),
  sort_order: sortOrder(),
  view: view(),
  ...paging(),
  entries: arrayOf(Joi.alternatives<Value<typeof PlayerEntry> | Value<typeof ClanEntry>>().try(PlayerEntry, ClanEntry)),
}).id('LeaderboardPage');

const isViewer = () => bool().example(false);
export const WebPlayerEntry = object({
  ...playerFields(),
  score: score(),
  rank: rank(),
  is_viewer: isViewer(),
  tiebreakers: tieFields().tiebreakers,
  rank_change: rankChange(),
});
export const WebClanEntry = object({ ...clanFields(), score: score(), rank: rank(), is_viewer: isViewer() });

export const WebEntries = object({
  leaderboard_id: leaderboardId(),
  view: view(),
  ...paging(),
  entries: arrayOf(Joi.alternatives<Value<typeof WebPlayerEntry> | Value<typeof WebClanEntry>>().try(WebPlayerEntry, WebClanEntry)),
}).id('WebEntries');

export const ListRanks = object({
  leaderboard_id: leaderboardId(),
  season: season().description('The season read'),
  total: total(),
  entries: arrayOf(
    object({
      ...playerFields(),
      score: score(),
      rank: rank().description('The rank on the whole leaderboard'),
      list_rank: rank().description("The rank among the entries found, by the leaderboard's tie rule"),
      metadata: metadata(),
      ...tieFields(),
      rank_change: rankChange(),
    }),
  ).description("The asked players who hold an entry, in the leaderboard's order"),
  not_found: arrayOf(str().example('Qm9sdF9zcGFj')).description(
    'The asked ids (as asked) that hold no entry: unknown, without a score, banned or erased alike',
  ),
}).id('ListRanks');

export const AroundMe = object({ leaderboard_id: leaderboardId(), total: total(), entries: arrayOf(PlayerEntry) }).id('AroundMe');

export const MemberEntry = object({
  player_id: playerId(),
  display_name: displayName(),
  avatar_url: avatarUrl(),
  score: nullable(score()),
  rank: nullable(rank()),
  clan_rank: nullable(rank()),
  metadata: metadata(),
  ...tieFields(),
});

export const ClanMembers = object({
  leaderboard_id: leaderboardId(),
  clan_id: clanId(),
  ...paging(),
  entries: arrayOf(MemberEntry),
}).id('ClanMembers');

export const Leaderboard = object({
  leaderboard_id: leaderboardId(),
  name: str().example('Weekly race'),
  type: boardType(),
  sort_order: sortOrder(),
  client_reports: bool().example(true),
  min_score: nullable(num()).example(0),
  max_score: nullable(num()).example(null),
  created_at: time(),
  updated_at: time(),
  season: season().description("The current season's number (the first is 1)"),
  season_started_at: time().description('When the current season started'),
  next_reset_at: nullable(time())
    .example('2026-11-30T23:00:00.000Z')
    .description('When the current season ends by schedule (ISO 8601 UTC); null without a schedule'),
  reset_schedule: nullable(resetSchedule()).description('Resets on a schedule; null: only when asked'),
  keep_seasons: int().min(1).max(1000).example(52).description('Archived seasons kept; older ones are deleted'),
  update_strategy: oneOf('best', 'latest', 'sum')
    .example('best')
    .description('best: the best score is kept; latest: each report replaces it; sum: each report adds to it'),
  tie_break: oneOf('shared', 'earliest')
    .example('shared')
    .description('shared: equal entries share a rank (1, 2, 2, 4); earliest: the entry reached first ranks higher, every rank distinct'),
  tiebreakers: arrayOf(object({ name: str().example('time_left'), sort_order: sortOrder() }))
    .example([])
    .description('Columns that order entries of equal score, in turn, each in its own direction'),
  opens_at: nullable(time())
    .example('2026-11-28T18:00:00.000Z')
    .description(
      "When the current season's window opens (ISO 8601 UTC; with open_seconds, the season's start); null: no window, or open from the season's start",
    ),
  closes_at: nullable(time())
    .example('2026-11-30T18:00:00.000Z')
    .description(
      "When the current season's window closes (with open_seconds, open_seconds after the season's start); null: no window, or open until the next reset",
    ),
  rewards: arrayOf(
    object({
      rank_from: int().min(1).example(1),
      rank_to: int().min(1).example(3),
      reward: Joi.object().unknown(true).example({ coins: 500 }),
    }),
  )
    .example([])
    .description('Bands of ranks and what each earns once a season has closed (claimed once each)'),
  rewards_by: oneOf('rank', 'group_rank').example('rank').description('Which rank the bands read'),
  listed: bool().example(false).description("Whether players find it in the client's competitions list"),
  join_required: bool().example(false).description('Whether players must enter each season before reporting'),
  max_players: nullable(int().min(1).max(1_000_000)).example(null).description('At most this many players per season; null: no limit'),
  max_attempts: nullable(int().min(1).max(10_000)).example(null).description('Reports per player per season; null: no limit'),
  groups: nullable(leagueSettings())
    .example(null)
    .description("A league: each season's players play in groups of their tier; null: no groups"),
  notify_top: int()
    .min(0)
    .max(1000)
    .example(0)
    .description('player.overtaken names the players a report passes who ranked within the first notify_top; 0: none'),
  review: nullable(
    object({
      above: nullable(num())
        .example(100_000)
        .description("A client report whose resulting score is better than this, by the board's sort order, is held; null: no such rule"),
      max_gain_per_second: nullable(num().min(0))
        .example(50)
        .description(
          "A client report beating the player's kept score by more than this times the seconds since that score was reached is held; null: no such rule",
        ),
      outlier_factor: nullable(num().positive())
        .example(2)
        .description(
          "A client report better than the first entry's score by more than this times its absolute value is held; null: no such rule",
        ),
    }),
  )
    .example(null)
    .description('When client reports are held for review instead of ranked (docs/review.md); null: never'),
  open_seconds: nullable(int().min(60))
    .example(null)
    .description('How long each season accepts reports from its start (s), with a reset schedule; null: the whole season'),
  state: oneOf('upcoming', 'open', 'closed')
    .example('open')
    .description(
      'Whether the current season accepts reports: upcoming before its window, closed after it (final, readable as it stood, until the next reset); open otherwise',
    ),
}).id('Leaderboard');

export const SeasonReset = object({
  leaderboard_id: leaderboardId(),
  season: int().min(2).example(2).description('The new season'),
  archived_season: season().description('The season just ended'),
}).id('SeasonReset');

export const SeasonList = object({
  leaderboard_id: leaderboardId(),
  current_season: int().min(1).example(2),
  seasons: arrayOf(
    object({
      season: season(),
      started_at: time(),
      ended_at: nullable(time()).example(null).description('null for the current season'),
      total: total().description('Ranked players (at the end, for an ended season)'),
    }),
  ),
  ...paging(),
}).id('SeasonList');

export const LeaderboardList = object({ leaderboards: arrayOf(Leaderboard), ...paging() }).id('LeaderboardList');
const gameName = () => str().example('Space Race');
export const Game = object({ game_id: gameId(), name: gameName(), publishable_key: publishableKey(), created_at: time() }).id('Game');
const secretKey = () => str().example('sk_Ji3_nxWuwtP6LaGcfPfYpgCX_IkjPZ0BrNKHwz9mdbM');
export const GameCreated = object({ game_id: gameId(), name: gameName(), publishable_key: publishableKey(), secret_key: secretKey() }).id(
  'GameCreated',
);
export const GameList = object({ games: arrayOf(Game), ...paging() }).id('GameList');
export const SecretKey = object({ secret_key: secretKey() }).id('SecretKey');
export const Clan = object({
  clan_id: clanId(),
  name: str().example('Red Foxes'),
  member_count: memberCount(),
  created_at: time(),
  updated_at: time(),
}).id('Clan');
const aliases = () =>
  documentedAs(Joi.object<Record<string, string>>().pattern(/./, str()), {
    type: 'object',
    additionalProperties: { type: 'string' },
  }).example({ steam: '76561198000000000' });
const playerProfile = () => ({ player_id: playerId(), display_name: displayName(), clan_id: nullable(clanId()), aliases: aliases() });
export const Player = object(playerProfile()).id('Player');
const banned = () => bool().example(false).description('A banned player is hidden from every leaderboard read');
const banKind = () =>
  nullable(oneOf('ban', 'shadow'))
    .example(null)
    .description(
      'How the player is banned: ban (told, reports refused) or shadow (not told, reports held, docs/review.md); null while not banned',
    );
const joined = () => time().description('When the player signed up');
/** A player in a search's results (no scores: a list must not cost a script call per board per player). */
export const PlayerSummary = object({ ...playerProfile(), banned: banned(), ban_kind: banKind(), created_at: joined() }).id(
  'PlayerSummary',
);
export const PlayerDetails = object({
  ...playerProfile(),
  banned: banned(),
  ban_kind: banKind(),
  banned_at: nullable(time()).example(null).description('When the ban began; null while not banned'),
  ban_reason: nullable(str()).example(null).description("The ban's reason as given; null for none or while not banned"),
  created_at: joined(),
  scores: arrayOf(
    object({
      leaderboard_id: leaderboardId(),
      score: score(),
      rank: nullable(rank()).description('The live rank; null while the player is banned (their scores wait out of the ranking)'),
    }),
  ).description(
    "Every leaderboard of the game where the player holds a score in the current season, with the live rank; the game's oldest leaderboard first",
  ),
}).id('PlayerDetails');
export const PlayerSearch = object({
  players: arrayOf(PlayerSummary),
  ...paging(),
  total: total().description(
    `How many players match, name matches counted up to ${COUNT_AHEAD} past this page: when more match, total_exact is false and total is a lower bound`,
  ),
  total_exact: Joi.boolean()
    .example(true)
    .description(`true: total is the number of matches; false: at least total players match (more than ${COUNT_AHEAD} past this page)`),
}).id('PlayerSearch');
const keyName = () => str().example('Discord bot');
export const ThirdPartyKeyCreated = object({
  key_id: keyId(),
  name: keyName(),
  api_key: str().example('tpk_4Jw9cXo2Lr7QeV1mZt8bN3yK6uHf0sDaPgWiEoRlTnC'),
}).id('ThirdPartyKeyCreated');
export const ThirdPartyKey = object({ key_id: keyId(), name: keyName(), created_at: time(), revoked_at: nullable(time()).example(null) });
export const ThirdPartyKeyList = object({ keys: arrayOf(ThirdPartyKey), ...paging() }).id('ThirdPartyKeyList');
const webhookId = () => str().example('wh_3hXo0T1c2qZr');
const eventTypes = () =>
  arrayOf(oneOf(...EVENT_TYPES))
    .example(['player.overtaken', 'season.ended'])
    .description('The event types sent to it');
const webhookFields = () => ({
  webhook_id: webhookId(),
  url: str().example('https://bots.example.com/leaderboard-events'),
  events: eventTypes(),
  leaderboard_ids: nullable(arrayOf(leaderboardId()))
    .example(null)
    .description('The leaderboards whose events it is sent; null for every leaderboard of the game'),
  enabled: bool()
    .example(true)
    .description('False once turned off (by the game, by a 410 Gone answer, or after 3 days of failed deliveries)'),
  created_at: time(),
});
const webhookSecret = () =>
  str()
    .example('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw5s9l1bF9f1A=')
    .description('The signing secret (Standard Webhooks): shown here once, never again');
export const Webhook = object(webhookFields()).id('Webhook');
export const WebhookCreated = object({ ...webhookFields(), secret: webhookSecret() }).id('WebhookCreated');
export const WebhookList = object({ webhooks: arrayOf(Webhook), ...paging() }).id('WebhookList');
export const WebhookTestQueued = object({
  event_id: str().example('msg_2Kq8Wc0xLr5VbNt1Yh7dPeZa').description("The test event's id: its deliveries' webhook-id header"),
}).id('WebhookTestQueued');
export const Delivery = object({
  delivery_id: int().min(1).example(5120).description('The attempt; newer attempts have higher ids'),
  event_id: str().example('msg_2Kq8Wc0xLr5VbNt1Yh7dPeZa').description("The event's id, sent as webhook-id (the same on every attempt)"),
  type: oneOf(...EVENT_TYPES).example('webhook.test'),
  attempt: int().min(1).example(1).description('1 for the first attempt, then one more per retry or redelivery'),
  status: oneOf('pending', 'delivered', 'failed').example('delivered').description('pending until the attempt is made'),
  response_status: nullable(int()).example(200).description("The receiver's HTTP status; null when none was received"),
  duration_ms: nullable(int().min(0)).example(84),
  error: nullable(oneOf(...DELIVERY_ERRORS))
    .example(null)
    .description('Why the attempt failed, from a fixed list; null when it was delivered or is pending'),
  at: time().description('When the attempt was made (or, pending, when it is due)'),
}).id('Delivery');
export const DeliveryList = object({
  deliveries: arrayOf(Delivery),
  next_before: nullable(int().min(1)).example(5100).description('The `before` that reads the next (older) page; null when there is none'),
}).id('DeliveryList');
export const RedeliveryQueued = object({
  event_id: str().example('msg_2Kq8Wc0xLr5VbNt1Yh7dPeZa').description('The event sent again, under the same webhook-id'),
  attempt: int()
    .min(1)
    .example(2)
    .description('The attempt that sends it: a new one, or the one already waiting for its retry; it shows in the delivery log'),
}).id('RedeliveryQueued');
export const AuditEntry = object({
  // An integer, like the other ordinal numbers of the API (season, rank): ids compare by age (`before`).
  id: int().min(1).example(4182).description('Increases with every entry: newer entries have higher ids'),
  at: time().description('When the change was made'),
  actor: oneOf('secret_key', 'admin', 'dashboard', 'system')
    .example('secret_key')
    .description("Who made it: the game server's Secret-Key, the admin token, a dashboard session, or the service (scheduled resets)"),
  action: str()
    .example('leaderboard.reset')
    .description("'<resource>.<verb>', e.g. leaderboard.update, player.update, third_party_key.create"),
  target: str()
    .example('weekly_race')
    .description('The id of what changed, as the API names it (leaderboard, clan, player, key or game id)'),
  details: Joi.object()
    .unknown(true)
    .example({ archived_season: 3, season: 4 })
    .description('What changed (e.g. the changed settings with their new values); never a key'),
}).id('AuditEntry');
export const AuditLog = object({
  entries: arrayOf(AuditEntry),
  next_before: nullable(int().min(1)).example(4131).description('The `before` that reads the next (older) page; null when there is none'),
}).id('AuditLog');
export const Health = object({ status: Joi.string<'ok'>().valid('ok') }).id('Health');
const state = () => oneOf('ok', 'down');
export const Ready = object({
  redis: state(),
  postgres: state(),
  pending_persistence: nullable(int().min(0).example(0)).description('null when it cannot be counted (a part is down)'),
}).id('Ready');

const competitionState = () =>
  oneOf('upcoming', 'open', 'closed')
    .example('open')
    .description('Whether the current season accepts reports: before, inside or after its window');

export const CompetitionList = object({
  leaderboards: arrayOf(
    object({
      leaderboard_id: leaderboardId(),
      name: str().example('Weekend cup'),
      type: boardType(),
      state: competitionState(),
      opens_at: nullable(time()).example('2026-11-28T18:00:00.000Z').description("When the current season's window opens; null: no window"),
      closes_at: nullable(time()).example('2026-11-30T18:00:00.000Z').description("When the current season's window closes; null: no end"),
      season: season().description('The current season'),
      season_started_at: time(),
      players: int()
        .min(0)
        .example(42)
        .description('Seats taken in the current season: players entered or holding a score (banned players keep theirs)'),
      max_players: nullable(int().min(1)).example(null).description('At most this many players per season; null: no limit'),
      entered: bool()
        .example(true)
        .description('Whether the token’s player holds a seat in the current season (entered, or holding a score)'),
      attempts_left: nullable(int().min(0)).example(null).description('Reports the token’s player has left this season; null: no limit'),
    }),
  ),
  ...paging(),
}).id('CompetitionList');

export const LeagueGroup = object({
  leaderboard_id: leaderboardId(),
  season: season().description('The season the group plays in'),
  tier: tierName().description("The group's tier"),
  group_id: groupId().description('The group, within the season'),
  total: total().description('Members holding a score (banned players left out)'),
  entries: arrayOf(
    object({
      ...playerFields(),
      score: score(),
      rank: rank().description('Within the group, by the leaderboard’s tie rule'),
      metadata: metadata(),
      ...tieFields(),
      zone: optional(zone()),
      moved_to: optional(
        tierName().example('gold').description('Once the season has ended (closed or archived): the tier its end moved the player to'),
      ),
    }),
  ),
}).id('LeagueGroup');

export const GroupList = object({
  leaderboard_id: leaderboardId(),
  season: season(),
  groups: arrayOf(
    object({
      group_id: groupId(),
      tier: tierName(),
      players: int().min(0).example(25).description('Players in the group (entered or holding a score, banned ones included)'),
    }),
  ),
  ...paging(),
}).id('GroupList');
const reviewFields = () => ({
  review_id: str().example('3f0c6f5e-2b7a-4c1e-9d55-7a0b1c2d3e4f').description('The held score, as approve and reject name it'),
  leaderboard_id: leaderboardId(),
  season: season(),
  player_id: playerId(),
  display_name: nullable(str()).example('Alex').description("The player's display name; null when they set none"),
  score: score().description("The held score: what the player sees as counted (later client reports joined by the board's rule)"),
  previous_score: nullable(num()).example(900).description('The score the player held when the hold began; null when they held none'),
  metadata: nullable(Joi.object().unknown(true)).example(null).description("The held report's metadata"),
  reason: oneOf('above', 'gain', 'outlier').example('above').description('The review rule that caught the report (docs/review.md)'),
  held_at: time().description('When the hold began'),
});
export const Review = object(reviewFields()).id('Review');
export const ReviewList = object({
  reviews: arrayOf(Review),
  total: total().description('Undecided held scores (of the leaderboard, when asked)'),
  limit: int().min(1).example(50),
  offset: int().min(0).example(0),
}).id('ReviewList');
export const ReviewDecision = object({
  review_id: reviewFields().review_id,
  leaderboard_id: leaderboardId(),
  season: season(),
  player_id: playerId(),
  decision: oneOf('approved', 'rejected').example('approved'),
  decided_at: time().description('When it was decided'),
}).id('ReviewDecision');
