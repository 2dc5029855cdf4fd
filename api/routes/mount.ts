import { Router, type Express, type RequestHandler, type Response } from 'express';
import { AppError, erasedPlayerToken } from '../../engine/errors.js';
import type { Authenticators, Callers, CredentialKind } from '../middleware/auth.js';
import { statusOf } from '../middleware/errors.js';
import type { RateLimits } from '../middleware/rate-limit.js';
import { validator } from '../middleware/validate.js';
import { bodyOf, type AnyEndpoint, type AppContext, type Reply, type Successes } from './endpoint.js';

/** Endpoints served by one router under one path prefix. */
export interface RouteGroup {
  prefix: string;
  endpoints: AnyEndpoint[];
  /** A credential every request under the prefix must carry, even to a path no endpoint has. */
  guard?: Exclude<CredentialKind, 'none'>;
}

/** Limits per IP run before authentication (they bound what callers without credentials can ask). */
const PER_IP_LIMITS = new Set<keyof RateLimits>(['signups', 'web', 'dashboard', 'dashboardSignIn']);

function send(res: Response, { status, body }: Reply<Successes>): void {
  // A stream has answered as it went.
  if (res.headersSent) return;
  if (body === undefined) res.status(status).end();
  else if (typeof body === 'string' || Buffer.isBuffer(body)) res.status(status).send(body);
  else res.status(status).json(body);
}

/** The route's chain: per-IP limit, authentication, per-caller limit, then one step that validates and handles. */
function chain(
  endpoint: AnyEndpoint,
  guard: CredentialKind | undefined,
  app: AppContext,
  auth: Authenticators,
  limits: RateLimits,
): RequestHandler[] {
  const handlers: RequestHandler[] = [];
  const limit = endpoint.rateLimit;
  if (limit && PER_IP_LIMITS.has(limit)) handlers.push(limits[limit]);
  if (endpoint.credentials !== 'none' && endpoint.credentials !== guard) {
    handlers.push(endpoint.refusesErasedItself ? auth.signedClient : auth[endpoint.credentials]);
  }
  if (limit && !PER_IP_LIMITS.has(limit)) handlers.push(limits[limit]);

  const validate = validator({
    params: endpoint.params,
    query: endpoint.lenientQuery ? undefined : endpoint.query,
    body: bodyOf(endpoint, app.engine.config),
    headers: endpoint.headers,
  });
  const handle: RequestHandler = (req, res) => {
    const { params, query, body } = validate(req);
    const reply = endpoint.handler({ params, query, body, caller: res.locals.caller, app, req, res });
    if (reply instanceof Promise) return reply.then((answer) => send(res, answer));
    send(res, reply);
  };
  handlers.push(endpoint.refusesErasedItself ? erasedFirst(handle, app) : handle);
  return handlers;
}

/**
 * Refusals an erased player's token hears as 401 instead: they would tell what it asked about (a 503
 * may be an ended season that waits for its archive after that very erasure).
 */
const ERASED_FIRST = new Set([400, 403, 404, 409, 503]);

/**
 * The last step of an endpoint whose token's player was not looked up (refusesErasedItself): when it
 * refuses the request (bad input, no such board, a barred player…), the player is looked up, and an
 * erased one's token is refused with 401 invalid_token, as the other client paths refuse it before
 * their work (a rate limit may still answer first; in an outage of PostgreSQL the lookup answers 503
 * itself). The requests it answers cost no lookup.
 */
function erasedFirst(handle: RequestHandler, app: AppContext): RequestHandler {
  return async (req, res, next) => {
    try {
      await handle(req, res, next);
    } catch (error) {
      const { game, playerId } = res.locals.caller as Callers['gameClient'];
      if (error instanceof AppError && ERASED_FIRST.has(statusOf(error.code)) && (await app.engine.players.isGone(game.id, playerId))) {
        throw erasedPlayerToken();
      }
      throw error;
    }
  };
}

/**
 * Mounts each group as one router under its prefix, in the order given: a request walks only the
 * routers whose prefix matches it, and the hottest routes come first.
 */
export function mountRoutes(express: Express, groups: RouteGroup[], app: AppContext, auth: Authenticators, limits: RateLimits): void {
  for (const { prefix, endpoints, guard } of groups) {
    const router = Router();
    if (guard) router.use(auth[guard]);
    for (const endpoint of endpoints) {
      if (endpoint.enabled && !endpoint.enabled(app.engine.config)) continue;
      if (!endpoint.path.startsWith(prefix)) throw new Error(`${endpoint.path} is not under ${prefix}`);
      router[endpoint.method](endpoint.path.slice(prefix.length), ...chain(endpoint, guard, app, auth, limits));
    }
    if (prefix) express.use(prefix, router);
    else express.use(router);
  }
}
