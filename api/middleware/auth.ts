import type { Request, RequestHandler } from 'express';
import type { CredentialResolver } from '../../engine/auth/credential-resolver.js';
import type { Config } from '../../engine/config.js';
import { constantTimeEqual } from '../../engine/credentials.js';
import { AuthenticationError } from '../../engine/errors.js';
import type { Game } from '../../engine/games/game-store.js';
import type { DashboardCaller, DashboardSessions, SignedIn } from './dashboard-session.js';

/** The player behind the web page's ?token=, and the game the token is for. */
export interface Viewer {
  gameId: string;
  playerId: string;
  /** When the token was issued (Unix seconds): with TOKEN_TTL_SECONDS, when it expires. */
  issuedAt: number;
}

/**
 * Who a request comes from, by the credentials its endpoint takes: a handler gets exactly what its
 * kind of credential proves (a game client's handler gets the token's player, a third party's the key).
 */
export interface Callers {
  /** No credential. */
  none: object;
  /** Publishable-Key: the game's client, before it has a player (signup). */
  publishableKey: { game: Game };
  /** Publishable-Key + Anonymous-Authorization: a player of the game. */
  gameClient: { game: Game; playerId: string };
  /** Secret-Key: the game server. */
  secretKey: { game: Game };
  /** The game server (Secret-Key; playerId null) or, when no Secret-Key is sent, a game client. */
  serverOrClient: { game: Game; playerId: string | null };
  /** Api-Key: a read-only third-party key. */
  thirdParty: { game: Game; keyId: string };
  /** ADMIN_TOKEN: whoever runs the service. */
  admin: object;
  /** METRICS_TOKEN: the Prometheus scraper. */
  metrics: object;
  /** The anonymous token in ?token=: the web page's viewer. */
  pageToken: { viewer: Viewer };
  /** The anonymous token in Anonymous-Authorization, or in ?token= (EventSource sends no headers): a live stream's player. */
  playerToken: { viewer: Viewer };
  /** A dashboard session with its game chosen (signed in with the game's secret key, or the admin token). */
  dashboard: DashboardCaller;
  /** A dashboard session signed in with the admin token, which picks and creates games. */
  dashboardAdmin: { session: SignedIn };
}

export type CredentialKind = keyof Callers;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      requestId: string;
      /** Who the request comes from (see Callers); set by the endpoint's authenticator. */
      caller: Callers[keyof Callers];
    }
  }
}

const header = (req: Request, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The token from ?token= (a repeated parameter counts as none). */
export function queryToken(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

const NONE: Callers['none'] = Object.freeze({});

/**
 * One authentication layer for every kind of credential. Each middleware resolves the credential to
 * its game (cached, dropped in every process when a key changes) or fails with 401, and leaves the
 * caller in res.locals.caller.
 */
export function authenticators(
  credentials: CredentialResolver,
  config: Readonly<Config>,
  sessions: DashboardSessions,
): Record<Exclude<CredentialKind, 'none'> | 'signedClient', RequestHandler> {
  const gameClient = async (req: Request): Promise<Callers['gameClient']> => {
    const game = await credentials.publishable(header(req, 'publishable-key'));
    return { game, playerId: await credentials.player(header(req, 'anonymous-authorization'), game) };
  };
  const secretKey = async (req: Request): Promise<Callers['secretKey']> => ({ game: await credentials.secret(header(req, 'secret-key')) });

  return {
    publishableKey: async (req, res, next) => {
      res.locals.caller = { game: await credentials.publishable(header(req, 'publishable-key')) };
      next();
    },
    gameClient: async (req, res, next) => {
      res.locals.caller = await gameClient(req);
      next();
    },
    /** gameClient with the token's signature and game checked, its player not looked up: the endpoint refuses an erased player itself. */
    signedClient: async (req, res, next) => {
      const game = await credentials.publishable(header(req, 'publishable-key'));
      res.locals.caller = { game, playerId: credentials.signedPlayer(header(req, 'anonymous-authorization'), game) };
      next();
    },
    secretKey: async (req, res, next) => {
      res.locals.caller = await secretKey(req);
      next();
    },
    serverOrClient: async (req, res, next) => {
      if (header(req, 'secret-key') !== undefined) {
        res.locals.caller = { ...(await secretKey(req)), playerId: null };
      } else {
        res.locals.caller = await gameClient(req);
      }
      next();
    },
    thirdParty: async (req, res, next) => {
      const { game, keyId } = await credentials.thirdParty(header(req, 'api-key'));
      res.locals.caller = { game, keyId };
      next();
    },
    admin: (req, res, next) => {
      credentials.admin(header(req, 'authorization'));
      res.locals.caller = NONE;
      next();
    },
    // /metrics tells Node's version, memory and every route's traffic: only a scraper that holds
    // METRICS_TOKEN may read it (the endpoint is not served without one).
    metrics: (req, res, next) => {
      const presented = req.headers.authorization?.replace(/^Bearer\s+/i, '').trim();
      if (!presented) throw new AuthenticationError('missing_token', 'Send the metrics token as "Authorization: Bearer <METRICS_TOKEN>".');
      if (!config.metricsToken || !constantTimeEqual(presented, config.metricsToken)) {
        throw new AuthenticationError('invalid_token', 'The metrics token is not valid.');
      }
      res.locals.caller = NONE;
      next();
    },
    pageToken: async (req, res, next) => {
      res.locals.caller = { viewer: await credentials.viewer(queryToken(req.query.token)) };
      next();
    },
    playerToken: async (req, res, next) => {
      res.locals.caller = { viewer: await credentials.viewer(queryToken(req.query.token) ?? header(req, 'anonymous-authorization')) };
      next();
    },
    // A dashboard request without a live session is sent to sign in (the dashboard's error pages do that).
    dashboard: async (req, res, next) => {
      res.locals.caller = await sessions.gameCaller(req);
      next();
    },
    dashboardAdmin: async (req, res, next) => {
      res.locals.caller = await sessions.adminCaller(req);
      next();
    },
  };
}

export type Authenticators = ReturnType<typeof authenticators>;
