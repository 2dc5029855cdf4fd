import type { Request, RequestHandler, Response } from 'express';

/** The headers that carry a key or token: the four game credentials and the admin token. */
const CREDENTIAL_HEADERS = ['publishable-key', 'secret-key', 'api-key', 'anonymous-authorization', 'authorization'];
const VARY = 'Publishable-Key, Secret-Key, Api-Key, Anonymous-Authorization, Authorization';

function carriesCredentials(req: Request): boolean {
  if (CREDENTIAL_HEADERS.some((name) => req.headers[name] !== undefined)) return true;
  // The web page and its entries take the player token in ?token=.
  return req.url.includes('?') && req.query.token !== undefined;
}

/**
 * The answer to a request that carried a key or token, an error as much as a success, is its
 * caller's alone: no cache may keep it, and a shared cache that keys on the URL must not hand it to
 * a caller with other credentials.
 */
export function noStoreWhenCredentialed(): RequestHandler {
  return (req, res, next) => {
    if (carriesCredentials(req)) {
      res.setHeader('Cache-Control', 'no-store');
      res.vary(VARY);
    }
    next();
  };
}

/** Sets a public Cache-Control, unless the request carried credentials (then its no-store stands). */
export function cachePublicly(res: Response, cacheControl: string): void {
  if (res.getHeader('Cache-Control') !== 'no-store') res.setHeader('Cache-Control', cacheControl);
}
