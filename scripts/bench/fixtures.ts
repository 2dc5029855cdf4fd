/**
 * The seeded data as pure functions of an index, so the seeder and the load drivers (separate
 * processes) agree on player ids and board names without passing a million ids around.
 */
export const BENCH_DATABASE = 'leaderboard_bench';
/** --cluster: the service on the Redis Cluster keeps its rows apart, as a second deployment would. */
export const BENCH_CLUSTER_DATABASE = 'leaderboard_bench_cluster';
/** --compare: the compared revision's copy of the bench data, at that revision's schema. */
export const BENCH_BEFORE_DATABASE = 'leaderboard_bench_before';

/** The same server and credentials, another database. */
export function databaseUrlFor(databaseUrl: string, database: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
export const BENCH_PREFIX = 'lbbench';

/** 12 characters, the length of the ids the service generates, so memory per entry is realistic. */
export function playerId(index: number): string {
  return `b${String(index).padStart(11, '0')}`;
}

/** Fifty members per clan: a typical clan size, and enough clans for the clan ranking to matter. */
export const MEMBERS_PER_CLAN = 50;
export const clanCount = (players: number) => Math.ceil(players / MEMBERS_PER_CLAN);
export const clanOf = (index: number, players: number) => `c${index % clanCount(players)}`;

export const BOARDS = {
  main: 'main',
  clans: 'clans',
  small: 'small',
  server: ['s1', 's2', 's3', 's4', 's5'],
  /** Score rules: boards holding every player as the main board does, kept by another rule or with metadata. */
  latest: 'latest',
  sum: 'sum',
  metadata: 'metadata',
  /** A best board with a one-off window, open through the run (docs/competitions.md). */
  windowed: 'windowed',
  /**
   * A best board players must enter, with a seat for every player and 10,000 attempts each, run as a
   * league in groups of 50 (docs/competitions.md, parts 3 and 6): every seeded player is entered,
   * holds a score and is in a group.
   */
  entries: 'entries',
} as const;

/** Bytes of every metadata object the bench reports or seeds (its compact JSON). */
export const METADATA_BYTES = 100;

/**
 * A metadata object of exactly METADATA_BYTES of compact JSON, varying with `n` (a player's index or
 * any number) as a game's run summary would.
 */
export function metadataOf(n: number): Record<string, string | number> {
  const object: Record<string, string | number> = {
    character: 'ranger',
    level: 10 + (n % 90),
    map: '', // the padding, set below
    run: `r${String(n % 1e10).padStart(10, '0')}`,
    weapon: 'longbow',
  }; // keys in sorted order: the compact JSON is the same whether or not it is written sorted
  object.map = 'm'.repeat(METADATA_BYTES - JSON.stringify(object).length);
  return object;
}

/** Seeded scores lie below this. */
export const SEEDED_SCORE_CEILING = 1_000_000;
/** Scenarios report random scores below this; the backlog reports above it, so each of its reports improves. */
export const REPORTED_SCORE_CEILING = 2_000_000;

/** A small deterministic generator (mulberry32): the same seed gives the same scores every run. */
export function randomInts(seed: number, count: number, below: number): number[] {
  let state = seed >>> 0;
  const values = new Array<number>(count);
  for (let i = 0; i < count; i += 1) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    values[i] = Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below);
  }
  return values;
}

export const randomBelow = (n: number) => Math.floor(Math.random() * n);
