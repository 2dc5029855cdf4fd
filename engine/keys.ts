/**
 * Every Redis key the engine uses is built here. All keys of one leaderboard share the hash tag
 * `{<internal id>}`, so each Lua script touches a single Redis Cluster slot.
 */
export interface LeaderboardKeys {
  /** zset player -> best score: the live ranking. */
  scores: string;
  /** zset player -> time (ms) of the first change not yet written to PostgreSQL. */
  dirty: string;
  /** flag: a persistence job for this leaderboard is queued or running. */
  queued: string;
  /** hash player -> clan id, for every clan member of the game (clan leaderboards only). */
  members: string;
  /** zset clan -> sum of its members' best scores (clan leaderboards only). */
  clans: string;
  /** hash clan -> number of its members holding a score. */
  clanCounts: string;
  /** zset clan -> time (ms) of the first total change not yet written to PostgreSQL. */
  dirtyClans: string;
  /** hash clan -> version of its total (microsecond clock, strictly increasing per clan). */
  clanVersions: string;
  /** flag: this leaderboard's Redis state is complete (created empty, or rebuilt from PostgreSQL). */
  ready: string;
}

export function leaderboardKeys(prefix: string, internalId: number): LeaderboardKeys {
  const base = `${prefix}:lb:{${internalId}}`;
  return {
    scores: `${base}:scores`,
    dirty: `${base}:dirty`,
    queued: `${base}:queued`,
    members: `${base}:members`,
    clans: `${base}:clans`,
    clanCounts: `${base}:clan-counts`,
    dirtyClans: `${base}:dirty-clans`,
    clanVersions: `${base}:clan-versions`,
    ready: `${base}:ready`,
  };
}

/** Channel on which API processes announce key, player and leaderboard changes to each other. */
export function invalidationChannel(prefix: string): string {
  return `${prefix}:invalidate`;
}

/**
 * BullMQ prefix of one persistence queue shard; its hash tag keeps the queue's keys in one Cluster
 * slot, as BullMQ requires, and differs per shard so the shards land on different nodes.
 */
export function queuePrefix(prefix: string, shard: number): string {
  return `${prefix}:{q${shard}}`;
}

export function rateLimitPrefix(prefix: string): string {
  return `${prefix}:rl`;
}
