import Joi from 'joi';
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
const time = () => Joi.string().isoDate();
const uri = () => Joi.string().uri();
const boardType = () => oneOf('individual', 'clan');
const sortOrder = () => oneOf('desc', 'asc');
const view = () => oneOf('players', 'clans');

export const ErrorBody = object({
  error: object({
    code: str(),
    message: str(),
    details: optional(arrayOf(object({ field: str(), message: str() }))),
  }),
}).id('Error');

export const Token = object({
  token: str().description('Standard base64 of JSON {user_id, game_id, iat, sig}'),
  player_id: str(),
}).id('Token');

export const ReportResult = object({
  leaderboard_id: str(),
  player_id: str(),
  submitted_score: num(),
  best_score: num(),
  improved: bool(),
  rank: int().min(1),
  total: int(),
}).id('ReportResult');

export const BatchResult = object({
  player_id: str(),
  results: arrayOf(object({ leaderboard_id: str(), submitted_score: num(), best_score: num(), improved: bool(), rank: int() })),
}).id('BatchResult');

const playerFields = () => ({ player_id: str(), display_name: str(), avatar_url: uri(), clan_id: nullable(str()) });
const clanFields = () => ({ clan_id: str(), name: str(), member_count: int() });

export const PlayerRecord = object({ leaderboard_id: str(), ...playerFields(), score: num(), rank: int(), total: int() }).id(
  'PlayerRecord',
);

export const ClanRecord = object({
  leaderboard_id: str(),
  ...clanFields(),
  score: num().description("Sum of the members' best scores (0 while none has a score)"),
  rank: nullable(int()).description('null while no member has a score'),
  total: int(),
}).id('ClanRecord');

export const PlayerOrClanRecord = Joi.alternatives<Value<typeof PlayerRecord> | Value<typeof ClanRecord>>()
  .try(PlayerRecord, ClanRecord)
  .id('PlayerOrClanRecord');

export const PlayerEntry = object({ ...playerFields(), score: num(), rank: int() }).id('PlayerEntry');
export const ClanEntry = object({ ...clanFields(), score: num(), rank: int() }).id('ClanEntry');

export const LeaderboardPage = object({
  leaderboard_id: str(),
  name: str(),
  type: boardType(),
  sort_order: sortOrder(),
  view: view(),
  total: int(),
  limit: int(),
  offset: int(),
  entries: arrayOf(Joi.alternatives<Value<typeof PlayerEntry> | Value<typeof ClanEntry>>().try(PlayerEntry, ClanEntry)),
}).id('LeaderboardPage');

export const WebPlayerEntry = object({ ...playerFields(), score: num(), rank: int(), is_viewer: bool() });
export const WebClanEntry = object({ ...clanFields(), score: num(), rank: int(), is_viewer: bool() });

export const WebEntries = object({
  leaderboard_id: str(),
  view: view(),
  total: int(),
  limit: int(),
  offset: int(),
  entries: arrayOf(Joi.alternatives<Value<typeof WebPlayerEntry> | Value<typeof WebClanEntry>>().try(WebPlayerEntry, WebClanEntry)),
}).id('WebEntries');

export const AroundMe = object({ leaderboard_id: str(), total: int(), entries: arrayOf(PlayerEntry) }).id('AroundMe');

export const MemberEntry = object({
  player_id: str(),
  display_name: str(),
  avatar_url: uri(),
  score: nullable(num()),
  rank: nullable(int()),
  clan_rank: nullable(int()),
});

export const ClanMembers = object({
  leaderboard_id: str(),
  clan_id: str(),
  total: int(),
  limit: int(),
  offset: int(),
  entries: arrayOf(MemberEntry),
}).id('ClanMembers');

export const Leaderboard = object({
  leaderboard_id: str(),
  name: str(),
  type: boardType(),
  sort_order: sortOrder(),
  client_reports: bool(),
  min_score: nullable(num()),
  max_score: nullable(num()),
  created_at: time(),
  updated_at: time(),
}).id('Leaderboard');

/** A page of a management list, oldest first: the count of all, and the paging it answers. */
const listPage = () => ({ total: int(), limit: int(), offset: int() });

export const LeaderboardList = object({ leaderboards: arrayOf(Leaderboard), ...listPage() }).id('LeaderboardList');
export const Game = object({ game_id: str(), name: str(), publishable_key: str(), created_at: time() }).id('Game');
export const GameCreated = object({ game_id: str(), name: str(), publishable_key: str(), secret_key: str() }).id('GameCreated');
export const GameList = object({ games: arrayOf(Game), ...listPage() }).id('GameList');
export const SecretKey = object({ secret_key: str() }).id('SecretKey');
export const Clan = object({ clan_id: str(), name: str(), member_count: int(), created_at: time(), updated_at: time() }).id('Clan');
export const Player = object({
  player_id: str(),
  display_name: str(),
  clan_id: nullable(str()),
  aliases: documentedAs(Joi.object<Record<string, string>>().pattern(/./, str()), {
    type: 'object',
    additionalProperties: { type: 'string' },
  }),
}).id('Player');
export const ThirdPartyKeyCreated = object({ key_id: str(), name: str(), api_key: str() }).id('ThirdPartyKeyCreated');
export const ThirdPartyKey = object({ key_id: str(), name: str(), created_at: time(), revoked_at: nullable(time()) });
export const ThirdPartyKeyList = object({ keys: arrayOf(ThirdPartyKey), ...listPage() }).id('ThirdPartyKeyList');
export const Health = object({ status: Joi.string<'ok'>().valid('ok') }).id('Health');
const state = () => oneOf('ok', 'down');
export const Ready = object({
  redis: state(),
  postgres: state(),
  pending_persistence: nullable(int()).description('null when it cannot be counted (a part is down)'),
}).id('Ready');
