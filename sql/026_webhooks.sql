-- Why: games and bots learn what happened by signed webhooks (docs/events.md): each game registers
-- up to 20 endpoints; an event is stored once and delivered to each webhook that wants it, every
-- attempt logged. Events and attempts are kept 7 days.

-- Up Migration

CREATE TABLE webhooks (
  id text PRIMARY KEY,
  game_id text NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  url text NOT NULL,
  events text[] NOT NULL,
  -- NULL: every leaderboard of the game.
  leaderboard_ids text[],
  enabled boolean NOT NULL DEFAULT true,
  -- The signing secret (whsec_...), kept to sign; the one it replaced signs too until previous_until.
  secret text NOT NULL,
  previous_secret text,
  previous_until timestamptz,
  -- Since when every delivery has failed (NULL after a success): 3 days of it disable the webhook.
  failing_since timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_by_game ON webhooks (game_id, created_at, id);

CREATE TABLE webhook_events (
  id text PRIMARY KEY,
  game_id text NOT NULL REFERENCES games(id) ON DELETE CASCADE,
  type text NOT NULL,
  -- The body every delivery sends, byte for byte (it is what the signature covers).
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_events_by_time ON webhook_events (created_at);

-- One row per attempt: 'pending' until it is made, then 'delivered' or 'failed'.
CREATE TABLE webhook_deliveries (
  id bigserial PRIMARY KEY,
  webhook_id text NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  event_id text NOT NULL REFERENCES webhook_events(id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  response_status integer,
  duration_ms integer,
  error text,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, id);
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_by_event ON webhook_deliveries (event_id);

-- Down Migration

DROP TABLE webhook_deliveries, webhook_events, webhooks;
