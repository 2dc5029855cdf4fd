import type Joi from 'joi';
import { bodyOf, operationName, type AnyEndpoint } from '../../api/routes/endpoint.js';
import { ENDPOINTS } from '../../api/routes/index.js';

/**
 * What the security suites read from the endpoints' descriptors: their path parameters, and the
 * fields of their query and body with the example and allowed values the schemas give (the same
 * examples the OpenAPI document shows). A new endpoint is covered by reading it here, not by a list.
 */
export { ENDPOINTS, operationName };
export type { AnyEndpoint };

export type Method = AnyEndpoint['method'];

/** The names of the path's parameters, in order. */
export function pathParameters(endpoint: AnyEndpoint): string[] {
  return [...endpoint.path.matchAll(/:([A-Za-z_]+)/g)].map((match) => match[1]!);
}

/** The path with these (already encoded) values in place of its parameters. */
export function fillPath(endpoint: AnyEndpoint, values: string[]): string {
  let i = 0;
  return endpoint.path.replace(/:([A-Za-z_]+)/g, () => values[i++] ?? '');
}

/** A field as joi describes it (the parts read here). */
export interface Field {
  type: string;
  flags?: { presence?: string; only?: boolean };
  allow?: unknown[];
  examples?: unknown[];
  items?: Field[];
}

export function fieldsOf(schema: Joi.Schema | undefined): Record<string, Field> {
  return ((schema?.describe() as { keys?: Record<string, Field> } | undefined)?.keys ?? {}) as Record<string, Field>;
}

export const bodyFields = (endpoint: AnyEndpoint) => fieldsOf(bodyOf(endpoint));
export const queryFields = (endpoint: AnyEndpoint) => fieldsOf(endpoint.query);

export const isRequired = (field: Field) => field.flags?.presence === 'required';

/**
 * The query fields a request cannot do without: the required ones, and of each set the schema asks
 * one of (joi's xor or or: player_ids or alias ids), the first.
 */
export function neededQueryFields(endpoint: AnyEndpoint): [string, Field][] {
  const fields = queryFields(endpoint);
  const dependencies = ((endpoint.query?.describe() as { dependencies?: { rel: string; peers: string[] }[] } | undefined)?.dependencies ??
    []) as { rel: string; peers: string[] }[];
  const firsts = new Set(dependencies.filter((d) => d.rel === 'xor' || d.rel === 'or').map((d) => d.peers[0]!));
  return Object.entries(fields).filter(([name, field]) => isRequired(field) || firsts.has(name));
}

/** The values a field's schema names: its examples, the values it allows, true and false for a boolean. */
export function namedValues(field: Field): unknown[] {
  return [...(field.examples ?? []), ...(field.allow ?? []), ...(field.type === 'boolean' ? [true, false] : [])];
}

/** The resources a request names by these parameter or field names, and the error each gives when unknown. */
export const NOT_FOUND_CODES: Record<string, string> = {
  leaderboard_id: 'leaderboard_not_found',
  leaderboard_ids: 'leaderboard_not_found',
  clan_id: 'clan_not_found',
  player_id: 'player_not_found',
  alias_id: 'player_not_found',
  key_id: 'key_not_found',
  game_id: 'game_not_found',
  webhook_id: 'webhook_not_found',
  delivery_id: 'delivery_not_found',
  review_id: 'review_not_found',
};

/** The success statuses an endpoint documents, in the order it lists them (a dashboard form's 303 among them). */
export function successes(endpoint: AnyEndpoint): number[] {
  return Object.keys(endpoint.responses)
    .map(Number)
    .filter((status) => status < 300 || status === 303);
}

/** It creates what it names when that does not exist (201) and updates it otherwise (200). */
export const upserts = (endpoint: AnyEndpoint) => successes(endpoint).includes(200) && successes(endpoint).includes(201);

/** Whether an answer says the request may have changed stored data: the descriptor's rule, else any success but a read's. */
export function mayHaveChanged(endpoint: AnyEndpoint, res: { status: number; body: unknown; headers?: Record<string, string> }): boolean {
  if ((res.status >= 300 && res.status !== 303) || endpoint.method === 'get') return false;
  // A dashboard request sent to sign in (or to pick a game) did nothing.
  if (res.status === 303 && /\/dashboard\/(sign-in|games)$/.test(res.headers?.location ?? '')) return false;
  return endpoint.changed
    ? endpoint.changed({ status: res.status, body: res.body } as Parameters<NonNullable<AnyEndpoint['changed']>>[0])
    : true;
}
