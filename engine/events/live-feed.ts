import { RateLimitedError, UnavailableError } from '../errors.js';
import { oldGenerationShare } from '../heap.js';
import type { Invalidation, Invalidator } from '../invalidator.js';
import { liveChannel } from '../live/keys.js';
import type { RedisClient } from '../live/redis.js';
import type { Logger } from '../logger.js';
import type { Page, PlayerEntry } from '../reads/leaderboard-reader.js';

/** A leaderboard as the feed names it: its channel is the internal id's. */
export interface LiveBoard {
  gameId: string;
  leaderboardId: string;
  internalId: number;
}

/** What one watcher is sent: a rendered `top` body, and the entries it shows (what "changed" compares). */
export interface Rendered {
  data: string;
  entries: string;
}

/** A report's overtaken players (docs/events.md part 5), as every process's client streams get them. */
export interface OvertakenNotice {
  season: number;
  /** The player who reported, and the score they hold now. */
  by: string;
  score: number;
  /** The players overtaken within the board's notify_top, with their rank now (one worse than before). */
  players: readonly { playerId: string; rank: number }[];
}

/** What changes a board's first entries calls: every process's streams of the board update. */
export interface LiveChanges {
  changed(boards: readonly { internalId: number }[]): void;
  /** Tells the overtaken players' client streams, in every process. */
  overtaken(board: { internalId: number }, notice: OvertakenNotice): void;
}

/** One open stream (docs/events.md part 6). */
export interface LiveWatcher {
  /** Watchers of one view (their limit) share one rendered body; every view of a board shares one read. */
  view: string;
  /** How many entries the view shows (1-100). */
  limit: number;
  /** The view's body from the board's first entries (at least `limit` of them, when there are). */
  render(page: Page<PlayerEntry>): Rendered;
  /** Who the stream is for: rechecked on invalidations, counted against its cap. */
  credential: { kind: 'player'; playerId: string } | { kind: 'key'; key: string };
  /** True while the credential still opens this stream (a revoked key, a banned or erased player: false). */
  allowed(): Promise<boolean>;
  /** Writes one frame (an event, or a comment line); false when the client lags too far behind. */
  write(frame: string): boolean;
  end(): void;
}

/** At most this many streams per player and per third-party key (docs/events.md part 6). */
export const MAX_STREAMS_PER_PLAYER = 5;
export const MAX_STREAMS_PER_KEY = 100;
/**
 * A stream holds about 11 KiB of the process's heap (docs/events.md part 6): past this share of the
 * old generation's cap, new streams are refused as beyond MAX_LIVE_CONNECTIONS are, whatever that says.
 */
const MAX_HEAP_SHARE = 0.85;
/** Updates are at most once a second per board; a comment every 15 s keeps proxies from closing idle streams. */
const MIN_UPDATE_GAP_MS = 1000;
const KEEPALIVE_MS = 15_000;

interface BoardFeed {
  board: LiveBoard;
  watchers: Set<LiveWatcher>;
  /** The last body of each view: a watcher that opens on the same entries shares its strings. */
  latest: Map<string, Rendered>;
  lastUpdate: number;
  timer: NodeJS.Timeout | undefined;
  subscribed: Promise<void>;
}

/**
 * Live leaderboards in one process: one Redis subscription per watched board whatever the number of
 * watchers, one read per board per update (at most one a second), and no Redis command per watcher.
 * A change is announced by PUBLISH on the board's channel, by whoever made it.
 */
export class LiveFeed implements LiveChanges {
  private readonly boards = new Map<number, BoardFeed>();
  private readonly counts = new Map<string, number>();
  /**
   * The entries each watcher was last sent (watchers of a view share the one string) and the number
   * of the read they came from: reads are numbered as they start, so a watcher opening while an
   * update runs is sent each state once, never an older one after a newer.
   */
  private readonly shown = new WeakMap<LiveWatcher, { entries: string; read: number }>();
  private reads = 0;
  private connections = 0;
  private keepalive: NodeJS.Timeout | undefined;
  private nextEventId = 1;

  constructor(
    private readonly deps: {
      publisher: RedisClient;
      /** A subscribed connection (shared with the Invalidator's channel). */
      subscriber: RedisClient;
      prefix: string;
      maxConnections: number;
      invalidator: Invalidator;
      /** The board's first `limit` entries, as a list read shows them. */
      read(board: LiveBoard, limit: number): Promise<Page<PlayerEntry>>;
      /** The player's display name (an overtaken message names who passed). */
      displayName(playerId: string): Promise<string | null>;
      logger: Logger;
    },
  ) {
    deps.subscriber.on('message', (channel: string, message: string) => {
      const internalId = this.boardOfChannel(channel);
      if (internalId === undefined) return;
      if (message.startsWith('{')) void this.sendOvertaken(internalId, message);
      else this.schedule(internalId);
    });
    // ioredis subscribes again after a reconnection; what changed meanwhile is read at once.
    deps.subscriber.on('ready', () => {
      for (const id of this.boards.keys()) this.schedule(id);
    });
    deps.invalidator.onChange((change) => void this.recheck(change));
  }

  /** The number of open streams in this process. */
  get size(): number {
    return this.connections;
  }

  /** Tells every process that the board's first entries may have changed. Never throws. */
  changed(boards: readonly { internalId: number }[]): void {
    for (const { internalId } of boards) this.publish(internalId, '1');
  }

  /** Tells every process of the report's overtaken players (published, not stored). Never throws. */
  overtaken({ internalId }: { internalId: number }, notice: OvertakenNotice): void {
    this.publish(internalId, JSON.stringify(notice));
  }

  private publish(internalId: number, message: string): void {
    this.deps.publisher.publish(this.channel(internalId), message).catch((error: unknown) => {
      this.deps.logger.warn({ err: error, internalId }, 'live update not published');
    });
  }

  /**
   * Opens a stream: refused beyond the process's cap (503) or the credential's (429); the first
   * `top` is sent at once. Returns the function that closes it.
   */
  async watch(board: LiveBoard, watcher: LiveWatcher): Promise<() => void> {
    if (this.connections >= this.deps.maxConnections || oldGenerationShare() > MAX_HEAP_SHARE) {
      throw new UnavailableError('This server holds as many live streams as it may; retry shortly.');
    }
    const counted = credentialKey(watcher);
    const cap = watcher.credential.kind === 'player' ? MAX_STREAMS_PER_PLAYER : MAX_STREAMS_PER_KEY;
    const held = this.counts.get(counted) ?? 0;
    if (held >= cap) throw new RateLimitedError(5);
    this.counts.set(counted, held + 1);
    this.connections += 1;
    this.keepalive ??= setInterval(() => this.ping(), KEEPALIVE_MS).unref();

    let feed = this.boards.get(board.internalId);
    if (!feed) {
      feed = { board, watchers: new Set(), latest: new Map(), lastUpdate: 0, timer: undefined, subscribed: Promise.resolve() };
      this.boards.set(board.internalId, feed);
      feed.subscribed = this.deps.subscriber.subscribe(this.channel(board.internalId)).then(() => undefined);
    }
    feed.watchers.add(watcher);
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      this.release(board.internalId, watcher, counted);
    };
    try {
      await feed.subscribed;
      const read = ++this.reads;
      const body = this.shared(feed, watcher.view, watcher.render(await this.deps.read(board, watcher.limit)));
      this.send(watcher, body, this.frame(body), read);
    } catch (error) {
      close();
      throw error;
    }
    return close;
  }

  private release(internalId: number, watcher: LiveWatcher, counted: string): void {
    this.connections -= 1;
    const left = (this.counts.get(counted) ?? 1) - 1;
    if (left > 0) this.counts.set(counted, left);
    else this.counts.delete(counted);
    const feed = this.boards.get(internalId);
    if (!feed) return;
    feed.watchers.delete(watcher);
    if (feed.watchers.size > 0) return;
    this.boards.delete(internalId);
    if (feed.timer) clearTimeout(feed.timer);
    this.deps.subscriber.unsubscribe(this.channel(internalId)).catch(() => undefined);
    if (this.connections === 0 && this.keepalive) {
      clearInterval(this.keepalive);
      this.keepalive = undefined;
    }
  }

  /** An update at most once a second: the first change of a quiet board goes out at once. */
  private schedule(internalId: number): void {
    const feed = this.boards.get(internalId);
    if (!feed || feed.timer) return;
    const wait = Math.max(0, feed.lastUpdate + MIN_UPDATE_GAP_MS - Date.now());
    feed.timer = setTimeout(() => {
      feed.timer = undefined;
      feed.lastUpdate = Date.now();
      void this.update(feed);
    }, wait);
  }

  private async update(feed: BoardFeed): Promise<void> {
    const views = new Map<string, LiveWatcher[]>();
    for (const watcher of feed.watchers) {
      const same = views.get(watcher.view);
      if (same) same.push(watcher);
      else views.set(watcher.view, [watcher]);
    }
    let page: Page<PlayerEntry>;
    const read = ++this.reads;
    try {
      let limit = 1;
      for (const watcher of feed.watchers) limit = Math.max(limit, watcher.limit);
      page = await this.deps.read(feed.board, limit);
    } catch (error) {
      // Redis or PostgreSQL away: the next change (or reconnection) tries again.
      this.deps.logger.warn({ err: error, leaderboardId: feed.board.leaderboardId }, 'live update not read');
      return;
    }
    for (const [view, watchers] of views) {
      const body = this.shared(feed, view, watchers[0]!.render(page));
      // One frame per view: its watchers are written the very same string.
      const frame = this.frame(body);
      for (const watcher of watchers) this.send(watcher, body, frame, read);
    }
  }

  /**
   * An `overtaken` event to each client stream of this process whose player the notice names: the
   * data of player.overtaken without aliases. Watchers of other players cost a set lookup each.
   */
  private async sendOvertaken(internalId: number, message: string): Promise<void> {
    const feed = this.boards.get(internalId);
    if (!feed) return;
    let notice: OvertakenNotice;
    try {
      notice = JSON.parse(message) as OvertakenNotice;
    } catch {
      return;
    }
    const ranks = new Map(notice.players.map((player) => [player.playerId, player.rank]));
    const named = [...feed.watchers].flatMap((watcher) => {
      const { credential } = watcher;
      const rank = credential.kind === 'player' ? ranks.get(credential.playerId) : undefined;
      return credential.kind === 'player' && rank !== undefined ? [{ watcher, playerId: credential.playerId, rank }] : [];
    });
    if (named.length === 0) return;
    const displayName = await this.deps.displayName(notice.by).catch(() => null);
    for (const { watcher, playerId, rank } of named) {
      const data = {
        leaderboard_id: feed.board.leaderboardId,
        season: notice.season,
        player_id: playerId,
        previous_rank: rank - 1,
        rank,
        by: { player_id: notice.by, display_name: displayName, score: notice.score },
      };
      if (!watcher.write(`id: ${this.nextEventId++}\nevent: overtaken\ndata: ${JSON.stringify(data)}\n\n`)) watcher.end();
    }
  }

  /** Ends every stream (the process is stopping): clients reconnect elsewhere. */
  endAll(): void {
    for (const feed of [...this.boards.values()]) for (const watcher of [...feed.watchers]) watcher.end();
  }

  /** The view's latest body when it shows the same entries (one copy for every watcher), else this one. */
  private shared(feed: BoardFeed, view: string, body: Rendered): Rendered {
    const latest = feed.latest.get(view);
    if (latest?.entries === body.entries) return latest;
    feed.latest.set(view, body);
    return body;
  }

  private frame(body: Rendered): string {
    return `id: ${this.nextEventId++}\nevent: top\ndata: ${body.data}\n\n`;
  }

  /** Sends the frame unless the watcher was sent these entries already, or a later read's. */
  private send(watcher: LiveWatcher, body: Rendered, frame: string, read: number): void {
    const last = this.shown.get(watcher);
    if (last && (last.entries === body.entries || last.read > read)) return;
    this.shown.set(watcher, { entries: body.entries, read });
    if (!watcher.write(frame)) watcher.end();
  }

  private ping(): void {
    for (const feed of this.boards.values()) for (const watcher of feed.watchers) if (!watcher.write(': keepalive\n\n')) watcher.end();
  }

  /** Ends the streams a change may have revoked: each distinct credential is checked once. */
  private async recheck(change: Invalidation): Promise<void> {
    if (change.kind !== 'player' && change.kind !== 'keys' && change.kind !== 'all') return;
    const affected = new Map<string, LiveWatcher[]>();
    for (const feed of this.boards.values()) {
      for (const watcher of feed.watchers) {
        const { credential } = watcher;
        const hit =
          change.kind === 'all' ||
          (change.kind === 'keys' && credential.kind === 'key') ||
          (change.kind === 'player' && credential.kind === 'player' && credential.playerId === change.playerId);
        if (!hit) continue;
        const key = credentialKey(watcher);
        const same = affected.get(key);
        if (same) same.push(watcher);
        else affected.set(key, [watcher]);
      }
    }
    await Promise.all(
      [...affected.values()].map(async (watchers) => {
        const allowed = await watchers[0]!.allowed().catch(() => true);
        if (!allowed) for (const watcher of watchers) watcher.end();
      }),
    );
  }

  private channel(internalId: number): string {
    return liveChannel(this.deps.prefix, internalId);
  }

  private boardOfChannel(channel: string): number | undefined {
    const head = liveChannel(this.deps.prefix, 0).slice(0, -1);
    return channel.startsWith(head) ? Number(channel.slice(head.length)) : undefined;
  }
}

function credentialKey({ credential }: LiveWatcher): string {
  return credential.kind === 'player' ? `player:${credential.playerId}` : `key:${credential.key}`;
}
