import { expect } from 'chai';
import fc from 'fast-check';
import type { Response } from 'supertest';
import { api } from '../helpers/context.js';
import { ADMIN } from '../helpers/fixtures.js';
import {
  headerChoice,
  pathSegment,
  percentEncode,
  queryString,
  queryValue,
  wireBody,
  type HeaderChoice,
  type WireBody,
} from './fuzz-inputs.js';
import type { Credential, FuzzTarget } from './fuzz-targets.js';
import type { FuzzWorld } from './fuzz-world.js';

/** Building, sending and judging the fuzzed requests. */
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export const methodOf = (target: FuzzTarget): Method => target.endpoint.method;

export function send(method: Method, path: string, headers: Record<string, string>, body: WireBody = {}): Promise<Response> {
  const request = api()[method](path).set(headers);
  const text = body.oversized ? `{"name":"${'x'.repeat(body.oversized)}"}` : body.text;
  if (text === undefined) return request;
  if (body.contentType) request.set('Content-Type', body.contentType);
  return request.send(text);
}

export interface HostileRequest {
  path: string;
  body: WireBody;
}

const parametersOf = (target: FuzzTarget) => (target.operation.match(/\{/g) ?? []).length;

/**
 * Requests tried on every run before the random ones: the smallest forms of what fuzzing has found
 * (paths that are not valid percent-encoding, U+0000 in ids and stored text, bodies where none is read).
 */
export function pinnedRequests(target: FuzzTarget, w: FuzzWorld): HostileRequest[] {
  const parameters = parametersOf(target);
  const path = (segment: (i: number) => string) => target.path(Array.from({ length: parameters }, (_, i) => segment(i)));
  const real = path((i) => percentEncode(target.known(w)[i]?.[0] ?? 'x'));
  return [
    ...(parameters > 0
      ? [
          { path: path(() => '%'), body: {} },
          { path: path(() => '%00'), body: {} },
        ]
      : []),
    { path: real, body: { contentType: 'text/plain', text: 'score=1' } },
    { path: real, body: { contentType: 'application/json', oversized: 70 * 1024 } },
    ...target.nulBodies.map((body) => ({ path: real, body: { contentType: 'application/json', text: JSON.stringify(body) } })),
  ];
}

/** Path, query and body values for one endpoint: hostile, with real values mixed in. */
export function hostileRequest(target: FuzzTarget, w: FuzzWorld): fc.Arbitrary<HostileRequest> {
  const known = target.known(w);
  const parameters = parametersOf(target);
  const segments = fc.tuple(...Array.from({ length: parameters }, (_, i) => pathSegment(known[i] ?? [])));
  const keys = target.query(w);
  const query = fc.record(Object.fromEntries(Object.entries(keys).map(([key, values]) => [key, queryValue(values)])), { requiredKeys: [] });
  const stray = fc.option(fc.tuple(fc.constantFrom('x', 'limit[]', 'LIMIT', '__proto__', 'token[a]'), queryValue()), { freq: 6 });
  return fc.record({ segments, query, stray, body: wireBody(target.body?.(w)) }).map(({ segments, query, stray, body }) => ({
    path:
      target.path(segments) + queryString({ ...(query as Record<string, string | string[]>), ...(stray ? { [stray[0]]: stray[1] } : {}) }),
    body,
  }));
}

const HEADERS: Record<Credential, { name: string; value(w: FuzzWorld): string }> = {
  PublishableKey: { name: 'Publishable-Key', value: (w) => w.game.publishableKey },
  AnonymousToken: { name: 'Anonymous-Authorization', value: (w) => w.player.token },
  SecretKey: { name: 'Secret-Key', value: (w) => w.game.secretKey },
  ApiKey: { name: 'Api-Key', value: (w) => w.apiKey },
  AdminToken: { name: 'Authorization', value: () => ADMIN.Authorization },
};
const CREDENTIALS = Object.keys(HEADERS) as Credential[];

/** The headers of the endpoint's first way of authenticating, all valid. */
export function validHeaders(target: FuzzTarget, w: FuzzWorld): Record<string, string> {
  return Object.fromEntries((target.credentials[0] ?? []).map((c) => [HEADERS[c].name, HEADERS[c].value(w)]));
}

export type HeaderChoices = Record<Credential, HeaderChoice>;

export const headerChoices: fc.Arbitrary<HeaderChoices> = fc.record(
  Object.fromEntries(CREDENTIALS.map((c) => [c, headerChoice])) as Record<Credential, fc.Arbitrary<HeaderChoice>>,
);

export function choiceHeaders(choices: HeaderChoices, w: FuzzWorld): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const credential of CREDENTIALS) {
    const choice = choices[credential];
    const { name, value } = HEADERS[credential];
    if (choice.kind === 'valid') headers[name] = value(w);
    if (choice.kind === 'odd') headers[name] = choice.text;
    // A suffix on a base64 token can decode to the same bytes, so tokens are spoiled in front.
    if (choice.kind === 'spoiled') {
      headers[name] = credential === 'AnonymousToken' ? choice.prefix + choice.suffix + value(w) : choice.prefix + value(w) + choice.suffix;
    }
  }
  return headers;
}

/** Let through only when some way of authenticating has every one of its headers valid. */
export function authenticates(target: FuzzTarget, choices: HeaderChoices): boolean {
  return target.credentials.some((set) => set.every((credential) => choices[credential].kind === 'valid'));
}

export function onlyValidOrAbsent(choices: HeaderChoices): boolean {
  return Object.values(choices).every((choice) => choice.kind === 'valid' || choice.kind === 'absent');
}

export const AUTH_CODES = ['missing_key', 'invalid_key', 'missing_token', 'invalid_token', 'missing_admin_token', 'invalid_admin_token'];

/** The error codes each status may carry. */
const CODES: Record<number, string[]> = {
  400: ['invalid_json', 'validation_failed', 'not_a_clan_leaderboard'],
  401: AUTH_CODES,
  403: ['client_reports_disabled', 'forbidden', 'player_banned'],
  404: [
    'not_found',
    'leaderboard_not_found',
    'player_not_found',
    'record_not_found',
    'clan_not_found',
    'game_not_found',
    'key_not_found',
    'season_not_found',
    'group_not_found',
    'webhook_not_found',
    'delivery_not_found',
    'review_not_found',
  ],
  409: ['already_exists', 'conflict'],
  413: ['payload_too_large'],
  415: ['unsupported_media_type'],
  429: ['rate_limited'],
};

/** Never a 5xx; every error a JSON {error: {code, message}} with a code its status allows. */
export function expectWellFormed(target: FuzzTarget, res: Response, where: string): void {
  expect(res.status, `${where}: a server error`).to.be.below(500);
  if (res.status < 400) return;
  if (target.htmlErrors && /^text\/html/.test(res.headers['content-type'] ?? '')) return;
  expect(res.headers['content-type'], `${where}: error media type`).to.match(/^application\/json/);
  expect(CODES[res.status] ?? [], `${where}: error code`).to.include(res.body?.error?.code);
  expect(res.body.error.message, `${where}: error message`).to.be.a('string').with.length.above(0);
}

export function describeResponse(method: Method, path: string, res: Response): string {
  return `${method.toUpperCase()} ${path.slice(0, 160)} answered ${res.status} ${res.text?.slice(0, 160) ?? ''}`;
}
