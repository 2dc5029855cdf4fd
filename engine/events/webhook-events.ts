import type { Queryable } from '../db.js';
import type { PlayerStore } from '../players/player-store.js';
import { newEventId } from './webhook-service.js';
import type { QueuedAttempt, WebhookQueue } from './webhook-queue.js';
import type { EventType, WebhookStore } from './webhook-store.js';

/** Attempts recorded in a transaction, to queue once it has committed. */
export type RecordedAttempts = QueuedAttempt[];

/**
 * Records the service's events for the webhooks that want them (docs/events.md): in the caller's
 * transaction, with the change the event describes, so an event exists exactly when its change
 * does. Nothing is stored when no enabled webhook of the game wants that type for that board.
 */
export class WebhookEvents {
  constructor(private readonly deps: { store: WebhookStore; queue: WebhookQueue }) {}

  /**
   * Records one event of a leaderboard, with the board's next `sequence`, and a first attempt for
   * each webhook that wants it. The board's row is locked by the caller or by the sequence taken here.
   */
  async record(
    client: Queryable,
    event: {
      gameId: string;
      type: EventType;
      leaderboard: { id: string; internalId: number };
      /** The event's data, read only when some webhook wants it. */
      data: () => Promise<Record<string, unknown>>;
    },
  ): Promise<RecordedAttempts> {
    const store = this.deps.store.in(client);
    const webhookIds = await store.wantedBy(event.gameId, event.type, event.leaderboard.id);
    if (webhookIds.length === 0) return [];
    const sequence = await store.nextSequence(event.leaderboard.internalId);
    const at = new Date();
    const body = JSON.stringify({ type: event.type, timestamp: at.toISOString(), sequence, data: await event.data() });
    const ids = await store.recordEvent({ id: newEventId(), gameId: event.gameId, type: event.type, body }, webhookIds);
    return ids.map((id, i) => ({ id, webhookId: webhookIds[i]!, gameId: event.gameId, at }));
  }

  /**
   * Records one event per item of `data` (a season's league moves: thousands at once), as `record`
   * does one: the webhooks are looked up once, the sequences taken in one step, the rows written in two.
   * An item with an `id` already stored is not stored again (a record moved twice from Redis).
   */
  async recordEach(
    client: Queryable,
    event: {
      gameId: string;
      type: EventType;
      leaderboard: { id: string; internalId: number };
      data: () => Promise<{ id?: string; data: Record<string, unknown> }[]>;
    },
  ): Promise<RecordedAttempts> {
    const store = this.deps.store.in(client);
    const webhookIds = await store.wantedBy(event.gameId, event.type, event.leaderboard.id);
    if (webhookIds.length === 0) return [];
    const items = await event.data();
    if (items.length === 0) return [];
    const last = await store.nextSequence(event.leaderboard.internalId, items.length);
    const at = new Date();
    const events = items.map(({ id, data }, i) => ({
      id: id ?? newEventId(),
      gameId: event.gameId,
      type: event.type,
      body: JSON.stringify({ type: event.type, timestamp: at.toISOString(), sequence: last - items.length + 1 + i, data }),
    }));
    const attempts = await store.recordEvents(events, webhookIds, at);
    return attempts.map(({ id, webhookId }) => ({ id, webhookId, gameId: event.gameId, at }));
  }

  /** Wakes the worker for attempts whose transaction has committed (the sweep finds any this misses). */
  queue(attempts: RecordedAttempts): Promise<void> {
    return this.deps.queue.add(attempts);
  }
}

/** How many entries `season.ended` and `leaderboard.closed` carry. */
export const EVENT_TOP = 10;

/**
 * The data of `season.ended` and `leaderboard.closed` (docs/events.md): the season's total and its
 * first entries, as reads show them (players with their display names, or clans).
 */
export async function standingsData(
  client: Queryable,
  players: PlayerStore,
  board: { id: string; type: string },
  season: { season: number; at: Date; total: number },
  entries: { id: string; score: number; rank: number }[],
): Promise<Record<string, unknown>> {
  const names =
    board.type === 'clan'
      ? undefined
      : new Map((await players.in(client).findProfiles(entries.map((entry) => entry.id))).map((p) => [p.id, p.displayName]));
  return {
    leaderboard_id: board.id,
    season: season.season,
    at: season.at.toISOString(),
    total: season.total,
    top: entries.map((entry) =>
      names
        ? { player_id: entry.id, display_name: names.get(entry.id) ?? null, score: entry.score, rank: entry.rank }
        : { clan_id: entry.id, score: entry.score, rank: entry.rank },
    ),
  };
}
