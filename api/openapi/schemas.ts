/** JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of every response body. */
const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;
const num = { type: 'number' } as const;
const bool = { type: 'boolean' } as const;
const time = { type: 'string', format: 'date-time' } as const;
const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }] });
const object = (properties: Record<string, unknown>, optional: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties).filter((key) => !optional.includes(key)),
  properties,
});
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const playerFields = {
  player_id: str,
  display_name: str,
  avatar_url: { type: 'string', format: 'uri' },
  clan_id: nullable(str),
};
const clanFields = { clan_id: str, name: str, member_count: int };

/** A page of a management list, oldest first: the count of all, and the paging it answers. */
const listPage = { total: int, limit: int, offset: int };

export const schemas = {
  Error: object({
    error: object(
      {
        code: str,
        message: str,
        details: { type: 'array', items: object({ field: str, message: str }) },
      },
      ['details'],
    ),
  }),
  Token: object({ token: { ...str, description: 'Standard base64 of JSON {user_id, game_id, iat, sig}' }, player_id: str }),
  ReportResult: object({
    leaderboard_id: str,
    player_id: str,
    submitted_score: num,
    best_score: num,
    improved: bool,
    rank: { ...int, minimum: 1 },
    total: int,
  }),
  BatchResult: object({
    player_id: str,
    results: {
      type: 'array',
      items: object({ leaderboard_id: str, submitted_score: num, best_score: num, improved: bool, rank: int }),
    },
  }),
  PlayerRecord: object({ leaderboard_id: str, ...playerFields, score: num, rank: int, total: int }),
  ClanRecord: object({
    leaderboard_id: str,
    ...clanFields,
    score: { ...num, description: "Sum of the members' best scores (0 while none has a score)" },
    rank: { ...nullable(int), description: 'null while no member has a score' },
    total: int,
  }),
  PlayerOrClanRecord: { anyOf: [ref('PlayerRecord'), ref('ClanRecord')] },
  PlayerEntry: object({ ...playerFields, score: num, rank: int }),
  ClanEntry: object({ ...clanFields, score: num, rank: int }),
  LeaderboardPage: object({
    leaderboard_id: str,
    name: str,
    type: { enum: ['individual', 'clan'] },
    sort_order: { enum: ['desc', 'asc'] },
    view: { enum: ['players', 'clans'] },
    total: int,
    limit: int,
    offset: int,
    entries: { type: 'array', items: { anyOf: [ref('PlayerEntry'), ref('ClanEntry')] } },
  }),
  WebEntries: object({
    leaderboard_id: str,
    view: { enum: ['players', 'clans'] },
    total: int,
    limit: int,
    offset: int,
    entries: {
      type: 'array',
      items: {
        anyOf: [
          object({ ...playerFields, score: num, rank: int, is_viewer: bool }),
          object({ ...clanFields, score: num, rank: int, is_viewer: bool }),
        ],
      },
    },
  }),
  AroundMe: object({ leaderboard_id: str, total: int, entries: { type: 'array', items: ref('PlayerEntry') } }),
  ClanMembers: object({
    leaderboard_id: str,
    clan_id: str,
    total: int,
    limit: int,
    offset: int,
    entries: {
      type: 'array',
      items: object({
        player_id: str,
        display_name: str,
        avatar_url: { type: 'string', format: 'uri' },
        score: nullable(num),
        rank: nullable(int),
        clan_rank: nullable(int),
      }),
    },
  }),
  Leaderboard: object({
    leaderboard_id: str,
    name: str,
    type: { enum: ['individual', 'clan'] },
    sort_order: { enum: ['desc', 'asc'] },
    client_reports: bool,
    min_score: nullable(num),
    max_score: nullable(num),
    created_at: time,
    updated_at: time,
  }),
  LeaderboardList: object({ leaderboards: { type: 'array', items: ref('Leaderboard') }, ...listPage }),
  Game: object({ game_id: str, name: str, publishable_key: str, created_at: time }),
  GameCreated: object({ game_id: str, name: str, publishable_key: str, secret_key: str }),
  GameList: object({ games: { type: 'array', items: ref('Game') }, ...listPage }),
  SecretKey: object({ secret_key: str }),
  Clan: object({ clan_id: str, name: str, member_count: int, created_at: time, updated_at: time }),
  Player: object({
    player_id: str,
    display_name: str,
    clan_id: nullable(str),
    aliases: { type: 'object', additionalProperties: str },
  }),
  ThirdPartyKeyCreated: object({ key_id: str, name: str, api_key: str }),
  ThirdPartyKeyList: object({
    keys: {
      type: 'array',
      items: object({ key_id: str, name: str, created_at: time, revoked_at: nullable(time) }),
    },
    ...listPage,
  }),
  Health: object({ status: { const: 'ok' } }),
  Ready: object({
    redis: { enum: ['ok', 'down'] },
    postgres: { enum: ['ok', 'down'] },
    pending_persistence: { ...nullable(int), description: 'null when it cannot be counted (a part is down)' },
  }),
};
