import type { Auth, CredentialKind } from './credential-kinds.js';
import {
  ENDPOINTS,
  NOT_FOUND_CODES,
  bodyFields,
  fillPath,
  isRequired,
  neededQueryFields,
  namedValues,
  operationName,
  pathParameters,
  successes,
  upserts,
  type AnyEndpoint,
  type Field,
} from './endpoint-values.js';
import type { GameWorld } from './world.js';

/** The game under test, the other game, and a third game (whose secret key the admin may rotate). */
export interface MatrixWorld {
  a: GameWorld;
  b: GameWorld;
  rotatedGameId: string;
}

export interface Outcome {
  status: number;
  /** For errors: the codes the service may answer. */
  codes?: string[];
}

export interface MatrixRow {
  endpoint: AnyEndpoint;
  /** As the OpenAPI document names it. */
  operation: string;
  /** Tells apart rows of the same operation. */
  note?: string;
  auth: Auth;
  method: AnyEndpoint['method'];
  /** A row whose request may change data runs on games of its own. */
  changes: boolean;
  path(w: MatrixWorld): string;
  body?(w: MatrixWorld): object;
  /** The resources of the game under test the request names (by parameter or field name), path first. */
  names: string[];
  /** The path's parameters and the body's fields, by name, as the request sends them. */
  sent(w: MatrixWorld): Record<string, unknown>;
  /** The record read's player: the token's own, or another of the game. */
  player: 'own' | 'other';
}

export const rowName = (row: MatrixRow) => (row.note ? `${row.operation} (${row.note})` : row.operation);

/** The game under test's value for a parameter or body field, by its name. */
function worldValue(name: string, w: MatrixWorld, player: 'own' | 'other'): unknown {
  const values: Record<string, unknown> = {
    leaderboard_id: w.a.board,
    leaderboard_ids: [w.a.board],
    clan_id: w.a.clan,
    player_id: player === 'own' ? w.a.player.playerId : w.a.other.playerId,
    alias_id: w.a.player.playerId,
    key_id: w.a.keyId,
    // Rotating a key of the games under watch would change them: the admin rotates a third game's.
    game_id: w.rotatedGameId,
    device_id: w.a.device,
    // The world's board ended season 1 with rewards (world.ts): its claims can succeed.
    season: 1,
    // The world's player is in its board's first group this season (world.ts: the other moved up a tier).
    group_id: '1',
    webhook_id: w.a.webhookId,
    delivery_id: w.a.deliveryId,
    review_id: w.a.reviewId,
    url: w.a.webhookUrl,
  };
  return values[name];
}

/** A body field's value: the world's, else the schema's first example (a list of it for an array). */
function fieldValue(name: string, field: Field, w: MatrixWorld): unknown {
  const known = worldValue(name, w, 'own');
  if (known !== undefined) return known;
  const [example] = namedValues(field);
  if (example !== undefined) return example;
  const [item] = field.type === 'array' ? namedValues(field.items?.[0] ?? { type: 'any' }) : [];
  if (item !== undefined) return [item];
  throw new Error(`give the schema of body field '${name}' an example: the security suites send it`);
}

function rowsOf(endpoint: AnyEndpoint): MatrixRow[] {
  if (endpoint.credentials === 'none') return [];
  const parameters = pathParameters(endpoint);
  // The body: its required fields, and those its schema gives an example of.
  const sent = Object.entries(bodyFields(endpoint)).filter(([, field]) => isRequired(field) || (field.examples?.length ?? 0) > 0);
  // A query value the endpoint cannot do without (a search's text): the player's own id, which the world holds.
  // (The page's token is a credential: the matrix sends it by kind.)
  const required = neededQueryFields(endpoint).filter(([name]) => name !== 'token');
  const requiredQuery = (w: MatrixWorld) =>
    required.length === 0 ? '' : `?${required.map(([name]) => `${name}=${encodeURIComponent(w.a.player.playerId)}`).join('&')}`;
  const row = (player: 'own' | 'other', note?: string): MatrixRow => ({
    endpoint,
    operation: operationName(endpoint),
    ...(note ? { note } : {}),
    auth: endpoint.credentials as Auth,
    method: endpoint.method,
    changes: endpoint.method !== 'get',
    path: (w) =>
      fillPath(
        endpoint,
        parameters.map((name) => encodeURIComponent(String(worldValue(name, w, player)))),
      ) + requiredQuery(w),
    ...(endpoint.body
      ? { body: (w: MatrixWorld) => Object.fromEntries(sent.map(([name, field]) => [name, fieldValue(name, field, w)])) }
      : {}),
    names: [...parameters, ...sent.map(([name]) => name)].filter((name) => name in NOT_FOUND_CODES),
    sent: (w) => ({
      ...Object.fromEntries(parameters.map((name) => [name, worldValue(name, w, player)])),
      ...Object.fromEntries(sent.map(([name, field]) => [name, fieldValue(name, field, w)])),
    }),
    player,
  });
  // A player's record is read by the game server or that player only: one row of each kind of player.
  if (endpoint.credentials === 'serverOrClient' && parameters.includes('player_id')) {
    return [row('own', "the token's own player"), row('other', "another player's")];
  }
  return [row('own')];
}

export const MATRIX_ROWS: MatrixRow[] = ENDPOINTS.flatMap(rowsOf);

/** The withdrawals from a season, by their rows' operation. */
const WITHDRAWALS = new Set([
  'DELETE /api/v1/client/leaderboards/{leaderboard_id}/entry',
  'DELETE /api/v1/server/leaderboards/{leaderboard_id}/entries/{player_id}',
]);

/**
 * What an endpoint answers to a credential it lets through, from its descriptor: the game under
 * test's own credential gets the endpoint's success (200 from one that also creates: the world has
 * what it names); another game's gets a 404 for the first thing of this game the request names, or (naming
 * nothing) its own success, or 201 from one that creates what the path names.
 */
export function acceptedOutcome(row: MatrixRow, kind: CredentialKind): Outcome {
  const owner = row.auth === 'pageToken' || row.auth === 'playerToken' ? kind.tokenOwner : kind.owner === 'none' ? 'this' : kind.owner;
  // A player token reads only its own player's record.
  if (row.auth === 'serverOrClient' && kind.tokenOwner && !(kind.tokenOwner === 'this' && row.player === 'own')) {
    return { status: 403, codes: ['forbidden'] };
  }
  const [first] = successes(row.endpoint);
  if (first === undefined) throw new Error(`${rowName(row)} documents no success`);
  // The world's players have reported this season: withdrawing them is refused (docs/competitions.md, part 3).
  if (owner === 'this' && WITHDRAWALS.has(row.operation)) return { status: 409, codes: ['conflict'] };
  if (owner === 'this') return { status: upserts(row.endpoint) ? 200 : first };
  if (upserts(row.endpoint)) return { status: pathParameters(row.endpoint).length > 0 ? 201 : 200 };
  // The first resource named decides, unless the endpoint declares the codes itself.
  if (row.names.length > 0) return { status: 404, codes: row.endpoint.notFound ?? [NOT_FOUND_CODES[row.names[0]!]!] };
  return { status: first };
}
