import fc from 'fast-check';
import type { Response } from 'supertest';
import type { CredentialKind } from '../../api/middleware/auth.js';
import {
  ENDPOINTS,
  bodyFields,
  fillPath,
  neededQueryFields,
  mayHaveChanged,
  namedValues,
  operationName,
  pathParameters,
  queryFields,
  successes,
  type AnyEndpoint,
  type Field,
} from './endpoint-values.js';
import type { FuzzWorld } from './fuzz-world.js';
import { hostileObject, hostileString, hostileValue } from './fuzz-inputs.js';

export type Credential = 'PublishableKey' | 'AnonymousToken' | 'SecretKey' | 'ApiKey' | 'AdminToken';

/** One endpoint to fuzz, read from its descriptor. */
export interface FuzzTarget {
  endpoint: AnyEndpoint;
  /** As the OpenAPI document names it. */
  operation: string;
  /** The path, from its (already encoded) parameter values. */
  path(values: string[]): string;
  /** Real values for each path parameter, mixed into the hostile ones so bodies reach the engine. */
  known(w: FuzzWorld): string[][];
  /** Query keys, each with real values to mix in. */
  query(w: FuzzWorld): Record<string, string[]>;
  /** The body's own keys with hostile values. */
  body?(w: FuzzWorld): fc.Arbitrary<Record<string, unknown>>;
  /** Alternatives, each a set of credentials sent together (none: the endpoint takes no header). */
  credentials: Credential[][];
  /** A request that changes nothing even when it is let through, and its status when it is. */
  harmless?(w: FuzzWorld): { path: string; body?: object; status: number };
  /** Whether this answer may have come with a change to the game's data. */
  changes(res: Response): boolean;
  /** Its errors are HTML pages for a person, not JSON. */
  htmlErrors: boolean;
  /** Bodies storing text with U+0000, which PostgreSQL cannot hold: always tried. */
  nulBodies: object[];
}

const CLIENT: Credential[] = ['PublishableKey', 'AnonymousToken'];
const HEADERS: Record<CredentialKind, Credential[][]> = {
  none: [],
  pageToken: [],
  playerToken: [['AnonymousToken']],
  metrics: [],
  publishableKey: [['PublishableKey']],
  gameClient: [CLIENT],
  secretKey: [['SecretKey']],
  serverOrClient: [['SecretKey'], CLIENT],
  thirdParty: [['ApiKey']],
  admin: [['AdminToken']],
  // A dashboard session is a cookie: fuzzed without one, every dashboard route sends the browser to sign in.
  dashboard: [],
  dashboardAdmin: [],
};
/** Credentials that belong to a game: only requests made with them may change the game's data. */
const GAME_CREDENTIALS = new Set<CredentialKind>(['publishableKey', 'gameClient', 'secretKey', 'serverOrClient', 'thirdParty']);

/** The fuzzed game's real values for a parameter or field, by its name (the first is where every read answers). */
function worldValues(name: string, w: FuzzWorld): unknown[] {
  const players = [w.player.playerId, w.rival.playerId, w.unscored.playerId];
  const boards = [w.clanBoard, w.board, w.open, w.lowest];
  const values: Record<string, unknown[]> = {
    leaderboard_id: boards,
    leaderboard_ids: boards.map((board) => [board]),
    player_id: players,
    alias_id: [...players, w.steamId],
    search: [w.player.playerId, w.steamId],
    clan_id: [w.clan, null],
    aliases: [{ steam: w.steamId }],
    device_id: [w.device],
    token: [w.player.token],
    file: ['page.css', 'page.js'],
    // The current season: its claims wait for its end (409), and change nothing.
    season: [1],
    group_id: ['1'],
    webhook_id: [w.webhookId],
    delivery_id: [w.deliveryId],
    review_id: [w.reviewId],
  };
  return values[name] ?? [];
}

const either = (arbitrary: fc.Arbitrary<unknown>, values: unknown[]): fc.Arbitrary<unknown> =>
  values.length > 0 ? fc.oneof(arbitrary, fc.constantFrom(...values)) : arbitrary;

/** A field's value: hostile, or one of the values the schema or the world names; arrays hold such items. */
function fieldValue(name: string, field: Field, w: FuzzWorld, length?: number): fc.Arbitrary<unknown> {
  const known = [...worldValues(name, w), ...namedValues(field)];
  if (field.type === 'array') {
    const itemKnown = [
      ...worldValues(name, w).flatMap((v) => (Array.isArray(v) ? v : [])),
      ...namedValues(field.items?.[0] ?? { type: 'any' }),
    ];
    const items = either(fc.oneof(hostileValue, hostileString), itemKnown);
    const size = length === undefined ? { maxLength: 4 } : { minLength: length, maxLength: length };
    return either(fc.array(items, size), known);
  }
  if (field.type === 'object') {
    const examples = known.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null);
    const keys = examples.flatMap((e) => Object.keys(e));
    const values = [null, ...examples.flatMap((e) => Object.values(e))];
    return fc.oneof(
      hostileValue,
      fc.dictionary(either(hostileString, keys) as fc.Arbitrary<string>, either(hostileValue, values), { maxKeys: 3 }),
    );
  }
  return either(hostileValue, known);
}

/** Hostile bodies of the endpoint's own keys; arrays of one length together, so paired lists get past their shape check. */
function bodyArbitrary(endpoint: AnyEndpoint, w: FuzzWorld): fc.Arbitrary<Record<string, unknown>> | undefined {
  if (!endpoint.body) return undefined;
  const fields = Object.entries(bodyFields(endpoint));
  const free = hostileObject(Object.fromEntries(fields.map(([name, field]) => [name, fieldValue(name, field, w)])));
  if (fields.filter(([, field]) => field.type === 'array').length < 2) return free;
  const paired = fc
    .integer({ min: 1, max: 4 })
    .chain((n) => fc.record(Object.fromEntries(fields.map(([name, field]) => [name, fieldValue(name, field, w, n)]))));
  return fc.oneof(paired, free);
}

/** One body per stored text field: U+0000 where a string (or an object's string) would go. */
function nulBodies(endpoint: AnyEndpoint): object[] {
  return Object.entries(bodyFields(endpoint)).flatMap(([name, field]): object[] => {
    if (field.type === 'string') return [{ [name]: 'a\u0000b' }];
    const [example] = namedValues(field).filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null);
    const [key] = Object.keys(example ?? {});
    return field.type === 'object' && key ? [{ [name]: { [key]: 'a\u0000b' } }] : [];
  });
}

/**
 * A request that changes nothing even when let through: a read with real ids; a body with a key no
 * schema knows (400); or, without a body, ids nothing has (404).
 */
function harmless(endpoint: AnyEndpoint) {
  if (HEADERS[endpoint.credentials].length === 0) return undefined;
  const parameters = pathParameters(endpoint);
  return (w: FuzzWorld) => {
    if (endpoint.method === 'get') {
      const path = fillPath(
        endpoint,
        parameters.map((name) => encodeURIComponent(String(worldValues(name, w)[0]))),
      );
      // A read that needs a query value (a search's text) gets its first real or example value.
      const required = neededQueryFields(endpoint).map(
        ([name, field]) => `${name}=${encodeURIComponent(String([...worldValues(name, w), ...namedValues(field)][0]))}`,
      );
      return { path: required.length > 0 ? `${path}?${required.join('&')}` : path, status: successes(endpoint)[0]! };
    }
    if (endpoint.body) {
      const path = fillPath(
        endpoint,
        parameters.map((name) => encodeURIComponent(String(worldValues(name, w)[0]))),
      );
      return { path, body: { no_such_field: 1 }, status: 400 };
    }
    return {
      path: fillPath(
        endpoint,
        // A season or a delivery is a number: the first, of a board or webhook that does not exist.
        parameters.map((name) => (name === 'season' || name === 'delivery_id' ? '1' : `no-such-${name.replace(/_/g, '-')}`)),
      ),
      status: 404,
    };
  };
}

function targetOf(endpoint: AnyEndpoint): FuzzTarget {
  const parameters = pathParameters(endpoint);
  const mayChange = GAME_CREDENTIALS.has(endpoint.credentials);
  const check = harmless(endpoint);
  return {
    endpoint,
    operation: operationName(endpoint),
    path: (values) => fillPath(endpoint, values),
    known: (w) => parameters.map((name) => worldValues(name, w).map(String)),
    query: (w) =>
      Object.fromEntries(
        Object.entries(queryFields(endpoint)).map(([name, field]) => [name, [...worldValues(name, w), ...namedValues(field)].map(String)]),
      ),
    ...(endpoint.body ? { body: (w: FuzzWorld) => bodyArbitrary(endpoint, w)! } : {}),
    credentials: HEADERS[endpoint.credentials],
    ...(check ? { harmless: check } : {}),
    changes: (res) => mayChange && mayHaveChanged(endpoint, res),
    // The dashboard answers every error as a page (README, "The dashboard").
    htmlErrors: endpoint.htmlErrors !== undefined || endpoint.tag === 'Dashboard',
    nulBodies: nulBodies(endpoint),
  };
}

/** Every endpoint but the operations ones (health, readiness, metrics, the document and its page). */
export const FUZZ_TARGETS: FuzzTarget[] = ENDPOINTS.filter((endpoint) => endpoint.tag !== 'Operations').map(targetOf);
