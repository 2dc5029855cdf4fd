import type { Request, RequestHandler } from 'express';
import type { CredentialResolver } from '../../engine/auth/credential-resolver.js';
import type { Game } from '../../engine/games/game-store.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      requestId: string;
      /** The game the credentials belong to. */
      game: Game;
      /** Set when the caller is a game client: the player its token names. */
      playerId?: string;
      /** Set when the caller used the game's secret key. */
      serverCaller?: boolean;
      /** Set when the caller used a third-party key: that key's id. */
      apiKeyId?: string;
    }
  }
}

const header = (req: Request, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * One authentication layer for the five credentials. Each middleware resolves the credential to
 * its game (cached, dropped in every process when a key changes) or fails with 401.
 */
export function authenticators(credentials: CredentialResolver) {
  const publishable = async (req: Request) => credentials.publishable(header(req, 'publishable-key'));
  const player = async (req: Request) => {
    const game = await publishable(req);
    return { game, playerId: credentials.player(header(req, 'anonymous-authorization'), game) };
  };

  const publishableKey: RequestHandler = async (req, res, next) => {
    res.locals.game = await publishable(req);
    next();
  };

  const gameClient: RequestHandler = async (req, res, next) => {
    const { game, playerId } = await player(req);
    res.locals.game = game;
    res.locals.playerId = playerId;
    next();
  };

  const secretKey: RequestHandler = async (req, res, next) => {
    res.locals.game = await credentials.secret(header(req, 'secret-key'));
    res.locals.serverCaller = true;
    next();
  };

  /** The game server (Secret-Key) or, when no Secret-Key is sent, a game client. */
  const serverOrClient: RequestHandler = async (req, res, next) => {
    if (header(req, 'secret-key') !== undefined) return secretKey(req, res, next);
    return gameClient(req, res, next);
  };

  const thirdParty: RequestHandler = async (req, res, next) => {
    const { game, keyId } = await credentials.thirdParty(header(req, 'api-key'));
    res.locals.game = game;
    res.locals.apiKeyId = keyId;
    next();
  };

  const admin: RequestHandler = (req, _res, next) => {
    credentials.admin(header(req, 'authorization'));
    next();
  };

  return { publishableKey, gameClient, secretKey, serverOrClient, thirdParty, admin };
}

export type Authenticators = ReturnType<typeof authenticators>;
