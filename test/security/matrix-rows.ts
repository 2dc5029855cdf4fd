import { expect } from 'chai';
import type { Response } from 'supertest';
import type { Auth, KindKey } from './credential-kinds.js';
import type { GameWorld } from './world.js';

/** The game under test (with resources some rows use up or change) and the other game. */
export interface MatrixWorld {
  a: GameWorld & { putBoard: string; doomedBoard: string; putClan: string; doomedClan: string; doomedKeyId: string };
  b: GameWorld;
  /** A third game, whose secret key the admin row rotates. */
  rotatedGameId: string;
}

export interface Outcome {
  status: number;
  /** For errors: the codes the contract allows. */
  codes?: string[];
  check?(res: Response, w: MatrixWorld, cell: string): void;
}

export interface MatrixRow {
  /** As the OpenAPI document names it. */
  operation: string;
  /** Tells apart rows of the same operation. */
  note?: string;
  auth: Auth;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path(w: MatrixWorld): string;
  body?(w: MatrixWorld): object;
  /** What the endpoint answers to each credential kind it lets through. */
  accepted: Partial<Record<KindKey, Outcome>>;
}

export const rowName = (row: MatrixRow) => (row.note ? `${row.operation} (${row.note})` : row.operation);

const ok = (status: number, check?: Outcome['check']): Outcome => ({ status, ...(check ? { check } : {}) });
const error = (status: number, ...codes: string[]): Outcome => ({ status, codes });
const body = (expected: Record<string, unknown>) => (res: Response, _w: MatrixWorld, cell: string) =>
  expect(res.body, cell).to.include(expected);
const playerIs = (world: 'a' | 'b') => (res: Response, w: MatrixWorld, cell: string) =>
  expect(res.body.player_id, `${cell}: the player`).to.equal(w[world].player.playerId);

const board = (w: MatrixWorld) => `/api/v1/client/leaderboards/${w.a.board}`;
const thirdParty = (w: MatrixWorld) => `/api/v1/third_party/leaderboards/${w.a.board}`;
const NO_BOARD = error(404, 'leaderboard_not_found');
/** A record read answers whichever of the two lookups fails first. */
const NO_RECORD = error(404, 'leaderboard_not_found', 'player_not_found');
const FORBIDDEN = error(403, 'forbidden');

export const MATRIX_ROWS: MatrixRow[] = [
  {
    operation: 'POST /api/v1/signup/anonymous',
    auth: 'publishable',
    method: 'post',
    path: () => '/api/v1/signup/anonymous',
    body: (w) => ({ device_id: w.a.device }),
    accepted: {
      publishable: ok(200, playerIs('a')),
      client: ok(200, playerIs('a')),
      otherToken: ok(200, playerIs('a')),
      forgedToken: ok(200, playerIs('a')),
      otherPublishable: ok(200, playerIs('b')),
      otherClient: ok(200, playerIs('b')),
    },
  },
  {
    operation: 'POST /api/v1/client/leaderboards/{leaderboard_id}/report_score',
    auth: 'client',
    method: 'post',
    path: (w) => `${board(w)}/report_score`,
    body: () => ({ score: 1 }),
    accepted: { client: ok(200, body({ best_score: 50, improved: false })), otherClient: NO_BOARD },
  },
  {
    operation: 'GET /api/v1/client/leaderboards/{leaderboard_id}/players/{player_id}',
    note: "the token's own player",
    auth: 'serverOrClient',
    method: 'get',
    path: (w) => `${board(w)}/players/${w.a.player.playerId}`,
    accepted: { client: ok(200, body({ score: 50 })), secret: ok(200, body({ score: 50 })), otherClient: FORBIDDEN, otherSecret: NO_RECORD },
  },
  {
    operation: 'GET /api/v1/client/leaderboards/{leaderboard_id}/players/{player_id}',
    note: "another player's",
    auth: 'serverOrClient',
    method: 'get',
    path: (w) => `${board(w)}/players/${w.a.other.playerId}`,
    accepted: { client: FORBIDDEN, secret: ok(200, body({ score: 70 })), otherClient: FORBIDDEN, otherSecret: NO_RECORD },
  },
  {
    operation: 'GET /api/v1/client/leaderboards/{leaderboard_id}',
    auth: 'client',
    method: 'get',
    path: board,
    accepted: { client: ok(200, body({ total: 2 })), otherClient: NO_BOARD },
  },
  {
    operation: 'GET /api/v1/client/leaderboards/{leaderboard_id}/around_me',
    auth: 'client',
    method: 'get',
    path: (w) => `${board(w)}/around_me`,
    accepted: { client: ok(200, body({ total: 2 })), otherClient: NO_BOARD },
  },
  {
    operation: 'PATCH /api/v1/client/players/me',
    auth: 'client',
    method: 'patch',
    path: () => '/api/v1/client/players/me',
    body: () => ({ display_name: 'Matrix Player' }),
    accepted: { client: ok(200, playerIs('a')), otherClient: ok(200, playerIs('b')) },
  },
  {
    operation: 'POST /api/v1/server/report_scores',
    auth: 'secret',
    method: 'post',
    path: () => '/api/v1/server/report_scores',
    body: (w) => ({ player_id: w.a.player.playerId, scores: [1], leaderboard_ids: [w.a.board] }),
    accepted: { secret: ok(200, playerIs('a')), otherSecret: error(404, 'player_not_found') },
  },
  {
    operation: 'GET /api/v1/server/leaderboards',
    auth: 'secret',
    method: 'get',
    path: () => '/api/v1/server/leaderboards',
    accepted: {
      secret: ok(200, (res, w, cell) => expect(res.text, cell).to.include(w.a.board)),
      otherSecret: ok(200),
    },
  },
  {
    operation: 'PUT /api/v1/server/leaderboards/{leaderboard_id}',
    auth: 'secret',
    method: 'put',
    path: (w) => `/api/v1/server/leaderboards/${w.a.putBoard}`,
    body: () => ({ name: 'Renamed by the matrix' }),
    // The other game's key creates a leaderboard of its own under the same id.
    accepted: { secret: ok(200), otherSecret: ok(201) },
  },
  {
    operation: 'DELETE /api/v1/server/leaderboards/{leaderboard_id}',
    auth: 'secret',
    method: 'delete',
    path: (w) => `/api/v1/server/leaderboards/${w.a.doomedBoard}`,
    accepted: { secret: ok(204), otherSecret: NO_BOARD },
  },
  {
    operation: 'PUT /api/v1/server/clans/{clan_id}',
    auth: 'secret',
    method: 'put',
    path: (w) => `/api/v1/server/clans/${w.a.putClan}`,
    body: () => ({ name: 'Renamed by the matrix' }),
    accepted: { secret: ok(200), otherSecret: ok(201) },
  },
  {
    operation: 'DELETE /api/v1/server/clans/{clan_id}',
    auth: 'secret',
    method: 'delete',
    path: (w) => `/api/v1/server/clans/${w.a.doomedClan}`,
    accepted: { secret: ok(204), otherSecret: error(404, 'clan_not_found') },
  },
  {
    operation: 'PATCH /api/v1/server/players/{player_id}',
    auth: 'secret',
    method: 'patch',
    path: (w) => `/api/v1/server/players/${w.a.other.playerId}`,
    body: () => ({ display_name: 'Renamed by the matrix' }),
    accepted: { secret: ok(200, body({ display_name: 'Renamed by the matrix' })), otherSecret: error(404, 'player_not_found') },
  },
  {
    operation: 'POST /api/v1/server/third_party_keys',
    auth: 'secret',
    method: 'post',
    path: () => '/api/v1/server/third_party_keys',
    body: () => ({ name: 'matrix' }),
    accepted: { secret: ok(201), otherSecret: ok(201) },
  },
  {
    operation: 'GET /api/v1/server/third_party_keys',
    auth: 'secret',
    method: 'get',
    path: () => '/api/v1/server/third_party_keys',
    accepted: { secret: ok(200, (res, w, cell) => expect(res.text, cell).to.include(w.a.keyId)), otherSecret: ok(200) },
  },
  {
    operation: 'DELETE /api/v1/server/third_party_keys/{key_id}',
    auth: 'secret',
    method: 'delete',
    path: (w) => `/api/v1/server/third_party_keys/${w.a.doomedKeyId}`,
    accepted: { secret: ok(204), otherSecret: error(404, 'key_not_found') },
  },
  {
    operation: 'GET /api/v1/third_party/leaderboards/{leaderboard_id}',
    auth: 'thirdParty',
    method: 'get',
    path: thirdParty,
    accepted: { thirdParty: ok(200, body({ total: 2 })), otherThirdParty: NO_BOARD },
  },
  {
    operation: 'GET /api/v1/third_party/leaderboards/{leaderboard_id}/player/{alias_id}',
    auth: 'thirdParty',
    method: 'get',
    path: (w) => `${thirdParty(w)}/player/${w.a.player.playerId}`,
    accepted: { thirdParty: ok(200, body({ score: 50 })), otherThirdParty: NO_RECORD },
  },
  {
    operation: 'GET /api/v1/third_party/leaderboards/{leaderboard_id}/clans/{clan_id}',
    auth: 'thirdParty',
    method: 'get',
    path: (w) => `${thirdParty(w)}/clans/${w.a.clan}`,
    accepted: { thirdParty: ok(200, body({ score: 50 })), otherThirdParty: NO_BOARD },
  },
  {
    operation: 'GET /api/v1/third_party/leaderboards/{leaderboard_id}/clans/{clan_id}/members',
    auth: 'thirdParty',
    method: 'get',
    path: (w) => `${thirdParty(w)}/clans/${w.a.clan}/members`,
    accepted: { thirdParty: ok(200, body({ total: 1 })), otherThirdParty: NO_BOARD },
  },
  {
    operation: 'POST /api/v1/admin/games',
    auth: 'admin',
    method: 'post',
    path: () => '/api/v1/admin/games',
    body: () => ({ name: 'Made by the matrix' }),
    accepted: { admin: ok(201) },
  },
  {
    operation: 'GET /api/v1/admin/games',
    auth: 'admin',
    method: 'get',
    path: () => '/api/v1/admin/games',
    accepted: { admin: ok(200, (res, w, cell) => expect(res.text, cell).to.include(w.a.game.gameId)) },
  },
  {
    operation: 'POST /api/v1/admin/games/{game_id}/secret_key',
    auth: 'admin',
    method: 'post',
    path: (w) => `/api/v1/admin/games/${w.rotatedGameId}/secret_key`,
    accepted: { admin: ok(200) },
  },
  {
    operation: 'GET /metrics',
    note: 'no credential kind holds the metrics token',
    auth: 'metrics',
    method: 'get',
    path: () => '/metrics',
    accepted: {},
  },
  {
    operation: 'GET /leaderboards/{leaderboard_id}/entries',
    note: 'the web page, token in ?token=',
    auth: 'pageToken',
    method: 'get',
    path: (w) => `/leaderboards/${w.a.board}/entries`,
    accepted: {
      client: ok(200, (res, w, cell) => {
        const viewer = res.body.entries.find((e: { is_viewer: boolean }) => e.is_viewer);
        expect(viewer?.player_id, `${cell}: the highlighted row`).to.equal(w.a.player.playerId);
      }),
      otherClient: NO_BOARD,
      otherToken: NO_BOARD,
    },
  },
];
