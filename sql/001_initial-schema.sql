-- Why: the durable state behind the Redis rankings: games and their keys, players, clans, leaderboards, best scores.

-- Up Migration

CREATE TABLE games (
  id text PRIMARY KEY,
  name text NOT NULL,
  publishable_key text NOT NULL UNIQUE,
  -- SHA-256 of the secret key: the key itself is shown once and never stored.
  secret_key_hash bytea NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE clans (
  game_id text NOT NULL REFERENCES games (id) ON DELETE CASCADE,
  clan_id text NOT NULL,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (game_id, clan_id)
);

CREATE TABLE players (
  id text PRIMARY KEY,
  game_id text NOT NULL REFERENCES games (id) ON DELETE CASCADE,
  device_id text,
  display_name text,
  clan_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (game_id, device_id),
  FOREIGN KEY (game_id, clan_id) REFERENCES clans (game_id, clan_id)
);

CREATE INDEX players_by_clan ON players (game_id, clan_id) WHERE clan_id IS NOT NULL;

CREATE TABLE player_aliases (
  game_id text NOT NULL,
  alias_type text NOT NULL,
  alias_id text NOT NULL,
  player_id text NOT NULL REFERENCES players (id) ON DELETE CASCADE,
  PRIMARY KEY (game_id, alias_type, alias_id),
  UNIQUE (player_id, alias_type)
);

CREATE TABLE leaderboards (
  -- Internal id: it names the leaderboard's Redis keys and its score rows, so a leaderboard deleted
  -- and created again under the same public id never inherits the old one's scores or queued jobs.
  id bigserial PRIMARY KEY,
  game_id text NOT NULL REFERENCES games (id) ON DELETE CASCADE,
  leaderboard_id text NOT NULL,
  name text NOT NULL,
  type text NOT NULL CHECK (type IN ('individual', 'clan')),
  sort_order text NOT NULL CHECK (sort_order IN ('desc', 'asc')),
  client_reports boolean NOT NULL DEFAULT true,
  min_score double precision,
  max_score double precision,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (game_id, leaderboard_id)
);

-- Best scores, written by the persistence worker with GREATEST/LEAST upserts. No foreign key on
-- player_id: players are never deleted, and the check would cost an index probe per persisted row.
CREATE TABLE scores (
  leaderboard_id bigint NOT NULL REFERENCES leaderboards (id) ON DELETE CASCADE,
  player_id text NOT NULL,
  score double precision NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (leaderboard_id, player_id)
);

-- Clan totals mirror Redis; `version` orders concurrent writes so an older total never overwrites a newer one.
CREATE TABLE clan_scores (
  leaderboard_id bigint NOT NULL REFERENCES leaderboards (id) ON DELETE CASCADE,
  clan_id text NOT NULL,
  score double precision NOT NULL,
  version bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (leaderboard_id, clan_id)
);

CREATE TABLE third_party_keys (
  id text PRIMARY KEY,
  game_id text NOT NULL REFERENCES games (id) ON DELETE CASCADE,
  name text NOT NULL,
  key_hash bytea NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

CREATE INDEX third_party_keys_by_game ON third_party_keys (game_id, created_at);

-- Secrets the service generates for itself when the environment gives none (admin token, token
-- signing secret), kept so that every process and every restart agrees on them.
CREATE TABLE service_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Down Migration

DROP TABLE service_secrets, third_party_keys, clan_scores, scores, leaderboards, player_aliases, players, clans, games;
