import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { ChainableCommander, Redis } from 'ioredis';
import type { Engine } from '../../engine/engine.js';
import type { Leaderboard, LeaderboardSettings } from '../../engine/leaderboards/leaderboard-store.js';
import type { Rankings } from '../../engine/live/rankings.js';
import type { PersistedScore } from '../../engine/live/types.js';
import { leaderboardKeys, memberKey } from '../../engine/live/keys.js';

import { dropDatabase } from '../../engine/db.js';
import { generatedDisplayName } from '../../engine/players/display-names.js';
import { unlinkKeysWithPrefix, type RedisClient } from '../../engine/live/redis.js';
import {
  BENCH_CLUSTER_DATABASE,
  BENCH_BEFORE_DATABASE,
  BENCH_DATABASE,
  BENCH_PREFIX,
  databaseUrlFor,
  BOARDS,
  SEEDED_SCORE_CEILING,
  clanCount,
  clanOf,
  metadataOf,
  playerId,
  randomInts,
} from './fixtures.js';

const DAY_MS = 86_400_000;

export interface SeededGame {
  gameId: string;
  publishableKey: string;
  secretKey: string;
  boards: Record<string, Leaderboard>;
  /** Seconds each store took; they are written at the same time. */
  seconds: { postgres: number; redis: number };
}

const COPY_CHUNK = 10_000; // rows per write to the COPY stream
const REDIS_CHUNK = 5_000; // members per ZADD/HSET
const REDIS_CHUNKS_PER_PIPELINE = 20;

/** Drops the bench database and the bench's Redis keys: before a run (same start every time) and after it. */
export async function resetBenchData(databaseUrl: string, redis: Redis): Promise<void> {
  await dropBenchDatabase(databaseUrl);
  await dropBenchDatabase(databaseUrlFor(databaseUrl, BENCH_BEFORE_DATABASE));
  await unlinkKeysWithPrefix(redis, BENCH_PREFIX);
}

/** Drops a bench database only (the --cluster one lives on a fresh cluster, with no bench keys to remove). */
export async function dropBenchDatabase(databaseUrl: string): Promise<void> {
  const database = new URL(databaseUrl).pathname.slice(1);
  if (![BENCH_DATABASE, BENCH_CLUSTER_DATABASE, BENCH_BEFORE_DATABASE].includes(database))
    throw new Error(`refusing to drop ${database}: not a bench database`);
  await dropDatabase(databaseUrl);
}

const SCORES = 'scores (leaderboard_internal_id, player_id, score)';

/**
 * Creates the game and its leaderboards through the engine (real keys, real rows), then fills
 * them in bulk, both stores at once: PostgreSQL by COPY, Redis by pipelined ZADD/HSET, laid out
 * exactly as a rebuild would leave them once persisted (scores, clan members, clan totals and counts,
 * metadata, ready marks). Each pipeline writes keys of one leaderboard, which share a hash tag, so on
 * a Redis Cluster (`redis` a Cluster client) it stays in one slot.
 *
 * With `ruleBoards`, also the boards of report_score's variants, each holding every player as the
 * main board does: a `latest` board, a `sum` board, a best board whose every entry carries
 * METADATA_BYTES of metadata, and a best board with a window open through the run.
 */
export async function seed(
  engine: Engine,
  pool: pg.Pool,
  redis: RedisClient,
  players: number,
  smallBoard: number,
  ruleBoards = false,
): Promise<SeededGame> {
  const game = await engine.games.create('bench', 'system');
  const boards: Record<string, Leaderboard> = {};
  const individual = { type: 'individual' } as const;
  const definitions: [string, Partial<LeaderboardSettings>][] = [
    [BOARDS.main, individual],
    [BOARDS.clans, { type: 'clan' }],
    [BOARDS.small, individual],
    ...BOARDS.server.map((id): [string, Partial<LeaderboardSettings>] => [id, individual]),
  ];
  if (ruleBoards) {
    definitions.push(
      [BOARDS.latest, { ...individual, updateStrategy: 'latest' }],
      [BOARDS.sum, { ...individual, updateStrategy: 'sum' }],
      [BOARDS.metadata, individual],
      [BOARDS.windowed, { ...individual, opensAt: new Date(Date.now() - DAY_MS), closesAt: new Date(Date.now() + 30 * DAY_MS) }],
      [BOARDS.entries, { ...individual, joinRequired: true, maxPlayers: 1_000_000, maxAttempts: 10_000, groups: ENTRIES_LEAGUE }],
    );
  }
  for (const [id, settings] of definitions) boards[id] = (await engine.leaderboards.put(game.id, id, settings, 'system')).leaderboard;

  const ids = Array.from({ length: players }, (_, i) => playerId(i));
  const memberClans = ids.map((_, i) => clanOf(i, players));
  const clans = Array.from({ length: clanCount(players) }, (_, i) => `c${i}`);
  const mainScores = randomInts(1, players, SEEDED_SCORE_CEILING);
  const clanBoardScores = randomInts(2, players, SEEDED_SCORE_CEILING);
  const smallScores = randomInts(3, smallBoard, SEEDED_SCORE_CEILING);
  const ruleScores = ruleBoards
    ? [BOARDS.latest, BOARDS.sum, BOARDS.metadata, BOARDS.windowed, BOARDS.entries].map((_, i) =>
        randomInts(5 + i, players, SEEDED_SCORE_CEILING),
      )
    : [];
  const [latestScores, sumScores, metadataScores, windowedScores, entriesScores] = ruleScores;
  const totals = new Map<string, { total: number; count: number }>();
  memberClans.forEach((clan, i) => {
    const entry = totals.get(clan) ?? { total: 0, count: 0 };
    entry.total += clanBoardScores[i]!;
    entry.count += 1;
    totals.set(clan, entry);
  });

  const version = Date.now() * 1000; // clan total versions follow the microsecond clock
  const clanBoard = boards[BOARDS.clans]!.internalId;
  const scoreRows = (board: string, scores: number[]) => {
    const internalId = boards[board]!.internalId;
    return (i: number) => `${internalId}\t${ids[i]}\t${scores[i]}\n`;
  };
  // Three independent streams of rows, each on its own connection, so PostgreSQL uses every core.
  const postgres = () =>
    Promise.all([
      bulk(pool, async (client) => {
        await copy(client, 'clans (game_id, clan_id, name)', clans.length, (i) => `${game.id}\t${clans[i]}\tClan ${clans[i]}\n`);
        // Names stored as signup stores them: a player without one costs every read a generated name.
        await copy(
          client,
          'players (id, game_id, clan_id, display_name)',
          players,
          (i) => `${ids[i]}\t${game.id}\t${memberClans[i]}\t${generatedDisplayName(ids[i]!)}\n`,
        );
      }),
      bulk(pool, async (client) => {
        await copy(client, SCORES, players, scoreRows(BOARDS.main, mainScores));
        await copy(client, SCORES, smallBoard, scoreRows(BOARDS.small, smallScores));
      }),
      bulk(pool, async (client) => {
        await copy(client, SCORES, players, scoreRows(BOARDS.clans, clanBoardScores));
        const clanTotals = [...totals];
        await copy(client, 'clan_scores (leaderboard_internal_id, clan_id, score, version)', clanTotals.length, (i) => {
          const [clan, { total }] = clanTotals[i]!;
          return `${clanBoard}\t${clan}\t${total}\t${version}\n`;
        });
      }),
      ruleBoards &&
        bulk(pool, async (client) => {
          await copy(client, SCORES, players, scoreRows(BOARDS.latest, latestScores!));
          await copy(client, SCORES, players, scoreRows(BOARDS.sum, sumScores!));
          await copy(client, SCORES, players, scoreRows(BOARDS.windowed, windowedScores!));
          await copy(client, SCORES, players, scoreRows(BOARDS.entries, entriesScores!));
          const entriesBoard = boards[BOARDS.entries]!.internalId;
          await copy(
            client,
            'season_seats (leaderboard_internal_id, season, player_id, attempts, entered, version, group_no, tier)',
            players,
            (i) => `${entriesBoard}\t1\t${ids[i]}\t0\ttrue\t1\t${entriesGroup(i)}\t0\n`,
          );
          const metadataBoard = boards[BOARDS.metadata]!.internalId;
          await copy(client, 'scores (leaderboard_internal_id, player_id, score, metadata)', players, (i) => {
            return `${metadataBoard}\t${ids[i]}\t${metadataScores![i]}\t${JSON.stringify(metadataOf(i))}\n`;
          });
        }),
    ]).then(async () => {
      await pool.query('ANALYZE players, scores, clan_scores');
    });
  const live = async () => {
    const key = (board: string) => leaderboardKeys(BENCH_PREFIX, boards[board]!.internalId);
    await writeSortedSet(redis, key(BOARDS.main).scores, ids, mainScores);
    await writeSortedSet(redis, key(BOARDS.small).scores, ids.slice(0, smallBoard), smallScores);
    const clanKeys = key(BOARDS.clans);
    await writeSortedSet(redis, clanKeys.scores, ids, clanBoardScores);
    await writeMemberships(redis, clanBoard, ids, memberClans, clans, totals);
    await writeSortedSet(
      redis,
      clanKeys.clans,
      [...totals.keys()],
      [...totals.values()].map((t) => t.total),
    );
    if (ruleBoards) {
      await writeSortedSet(redis, key(BOARDS.latest).scores, ids, latestScores!);
      await writeSortedSet(redis, key(BOARDS.sum).scores, ids, sumScores!);
      await writeSortedSet(redis, key(BOARDS.windowed).scores, ids, windowedScores!);
      const entriesKeys = key(BOARDS.entries);
      await writeSortedSet(redis, entriesKeys.scores, ids, entriesScores!);
      // Entered, no attempt used yet, in a league group of the lowest tier: the seat each player holds
      // and the groups as joining made them (engine/live/scripts/includes/seats.lua).
      await writeChunks(
        players,
        (batch, from, to) => {
          const args: string[] = [];
          for (let i = from; i < to; i += 1) args.push(ids[i]!, `0:1:1:${entriesGroup(i)}:0`);
          batch.hset(entriesKeys.seats, ...args);
        },
        redis,
      );
      const groupCount = entriesGroup(players - 1);
      await writeChunks(
        groupCount,
        (batch, from, to) => {
          for (let g = from + 1; g <= to; g += 1) {
            const members = ids.slice((g - 1) * ENTRIES_LEAGUE.size, Math.min(g * ENTRIES_LEAGUE.size, players));
            batch.hset(entriesKeys.groups, String(g), `0:${members.length}`, `m${g}`, members.join(' '));
            batch.zadd(entriesKeys.groupIndex, g, String(g));
          }
        },
        redis,
      );
      await redis.hset(entriesKeys.groups, 'n', groupCount);
      const metadataKeys = key(BOARDS.metadata);
      await writeSortedSet(redis, metadataKeys.scores, ids, metadataScores!);
      await writeChunks(
        players,
        (batch, from, to) => {
          const args: string[] = [];
          for (let i = from; i < to; i += 1) args.push(ids[i]!, JSON.stringify(metadataOf(i)));
          batch.hset(metadataKeys.metadata, ...args);
        },
        redis,
      );
    }
  };
  const timed = async (work: () => Promise<void>) => {
    const started = Date.now();
    await work();
    return (Date.now() - started) / 1000;
  };
  const [postgresSeconds, redisSeconds] = await Promise.all([timed(postgres), timed(live)]);
  return {
    gameId: game.id,
    publishableKey: game.publishableKey,
    secretKey: game.secretKey,
    boards,
    seconds: { postgres: postgresSeconds, redis: redisSeconds },
  };
}

/**
 * One more individual board holding the first `players` players, laid out in both stores as seed()
 * lays out its boards (scores by COPY, the sorted set by pipelined ZADD), with scores drawn from `scoreSeed`.
 */
/** The entries board is a league too: groups of 50, every seeded player in one, in the lowest tier. */
const ENTRIES_LEAGUE = { size: 50, tiers: ['bronze', 'silver', 'gold'], promote: 5, relegate: 5 };
const entriesGroup = (i: number) => Math.floor(i / ENTRIES_LEAGUE.size) + 1;

export async function seedBoard(pool: pg.Pool, redis: RedisClient, board: Leaderboard, players: number, scoreSeed: number): Promise<void> {
  const ids = Array.from({ length: players }, (_, i) => playerId(i));
  const scores = randomInts(scoreSeed, players, SEEDED_SCORE_CEILING);
  const rows = (i: number) => `${board.internalId}\t${ids[i]}\t${scores[i]}\n`;
  await Promise.all([
    bulk(pool, (client) => copy(client, 'scores (leaderboard_internal_id, player_id, score)', players, rows)).then(() =>
      pool.query('ANALYZE scores'),
    ),
    writeSortedSet(redis, leaderboardKeys(BENCH_PREFIX, board.internalId).scores, ids, scores),
  ]);
}

/**
 * One more board of the first `players` players with tie settings (an 'earliest' board, or one with
 * tiebreaker columns): PostgreSQL by COPY, with each entry's tiebreakers and the time it was reached;
 * Redis through the rebuild's own merge, so the keyed layout (docs/ordering.md) is exactly the
 * engine's. Scores are drawn from `scoreSeed`, each tiebreaker below 1,000, the times over the last day.
 */
export async function seedTiedBoard(
  pool: pg.Pool,
  rankings: Rankings,
  board: Leaderboard,
  players: number,
  scoreSeed: number,
): Promise<void> {
  const columns = board.tiebreakers.length;
  const scores = randomInts(scoreSeed, players, SEEDED_SCORE_CEILING);
  const tiebreakers = Array.from({ length: columns }, (_, c) => randomInts(scoreSeed * 10 + c, players, 1000));
  const now = Date.now();
  const reachedAt = randomInts(scoreSeed * 10 + 9, players, 86_400_000).map((ago) => now - ago);
  const entry = (i: number): PersistedScore => ({
    playerId: playerId(i),
    score: scores[i]!,
    metadata: '',
    tiebreakers: tiebreakers.map((column) => column[i]!),
    achievedAt: board.tieBreak === 'earliest' ? reachedAt[i]! : null,
    bestRank: '',
  });
  const row = (i: number) => {
    const { playerId: id, score, tiebreakers: values, achievedAt } = entry(i);
    const array = values.length === 0 ? '\\N' : `{${values.join(',')}}`;
    return `${board.internalId}\t${id}\t${score}\t${array}\t${achievedAt === null ? '\\N' : new Date(achievedAt).toISOString()}\n`;
  };
  const live = async () => {
    for (let start = 0; start < players; start += REDIS_CHUNK) {
      const page = Array.from({ length: Math.min(REDIS_CHUNK, players - start) }, (_, k) => entry(start + k));
      if (!(await rankings.merge(board, board.season, page))) throw new Error(`board ${board.id} was reset while seeded`);
    }
  };
  await Promise.all([
    bulk(pool, (client) => copy(client, 'scores (leaderboard_internal_id, player_id, score, tiebreakers, achieved_at)', players, row)).then(
      () => pool.query('ANALYZE scores'),
    ),
    live(),
  ]);
}

/**
 * Runs bulk inserts on one connection with foreign-key triggers off (session_replication_role,
 * superuser only; skipped otherwise): the rows are generated consistent, so the per-row checks
 * would only double the time. Indexes and constraints other than foreign keys still apply.
 */
async function bulk(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<void>): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SET session_replication_role = replica').catch(() => undefined);
    await work(client);
  } finally {
    await client.query('RESET session_replication_role').catch(() => undefined);
    client.release();
  }
}

/** COPY ... FROM STDIN in text format; the generated values hold no tab, newline or backslash. */
async function copy(client: pg.PoolClient, target: string, count: number, line: (i: number) => string): Promise<void> {
  function* chunks() {
    for (let start = 0; start < count; start += COPY_CHUNK) {
      let text = '';
      for (let i = start; i < Math.min(count, start + COPY_CHUNK); i += 1) text += line(i);
      yield text;
    }
  }
  await pipeline(Readable.from(chunks()), client.query(copyFrom(`COPY ${target} FROM STDIN`)));
}

/** Members go in score order: the skiplist then grows at one end, which Redis does ~2.5x faster. */
async function writeSortedSet(redis: RedisClient, key: string, members: string[], scores: number[]): Promise<void> {
  const order = Array.from(members, (_, i) => i).sort((a, b) => scores[a]! - scores[b]!);
  await writeChunks(
    members.length,
    (batch, from, to) => {
      const args: (string | number)[] = [];
      for (let k = from; k < to; k += 1) args.push(scores[order[k]!]!, members[order[k]!]!);
      batch.zadd(key, ...args);
    },
    redis,
  );
}

async function writeHash(redis: RedisClient, key: string, fields: string[], values: string[]): Promise<void> {
  await writeChunks(
    fields.length,
    (batch, from, to) => {
      const args: string[] = [];
      for (let i = from; i < to; i += 1) args.push(fields[i]!, values[i]!);
      batch.hset(key, ...args);
    },
    redis,
  );
}

/**
 * Memberships as the clan scripts keep them: each clan numbered in both directions (with its count of
 * scored members beside the number), and each player's clan number in the member hash the engine
 * picks for that player.
 */
async function writeMemberships(
  redis: RedisClient,
  internalId: number,
  ids: string[],
  memberClans: string[],
  clans: string[],
  totals: Map<string, { count: number }>,
): Promise<void> {
  const keys = leaderboardKeys(BENCH_PREFIX, internalId);
  const numbers = new Map(clans.map((clan, i) => [clan, String(i + 1)]));
  await writeHash(redis, keys.clanIds, [...numbers.values()], [...numbers.keys()]);
  await writeHash(
    redis,
    keys.clanState,
    [...numbers.keys()],
    [...numbers].map(([clan, number]) => `${number}:${totals.get(clan)?.count ?? 0}`),
  );
  const buckets = new Map<string, string[]>();
  ids.forEach((id, i) => {
    const key = memberKey(BENCH_PREFIX, internalId, id);
    const fields = buckets.get(key) ?? [];
    fields.push(id, numbers.get(memberClans[i]!)!);
    buckets.set(key, fields);
  });
  const hashes = [...buckets];
  await writeChunks(
    hashes.length,
    (batch, from, to) => {
      for (let i = from; i < to; i += 1) batch.hset(hashes[i]![0], ...hashes[i]![1]);
    },
    redis,
  );
}

type Pipeline = ChainableCommander;

/** Large chunks, several per round trip, and a bounded number in flight so memory stays flat. */
async function writeChunks(count: number, add: (batch: Pipeline, from: number, to: number) => void, redis: RedisClient): Promise<void> {
  for (let start = 0; start < count; start += REDIS_CHUNK * REDIS_CHUNKS_PER_PIPELINE) {
    const batch = redis.pipeline();
    const end = Math.min(count, start + REDIS_CHUNK * REDIS_CHUNKS_PER_PIPELINE);
    for (let from = start; from < end; from += REDIS_CHUNK) add(batch, from, Math.min(end, from + REDIS_CHUNK));
    const results = await batch.exec();
    const failed = results?.find(([error]) => error);
    if (failed) throw failed[0];
  }
}
