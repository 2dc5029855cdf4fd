import { createHash, createHmac } from 'node:crypto';
import RedisStore from 'connect-redis';
import cookieParser from 'cookie-parser';
import { doubleCsrf } from 'csrf-csrf';
import express, { type Request, type RequestHandler, type Response } from 'express';
import session from 'express-session';
import helmet from 'helmet';
import Joi from 'joi';
import type { Engine } from '../../engine/engine.js';
import type { Game } from '../../engine/games/game-store.js';
import { constantTimeEqual } from '../../engine/credentials.js';
import { dashboardSessionPrefix } from '../../engine/live/keys.js';
import { optional } from '../routes/schemas.js';

/** What a signed-in dashboard session keeps: how it signed in and which game it works on, never a key. */
export interface SignedIn {
  via: 'secret_key' | 'admin';
  /** The game worked on; null for the admin before they pick one. */
  gameId: string | null;
  /** The secret key's generation signed in with: a rotation raises it, which ends the session. */
  keyGeneration: number | null;
  /** A digest of the admin token signed in with: another token (a restart with a new ADMIN_TOKEN) ends the session. */
  adminMark: string | null;
}

/** A dashboard request's caller once its session is checked: the game worked on, and who signed in. */
export interface DashboardCaller {
  game: Game;
  session: SignedIn;
}

declare module 'express-session' {
  interface SessionData {
    signedIn: SignedIn;
    /** Set by the sign-in page, so the sign-in form's CSRF token has a session to belong to. */
    signingIn: boolean;
  }
}

/** Sessions end after this long without a request (the cookie and the Redis entry both). */
export const IDLE_MS = 8 * 60 * 60 * 1000;
/** A session that only opened the sign-in page lives this long. */
const SIGN_IN_MS = 15 * 60 * 1000;
const SESSION_COOKIE = 'lb_dashboard';
const CSRF_COOKIE = 'lb_dashboard_csrf';

/** The session has ended, or never began: the dashboard sends the browser to sign in (303). */
export class SignInNeeded extends Error {
  constructor(readonly where: 'sign-in' | 'games' = 'sign-in') {
    super(where === 'games' ? 'Pick a game first.' : 'Sign in to the dashboard.');
  }
}

/** The form's CSRF token is missing, another session's, or the request came from another site. */
export class ForgedRequest extends Error {
  constructor() {
    super('This form was not sent from this dashboard session (it may have expired). Nothing was changed.');
  }
}

const call = (work: (done: (error?: unknown) => void) => void) =>
  new Promise<void>((resolve, reject) => work((error) => (error ? reject(error) : resolve())));

/** Who is signed in to the dashboard, checked against the game's current secret key on every request. */
export class DashboardSessions {
  private readonly adminMark: string;

  constructor(private readonly engine: Engine) {
    this.adminMark = createHash('sha256').update(`dashboard:${engine.adminToken.value}`).digest('base64url').slice(0, 22);
  }

  async gameCaller(req: Request): Promise<DashboardCaller> {
    const signedIn = await this.live(req);
    if (signedIn.gameId === null) throw new SignInNeeded('games');
    const found = await this.engine.games.withKeyGeneration(signedIn.gameId);
    if (!found) {
      if (signedIn.via === 'admin') {
        signedIn.gameId = null;
        throw new SignInNeeded('games');
      }
      return this.end(req);
    }
    if (signedIn.via === 'secret_key' && found.generation !== signedIn.keyGeneration) return this.end(req);
    return { game: found.game, session: signedIn };
  }

  async adminCaller(req: Request): Promise<{ session: SignedIn }> {
    const signedIn = await this.live(req);
    if (signedIn.via !== 'admin') throw new SignInNeeded();
    return { session: signedIn };
  }

  /** Signs in with a secret key; false when it is no game's. A new session id, so none chosen before sign-in carries over. */
  async signInWithSecretKey(req: Request, secretKey: string): Promise<Game | undefined> {
    const found = await this.engine.games.findBySecretKey(secretKey);
    if (!found) return undefined;
    await this.begin(req, { via: 'secret_key', gameId: found.game.id, keyGeneration: found.generation, adminMark: null });
    return found.game;
  }

  async signInWithAdminToken(req: Request, token: string): Promise<boolean> {
    if (!constantTimeEqual(token, this.engine.adminToken.value)) return false;
    await this.begin(req, { via: 'admin', gameId: null, keyGeneration: null, adminMark: this.adminMark });
    return true;
  }

  /** The admin's pick of a game to work on. */
  choose(req: Request, gameId: string): void {
    req.session.signedIn!.gameId = gameId;
  }

  /** After this session rotated its game's secret key: it goes on with the new key (every other session ends). */
  keepAfterRotation(req: Request, generation: number): void {
    const signedIn = req.session.signedIn!;
    if (signedIn.via === 'secret_key') signedIn.keyGeneration = generation;
  }

  signOut(req: Request): Promise<void> {
    return call((done) => req.session.destroy(done));
  }

  private async live(req: Request): Promise<SignedIn> {
    const signedIn = req.session?.signedIn;
    if (!signedIn) throw new SignInNeeded();
    if (signedIn.via === 'admin' && signedIn.adminMark !== this.adminMark) return this.end(req);
    return signedIn;
  }

  private async end(req: Request): Promise<never> {
    await this.signOut(req);
    throw new SignInNeeded();
  }

  private async begin(req: Request, signedIn: SignedIn): Promise<void> {
    await call((done) => req.session.regenerate(done));
    req.session.signedIn = signedIn;
    req.session.cookie.maxAge = IDLE_MS;
    await call((done) => req.session.save(done));
  }
}

/**
 * The dashboard's policy: its own scripts, styles and images only; forms post to the dashboard only;
 * no frames. (The chart's canvas needs nothing more.)
 */
const DASHBOARD_CSP = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'"],
    connectSrc: ["'self'"],
    formAction: ["'self'"],
    baseUri: ["'none'"],
    frameAncestors: ["'none'"],
  },
};

/** The origin a form may come from: APP_URL's, or the host the request names (a service reached directly). */
function sameOrigin(req: Request, appOrigin: string): boolean {
  if (req.headers['sec-fetch-site'] === 'cross-site' || req.headers['sec-fetch-site'] === 'same-site') return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  return origin === appOrigin || origin === `${req.protocol}://${req.get('host')}`;
}

/**
 * Everything a dashboard request passes before its route: the per-IP limit, the dashboard's headers
 * (strict CSP, never cached), the session (in Redis, under the service's key prefix), form bodies,
 * and, for every change, the same-origin check and the CSRF token bound to the session.
 */
export function dashboardMiddleware(engine: Engine, base: string, perIpLimit: RequestHandler): RequestHandler[] {
  const secure = engine.config.appUrl.startsWith('https:');
  const cookiePath = `${base}/dashboard`;
  const appOrigin = new URL(engine.config.appUrl).origin;
  const csrfSecret = createHmac('sha256', engine.dashboardSecret).update('csrf').digest('base64url');
  const { doubleCsrfProtection } = doubleCsrf({
    getSecret: () => csrfSecret,
    getSessionIdentifier: (req) => req.session?.id ?? '',
    cookieName: CSRF_COOKIE,
    cookieOptions: { sameSite: 'strict', path: cookiePath, secure, httpOnly: true },
    // Without a session there is nothing to forge: the route sends the browser to sign in (an ended
    // session's form too). The sign-in form is always checked: its page opened a session for it.
    skipCsrfProtection: (req) => !req.session?.signedIn && req.path !== '/sign-in',
    getCsrfTokenFromRequest: (req) => {
      const token = (req.body as Record<string, unknown> | undefined)?._csrf;
      return typeof token === 'string' ? token : undefined;
    },
  });
  const noStore: RequestHandler = (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  };
  const sameSite: RequestHandler = (req, _res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD' && !sameOrigin(req, appOrigin)) return next(new ForgedRequest());
    next();
  };
  const csrf: RequestHandler = (req, res, next) =>
    doubleCsrfProtection(req, res, (error?: unknown) => next(error === undefined ? undefined : new ForgedRequest()));
  return [
    noStore,
    helmet({
      contentSecurityPolicy: DASHBOARD_CSP,
      strictTransportSecurity: secure,
      // Not no-referrer: under it browsers send "Origin: null" with forms, and the same-origin check needs the origin.
      referrerPolicy: { policy: 'same-origin' },
    }),
    perIpLimit,
    cookieParser(),
    session({
      name: SESSION_COOKIE,
      secret: engine.dashboardSecret,
      store: new RedisStore({ client: engine.redis, prefix: dashboardSessionPrefix(engine.config.redisKeyPrefix) }),
      resave: false,
      saveUninitialized: false,
      // Every request moves the idle expiry on (the cookie's and the stored session's).
      rolling: true,
      proxy: secure,
      cookie: { httpOnly: true, sameSite: 'strict', secure, path: cookiePath, maxAge: SIGN_IN_MS },
    }),
    // Forms are small: a few fields of a few hundred characters.
    express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 }),
    sameSite,
    csrf,
  ];
}

/**
 * The form field every dashboard form carries: checked by the CSRF step before the route runs, so a
 * route's body schema only lets it through.
 */
export const csrfField = { _csrf: optional(Joi.string()) };

/** Whether a path is the dashboard's (its own body parsing, sessions and error pages). */
export function isDashboard(path: string): boolean {
  return path === '/dashboard' || path.startsWith('/dashboard/');
}

/** The CSRF token the page's forms carry (bound to this session; its cookie twin is set beside it). */
export function csrfToken(req: Request, _res: Response): string {
  return (req as Request & { csrfToken: (options?: object) => string }).csrfToken();
}
