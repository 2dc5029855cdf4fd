import type { RedisClient } from '../redis.js';
import { allMemberKeys, clanScriptKeys, leaderboardKeys, memberKey, reportScriptKeys, type LeaderboardKeys } from '../keys.js';
import type { SortOrder } from '../leaderboards/leaderboard-store.js';
import { QUEUED_FLAG_TTL_MS, type PersistenceMarks } from '../persistence/marks.js';

/** What the ranking core needs to know of a leaderboard. */
export interface RankedBoard {
  internalId: number;
  sortOrder: SortOrder;
  /** The current season as PostgreSQL knows it; Redis's own number wins once it has one. */
  season: number;
}

export type View = 'players' | 'clans';

export interface RankedEntry {
  id: string;
  /** Exactly as Redis stores it; parseFloat gives back the very double. */
  score: string;
  rank: number;
}

export interface ReportOutcome {
  best: string;
  improved: boolean;
  rank: number;
  total: number;
  needsPersistence: boolean;
  /** The season the report counted in. */
  season: number;
}

/**
 * The live rankings in Redis. Every method is one Lua script call (one round trip, one atomic step,
 * one Cluster slot); ranks are competition ranks computed inside the scripts. Scripts that mark
 * changes for persistence run after the board is in the pending index (PersistenceMarks).
 */
export class Rankings {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly marks: PersistenceMarks,
  ) {}

  private keys(board: { internalId: number }): LeaderboardKeys {
    return leaderboardKeys(this.prefix, board.internalId);
  }

  private allMemberKeys(board: { internalId: number }): string[] {
    return allMemberKeys(this.prefix, board.internalId);
  }

  async report(board: RankedBoard, playerId: string, score: number): Promise<ReportOutcome> {
    const touching = this.marks.beforeMarking(board);
    if (touching) await touching;
    const [best, improved, rank, total, needsJob, season] = await this.redis.reportScore(
      ...reportScriptKeys(this.prefix, board.internalId, playerId),
      playerId,
      String(score),
      board.sortOrder,
      QUEUED_FLAG_TTL_MS,
      board.season,
    );
    return { best, improved: improved === 1, rank, total, needsPersistence: needsJob === 1, season };
  }

  /** Scores and ranks of the given members (players or clans); missing members come back undefined. */
  async scoresOf(board: RankedBoard, view: View, ids: string[]): Promise<{ total: number; entries: (RankedEntry | undefined)[] }> {
    const reply = await this.redis.scoresOf(this.rankingKey(board, view), board.sortOrder, ...ids);
    const entries = ids.map((id, i) => {
      const score = String(reply[1 + 2 * i]);
      return score === '' ? undefined : { id, score, rank: Number(reply[2 + 2 * i]) };
    });
    return { total: Number(reply[0]), entries };
  }

  async page(board: RankedBoard, view: View, offset: number, limit: number): Promise<{ total: number; entries: RankedEntry[] }> {
    const reply = await this.redis.readRange(this.rankingKey(board, view), board.sortOrder, offset, offset + limit - 1);
    return { total: Number(reply[0]), entries: withRanks(reply.slice(1), offset) };
  }

  /** The player's entry with up to `range` entries above and below, or undefined without a score. */
  async around(board: RankedBoard, playerId: string, range: number): Promise<{ total: number; entries: RankedEntry[] } | undefined> {
    const reply = await this.redis.readAround(this.keys(board).scores, board.sortOrder, playerId, range);
    if (!reply) return undefined;
    return { total: Number(reply[0]), entries: withRanks(reply.slice(2), Number(reply[1])) };
  }

  async count(board: RankedBoard): Promise<number> {
    return this.redis.zcard(this.keys(board).scores);
  }

  /** Sets clan memberships on a clan leaderboard, moving best scores between clan totals. */
  async setClans(board: RankedBoard, memberships: [playerId: string, clanId: string | null][]): Promise<void> {
    await this.marks.beforeMarkingAll([board]);
    for (const chunk of chunks(memberships, 1000)) {
      await this.redis.setClans(
        ...this.clanKeys(
          board,
          chunk.map(([player]) => player),
        ),
        ...chunk.flatMap(([player, clan]) => [player, clan ?? '']),
      );
    }
  }

  /** Recomputes a clan's total from its members' best scores; true when it had drifted. */
  async reconcileClan(board: RankedBoard, clanId: string, memberIds: string[]): Promise<boolean> {
    await this.marks.beforeMarkingAll([board]);
    const repaired = await this.redis.reconcileClan(...this.clanKeys(board, memberIds), clanId, ...memberIds);
    return repaired === 1;
  }

  /** Merges persisted best scores back into the live ranking (rebuild). */
  async merge(board: RankedBoard, scores: [playerId: string, score: number][]): Promise<void> {
    await this.marks.beforeMarkingAll([board]);
    for (const chunk of chunks(scores, 2000)) {
      await this.redis.mergeScores(
        ...this.clanKeys(
          board,
          chunk.map(([player]) => player),
        ),
        board.sortOrder,
        ...chunk.flatMap(([player, score]) => [player, String(score)]),
      );
    }
  }

  /** Removes every key of a leaderboard (they share one slot, so one command). */
  async drop(board: { internalId: number }): Promise<void> {
    await this.redis.unlink(...Object.values(this.keys(board)), ...this.allMemberKeys(board));
  }

  /** Every clan with a total on a clan leaderboard. */
  rankedClans(board: { internalId: number }): Promise<string[]> {
    return this.redis.zrange(this.keys(board).clans, '0', '-1');
  }

  /** The live clan memberships of a clan leaderboard, player -> clan id. */
  async memberships(board: { internalId: number }): Promise<Map<string, string>> {
    const clanIds = await this.redis.hgetall(this.keys(board).clanIds);
    const memberships = new Map<string, string>();
    for (const keys of chunks(this.allMemberKeys(board), 512)) {
      for (const hash of await Promise.all(keys.map((key) => this.redis.hgetall(key)))) {
        for (const [player, number] of Object.entries(hash)) memberships.set(player, clanIds[number]!);
      }
    }
    return memberships;
  }

  /** Key count and keys of the scripts that read or move memberships of the given players. */
  private clanKeys(board: { internalId: number }, playerIds: string[]): string[] {
    const keys = clanScriptKeys(this.keys(board));
    const memberKeys = playerIds.map((player) => memberKey(this.prefix, board.internalId, player));
    return [String(keys.length + memberKeys.length), ...keys, ...memberKeys];
  }

  private rankingKey(board: RankedBoard, view: View): string {
    const k = this.keys(board);
    return view === 'clans' ? k.clans : k.scores;
  }
}

/** Turns a readRange reply ({firstRank, member, score, ...}) into entries with competition ranks. */
function withRanks(reply: (string | number)[], startPosition: number): RankedEntry[] {
  const entries: RankedEntry[] = [];
  let rank = Number(reply[0]);
  for (let i = 1; i < reply.length; i += 2) {
    const score = String(reply[i + 1]);
    const previous = entries[entries.length - 1];
    if (previous && previous.score !== score) rank = startPosition + entries.length + 1;
    entries.push({ id: String(reply[i]), score, rank });
  }
  return entries;
}

export function chunks<T>(items: T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}
