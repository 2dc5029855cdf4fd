import { schemas } from './schemas.js';

/**
 * The OpenAPI 3.1 document of every endpoint, served at /openapi.json and rendered at /docs. The
 * integration tests check every response they receive against it, so it cannot drift from the code.
 */
type Credential = 'PublishableKey' | 'AnonymousToken' | 'SecretKey' | 'ApiKey' | 'AdminToken' | 'MetricsToken';

interface Parameter {
  name: string;
  schema: object;
  description: string;
  required?: boolean;
}

interface Operation {
  summary: string;
  description?: string;
  tag: string;
  /** Alternatives; each an array of credentials sent together. */
  security?: Credential[][];
  path?: Parameter[];
  query?: Parameter[];
  body?: object;
  ok: { status: number; schema?: string; description?: string; content?: string };
  /** Other success statuses answering with the same body (200 for an update, 304 for a cached avatar). */
  alsoOk?: number[];
  /** Statuses besides the ones every operation may answer (401 when secured, 429, 500, 503). */
  errors: number[];
}

const ERROR_TEXT: Record<number, string> = {
  400: 'invalid_json, validation_failed or not_a_clan_leaderboard',
  401: 'missing or invalid credentials',
  403: 'client_reports_disabled or forbidden',
  404: 'not found (see the error code)',
  409: 'already_exists or conflict',
  413: 'payload_too_large (over 64 KiB)',
  415: 'unsupported_media_type (send JSON)',
  429: 'rate_limited; see Retry-After',
  500: 'internal',
  503: 'unavailable: Redis or PostgreSQL unreachable; see Retry-After',
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const str = (pattern?: string) => (pattern ? { type: 'string', pattern } : { type: 'string' });
const ID = '^[A-Za-z0-9_.-]{1,64}$';
const leaderboardParam: Parameter = { name: 'leaderboard_id', schema: str(ID), description: 'The leaderboard' };
const clanParam: Parameter = { name: 'clan_id', schema: str(ID), description: 'The clan' };
const playerParam: Parameter = { name: 'player_id', schema: str(), description: "The service's player id" };
const paging: Parameter[] = [
  { name: 'limit', schema: str('^[0-9]+$'), description: 'Page size, 1-1000 (default 50)' },
  { name: 'offset', schema: str('^[0-9]+$'), description: 'Entries to skip, >= 0 (default 0)' },
];
const clanFlag: Parameter = {
  name: 'clan',
  schema: { type: 'string', enum: ['true', 'false', '1', '0'] },
  description: 'true: the clans view (clan leaderboards only)',
};
const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  required,
});
const score = { anyOf: [{ type: 'number' }, { type: 'string', description: 'a decimal number' }] };
const NAME_RULES = 'NFC-normalised and trimmed; no control or format characters (bidi controls such as U+202E, zero-width characters); at least one visible character';
const readableName = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength, description: NAME_RULES });

function operation(op: Operation) {
  const secured = (op.security ?? []).length > 0;
  const statuses = [...new Set([...op.errors, ...(secured ? [401] : []), ...(op.body ? [400, 413, 415] : []), 429, 500, 503])];
  const responses: Record<string, unknown> = {
    [op.ok.status]: {
      description: op.ok.description ?? 'Success',
      ...(op.ok.schema ? { content: { [op.ok.content ?? 'application/json']: { schema: ref(op.ok.schema) } } } : {}),
      ...(op.ok.content && !op.ok.schema ? { content: { [op.ok.content]: { schema: { type: 'string' } } } } : {}),
    },
  };
  for (const status of op.alsoOk ?? []) {
    responses[status] = { ...(responses[op.ok.status] as object), description: `Also ${status}` };
  }
  for (const status of statuses.filter((s) => !(op.alsoOk ?? []).includes(s)).sort()) {
    responses[status] = { description: ERROR_TEXT[status], content: { 'application/json': { schema: ref('Error') } } };
  }
  return {
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    ...(secured ? { security: op.security!.map((set) => Object.fromEntries(set.map((name) => [name, []]))) } : {}),
    parameters: [
      ...(op.path ?? []).map((p) => ({ in: 'path', required: true, ...p })),
      ...(op.query ?? []).map((p) => ({ in: 'query', required: p.required ?? false, ...p })),
    ],
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } } : {}),
    responses,
  };
}

/**
 * The web page's operations: only those that list 429 have a rate limit (RATE_LIMIT_WEB_PER_IP_PER_MINUTE),
 * and the page itself answers its errors as HTML pages a player can read.
 */
function webOperation(op: Operation, errorContent = 'application/json') {
  const built = operation(op);
  const responses = built.responses as Record<string, { description: string; content?: object }>;
  if (!op.errors.includes(429)) delete responses[429];
  if (errorContent !== 'application/json') {
    const pages: Record<number, string> = {
      401: 'An HTML page: the token is missing or not valid',
      404: 'An HTML page: the leaderboard is unknown in the token’s game',
      429: 'An HTML page: too many requests from this IP; see Retry-After',
      500: 'An HTML page: internal error',
      503: 'An HTML page: Redis or PostgreSQL unreachable; see Retry-After',
    };
    for (const status of [...op.errors, 500, 503]) {
      responses[status] = { description: pages[status] ?? ERROR_TEXT[status]!, content: { [errorContent]: { schema: { type: 'string' } } } };
    }
  }
  return built;
}

const CLIENT: Credential[] = ['PublishableKey', 'AnonymousToken'];

export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Leaderboard service',
    version: '1.0.0',
    description:
      'Leaderboards for games: anonymous player tokens, client and server score reports, instant competition ranks ' +
      '(ties share a rank: 1, 2, 2, 4), clans, a webview page, avatars and read-only third-party access. ' +
      'Every error is {"error": {"code", "message", "details"?}}; every response carries X-Request-Id. ' +
      'Every response to a request that carries a key or token (in a header, or the page\'s ?token=), errors included, ' +
      'has Cache-Control: no-store and Vary on the credential headers.',
  },
  components: {
    securitySchemes: {
      PublishableKey: { type: 'apiKey', in: 'header', name: 'Publishable-Key', description: "The game's public pk_ key" },
      AnonymousToken: {
        type: 'apiKey',
        in: 'header',
        name: 'Anonymous-Authorization',
        description: 'The token from POST /api/v1/signup/anonymous (an optional "Bearer " prefix is accepted)',
      },
      SecretKey: { type: 'apiKey', in: 'header', name: 'Secret-Key', description: "The game server's sk_ key" },
      ApiKey: { type: 'apiKey', in: 'header', name: 'Api-Key', description: 'A read-only third-party tpk_ key' },
      AdminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN of whoever runs the service' },
      MetricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, for the Prometheus scraper' },
    },
    schemas,
  },
  paths: {
    '/api/v1/signup/anonymous': {
      post: operation({
        tag: 'Game client',
        summary: 'Get an anonymous player token for a device',
        description:
          'The same device_id in the same game always returns the same player (200); a new one 201. The body is optional. ' +
          'A device_id is a bearer secret: whoever knows it gets that player. Send a random UUID created once per install, ' +
          'never a hardware serial or anything else another party can know or guess. The service may require a minimum ' +
          'length (MIN_DEVICE_ID_LENGTH, default 1); a shorter one is 400 validation_failed.',
        security: [['PublishableKey']],
        body: object({
          device_id: { type: 'string', minLength: 1, maxLength: 128, description: 'A random UUID per install (a bearer secret)' },
        }),
        ok: { status: 201, schema: 'Token', description: 'A new player (200 with the same body for a known device)' },
        alsoOk: [200],
        errors: [],
      }),
    },
    '/api/v1/client/leaderboards/{leaderboard_id}/report_score': {
      post: operation({
        tag: 'Game client',
        summary: 'Report a score for the token’s player',
        description: 'Keeps the best score (higher on desc leaderboards, lower on asc); the rank already reflects this report.',
        security: [CLIENT],
        path: [leaderboardParam],
        body: object({ score }, ['score']),
        ok: { status: 200, schema: 'ReportResult' },
        errors: [403, 404],
      }),
    },
    '/api/v1/client/leaderboards/{leaderboard_id}/players/{player_id}': {
      get: operation({
        tag: 'Game client',
        summary: "Read a player's record",
        description: 'With the Secret-Key: any player of the game. With a player token: that player only (else 403 forbidden). 404 record_not_found when the player has no score there.',
        security: [['SecretKey'], CLIENT],
        path: [leaderboardParam, playerParam],
        ok: { status: 200, schema: 'PlayerRecord' },
        errors: [400, 403, 404],
      }),
    },
    '/api/v1/client/leaderboards/{leaderboard_id}': {
      get: operation({
        tag: 'Game client',
        summary: 'Read a page of a leaderboard (same body as the third-party endpoint)',
        security: [CLIENT],
        path: [leaderboardParam],
        query: [...paging, clanFlag],
        ok: { status: 200, schema: 'LeaderboardPage' },
        errors: [400, 404],
      }),
    },
    '/api/v1/client/leaderboards/{leaderboard_id}/around_me': {
      get: operation({
        tag: 'Game client',
        summary: "The player's entry with up to `range` entries above and below",
        security: [CLIENT],
        path: [leaderboardParam],
        query: [{ name: 'range', schema: str('^[0-9]+$'), description: '1-50 (default 5)' }],
        ok: { status: 200, schema: 'AroundMe' },
        errors: [400, 404],
      }),
    },
    '/api/v1/client/players/me': {
      patch: operation({
        tag: 'Game client',
        summary: 'Set the player’s display name',
        security: [CLIENT],
        body: object({ display_name: readableName(32) }, ['display_name']),
        ok: { status: 200, schema: 'Player' },
        errors: [404],
      }),
    },
    '/leaderboards/{leaderboard_id}': {
      get: webOperation(
        {
          tag: 'Web page',
          summary: 'The leaderboard page for a webview (served from APP_URL)',
          description:
            'HTML, under its own strict Content-Security-Policy. The top 50 entries with more on demand (from the entries endpoint below), the viewer\'s row highlighted and pinned at the bottom while out of view, and a players/clans switch on clan leaderboards. Unless hideCloseButton=true (or 1), a "Close" button navigates to this URL with sdk_action=close_window added: the host app closes the webview on that navigation. A missing or bad token gives an HTML 401 page, an unknown leaderboard an HTML 404 page.',
          path: [leaderboardParam],
          query: [
            { name: 'token', schema: str(), description: 'The anonymous player token', required: true },
            { name: 'hideCloseButton', schema: { type: 'string', enum: ['true', 'false', '1', '0'] }, description: 'true hides the close button' },
            { name: 'view', schema: { enum: ['players', 'clans'] }, description: 'clans: the clan totals (clan leaderboards only; default players)' },
          ],
          ok: { status: 200, content: 'text/html', description: 'The page' },
          errors: [401, 404, 429],
        },
        'text/html',
      ),
    },
    '/leaderboards/{leaderboard_id}/entries': {
      get: webOperation({
        tag: 'Web page',
        summary: "The page's further entries, as JSON",
        description:
          'What the page loads for "more": authenticated by the page\'s own token, entries best first with is_viewer marking the viewer (or their clan). view=clans on an individual leaderboard is 400 not_a_clan_leaderboard.',
        path: [leaderboardParam],
        query: [
          { name: 'token', schema: str(), description: 'The anonymous player token', required: true },
          ...paging,
          { name: 'view', schema: { enum: ['players', 'clans'] }, description: 'players (default) or clans' },
        ],
        ok: { status: 200, schema: 'WebEntries' },
        errors: [400, 401, 404, 429],
      }),
    },
    '/api/v1/users/{player_id}/avatar.png': {
      get: webOperation({
        tag: 'Web page',
        summary: "The player's avatar: a deterministic identicon PNG",
        description:
          'No credentials; the same image for the same player every time. The image is drawn at the nearest of 16, 24, 32, 48, 64, 96, 128, 192, 256, 384 and 512 pixels to the size asked for (the PNG\'s own dimensions say which). A strong ETag and Cache-Control (public, a week) are set; a matching If-None-Match gives 304. An unknown player id of any shape is 404 player_not_found.',
        path: [playerParam],
        query: [{ name: 'size', schema: str('^[0-9]+$'), description: 'Pixels, 16-512 (default 128), drawn at the nearest of the sizes above' }],
        ok: { status: 200, content: 'image/png', description: 'The PNG' },
        alsoOk: [304],
        errors: [400, 404, 429],
      }),
    },
    '/web-assets/{file}': {
      get: webOperation({
        tag: 'Web page',
        summary: "The page's stylesheet (page.css), script (page.js) and icon (favicon.svg)",
        description: 'Cached for a year: the page links them with a hash of their content. A matching If-None-Match gives 304.',
        path: [{ name: 'file', schema: { enum: ['page.css', 'page.js', 'favicon.svg'] }, description: 'The file' }],
        ok: { status: 200, content: 'text/css', description: 'The file (text/css, text/javascript or image/svg+xml)' },
        alsoOk: [304],
        errors: [404],
      }),
    },
    '/api/v1/server/report_scores': {
      post: operation({
        tag: 'Game server',
        summary: "Report one player's scores on several leaderboards",
        description:
          'scores[i] goes to leaderboard_ids[i]; 1-100 pairs. All or nothing: when any pair is invalid (unknown leaderboard, bad or out-of-bounds score) nothing is applied. Safe to retry.',
        security: [['SecretKey']],
        body: object(
          {
            player_id: { type: 'string' },
            scores: { type: 'array', items: score, minItems: 1, maxItems: 100 },
            leaderboard_ids: { type: 'array', items: str(ID), minItems: 1, maxItems: 100 },
          },
          ['player_id', 'scores', 'leaderboard_ids'],
        ),
        ok: { status: 200, schema: 'BatchResult' },
        errors: [404],
      }),
    },
    '/api/v1/server/leaderboards': {
      get: operation({
        tag: 'Game server',
        summary: "The game's leaderboards, oldest first, a page at a time",
        security: [['SecretKey']],
        query: paging,
        ok: { status: 200, schema: 'LeaderboardList' },
        errors: [400],
      }),
    },
    '/api/v1/server/leaderboards/{leaderboard_id}': {
      put: operation({
        tag: 'Game server',
        summary: 'Create or update a leaderboard',
        description:
          'All fields optional; defaults: name = the id, type individual, sort_order desc, client_reports true, no bounds. 201 created, 200 updated. Changing type or sort_order once scores exist is 409 conflict.',
        security: [['SecretKey']],
        path: [leaderboardParam],
        body: object({
          name: readableName(100),
          type: { enum: ['individual', 'clan'] },
          sort_order: { enum: ['desc', 'asc'] },
          client_reports: { type: 'boolean' },
          min_score: { type: ['number', 'null'] },
          max_score: { type: ['number', 'null'] },
        }),
        ok: { status: 201, schema: 'Leaderboard', description: 'Created (200 with the same body when updated)' },
        alsoOk: [200],
        errors: [404, 409],
      }),
      delete: operation({
        tag: 'Game server',
        summary: 'Delete a leaderboard and all its scores, for good',
        security: [['SecretKey']],
        path: [leaderboardParam],
        ok: { status: 204, description: 'Deleted' },
        errors: [400, 404],
      }),
    },
    '/api/v1/server/clans/{clan_id}': {
      put: operation({
        tag: 'Game server',
        summary: 'Create or rename a clan',
        security: [['SecretKey']],
        path: [clanParam],
        body: object({ name: readableName(100) }),
        ok: { status: 201, schema: 'Clan', description: 'Created (200 with the same body when updated)' },
        alsoOk: [200],
        errors: [404],
      }),
      delete: operation({
        tag: 'Game server',
        summary: 'Delete a clan; its members become clanless and clan totals drop it',
        security: [['SecretKey']],
        path: [clanParam],
        ok: { status: 204, description: 'Deleted' },
        errors: [400, 404, 409],
      }),
    },
    '/api/v1/server/players/{player_id}': {
      patch: operation({
        tag: 'Game server',
        summary: "Set a player's display name, clan (null leaves it) and aliases (null removes one)",
        description: "Joining or leaving a clan moves the player's best scores between clan totals at once. An alias held by another player is 409 already_exists.",
        security: [['SecretKey']],
        path: [playerParam],
        body: object({
          display_name: readableName(32),
          clan_id: { type: ['string', 'null'], pattern: ID },
          aliases: { type: 'object', additionalProperties: { type: ['string', 'null'], minLength: 1, maxLength: 128 } },
        }),
        ok: { status: 200, schema: 'Player' },
        errors: [404, 409],
      }),
    },
    '/api/v1/server/third_party_keys': {
      post: operation({
        tag: 'Game server',
        summary: 'Create a read-only third-party key (shown once)',
        security: [['SecretKey']],
        body: object({ name: readableName(100) }, ['name']),
        ok: { status: 201, schema: 'ThirdPartyKeyCreated' },
        errors: [],
      }),
      get: operation({
        tag: 'Game server',
        summary: "The game's third-party keys (without the keys themselves), oldest first, a page at a time",
        security: [['SecretKey']],
        query: paging,
        ok: { status: 200, schema: 'ThirdPartyKeyList' },
        errors: [400],
      }),
    },
    '/api/v1/server/third_party_keys/{key_id}': {
      delete: operation({
        tag: 'Game server',
        summary: 'Revoke a third-party key; every API process refuses it within 1 second',
        security: [['SecretKey']],
        path: [{ name: 'key_id', schema: str(), description: 'The key id' }],
        ok: { status: 204, description: 'Revoked' },
        errors: [400, 404],
      }),
    },
    '/api/v1/third_party/leaderboards/{leaderboard_id}': {
      get: operation({
        tag: 'Third party',
        summary: 'A page of a leaderboard: players, or clans with clan=true',
        description: 'Best first; tied entries share a rank and keep one fixed order. clan=true on an individual leaderboard is 400 not_a_clan_leaderboard.',
        security: [['ApiKey']],
        path: [leaderboardParam],
        query: [...paging, clanFlag],
        ok: { status: 200, schema: 'LeaderboardPage' },
        errors: [400, 404],
      }),
    },
    '/api/v1/third_party/leaderboards/{leaderboard_id}/player/{alias_id}': {
      get: operation({
        tag: 'Third party',
        summary: "A player's record by player id or alias, or with clan=true their clan's record",
        security: [['ApiKey']],
        path: [leaderboardParam, { name: 'alias_id', schema: str(), description: 'The player id, or an alias with alias_type' }],
        query: [
          { name: 'alias_type', schema: str('^[a-z0-9_]{1,32}$'), description: 'e.g. steam, discord; absent: alias_id is the player id' },
          clanFlag,
        ],
        ok: { status: 200, schema: 'PlayerOrClanRecord', description: 'The player record (a ClanRecord with clan=true)' },
        errors: [400, 404],
      }),
    },
    '/api/v1/third_party/leaderboards/{leaderboard_id}/clans/{clan_id}': {
      get: operation({
        tag: 'Third party',
        summary: "A clan's record",
        security: [['ApiKey']],
        path: [leaderboardParam, clanParam],
        ok: { status: 200, schema: 'ClanRecord' },
        errors: [400, 404],
      }),
    },
    '/api/v1/third_party/leaderboards/{leaderboard_id}/clans/{clan_id}/members': {
      get: operation({
        tag: 'Third party',
        summary: "A clan's members, best first; members without a score last",
        security: [['ApiKey']],
        path: [leaderboardParam, clanParam],
        query: paging,
        ok: { status: 200, schema: 'ClanMembers' },
        errors: [400, 404],
      }),
    },
    '/api/v1/admin/games': {
      post: operation({
        tag: 'Admin',
        summary: 'Create a game with its publishable and secret keys (the secret is shown once)',
        security: [['AdminToken']],
        body: object({ name: readableName(100) }, ['name']),
        ok: { status: 201, schema: 'GameCreated' },
        errors: [],
      }),
      get: operation({
        tag: 'Admin',
        summary: 'List games, oldest first, a page at a time',
        security: [['AdminToken']],
        query: paging,
        ok: { status: 200, schema: 'GameList' },
        errors: [400],
      }),
    },
    '/api/v1/admin/games/{game_id}/secret_key': {
      post: operation({
        tag: 'Admin',
        summary: "Rotate a game's secret key; the old one stops working at once",
        security: [['AdminToken']],
        path: [{ name: 'game_id', schema: str(), description: 'The game' }],
        ok: { status: 200, schema: 'SecretKey' },
        // It reads no body, but a body sent anyway is still checked (400 invalid_json, 413, 415).
        errors: [400, 404, 413, 415],
      }),
    },
    '/healthz': {
      get: operation({ tag: 'Operations', summary: 'The process is alive', ok: { status: 200, schema: 'Health' }, errors: [] }),
    },
    '/readyz': {
      get: operation({
        tag: 'Operations',
        summary: 'Redis and PostgreSQL answer (200), else 503; with the persistence backlog',
        ok: { status: 200, schema: 'Ready' },
        alsoOk: [503],
        errors: [],
      }),
    },
    '/metrics': {
      get: operation({
        tag: 'Operations',
        summary: 'Prometheus metrics of this API process',
        description: 'Served only when METRICS_TOKEN is set (otherwise 404 not_found), to "Authorization: Bearer <METRICS_TOKEN>".',
        security: [['MetricsToken']],
        ok: { status: 200, content: 'text/plain' },
        errors: [404],
      }),
    },
    '/openapi.json': {
      get: operation({ tag: 'Operations', summary: 'This document', ok: { status: 200, content: 'application/json' }, errors: [] }),
    },
    '/docs': {
      get: operation({ tag: 'Operations', summary: 'A readable API reference', ok: { status: 200, content: 'text/html' }, errors: [] }),
    },
  },
};
