import type { Request, Response } from 'express';
import { AuthenticationError, ForbiddenError } from '../../engine/errors.js';
import type { LiveWatcher, Rendered } from '../../engine/events/live-feed.js';
import type { Page, PlayerEntry } from '../../engine/reads/leaderboard-reader.js';
import type { Viewer } from '../middleware/auth.js';
import { pageView } from '../views.js';
import type { AppContext } from './endpoint.js';

/** What both stream endpoints document (docs/events.md part 6). */
export const LIVE_STREAM =
  'text/event-stream: first an event `top` with the list body of the first `limit` entries (as the leaderboard page answers it), then a new `top` whenever those entries change, at most once a second. A comment line every 15 s keeps proxies open; a reconnection (Last-Event-ID) starts again from the current state. The stream ends when its credential is revoked, its player banned or erased (within 1 s), or (a token) when the token expires. At most 5 streams per player and 100 per key (429), and MAX_LIVE_CONNECTIONS per server (503 with Retry-After).';

/** Both stream endpoints' answer. */
export const LIVE_RESPONSES = {
  200: {
    content: 'text/event-stream' as const,
    description: 'The stream: `top` events, each a leaderboard page of the first `limit` entries',
    example: 'id: 1\nevent: top\ndata: {"leaderboard_id":"weekly","total":2,"limit":10,"offset":0,"entries":[…]}\n\n',
  },
};

/** What a client that stops reading may leave buffered before its stream is cut. */
const MAX_BUFFERED_BYTES = 256 * 1024;

interface Stream {
  leaderboardId: string;
  limit: number;
  /** Who watches: a player (its token) or a third-party key. */
  credential: LiveWatcher['credential'];
  allowed: () => Promise<boolean>;
  /** When the stream must end (ms), if ever. */
  endsAt?: number;
}

/**
 * Opens a live stream on the response: refusals before it starts are the API's JSON errors; once
 * it has started, it runs until the client leaves or the feed ends it.
 */
async function openStream(app: AppContext, gameId: string, req: Request, res: Response, stream: Stream): Promise<void> {
  const { engine } = app;
  const leaderboard = await engine.leaderboards.get(gameId, stream.leaderboardId);
  const board = { gameId, leaderboardId: leaderboard.id, internalId: leaderboard.internalId };
  const render = (page: Page<PlayerEntry>): Rendered => {
    const body = pageView(engine.config.baseUrl, { ...page, entries: page.entries.slice(0, stream.limit) }, stream.limit, 0);
    return { data: JSON.stringify(body), entries: JSON.stringify(body.entries) };
  };
  // Ended by the client leaving, the feed, or the token's expiry, whichever comes first.
  const state: { ended: boolean; close?: () => void; expiry?: NodeJS.Timeout } = { ended: false };
  const finish = () => {
    if (state.ended) return;
    state.ended = true;
    clearTimeout(state.expiry);
    state.close?.();
  };
  const watcher: LiveWatcher = {
    // Players and keys see the same entries (list entries carry no aliases).
    view: String(stream.limit),
    limit: stream.limit,
    render,
    credential: stream.credential,
    allowed: stream.allowed,
    write(frame) {
      if (state.ended) return true;
      if (!res.headersSent) {
        res.status(200);
        res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
        res.setHeader('Cache-Control', 'no-store');
        // Proxies that buffer (nginx) would hold the events back.
        res.setHeader('X-Accel-Buffering', 'no');
        res.flushHeaders();
      }
      res.write(frame);
      return res.writableLength <= MAX_BUFFERED_BYTES;
    },
    end() {
      finish();
      res.end();
    },
  };
  res.on('close', finish);
  const close = await engine.live.watch(board, watcher);
  // The client may have left while the first body was read.
  if (state.ended) close();
  else {
    state.close = close;
    if (stream.endsAt !== undefined) state.expiry = setTimeout(() => watcher.end(), Math.max(0, stream.endsAt - Date.now()));
  }
  // The handler returns now (mount's send does nothing once the stream has started): a stream held
  // open keeps no request pipeline alive, only its socket and its watcher.
}

/**
 * A player's stream (its token): refused while banned (a shadow-banned player's stays open: they
 * are not told, docs/review.md part 6); ends at the token's expiry.
 */
export async function playerStream(app: AppContext, viewer: Viewer, leaderboardId: string, limit: number, req: Request, res: Response) {
  const { engine } = app;
  const banned = async () => (await engine.moderation.banKind(viewer.gameId, viewer.playerId)) === 'ban';
  if (await banned()) throw new ForbiddenError('This player is banned from the game.', 'player_banned');
  const ttl = engine.config.tokenTtlSeconds;
  await openStream(app, viewer.gameId, req, res, {
    leaderboardId,
    limit,
    credential: { kind: 'player', playerId: viewer.playerId },
    // Erased (no longer in the game) or banned: the stream ends.
    allowed: async () => (await engine.players.find(viewer.playerId))?.gameId === viewer.gameId && !(await banned()),
    ...(ttl !== undefined && { endsAt: (viewer.issuedAt + ttl) * 1000 }),
  });
  return { status: 200 as const, body: '' };
}

/** A third-party key's stream: ends when the key is revoked. */
export async function keyStream(app: AppContext, gameId: string, req: Request, res: Response, leaderboardId: string, limit: number) {
  const key = String(req.headers['api-key'] ?? '');
  const { credentials } = app.engine;
  await openStream(app, gameId, req, res, {
    leaderboardId,
    limit,
    credential: { kind: 'key', key },
    // Refused now: revoked. Not reachable (PostgreSQL away): kept until a check can tell.
    allowed: () =>
      credentials.thirdParty(key).then(
        ({ game }) => game.id === gameId,
        (error: unknown) => !(error instanceof AuthenticationError),
      ),
  });
  return { status: 200 as const, body: '' };
}
