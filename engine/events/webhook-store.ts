import type { Queryable } from '../db.js';

/** The event types a webhook may ask for (docs/events.md). */
export const EVENT_TYPES = [
  'player.overtaken',
  'season.ended',
  'leaderboard.closed',
  'player.moved',
  'score.held',
  'webhook.test',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Why an attempt failed, from a fixed list (a receiver's own words are never stored). */
export const DELIVERY_ERRORS = [
  'http_status',
  'timeout',
  'connection_failed',
  'webhook_disabled',
  'invalid_url',
  'scheme_not_allowed',
  'user_info_not_allowed',
  'address_not_allowed',
  'dns_failed',
] as const;
export type DeliveryError = (typeof DELIVERY_ERRORS)[number];

export interface Webhook {
  id: string;
  gameId: string;
  url: string;
  events: EventType[];
  /** null: every leaderboard of the game. */
  leaderboardIds: string[] | null;
  enabled: boolean;
  createdAt: Date;
}

/** A webhook with what signs its deliveries: the secret and, for a day after a rotation, the one before. */
export interface SigningWebhook extends Webhook {
  secrets: string[];
  failingSince: Date | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One attempt to deliver an event to a webhook. */
export interface Delivery {
  id: number;
  webhookId: string;
  eventId: string;
  type: EventType;
  attempt: number;
  status: DeliveryStatus;
  responseStatus: number | null;
  durationMs: number | null;
  error: DeliveryError | null;
  at: Date;
}

interface WebhookRow {
  id: string;
  game_id: string;
  url: string;
  events: EventType[];
  leaderboard_ids: string[] | null;
  enabled: boolean;
  created_at: Date;
}

const COLUMNS = 'id, game_id, url, events, leaderboard_ids, enabled, created_at';

const toWebhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  gameId: row.game_id,
  url: row.url,
  events: row.events,
  leaderboardIds: row.leaderboard_ids,
  enabled: row.enabled,
  createdAt: row.created_at,
});

interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  type: EventType;
  attempt: number;
  status: DeliveryStatus;
  response_status: number | null;
  duration_ms: number | null;
  error: DeliveryError | null;
  at: Date;
}

const toDelivery = (row: DeliveryRow): Delivery => ({
  id: Number(row.id),
  webhookId: row.webhook_id,
  eventId: row.event_id,
  type: row.type,
  attempt: row.attempt,
  status: row.status,
  responseStatus: row.response_status,
  durationMs: row.duration_ms,
  error: row.error,
  at: row.at,
});

const DELIVERY_COLUMNS = 'd.id, d.webhook_id, d.event_id, e.type, d.attempt, d.status, d.response_status, d.duration_ms, d.error, d.at';

/** A game's webhooks, the events they are sent and every attempt to send one. */
export class WebhookStore {
  constructor(private readonly db: Queryable) {}

  /** The same store inside a transaction: every query goes through its client. */
  in(client: Queryable): WebhookStore {
    return new WebhookStore(client);
  }

  /**
   * Inserts the webhook unless the game has `max` already (undefined then). The game's row is locked
   * first, so two creations racing for the last place cannot both take it.
   */
  async insert(webhook: Omit<Webhook, 'createdAt' | 'enabled'> & { secret: string }, max: number): Promise<Webhook | undefined> {
    await this.db.query('SELECT 1 FROM games WHERE id = $1 FOR NO KEY UPDATE', [webhook.gameId]);
    const { rows } = await this.db.query<WebhookRow>(
      `INSERT INTO webhooks (id, game_id, url, events, leaderboard_ids, secret)
       SELECT $1, $2, $3, $4, $5, $6 WHERE (SELECT count(*) FROM webhooks WHERE game_id = $2) < $7
       RETURNING ${COLUMNS}`,
      [webhook.id, webhook.gameId, webhook.url, webhook.events, webhook.leaderboardIds, webhook.secret, max],
    );
    return rows[0] && toWebhook(rows[0]);
  }

  async find(gameId: string, id: string): Promise<Webhook | undefined> {
    const { rows } = await this.db.query<WebhookRow>(`SELECT ${COLUMNS} FROM webhooks WHERE id = $1 AND game_id = $2`, [id, gameId]);
    return rows[0] && toWebhook(rows[0]);
  }

  /** A game's webhooks, oldest first, a page at a time, with the game's count. */
  async pageByGame(gameId: string, offset: number, limit: number): Promise<{ total: number; webhooks: Webhook[] }> {
    const [page, count] = await Promise.all([
      this.db.query<WebhookRow>(`SELECT ${COLUMNS} FROM webhooks WHERE game_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`, [
        gameId,
        limit,
        offset,
      ]),
      this.db.query<{ total: number }>('SELECT count(*)::int AS total FROM webhooks WHERE game_id = $1', [gameId]),
    ]);
    return { total: count.rows[0]!.total, webhooks: page.rows.map(toWebhook) };
  }

  /** Applies the given fields; undefined when the game has no such webhook. Enabling clears the failure streak. */
  async update(
    gameId: string,
    id: string,
    change: Partial<Pick<Webhook, 'url' | 'events' | 'leaderboardIds' | 'enabled'>>,
  ): Promise<Webhook | undefined> {
    const { rows } = await this.db.query<WebhookRow>(
      `UPDATE webhooks SET
         url = CASE WHEN $3 THEN $4 ELSE url END,
         events = CASE WHEN $5 THEN $6::text[] ELSE events END,
         leaderboard_ids = CASE WHEN $7 THEN $8::text[] ELSE leaderboard_ids END,
         enabled = CASE WHEN $9 THEN $10 ELSE enabled END,
         failing_since = CASE WHEN $9 AND $10 THEN NULL ELSE failing_since END,
         updated_at = now()
       WHERE id = $1 AND game_id = $2 RETURNING ${COLUMNS}`,
      [
        id,
        gameId,
        change.url !== undefined,
        change.url ?? null,
        change.events !== undefined,
        change.events ?? null,
        change.leaderboardIds !== undefined,
        change.leaderboardIds ?? null,
        change.enabled !== undefined,
        change.enabled ?? null,
      ],
    );
    return rows[0] && toWebhook(rows[0]);
  }

  async delete(gameId: string, id: string): Promise<Webhook | undefined> {
    const { rows } = await this.db.query<WebhookRow>(`DELETE FROM webhooks WHERE id = $1 AND game_id = $2 RETURNING ${COLUMNS}`, [
      id,
      gameId,
    ]);
    return rows[0] && toWebhook(rows[0]);
  }

  /** A new secret; the one it replaces keeps signing until `previousUntil`. */
  async rotateSecret(gameId: string, id: string, secret: string, previousUntil: Date): Promise<Webhook | undefined> {
    const { rows } = await this.db.query<WebhookRow>(
      `UPDATE webhooks SET previous_secret = secret, previous_until = $4, secret = $3, updated_at = now()
       WHERE id = $1 AND game_id = $2 RETURNING ${COLUMNS}`,
      [id, gameId, secret, previousUntil],
    );
    return rows[0] && toWebhook(rows[0]);
  }

  /** The enabled webhooks of the game that want `type` for the leaderboard. */
  async wantedBy(gameId: string, type: EventType, leaderboardId: string): Promise<string[]> {
    const { rows } = await this.db.query<{ id: string }>(
      `SELECT id FROM webhooks
       WHERE game_id = $1 AND enabled AND $2 = ANY(events) AND (leaderboard_ids IS NULL OR $3 = ANY(leaderboard_ids))
       ORDER BY id`,
      [gameId, type, leaderboardId],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Boards whose current season's window has closed (a one-off `closes_at`, or `open_seconds` after
   * the season's start) without its `leaderboard.closed` recorded, for which an enabled webhook that
   * wants that type existed at the close: read from the webhooks, so the look costs nothing in
   * games without one.
   */
  async dueCloses(limit: number): Promise<{ internalId: number; season: number; closedAt: Date }[]> {
    const { rows } = await this.db.query<{ internal_id: number; season: number; closed_at: Date }>(
      `SELECT DISTINCT l.internal_id, l.season, c.closed_at
       FROM webhooks w
       JOIN leaderboards l ON l.game_id = w.game_id AND (w.leaderboard_ids IS NULL OR l.leaderboard_id = ANY(w.leaderboard_ids))
       CROSS JOIN LATERAL (SELECT CASE
           WHEN l.open_seconds IS NOT NULL THEN l.season_started_at + l.open_seconds * interval '1 second'
           WHEN l.window_season = l.season THEN l.closes_at
         END AS closed_at) c
       WHERE w.enabled AND 'leaderboard.closed' = ANY(w.events)
         AND c.closed_at <= now() AND c.closed_at >= w.created_at
         AND l.closed_event_season IS DISTINCT FROM l.season
       ORDER BY c.closed_at
       LIMIT $1`,
      [limit],
    );
    return rows.map((row) => ({ internalId: row.internal_id, season: row.season, closedAt: row.closed_at }));
  }

  /** Takes the recording of the season's close (under the board's row lock): false when it was taken before. */
  async claimClose(internalId: number, season: number): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE leaderboards SET closed_event_season = $2
       WHERE internal_id = $1 AND season = $2 AND closed_event_season IS DISTINCT FROM $2`,
      [internalId, season],
    );
    return rowCount === 1;
  }

  /**
   * Takes the leaderboard's next `count` event sequences (1, 2, …) under its row lock until the
   * transaction ends; the last of them.
   */
  async nextSequence(leaderboardInternalId: number, count = 1): Promise<number> {
    const { rows } = await this.db.query<{ sequence: string }>(
      'UPDATE leaderboards SET event_sequence = event_sequence + $2 WHERE internal_id = $1 RETURNING event_sequence AS sequence',
      [leaderboardInternalId, count],
    );
    return Number(rows[0]!.sequence);
  }

  /**
   * Stores events of one type and a pending first attempt of each for each given webhook: the
   * attempts. An event whose id is stored already is left as it is, with no new attempt.
   */
  async recordEvents(
    events: { id: string; gameId: string; type: EventType; body: string }[],
    webhookIds: string[],
    at: Date,
  ): Promise<{ id: number; webhookId: string }[]> {
    const inserted = await this.db.query<{ id: string }>(
      `INSERT INTO webhook_events (id, game_id, type, body)
       SELECT id, $2, $3, body FROM unnest($1::text[], $4::text[]) AS u (id, body)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [events.map((e) => e.id), events[0]!.gameId, events[0]!.type, events.map((e) => e.body)],
    );
    const { rows } = await this.db.query<{ id: string; webhook_id: string }>(
      `INSERT INTO webhook_deliveries (webhook_id, event_id, attempt, status, at)
       SELECT w.id, e.id, 1, 'pending', $3 FROM unnest($1::text[]) AS e (id) CROSS JOIN unnest($2::text[]) AS w (id)
       RETURNING id, webhook_id`,
      [inserted.rows.map((e) => e.id), webhookIds, at],
    );
    return rows.map((row) => ({ id: Number(row.id), webhookId: row.webhook_id }));
  }

  /** Stores an event and a pending first attempt for each given webhook; the attempts' ids. */
  async recordEvent(event: { id: string; gameId: string; type: EventType; body: string }, webhookIds: string[]): Promise<number[]> {
    await this.db.query('INSERT INTO webhook_events (id, game_id, type, body) VALUES ($1, $2, $3, $4)', [
      event.id,
      event.gameId,
      event.type,
      event.body,
    ]);
    return this.addAttempts(
      event.id,
      webhookIds.map((webhookId) => ({ webhookId, attempt: 1 })),
      new Date(),
    );
  }

  /** Pending attempts, due at `at`; their ids, in the order given. */
  async addAttempts(eventId: string, attempts: { webhookId: string; attempt: number }[], at: Date): Promise<number[]> {
    if (attempts.length === 0) return [];
    const { rows } = await this.db.query<{ id: string }>(
      `INSERT INTO webhook_deliveries (webhook_id, event_id, attempt, status, at)
       SELECT webhook_id, $1, attempt, 'pending', $4 FROM unnest($2::text[], $3::int[]) WITH ORDINALITY AS u (webhook_id, attempt, n)
       ORDER BY n RETURNING id`,
      [eventId, attempts.map((a) => a.webhookId), attempts.map((a) => a.attempt), at],
    );
    return rows.map((row) => Number(row.id));
  }

  /** A webhook's attempts, newest first, older than `before` when given; `nextBefore` null on the last page. */
  async deliveries(
    webhookId: string,
    before: number | undefined,
    limit: number,
  ): Promise<{ deliveries: Delivery[]; nextBefore: number | null }> {
    // One row more than the page: whether an older page exists.
    const { rows } = await this.db.query<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
       WHERE d.webhook_id = $1 AND ($2::bigint IS NULL OR d.id < $2) ORDER BY d.id DESC LIMIT $3`,
      [webhookId, before ?? null, limit + 1],
    );
    const deliveries = rows.slice(0, limit).map(toDelivery);
    return { deliveries, nextBefore: rows.length > limit ? deliveries.at(-1)!.id : null };
  }

  async delivery(webhookId: string, id: number): Promise<Delivery | undefined> {
    const { rows } = await this.db.query<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.id = $1 AND d.webhook_id = $2`,
      [id, webhookId],
    );
    return rows[0] && toDelivery(rows[0]);
  }

  /** Locks the webhook's row until the transaction ends: its attempts are counted and added one caller at a time. */
  async lock(gameId: string, id: string): Promise<boolean> {
    const { rowCount } = await this.db.query('SELECT 1 FROM webhooks WHERE id = $1 AND game_id = $2 FOR NO KEY UPDATE', [id, gameId]);
    return rowCount !== 0;
  }

  /** How many of the webhook's attempts wait to be made. */
  async pendingCount(webhookId: string): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1 AND status = 'pending'",
      [webhookId],
    );
    return rows[0]!.n;
  }

  /** The event's attempts to this webhook: the latest number, and a pending one if any. */
  async attemptsOf(
    eventId: string,
    webhookId: string,
  ): Promise<{ last: number; pending: { id: number; attempt: number; at: Date } | undefined }> {
    const { rows } = await this.db.query<{ id: string; attempt: number; status: DeliveryStatus; at: Date }>(
      'SELECT id, attempt, status, at FROM webhook_deliveries WHERE event_id = $1 AND webhook_id = $2 ORDER BY attempt DESC',
      [eventId, webhookId],
    );
    const pending = rows.find((row) => row.status === 'pending');
    return {
      last: rows[0]?.attempt ?? 0,
      pending: pending && { id: Number(pending.id), attempt: pending.attempt, at: pending.at },
    };
  }

  /** What the worker needs to make an attempt, while it is still pending: the event, and the webhook with its secrets. */
  async pendingAttempt(id: number): Promise<{ delivery: Delivery; webhook: SigningWebhook; body: string } | undefined> {
    const { rows } = await this.db.query<
      DeliveryRow & {
        body: string;
        secret: string;
        previous_secret: string | null;
        previous_until: Date | null;
        failing_since: Date | null;
      } & Omit<WebhookRow, 'id'> & { w_id: string }
    >(
      `SELECT ${DELIVERY_COLUMNS}, e.body, w.id AS w_id, w.game_id, w.url, w.events, w.leaderboard_ids, w.enabled, w.created_at,
              w.secret, w.previous_secret, w.previous_until, w.failing_since
       FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id JOIN webhooks w ON w.id = d.webhook_id
       WHERE d.id = $1 AND d.status = 'pending'`,
      [id],
    );
    const row = rows[0];
    if (!row) return undefined;
    const previous = row.previous_secret && row.previous_until && row.previous_until > new Date() ? [row.previous_secret] : [];
    return {
      delivery: toDelivery(row),
      body: row.body,
      webhook: {
        ...toWebhook({ ...row, id: row.w_id }),
        secrets: [row.secret, ...previous],
        failingSince: row.failing_since,
      },
    };
  }

  /**
   * Writes an attempt's outcome, once (false if it was written already: the job ran twice), and the
   * webhook's failure streak with it.
   */
  async finishAttempt(
    id: number,
    outcome: { status: 'delivered' | 'failed'; responseStatus: number | null; durationMs: number; error: DeliveryError | null },
  ): Promise<boolean> {
    const { rows } = await this.db.query<{ webhook_id: string }>(
      `UPDATE webhook_deliveries SET status = $2, response_status = $3, duration_ms = $4, error = $5, at = now()
       WHERE id = $1 AND status = 'pending' RETURNING webhook_id`,
      [id, outcome.status, outcome.responseStatus, outcome.durationMs, outcome.error],
    );
    if (!rows[0]) return false;
    await this.db.query(
      `UPDATE webhooks SET failing_since = CASE WHEN $2 THEN NULL ELSE coalesce(failing_since, now()) END WHERE id = $1`,
      [rows[0].webhook_id, outcome.status === 'delivered'],
    );
    return true;
  }

  /** Turns a webhook off (410 Gone, or days of failures); false when it was off already. */
  async disable(id: string): Promise<boolean> {
    const { rowCount } = await this.db.query('UPDATE webhooks SET enabled = false, updated_at = now() WHERE id = $1 AND enabled', [id]);
    return rowCount !== 0;
  }

  /** Attempts still pending a while after they were due: their job may be lost (the API died before queueing it). */
  async overdueAttempts(dueBefore: Date, limit: number): Promise<{ id: number; webhookId: string; gameId: string; at: Date }[]> {
    const { rows } = await this.db.query<{ id: string; webhook_id: string; game_id: string; at: Date }>(
      `SELECT d.id, d.webhook_id, w.game_id, d.at FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
       WHERE d.status = 'pending' AND d.at < $1 ORDER BY d.at LIMIT $2`,
      [dueBefore, limit],
    );
    return rows.map((row) => ({ id: Number(row.id), webhookId: row.webhook_id, gameId: row.game_id, at: row.at }));
  }

  /**
   * Erasure: the game's stored events keep only the erased player's id, so no retry or redelivery
   * sends their name or aliases again (entries of `season.ended`'s and `leaderboard.closed`'s `top`
   * lose their `display_name`; `player.overtaken` its `aliases`, or its `by`'s name and aliases).
   */
  async erasePlayer(gameId: string, playerId: string): Promise<void> {
    await this.db.query(
      `UPDATE webhook_events e SET body = (CASE WHEN b.body->'data'->>'player_id' = $2
           THEN jsonb_set(b.body, '{data,aliases}', '{}'::jsonb)
           ELSE jsonb_set(jsonb_set(b.body, '{data,by,display_name}', 'null'::jsonb), '{data,by,aliases}', '{}'::jsonb) END)::text
       FROM (SELECT id, body::jsonb AS body FROM webhook_events WHERE game_id = $1 AND type = 'player.overtaken' AND strpos(body, $2) > 0) b
       WHERE e.id = b.id AND (b.body->'data'->>'player_id' = $2 OR b.body->'data'->'by'->>'player_id' = $2)`,
      [gameId, playerId],
    );
    await this.db.query(
      `UPDATE webhook_events e SET body = jsonb_set(b.body, '{data,top}', (
         SELECT jsonb_agg(CASE WHEN entry->>'player_id' = $2 THEN entry || '{"display_name": null}' ELSE entry END ORDER BY n)
         FROM jsonb_array_elements(b.body->'data'->'top') WITH ORDINALITY AS t (entry, n)))::text
       FROM (SELECT id, body::jsonb AS body FROM webhook_events WHERE game_id = $1 AND type IN ('season.ended', 'leaderboard.closed') AND strpos(body, $2) > 0) b
       WHERE e.id = b.id AND jsonb_typeof(b.body->'data'->'top') = 'array' AND jsonb_array_length(b.body->'data'->'top') > 0`,
      [gameId, playerId],
    );
  }

  /** Events (their attempts with them) recorded before `cutoff`, a batch at a time; the number deleted. */
  async pruneBefore(cutoff: Date, batchSize = 5000): Promise<number> {
    let deleted = 0;
    for (;;) {
      const { rowCount } = await this.db.query(
        'DELETE FROM webhook_events WHERE id IN (SELECT id FROM webhook_events WHERE created_at < $1 ORDER BY created_at LIMIT $2)',
        [cutoff, batchSize],
      );
      deleted += rowCount ?? 0;
      if ((rowCount ?? 0) < batchSize) return deleted;
    }
  }
}
