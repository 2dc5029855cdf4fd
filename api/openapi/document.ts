import type Joi from 'joi';
import joiToJson from 'joi-to-json';
import type { CredentialKind } from '../middleware/auth.js';
import type { AnyEndpoint, ErrorStatus, Success, Tag } from '../routes/endpoint.js';
import { bodyOf, openApiPath } from '../routes/endpoint.js';
import { ErrorBody } from '../routes/responses.js';

/**
 * The OpenAPI 3.1 document of every endpoint, served at /openapi.json and rendered at /docs, built
 * from the endpoints' descriptions: their joi schemas become JSON Schema (2020-12, as OpenAPI 3.1
 * uses them) through joi-to-json. The integration tests check every response they receive (and every
 * request the service accepted) against it, so it cannot drift from the code.
 */
type JsonSchema = Record<string, unknown>;
// The package is CommonJS (module.exports = parse) while its typings declare an ES default export.
const parse = joiToJson as unknown as typeof joiToJson.parse;
type SecurityScheme = 'PublishableKey' | 'AnonymousToken' | 'SecretKey' | 'ApiKey' | 'AdminToken' | 'MetricsToken';

/** Alternatives, each a set of headers sent together; none for the kinds that take no header. */
const SECURITY: Record<CredentialKind, SecurityScheme[][]> = {
  none: [],
  pageToken: [],
  // ?token= (for EventSource) is described on the operation's query.
  playerToken: [['AnonymousToken']],
  publishableKey: [['PublishableKey']],
  gameClient: [['PublishableKey', 'AnonymousToken']],
  secretKey: [['SecretKey']],
  serverOrClient: [['SecretKey'], ['PublishableKey', 'AnonymousToken']],
  thirdParty: [['ApiKey']],
  admin: [['AdminToken']],
  metrics: [['MetricsToken']],
  // The dashboard's session cookie: its routes are not in the document.
  dashboard: [],
  dashboardAdmin: [],
};

const ERROR_TEXT: Record<ErrorStatus | 500 | 503, string> = {
  400: 'invalid_json, validation_failed or not_a_clan_leaderboard',
  401: 'missing or invalid credentials',
  403: 'client_reports_disabled, forbidden or player_banned',
  404: 'not found (see the error code)',
  409: 'already_exists or conflict',
  413: 'payload_too_large (over 64 KiB; 128 KiB for report_scores)',
  415: 'unsupported_media_type (send JSON)',
  429: 'rate_limited; see Retry-After',
  500: 'internal',
  503: 'unavailable: Redis or PostgreSQL unreachable, or a latest or sum leaderboard being rebuilt after a Redis data loss, or an ended season being archived after a moderation of one of its players; see Retry-After',
};

/** One tag per audience, in the order a reader meets them. */
const TAGS: Record<Exclude<Tag, 'Dashboard'>, string> = {
  'Game client':
    "Called by the game on the player's device: sign up for an anonymous token, then report scores and read leaderboards with the Publishable-Key and Anonymous-Authorization headers.",
  'Game server':
    "Called by the game's own server with its Secret-Key: scores for several leaderboards at once, and the management of leaderboards, clans, players and third-party keys.",
  'Third party':
    'Read-only access for bots and other outside integrations, with a revocable third-party key (Api-Key): leaderboards, player records by id or alias, clan records and clan members.',
  'Web page':
    "The leaderboard page a game opens in a webview (with the player's token), the data and files it loads, and the player avatars. No key: anyone with the link sees the page.",
  Admin: 'For whoever runs the service, with the admin token: create games and rotate their secret keys.',
  Operations: 'Health and readiness probes, Prometheus metrics, and this document with its interactive reference.',
};

/** Where joi-to-json puts the schemas named with .id(): they become the document's components. */
const components: Record<string, JsonSchema> = {};

/** A schema's node marked documentedAs() shows its given JSON Schema, keeping joi's annotations. */
function applyDocumentedAs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(applyDocumentedAs);
  if (node === null || typeof node !== 'object') return node;
  const { 'x-document-as': documented, ...rest } = node as JsonSchema;
  const walked = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, applyDocumentedAs(value)]));
  if (documented === undefined) return walked;
  const { description, default: fallback, examples } = walked;
  return {
    ...(documented as JsonSchema),
    ...(description !== undefined && { description }),
    ...(fallback !== undefined && { default: fallback }),
    ...(examples !== undefined && { examples }),
  };
}

function jsonSchema(schema: Joi.Schema): JsonSchema {
  const found: Record<string, JsonSchema> = {};
  const converted = parse(schema, 'open-api-3.1', found) as JsonSchema;
  for (const [name, component] of Object.entries(found)) components[name] = applyDocumentedAs(component) as JsonSchema;
  delete converted.schemas;
  return applyDocumentedAs(converted) as JsonSchema;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * A whole body's example, put together from the examples its fields' joi schemas carry (the first
 * of each; the first alternative of a choice), so it cannot drift from them. A field without one is
 * left out, which the document's lint (every example must match its schema) then reports.
 */
function exampleOf(schema: JsonSchema): unknown {
  if (typeof schema.$ref === 'string') return exampleOf(components[schema.$ref.split('/').pop()!]!);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const choices = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (choices) return exampleOf(choices[0]!);
  if (schema.properties) {
    const fields = Object.entries(schema.properties as Record<string, JsonSchema>).map(([name, field]) => [name, exampleOf(field)]);
    return Object.fromEntries(fields.filter(([, value]) => value !== undefined));
  }
  if (schema.items) {
    // A list whose items have no example has none either (as a field without one, it is left out).
    const item = exampleOf(schema.items as JsonSchema);
    return item === undefined ? undefined : [item];
  }
  return undefined;
}

function parameters(schema: Joi.Schema | undefined, where: 'path' | 'query' | 'header') {
  if (!schema) return [];
  const { properties = {}, required = [] } = jsonSchema(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(properties).map(([name, { description, ...property }]) => ({
    in: where,
    required: where === 'path' || required.includes(name),
    // Header names are case-insensitive; the schema holds them as Node reads them, the document as they are written.
    name: where === 'header' ? name.replace(/(^|-)[a-z]/g, (c) => c.toUpperCase()) : name,
    schema: property,
    description,
  }));
}

/** How a body that is not described by a joi schema is written. */
const BODY_SCHEMA: Record<Extract<Success, { content: string }>['content'], JsonSchema> = {
  'application/json': { type: 'object' },
  'text/html': { type: 'string' },
  'text/plain': { type: 'string' },
  'text/css': { type: 'string' },
  'image/png': { type: 'string', format: 'binary' },
  'text/event-stream': { type: 'string' },
};

function success(status: number, answer: Success) {
  if ('schema' in answer) {
    const schema = jsonSchema(answer.schema);
    return { description: answer.description ?? 'Success', content: { 'application/json': { schema, example: exampleOf(schema) } } };
  }
  if ('content' in answer) {
    const { content, description, example } = answer;
    return { description, content: { [content]: { schema: BODY_SCHEMA[content], ...(example !== undefined && { example }) } } };
  }
  return { description: answer.description ?? (status === 204 ? 'Done' : 'Success') };
}

function operation(endpoint: AnyEndpoint, servedAt: ServedAt) {
  const security = SECURITY[endpoint.credentials];
  const body = bodyOf(endpoint);
  const responses: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(endpoint.responses)) responses[status] = success(Number(status), answer);
  // Every endpoint may be refused for its credentials, its body, an outage or a bug. Every API
  // endpoint may also be rate limited; the web page's only where a limit is set.
  const limited = endpoint.rateLimit !== undefined || endpoint.tag !== 'Web page';
  const statuses = new Set<ErrorStatus | 500 | 503>([
    ...endpoint.errors,
    ...(security.length > 0 ? [401 as const] : []),
    ...(body ? [400 as const, 413 as const, 415 as const] : []),
    ...(limited ? [429 as const] : []),
    500,
    503,
  ]);
  for (const status of [...statuses].sort()) {
    if (responses[status]) continue;
    const page = endpoint.htmlErrors?.[status];
    responses[status] = page
      ? { description: page, content: { 'text/html': { schema: { type: 'string' } } } }
      : { description: ERROR_TEXT[status], content: { 'application/json': { schema: ref('Error') } } };
  }
  const requestBody = body && jsonSchema(body);
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    description: endpoint.description,
    tags: [endpoint.tag],
    // A public operation says so ([]): no security at all would read as "not described".
    security: security.map((set) => Object.fromEntries(set.map((name) => [name, []]))),
    ...(endpoint.servedFromAppUrl && { servers: [{ url: servedAt.appUrl, description: 'APP_URL, where browsers load the web page' }] }),
    parameters: [...parameters(endpoint.params, 'path'), ...parameters(endpoint.query, 'query'), ...parameters(endpoint.headers, 'header')],
    ...(requestBody
      ? {
          requestBody: {
            required: ((requestBody.required as string[] | undefined) ?? []).length > 0,
            content: { 'application/json': { schema: requestBody, example: exampleOf(requestBody) } },
          },
        }
      : {}),
    responses,
  };
}

function build(endpoints: readonly AnyEndpoint[], servedAt: ServedAt) {
  const paths: Record<string, Record<string, unknown>> = {};
  // The dashboard is a web app for people (HTML forms behind a session cookie), not an API to generate clients for.
  for (const endpoint of endpoints.filter((described) => described.tag !== 'Dashboard')) {
    (paths[openApiPath(endpoint.path)] ??= {})[endpoint.method] = operation(endpoint, servedAt);
  }
  jsonSchema(ErrorBody);
  const { Error: error, ...named } = components;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Leaderboard service',
      version: '1.0.0',
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { name: 'The operators of this leaderboard service', url: `${servedAt.baseUrl}/docs` },
      description:
        'Leaderboards for games: anonymous player tokens, client and server score reports, instant competition ranks ' +
        '(ties share a rank: 1, 2, 2, 4), clans, a webview page, avatars and read-only third-party access. ' +
        'Every error is {"error": {"code", "message", "details"?}}; every response carries X-Request-Id. ' +
        "Every response to a request that carries a key or token (in a header, or the page's ?token=), errors included, " +
        'has Cache-Control: no-store and Vary on the credential headers.',
    },
    servers: [{ url: servedAt.baseUrl, description: 'BASE_URL' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
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
      schemas: { Error: error, ...named },
    },
    paths,
  };
}

/** Where the document says the service is: BASE_URL for the API, APP_URL for the web page's operations. */
export interface ServedAt {
  baseUrl: string;
  appUrl: string;
}
/** What the document says without a running service's settings (the tests): BASE_URL's and APP_URL's defaults (README, Configuration). */
const DEFAULT_SERVED_AT: ServedAt = { baseUrl: 'http://localhost:3000', appUrl: 'http://localhost:3000' };

const documents = new WeakMap<readonly AnyEndpoint[], Map<string, ReturnType<typeof build>>>();

/**
 * The document of these endpoints (the service's are ENDPOINTS in api/routes/index.ts; the app hands
 * them to the documentation routes, which are among them). Built on first use, once per address.
 */
export function openApiDocument(endpoints: readonly AnyEndpoint[], servedAt: ServedAt = DEFAULT_SERVED_AT): ReturnType<typeof build> {
  let built = documents.get(endpoints);
  if (!built) documents.set(endpoints, (built = new Map()));
  const key = `${servedAt.baseUrl} ${servedAt.appUrl}`;
  let document = built.get(key);
  if (!document) built.set(key, (document = build(endpoints, servedAt)));
  return document;
}
