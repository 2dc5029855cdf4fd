import type { Request, Response } from 'express';
import type Joi from 'joi';
import type { Config } from '../../engine/config.js';
import type { Engine } from '../../engine/engine.js';
import type { ErrorCode } from '../../engine/errors.js';
import type { HttpMetrics } from '../metrics.js';
import type { Callers, CredentialKind } from '../middleware/auth.js';
import type { RateLimits } from '../middleware/rate-limit.js';
import type { DashboardSessions } from '../middleware/dashboard-session.js';
import type { Assets } from './web/asset-files.js';
import type { Value } from './schemas.js';

/**
 * One description per endpoint: the Express route, the OpenAPI operation, the handler's typed input,
 * the auth matrix and the fuzzer are all built from it. Adding an endpoint is adding one of these to
 * its resource folder's list.
 */
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** 'Dashboard': the operators' web app, served from APP_URL and left out of the OpenAPI document. */
export type Tag = 'Game client' | 'Game server' | 'Third party' | 'Web page' | 'Admin' | 'Operations' | 'Dashboard';
/** Statuses an endpoint may answer with an error, besides those every endpoint may (see api/openapi/document.ts). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429;

/** A success answer: a JSON body (its schema), another media type, or no body. */
export type Success =
  | { schema: Joi.AnySchema; description?: string }
  | {
      /** text/event-stream: the handler writes the stream itself and answers once it has ended. */
      content: 'text/html' | 'text/plain' | 'text/css' | 'image/png' | 'application/json' | 'text/event-stream';
      description: string;
      /** What the document shows as an example body (none for images). */
      example?: unknown;
    }
  | { description: string };
/** 303: a dashboard form's answer, which sends the browser on (Location set by the handler). */
export type Successes = Partial<Record<200 | 201 | 202 | 204 | 303 | 304 | 503, Success>>;

type BodyOf<A> = A extends { schema: infer J } ? Value<J> : A extends { content: string } ? string | Buffer | object : undefined;
type BodyField<S, A> = S extends 204 | 303 | 304 ? { body?: undefined } : { body: BodyOf<A> };
/** What a handler answers: one of the endpoint's documented successes, with its body. */
export type Reply<R extends Successes> = {
  [S in keyof R & number]: { status: S } & BodyField<S, R[S]>;
}[keyof R & number];

/** What every handler can use beside its request: built once per app. */
export interface AppContext {
  engine: Engine;
  metrics: HttpMetrics;
  /** The web page's stylesheet, script and icon. */
  assets: Assets;
  /** The path APP_URL puts in front of the web page's routes. */
  base: string;
  /** Who is signed in to the dashboard. */
  sessions: DashboardSessions;
  /** Every endpoint the app serves: what its OpenAPI document describes. */
  endpoints: readonly AnyEndpoint[];
}

export interface Input<P, Q, B, K extends CredentialKind> {
  params: P;
  query: Q;
  body: B;
  caller: Callers[K];
  app: AppContext;
  req: Request;
  res: Response;
}

type Part<T> = Joi.ObjectSchema<T>;
/** The settings a request body's rules may depend on. */
type BodyConfig = Pick<Config, 'minDeviceIdLength'>;
/** What the OpenAPI document shows: the settings' defaults. */
const DOCUMENTED_CONFIG: BodyConfig = { minDeviceIdLength: 1 };

export function bodyOf(endpoint: AnyEndpoint, config: BodyConfig = DOCUMENTED_CONFIG): Joi.ObjectSchema | undefined {
  return typeof endpoint.body === 'function' ? endpoint.body(config) : endpoint.body;
}

export interface Endpoint<
  P = unknown,
  Q = unknown,
  B = unknown,
  R extends Successes = Successes,
  K extends CredentialKind = CredentialKind,
> {
  method: Method;
  /** The full path, Express style (`:name` for a parameter). */
  path: string;
  operationId: string;
  tag: Tag;
  summary: string;
  description: string;
  credentials: K;
  /** Served to browsers at APP_URL (the web page and what it loads) rather than at BASE_URL. */
  servedFromAppUrl?: true;
  /** A limit from api/middleware/rate-limit.ts. */
  rateLimit?: keyof RateLimits;
  params?: Part<P>;
  query?: Part<Q>;
  /** A function when the schema depends on the configuration (the document shows the defaults). */
  body?: Part<B> | ((config: BodyConfig) => Part<B>);
  /** Headers the handler reads besides credentials (names in lower case), checked before it runs. */
  headers?: Joi.ObjectSchema;
  /** The query is documented, never refused: the handler reads it leniently (the web page never fails on one). */
  lenientQuery?: boolean;
  responses: R;
  /** Error statuses besides the ones every endpoint may answer (see api/openapi/document.ts). */
  errors: ErrorStatus[];
  /** Its errors are HTML pages for a person (the web page), described per status. */
  htmlErrors?: Partial<Record<number, string>>;
  /**
   * Whether a success changed stored data; absent, any success of a method other than GET may have.
   * An answer that says "nothing changed" (a known device's signup, a report that improved nothing)
   * declares it here, and the security suites hold the service to it.
   */
  changed?(reply: Reply<NoInfer<R>>): boolean;
  /**
   * What a caller gets when what the request names is not in its game. Absent, the first name the
   * request carries decides (path parameters, then body fields: leaderboard_id is
   * leaderboard_not_found, clan_id clan_not_found, …); an endpoint that looks several up at once
   * lists each code it may answer.
   */
  notFound?: ErrorCode[];
  /**
   * A gameClient endpoint that answers an erased token's player with a refusal of its own (the score
   * report: its board's script keeps erased players barred; around_me: its read looks the viewer up
   * with the names): the token's player is not looked up first, a PostgreSQL query per request for a
   * player not in the cache, but only when the endpoint refuses the request (mount.ts, erasedFirst).
   */
  refusesErasedItself?: boolean;
  /** Served only when this holds (e.g. /metrics needs METRICS_TOKEN). */
  enabled?(config: Readonly<Config>): boolean;
  handler(input: Input<P, Q, B, K>): Promise<Reply<NoInfer<R>>> | Reply<NoInfer<R>>;
}

/** Declares an endpoint; the handler's input and reply are typed from the schemas given beside it. */
export function endpoint<
  P = undefined,
  Q = undefined,
  B = undefined,
  R extends Successes = Successes,
  K extends CredentialKind = CredentialKind,
>(description: Endpoint<P, Q, B, R, K>): AnyEndpoint {
  // The list of endpoints holds every shape; the mount gives each handler the input its own schemas produce.
  return description as unknown as AnyEndpoint;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyEndpoint = Endpoint<any, any, any, Successes, CredentialKind>;

/** The operation as the OpenAPI document names it: `GET /api/v1/…/{leaderboard_id}`. */
export function operationName(endpoint: AnyEndpoint): string {
  return `${endpoint.method.toUpperCase()} ${openApiPath(endpoint.path)}`;
}

export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}');
}
