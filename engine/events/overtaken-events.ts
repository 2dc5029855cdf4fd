import { createHash } from 'node:crypto';
import type { Queryable, RunInTransaction } from '../db.js';
import { leaderboardKeys } from '../live/keys.js';
import type { RedisClient } from '../live/redis.js';
import { overtakenOf } from '../live/rankings.js';
import type { AliasStore } from '../players/alias-store.js';
import type { PlayerStore } from '../players/player-store.js';
import type { WebhookEvents } from './webhook-events.js';

/** Records taken from a board's stream per step: each names at most 50 players. */
const RECORDS_PER_STEP = 200;

/** One record of the report script: who overtook whom, in which season (reportScore-32.lua). */
interface OvertakenRecord {
  streamId: string;
  season: number;
  by: string;
  score: number;
  players: { playerId: string; rank: number }[];
}

/**
 * Moves the report script's `player.overtaken` records (docs/events.md part 5) from a board's Redis
 * stream into webhook events: one event per overtaken player, for the webhooks that want the type,
 * then drops the records. Each event's id is derived from its record, so a worker that dies between
 * the commit and the drop stores none twice when the records are moved again.
 */
export class OvertakenEvents {
  constructor(
    private readonly deps: {
      redis: RedisClient;
      prefix: string;
      events: WebhookEvents;
      players: PlayerStore;
      aliases: AliasStore;
      transact: RunInTransaction;
    },
  ) {}

  /** Moves every record the board's stream holds, a step at a time (the stream holds at most about 10,000). */
  async recordAll(board: { gameId: string; id: string; internalId: number }): Promise<void> {
    while ((await this.record(board)) === RECORDS_PER_STEP);
  }

  /** Moves the board's oldest records; how many there were (0: none left). */
  async record(board: { gameId: string; id: string; internalId: number }): Promise<number> {
    const key = leaderboardKeys(this.deps.prefix, board.internalId).overtaken;
    const records = (await this.deps.redis.xrange(key, '-', '+', 'COUNT', RECORDS_PER_STEP)).map(([streamId, fields]) =>
      recordOf(streamId, fields),
    );
    if (records.length === 0) return 0;
    const attempts = await this.deps.transact((client) =>
      this.deps.events.recordEach(client, {
        gameId: board.gameId,
        type: 'player.overtaken',
        leaderboard: board,
        data: () => this.eventsOf(client, board, records),
      }),
    );
    await this.deps.events.queue(attempts);
    await this.deps.redis.xdel(key, ...records.map((record) => record.streamId));
    return records.length;
  }

  /** The events' data, names and aliases as they are now (an erased player's are gone: the id alone). */
  private async eventsOf(
    client: Queryable,
    board: { id: string; internalId: number },
    records: OvertakenRecord[],
  ): Promise<{ id: string; data: Record<string, unknown> }[]> {
    const ids = [...new Set(records.flatMap((record) => [record.by, ...record.players.map((p) => p.playerId)]))];
    const [profiles, aliases] = await Promise.all([
      this.deps.players.in(client).findProfiles(records.map((record) => record.by)),
      this.deps.aliases.in(client).ofMany(ids),
    ]);
    const names = new Map(profiles.map((profile) => [profile.id, profile.displayName]));
    return records.flatMap((record) => {
      const by = {
        player_id: record.by,
        display_name: names.get(record.by) ?? null,
        aliases: aliases.get(record.by) ?? {},
        score: record.score,
      };
      return record.players.map(({ playerId, rank }) => ({
        id: eventIdOf(board.internalId, record.streamId, playerId),
        data: {
          leaderboard_id: board.id,
          season: record.season,
          player_id: playerId,
          aliases: aliases.get(playerId) ?? {},
          previous_rank: rank - 1,
          rank,
          by,
        },
      }));
    });
  }
}

function recordOf(streamId: string, fields: string[]): OvertakenRecord {
  const field = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) field.set(fields[i]!, fields[i + 1]!);
  return {
    streamId,
    season: Number(field.get('season')),
    by: field.get('by') ?? '',
    score: Number(field.get('score')),
    players: overtakenOf(field.get('players') ?? ''),
  };
}

/** The same record and player always name the same event (`msg_` and 24 URL-safe characters, as new ones). */
function eventIdOf(internalId: number, streamId: string, playerId: string): string {
  return `msg_${createHash('sha256').update(`${internalId}:${streamId}:${playerId}`).digest('base64url').slice(0, 24)}`;
}
