import fc from 'fast-check';
import type { FuzzWorld } from './fuzz-world.js';
import { hostileObject, hostileString, hostileValue } from './fuzz-inputs.js';

export type Credential = 'PublishableKey' | 'AnonymousToken' | 'SecretKey' | 'ApiKey' | 'AdminToken';

/** One endpoint to fuzz, described by what it takes. */
export interface FuzzTarget {
  /** As the OpenAPI document names it. */
  operation: string;
  /** The path, from its (already encoded) parameter values. */
  path(values: string[]): string;
  /** Real values for each path parameter, mixed into the hostile ones so bodies reach the engine. */
  known?(w: FuzzWorld): string[][];
  /** Query keys, each with real values to mix in. */
  query?(w: FuzzWorld): Record<string, string[]>;
  /** The body's own keys with hostile values. */
  body?(w: FuzzWorld): fc.Arbitrary<Record<string, unknown>>;
  /** Alternatives, each a set of credentials sent together (none: the endpoint takes none). */
  credentials: Credential[][];
  /** A request that changes nothing even when it is let through, and its status when it is. */
  harmless?(w: FuzzWorld): { path: string; body?: object; status: number };
  /** Successes that legitimately change the game's data. */
  changes?(status: number): boolean;
  /** Its errors are HTML pages for a person, not JSON. */
  htmlErrors?: boolean;
  /** A body storing text with U+0000, which PostgreSQL cannot hold: always tried. */
  nulBody?: object;
}

const CLIENT: Credential[] = ['PublishableKey', 'AnonymousToken'];
const boards = (w: FuzzWorld) => [w.board, w.open, w.lowest, w.clanBoard];
const players = (w: FuzzWorld) => [w.player.playerId, w.rival.playerId, w.unscored.playerId];
const paging = { limit: ['1', '50', '1000'], offset: ['0', '3'] };
const either = <T>(arbitrary: fc.Arbitrary<T>, ...values: T[]): fc.Arbitrary<T> => fc.oneof(arbitrary, fc.constantFrom(...values));
const always = () => true;

/** Batches whose arrays pair up, so they get past the shape checks to the per-pair ones. */
const pairedBatch = (w: FuzzWorld) =>
  fc
    .array(fc.tuple(hostileValue, either(hostileString, ...boards(w))), { minLength: 1, maxLength: 4 })
    .map((pairs) => ({ player_id: w.player.playerId, scores: pairs.map(([score]) => score), leaderboard_ids: pairs.map(([, id]) => id) }));

const clientBoard = (v: string[]) => `/api/v1/client/leaderboards/${v[0]}`;
const thirdParty = (v: string[]) => `/api/v1/third_party/leaderboards/${v[0]}`;

export const FUZZ_TARGETS: FuzzTarget[] = [
  {
    operation: 'POST /api/v1/signup/anonymous',
    path: () => '/api/v1/signup/anonymous',
    body: (w) => hostileObject({ device_id: either(hostileValue, w.device) }),
    credentials: [['PublishableKey']],
    harmless: (w) => ({ path: '/api/v1/signup/anonymous', body: { device_id: w.device }, status: 200 }),
    changes: (status) => status === 201,
    nulBody: { device_id: 'a\u0000b' },
  },
  {
    operation: 'POST /api/v1/client/leaderboards/{leaderboard_id}/report_score',
    path: (v) => `${clientBoard(v)}/report_score`,
    known: (w) => [boards(w)],
    body: () => hostileObject({ score: hostileValue }),
    credentials: [CLIENT],
    harmless: (w) => ({ path: `/api/v1/client/leaderboards/${w.board}/report_score`, body: { score: 1 }, status: 200 }),
  },
  {
    operation: 'GET /api/v1/client/leaderboards/{leaderboard_id}/players/{player_id}',
    path: (v) => `${clientBoard(v)}/players/${v[1]}`,
    known: (w) => [boards(w), players(w)],
    credentials: [['SecretKey'], CLIENT],
    harmless: (w) => ({ path: `/api/v1/client/leaderboards/${w.board}/players/${w.player.playerId}`, status: 200 }),
  },
  {
    operation: 'GET /api/v1/client/leaderboards/{leaderboard_id}',
    path: clientBoard,
    known: (w) => [boards(w)],
    query: () => ({ ...paging, clan: ['true', 'false'] }),
    credentials: [CLIENT],
    harmless: (w) => ({ path: `/api/v1/client/leaderboards/${w.clanBoard}?clan=true`, status: 200 }),
  },
  {
    operation: 'GET /api/v1/client/leaderboards/{leaderboard_id}/around_me',
    path: (v) => `${clientBoard(v)}/around_me`,
    known: (w) => [boards(w)],
    query: () => ({ range: ['1', '50'] }),
    credentials: [CLIENT],
    harmless: (w) => ({ path: `/api/v1/client/leaderboards/${w.open}/around_me`, status: 200 }),
  },
  {
    operation: 'PATCH /api/v1/client/players/me',
    path: () => '/api/v1/client/players/me',
    body: () => hostileObject({ display_name: hostileValue }),
    credentials: [CLIENT],
    harmless: () => ({ path: '/api/v1/client/players/me', body: { display_name: ' ' }, status: 400 }),
    changes: (status) => status === 200,
    nulBody: { display_name: 'a\u0000b' },
  },
  {
    operation: 'POST /api/v1/server/report_scores',
    path: () => '/api/v1/server/report_scores',
    body: (w) =>
      fc.oneof(
        pairedBatch(w),
        hostileObject({
          player_id: either(hostileValue, w.player.playerId),
          scores: either(fc.array(hostileValue, { maxLength: 3 }), [1]),
          leaderboard_ids: either(fc.array(hostileString, { maxLength: 3 }), [w.board]),
        }),
      ),
    credentials: [['SecretKey']],
    harmless: (w) => ({ path: '/api/v1/server/report_scores', body: { player_id: w.player.playerId, scores: [1], leaderboard_ids: [w.board] }, status: 200 }),
  },
  {
    operation: 'GET /api/v1/server/leaderboards',
    path: () => '/api/v1/server/leaderboards',
    credentials: [['SecretKey']],
    harmless: () => ({ path: '/api/v1/server/leaderboards', status: 200 }),
  },
  {
    operation: 'PUT /api/v1/server/leaderboards/{leaderboard_id}',
    path: (v) => `/api/v1/server/leaderboards/${v[0]}`,
    known: (w) => [boards(w)],
    body: () =>
      hostileObject({
        name: hostileValue,
        type: either(hostileValue, 'individual', 'clan'),
        sort_order: either(hostileValue, 'desc', 'asc'),
        client_reports: either(hostileValue, true, false),
        min_score: either(hostileValue, null),
        max_score: either(hostileValue, null),
      }),
    credentials: [['SecretKey']],
    // Changing the type of a leaderboard with scores is refused.
    harmless: (w) => ({ path: `/api/v1/server/leaderboards/${w.board}`, body: { type: 'clan' }, status: 409 }),
    changes: always,
    nulBody: { name: '\u0000' },
  },
  {
    operation: 'DELETE /api/v1/server/leaderboards/{leaderboard_id}',
    path: (v) => `/api/v1/server/leaderboards/${v[0]}`,
    credentials: [['SecretKey']],
    harmless: () => ({ path: '/api/v1/server/leaderboards/no-such-board', status: 404 }),
    changes: always,
  },
  {
    operation: 'PUT /api/v1/server/clans/{clan_id}',
    path: (v) => `/api/v1/server/clans/${v[0]}`,
    known: (w) => [[w.clan]],
    body: () => hostileObject({ name: hostileValue }),
    credentials: [['SecretKey']],
    harmless: (w) => ({ path: `/api/v1/server/clans/${w.clan}`, body: { name: '' }, status: 400 }),
    changes: always,
    nulBody: { name: '\u0000' },
  },
  {
    operation: 'DELETE /api/v1/server/clans/{clan_id}',
    path: (v) => `/api/v1/server/clans/${v[0]}`,
    credentials: [['SecretKey']],
    harmless: () => ({ path: '/api/v1/server/clans/no-such-clan', status: 404 }),
    changes: always,
  },
  {
    operation: 'PATCH /api/v1/server/players/{player_id}',
    path: (v) => `/api/v1/server/players/${v[0]}`,
    known: (w) => [players(w)],
    body: (w) =>
      hostileObject({
        display_name: hostileValue,
        clan_id: either(hostileValue, w.clan, null),
        aliases: fc.oneof(hostileValue, fc.dictionary(either(hostileString, 'steam', 'discord'), either<unknown>(hostileValue, null, w.steamId), { maxKeys: 3 })),
      }),
    credentials: [['SecretKey']],
    harmless: () => ({ path: '/api/v1/server/players/no-such-player', body: {}, status: 404 }),
    changes: always,
    nulBody: { aliases: { steam: 'a\u0000b' } },
  },
  {
    operation: 'POST /api/v1/server/third_party_keys',
    path: () => '/api/v1/server/third_party_keys',
    body: () => hostileObject({ name: hostileValue }),
    credentials: [['SecretKey']],
    harmless: () => ({ path: '/api/v1/server/third_party_keys', body: {}, status: 400 }),
    changes: always,
    nulBody: { name: '\u0000' },
  },
  {
    operation: 'GET /api/v1/server/third_party_keys',
    path: () => '/api/v1/server/third_party_keys',
    credentials: [['SecretKey']],
    harmless: () => ({ path: '/api/v1/server/third_party_keys', status: 200 }),
  },
  {
    operation: 'DELETE /api/v1/server/third_party_keys/{key_id}',
    path: (v) => `/api/v1/server/third_party_keys/${v[0]}`,
    credentials: [['SecretKey']],
    harmless: () => ({ path: '/api/v1/server/third_party_keys/no-such-key', status: 404 }),
    changes: always,
  },
  {
    operation: 'GET /api/v1/third_party/leaderboards/{leaderboard_id}',
    path: thirdParty,
    known: (w) => [boards(w)],
    query: () => ({ ...paging, clan: ['true', '1', '0'] }),
    credentials: [['ApiKey']],
    harmless: (w) => ({ path: `/api/v1/third_party/leaderboards/${w.lowest}`, status: 200 }),
  },
  {
    operation: 'GET /api/v1/third_party/leaderboards/{leaderboard_id}/player/{alias_id}',
    path: (v) => `${thirdParty(v)}/player/${v[1]}`,
    known: (w) => [boards(w), [...players(w), w.steamId]],
    query: () => ({ alias_type: ['steam', 'discord'], clan: ['true', 'false'] }),
    credentials: [['ApiKey']],
    harmless: (w) => ({ path: `/api/v1/third_party/leaderboards/${w.clanBoard}/player/${w.steamId}?alias_type=steam&clan=true`, status: 200 }),
  },
  {
    operation: 'GET /api/v1/third_party/leaderboards/{leaderboard_id}/clans/{clan_id}',
    path: (v) => `${thirdParty(v)}/clans/${v[1]}`,
    known: (w) => [boards(w), [w.clan]],
    credentials: [['ApiKey']],
    harmless: (w) => ({ path: `/api/v1/third_party/leaderboards/${w.clanBoard}/clans/${w.clan}`, status: 200 }),
  },
  {
    operation: 'GET /api/v1/third_party/leaderboards/{leaderboard_id}/clans/{clan_id}/members',
    path: (v) => `${thirdParty(v)}/clans/${v[1]}/members`,
    known: (w) => [boards(w), [w.clan]],
    query: () => paging,
    credentials: [['ApiKey']],
    harmless: (w) => ({ path: `/api/v1/third_party/leaderboards/${w.clanBoard}/clans/${w.clan}/members`, status: 200 }),
  },
  {
    operation: 'POST /api/v1/admin/games',
    path: () => '/api/v1/admin/games',
    body: () => hostileObject({ name: hostileValue }),
    credentials: [['AdminToken']],
    harmless: () => ({ path: '/api/v1/admin/games', body: {}, status: 400 }),
    nulBody: { name: '\u0000' },
  },
  {
    operation: 'GET /api/v1/admin/games',
    path: () => '/api/v1/admin/games',
    credentials: [['AdminToken']],
    harmless: () => ({ path: '/api/v1/admin/games', status: 200 }),
  },
  {
    operation: 'POST /api/v1/admin/games/{game_id}/secret_key',
    path: (v) => `/api/v1/admin/games/${v[0]}/secret_key`,
    credentials: [['AdminToken']],
    harmless: () => ({ path: '/api/v1/admin/games/no-such-game/secret_key', status: 404 }),
  },
  {
    operation: 'GET /leaderboards/{leaderboard_id}',
    path: (v) => `/leaderboards/${v[0]}`,
    known: (w) => [boards(w)],
    query: (w) => ({ token: [w.player.token], hideCloseButton: ['true', '0'], view: ['clans', 'players'] }),
    credentials: [],
    htmlErrors: true,
  },
  {
    operation: 'GET /leaderboards/{leaderboard_id}/entries',
    path: (v) => `/leaderboards/${v[0]}/entries`,
    known: (w) => [boards(w)],
    query: (w) => ({ token: [w.player.token], ...paging, view: ['clans', 'players'] }),
    credentials: [],
  },
  {
    operation: 'GET /api/v1/users/{player_id}/avatar.png',
    path: (v) => `/api/v1/users/${v[0]}/avatar.png`,
    known: (w) => [players(w)],
    query: () => ({ size: ['16', '512'] }),
    credentials: [],
  },
  {
    operation: 'GET /web-assets/{file}',
    path: (v) => `/web-assets/${v[0]}`,
    known: () => [['page.css', 'page.js']],
    credentials: [],
  },
];
