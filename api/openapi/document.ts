import type Joi from 'joi';
import joiToJson from 'joi-to-json';
import type { CredentialKind } from '../middleware/auth.js';
import type { AnyEndpoint, ErrorStatus, Success } from '../routes/endpoint.js';
import { bodyOf, openApiPath } from '../routes/endpoint.js';
import { ENDPOINTS } from '../routes/index.js';
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
  publishableKey: [['PublishableKey']],
  gameClient: [['PublishableKey', 'AnonymousToken']],
  secretKey: [['SecretKey']],
  serverOrClient: [['SecretKey'], ['PublishableKey', 'AnonymousToken']],
  thirdParty: [['ApiKey']],
  admin: [['AdminToken']],
  metrics: [['MetricsToken']],
};

const ERROR_TEXT: Record<ErrorStatus | 500 | 503, string> = {
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

function parameters(schema: Joi.Schema | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const { properties = {}, required = [] } = jsonSchema(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(properties).map(([name, { description, ...property }]) => ({
    in: where,
    required: where === 'path' || required.includes(name),
    name,
    schema: property,
    description,
  }));
}

function success(status: number, answer: Success) {
  if ('schema' in answer) {
    return { description: answer.description ?? 'Success', content: { 'application/json': { schema: jsonSchema(answer.schema) } } };
  }
  if ('content' in answer) return { description: answer.description, content: { [answer.content]: { schema: { type: 'string' } } } };
  return { description: answer.description ?? (status === 204 ? 'Done' : 'Success') };
}

function operation(endpoint: AnyEndpoint) {
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
    ...(endpoint.description ? { description: endpoint.description } : {}),
    tags: [endpoint.tag],
    ...(security.length > 0 ? { security: security.map((set) => Object.fromEntries(set.map((name) => [name, []]))) } : {}),
    parameters: [...parameters(endpoint.params, 'path'), ...parameters(endpoint.query, 'query')],
    ...(requestBody
      ? {
          requestBody: {
            required: ((requestBody.required as string[] | undefined) ?? []).length > 0,
            content: { 'application/json': { schema: requestBody } },
          },
        }
      : {}),
    responses,
  };
}

function build(servedAt: ServedAt) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of ENDPOINTS) {
    (paths[openApiPath(endpoint.path)] ??= {})[endpoint.method] = operation(endpoint);
  }
  jsonSchema(ErrorBody);
  const { Error: error, ...named } = components;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Leaderboard service',
      version: '1.0.0',
      description:
        'Leaderboards for games: anonymous player tokens, client and server score reports, instant competition ranks ' +
        '(ties share a rank: 1, 2, 2, 4), clans, a webview page, avatars and read-only third-party access. ' +
        'Every error is {"error": {"code", "message", "details"?}}; every response carries X-Request-Id. ' +
        "Every response to a request that carries a key or token (in a header, or the page's ?token=), errors included, " +
        'has Cache-Control: no-store and Vary on the credential headers.',
    },
    servers: [{ url: servedAt.baseUrl }],
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
/** What the document says without a running service's settings (the tests, the defaults of section 7). */
const DEFAULT_SERVED_AT: ServedAt = { baseUrl: 'http://localhost:3000', appUrl: 'http://localhost:3000' };

const documents = new Map<string, ReturnType<typeof build>>();

/** Built on first use (the endpoints' modules serve it, so it cannot be built while they load), once per address. */
export function openApiDocument(servedAt: ServedAt = DEFAULT_SERVED_AT): ReturnType<typeof build> {
  const key = `${servedAt.baseUrl} ${servedAt.appUrl}`;
  let document = documents.get(key);
  if (!document) documents.set(key, (document = build(servedAt)));
  return document;
}
