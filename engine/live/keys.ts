import { crc32 } from 'node:zlib';
import type { AskedSeason, Standings } from './types.js';

/**
 * Every Redis key the engine uses is built here. All keys of one leaderboard share the hash tag
 * `{<internal id>}`, so each Lua script touches a single Redis Cluster slot.
 */
export interface LeaderboardKeys {
  /**
   * zset: the live ranking (docs/ordering.md). Plain boards: player -> score. Keyed boards (ties
   * broken by time or tiebreakers): member = sort key + player id, every score 0, ordered by bytes.
   */
  scores: string;
  /** hash player -> the sort key of their entry, on keyed boards (engine/live/scripts/includes/entries.lua). */
  sortKeys: string;
  /**
   * string: how the board's entries are laid out ('<tie><order><tiebreaker directions>'); absent on
   * plain boards. Changed only while the board holds no entry (setLayout).
   */
  layout: string;
  /** zset player -> time (ms) of the first change not yet written to PostgreSQL. */
  dirty: string;
  /** flag: a persistence job for this leaderboard is queued or running. */
  queued: string;
  /** zset clan -> sum of its members' best scores (clan leaderboards only). */
  clans: string;
  /**
   * hash clan id -> '<number>:<members holding a score>'. The number is given on the clan's first
   * member and kept while the board lives; the count sits beside it because at 50 members a clan each
   * hash field costs over a byte per ranked entry.
   */
  clanState: string;
  /** zset clan -> time (ms) of the first total change not yet written to PostgreSQL. */
  dirtyClans: string;
  /** hash clan -> version of its unpersisted total; dropped once PostgreSQL has it. */
  clanVersions: string;
  /** hash clan number -> clan id: memberships store the number (see memberKey). */
  clanIds: string;
  /**
   * string: the last version given on this board to a clan total or a latest/sum entry (microsecond
   * clock, strictly increasing). Its key still ends in `clan-clock`, its first name: renaming the key
   * would orphan the clock of every board of a running deployment.
   */
  versionClock: string;
  /**
   * string: '<current season>' or '<current season>:<its scheduled reset, ms>'. Only the board's
   * preparation (creation, rebuild) writes it, last, so it is also the sign that Redis holds the
   * board's live state: every script refuses a board without it (engine/live/scripts/includes/live-season.lua).
   */
  season: string;
  /** hash player -> metadata (compact JSON) of the kept score; players without metadata have no field. */
  metadata: string;
  /**
   * hash player -> version of an unpersisted latest/sum entry or of a removal; dropped once
   * PostgreSQL has it.
   */
  versions: string;
  /**
   * set: the game's banned players, kept on every board of the game, so the report script refuses
   * them in the same step as it would apply their score (kept across seasons).
   */
  banned: string;
  /**
   * set: the game's shadow-banned players (docs/review.md part 6), a subset of `banned`: their client
   * reports are held for nobody but themselves instead of refused (kept across seasons).
   */
  shadowed: string;
  /**
   * hash player -> the entry a banned player holds this season, out of the ranking until the unban
   * (its score, or on keyed boards its sort key).
   */
  hidden: string;
  /** string: when the current season started (ms); absent until the first reset (then PostgreSQL's). */
  seasonStarted: string;
  /**
   * hash ended season -> '<started ms>:<ended ms>': seasons reset in Redis, not yet archived to
   * PostgreSQL (those are SeasonArchiveStore's). Its key still ends in `archives`, its first name:
   * renaming the key would orphan the ended seasons of a running deployment.
   */
  endedSeasons: string;
  /**
   * zset of the board's coming scheduled resets (ms, as member and score); the first stands in the
   * season key too. The worker keeps it filled, so seasons end on time while the worker lags.
   */
  scheduledResets: string;
  /** string: the reset schedule as JSON {cron, timezone}; absent without one. */
  resetSchedule: string;
  /**
   * hash player -> '<attempts used>:<entered 0|1>:<version>' this season, on boards with entry rules
   * (docs/competitions.md, part 3; engine/live/scripts/includes/seats.lua).
   */
  seats: string;
  /** set: players entered this season who hold no entry yet (each holds a seat). */
  waiting: string;
  /**
   * A league's groups this season (docs/competitions.md, part 6; engine/live/scripts/includes/seats.lua):
   * hash of each group's tier, member count and members; zsets of every group and of those with room.
   */
  groups: string;
  groupIndex: string;
  groupRoom: string;
  /** hash player -> league tier, kept across seasons (no field: the lowest). */
  tiers: string;
  /**
   * A server batch's reservations this season (engine/live/scripts/includes/seats.lua): hash player
   * -> '<reports reserved>:<until ms>', and zset player -> until (ms) of the seats they hold.
   */
  reservations: string;
  reserved: string;
  /**
   * stream of player.overtaken records (docs/events.md part 5): the report script adds one per
   * report that overtook players within the board's notify_top; the worker moves them to PostgreSQL.
   */
  overtaken: string;
  /**
   * hash player -> the best rank their reports reached this season and when (docs/history.md part
   * 4); persisted like entries, restored by the rebuild. A large board spreads them over the
   * BEST_RANK_LEVELS hashes named after this key (engine/live/scripts/includes/best-ranks.lua).
   */
  bestRanks: string;
  /**
   * hash player -> their held score this season (docs/review.md; engine/live/scripts/includes/review.lua),
   * and, on boards judging gains, hash player -> when their kept score was reached (ms).
   */
  held: string;
  reached: string;
}

/** The ranking zsets of an ended season, kept until the worker has archived them. */
export interface EndedSeasonKeys {
  scores: string;
  clans: string;
  metadata: string;
  /** Banned players' entries of the ended season (archived as hidden rows). */
  hidden: string;
  sortKeys: string;
  /**
   * A league's groups as the season ended (the live `groups` hash, moved aside), and each group's
   * result once its moves are applied: field 'r<group>' (docs/competitions.md, part 6).
   */
  groups: string;
}

function boardBase(prefix: string, internalId: number): string {
  return `${prefix}:lb:{${internalId}}`;
}

export function leaderboardKeys(prefix: string, internalId: number): LeaderboardKeys {
  const base = boardBase(prefix, internalId);
  return {
    scores: `${base}:scores`,
    sortKeys: `${base}:sort-keys`,
    layout: `${base}:layout`,
    dirty: `${base}:dirty`,
    queued: `${base}:queued`,
    clans: `${base}:clans`,
    clanState: `${base}:clan-state`,
    dirtyClans: `${base}:dirty-clans`,
    clanVersions: `${base}:clan-versions`,
    clanIds: `${base}:clan-ids`,
    versionClock: `${base}:clan-clock`,
    season: `${base}:season`,
    metadata: `${base}:metadata`,
    versions: `${base}:versions`,
    banned: `${base}:banned`,
    shadowed: `${base}:shadowed`,
    hidden: `${base}:hidden`,
    seasonStarted: `${base}:season-started`,
    endedSeasons: `${base}:archives`,
    scheduledResets: `${base}:scheduled-resets`,
    resetSchedule: `${base}:reset-schedule`,
    seats: `${base}:seats`,
    waiting: `${base}:waiting`,
    groups: `${base}:groups`,
    groupIndex: `${base}:group-index`,
    groupRoom: `${base}:group-room`,
    tiers: `${base}:tiers`,
    reservations: `${base}:reservations`,
    reserved: `${base}:reserved`,
    overtaken: `${base}:overtaken`,
    bestRanks: `${base}:best-ranks`,
    held: `${base}:held`,
    reached: `${base}:reached`,
  };
}

export function endedSeasonKeys(prefix: string, internalId: number, season: number): EndedSeasonKeys {
  const base = `${boardBase(prefix, internalId)}:s:${season}`;
  return {
    scores: `${base}:scores`,
    clans: `${base}:clans`,
    metadata: `${base}:metadata`,
    hidden: `${base}:hidden`,
    sortKeys: `${base}:sort-keys`,
    groups: `${base}:groups`,
  };
}

/**
 * The keys of each Lua script, one function per script (engine/live/scripts/<command>-<key count>.lua),
 * in the order of the KEYS list in the script's header; the scripts are called with these only. A
 * unit test (test/unit/script-keys.test.ts) reads every header and checks each function against it.
 */

/**
 * The keys every script that moves entries and clan totals takes first, in the order
 * engine/live/scripts/includes/clan-totals.lua reads them (boardKeys()).
 */
function boardKeys(k: LeaderboardKeys): string[] {
  return [k.scores, k.sortKeys, k.layout, k.clans, k.clanState, k.dirtyClans, k.clanVersions, k.clanIds, k.versionClock];
}

/**
 * The report script's keys for this player (reportScore-32.lua); `retryDigest` names the request's
 * idempotency record (absent: a key the script never touches).
 */
export function reportScoreKeys(prefix: string, internalId: number, playerId: string, retryDigest = ''): string[] {
  const k = leaderboardKeys(prefix, internalId);
  return [
    ...boardKeys(k),
    k.dirty,
    k.queued,
    memberKey(prefix, internalId, playerId),
    k.season,
    k.metadata,
    k.versions,
    boardRetryKey(prefix, internalId, retryDigest),
    k.banned,
    k.seasonStarted,
    k.hidden,
    k.seats,
    k.waiting,
    k.groups,
    k.groupIndex,
    k.groupRoom,
    k.tiers,
    k.reservations,
    k.reserved,
    k.overtaken,
    k.bestRanks,
    k.held,
    k.reached,
    k.shadowed,
  ];
}

/** The moderation script's keys for this player (moderateEntry-27.lua). */
export function moderateEntryKeys(prefix: string, internalId: number, playerId: string): string[] {
  const k = leaderboardKeys(prefix, internalId);
  return [
    ...boardKeys(k),
    memberKey(prefix, internalId, playerId),
    k.banned,
    k.hidden,
    k.metadata,
    k.versions,
    k.dirty,
    k.queued,
    k.season,
    k.seats,
    k.waiting,
    k.groups,
    k.groupRoom,
    k.bestRanks,
    k.held,
    k.shadowed,
    k.reservations,
    k.reserved,
    k.endedSeasons,
  ];
}

/** The keys of markModerated-5.lua for one ended season of a board. */
export function markModeratedKeys(prefix: string, internalId: number, season: number): string[] {
  const k = leaderboardKeys(prefix, internalId);
  const ended = endedSeasonKeys(prefix, internalId, season);
  return [k.endedSeasons, ended.scores, ended.sortKeys, ended.hidden, k.layout];
}

/** The merge script's keys for these players (mergeScores.lua; the caller passes their count first). */
export function mergeScoresKeys(prefix: string, internalId: number, playerIds: string[]): string[] {
  const k = leaderboardKeys(prefix, internalId);
  return [
    ...boardKeys(k),
    k.season,
    k.metadata,
    k.banned,
    k.hidden,
    k.bestRanks,
    ...playerIds.map((player) => memberKey(prefix, internalId, player)),
  ];
}

/** The membership script's keys for these players (setClans.lua; the caller passes their count first). */
export function setClansKeys(prefix: string, internalId: number, playerIds: string[]): string[] {
  const k = leaderboardKeys(prefix, internalId);
  return [...boardKeys(k), k.season, ...playerIds.map((player) => memberKey(prefix, internalId, player))];
}

/** The clan recount's keys for these members (reconcileClan.lua; the caller passes their count first). */
export function reconcileClanKeys(prefix: string, internalId: number, memberIds: string[]): string[] {
  return setClansKeys(prefix, internalId, memberIds);
}

/**
 * The nine keys every read script takes (includes/season-ranking.lua): the ranking of the standings
 * read, the season, the asked season's ended ranking, the ended seasons, the live metadata, the
 * asked season's ended metadata, the live and the ended sort keys, and the layout.
 */
function seasonRankingKeys(prefix: string, internalId: number, standings: Standings, season: AskedSeason): string[] {
  const k = leaderboardKeys(prefix, internalId);
  const ended = endedSeasonKeys(prefix, internalId, season ?? 0);
  const [ranking, endedRanking] = standings === 'clans' ? [k.clans, ended.clans] : [k.scores, ended.scores];
  return [ranking, k.season, endedRanking, k.endedSeasons, k.metadata, ended.metadata, k.sortKeys, ended.sortKeys, k.layout];
}

/** The page script's keys (readRange-9.lua). */
export function readRangeKeys(prefix: string, internalId: number, standings: Standings, season: AskedSeason): string[] {
  return seasonRankingKeys(prefix, internalId, standings, season);
}

/** The keys of the script reading around a player (readAround-9.lua). */
export function readAroundKeys(prefix: string, internalId: number, season: AskedSeason): string[] {
  return seasonRankingKeys(prefix, internalId, 'players', season);
}

/**
 * The keys of the script reading given members (scoresOf-10.lua); for 'hidden', the current season's
 * with the hidden entries first.
 */
export function scoresOfKeys(prefix: string, internalId: number, standings: Standings | 'hidden', season: AskedSeason): string[] {
  const { bestRanks, hidden } = leaderboardKeys(prefix, internalId);
  if (standings !== 'hidden') return [...seasonRankingKeys(prefix, internalId, standings, season), bestRanks];
  const keys = seasonRankingKeys(prefix, internalId, 'players', undefined);
  keys[0] = hidden;
  return [...keys, bestRanks];
}

/** The best-rank read's keys (readBestRank-1.lua). */
export function readBestRankKeys(prefix: string, internalId: number): string[] {
  return [leaderboardKeys(prefix, internalId).bestRanks];
}

/** The seasons script's keys (readSeasons-4.lua). */
export function readSeasonsKeys(prefix: string, internalId: number): string[] {
  const k = leaderboardKeys(prefix, internalId);
  return [k.season, k.seasonStarted, k.scores, k.endedSeasons];
}

/** The keys of the script that marks a board's live state whole (markPrepared-3.lua). */
export function markPreparedKeys(prefix: string, internalId: number): string[] {
  const k = leaderboardKeys(prefix, internalId);
  return [k.season, k.seasonStarted, k.scheduledResets];
}

/** The keys of the script that sets a board's scheduled resets (scheduleResets-3.lua). */
export function scheduleResetsKeys(prefix: string, internalId: number): string[] {
  const k = leaderboardKeys(prefix, internalId);
  return [k.season, k.seasonStarted, k.scheduledResets];
}

/** The reset script's keys, the ended season's named for `expected`, the season to end (resetSeason-35.lua). */
export function resetSeasonKeys(prefix: string, internalId: number, expected: number): string[] {
  const k = leaderboardKeys(prefix, internalId);
  const ended = endedSeasonKeys(prefix, internalId, expected);
  return [
    ...boardKeys(k),
    k.dirty,
    k.queued,
    k.season,
    k.seasonStarted,
    k.endedSeasons,
    k.scheduledResets,
    k.metadata,
    k.versions,
    k.hidden,
    ended.scores,
    ended.clans,
    ended.metadata,
    ended.hidden,
    ended.sortKeys,
    k.seats,
    k.waiting,
    k.groups,
    k.groupIndex,
    k.groupRoom,
    ended.groups,
    k.tiers,
    k.reservations,
    k.reserved,
    k.bestRanks,
    k.held,
    k.reached,
  ];
}

/** The keys of the script reading an ended season's league group (endedGroup-6.lua). */
export function endedGroupKeys(prefix: string, internalId: number, season: number): string[] {
  const k = leaderboardKeys(prefix, internalId);
  const ended = endedSeasonKeys(prefix, internalId, season);
  return [ended.scores, ended.sortKeys, k.layout, ended.groups, ended.hidden, k.banned];
}

/** The keys of the script applying an ended season's league moves (applyGroupMoves-2.lua). */
export function applyGroupMovesKeys(prefix: string, internalId: number, season: number): string[] {
  return [endedSeasonKeys(prefix, internalId, season).groups, leaderboardKeys(prefix, internalId).tiers];
}

/** The persistence claim's keys (persistClaim-14.lua). */
export function persistClaimKeys(prefix: string, internalId: number): string[] {
  const k = leaderboardKeys(prefix, internalId);
  return [
    k.dirty,
    k.scores,
    k.dirtyClans,
    k.clans,
    k.clanVersions,
    k.queued,
    k.season,
    k.metadata,
    k.versions,
    k.hidden,
    k.sortKeys,
    k.layout,
    k.seats,
    k.bestRanks,
  ];
}

/** The keys of the script counting a board's changes not yet persisted (pendingCount-3.lua). */
export function pendingCountKeys(prefix: string, internalId: number): string[] {
  const k = leaderboardKeys(prefix, internalId);
  return [k.dirty, k.dirtyClans, k.endedSeasons];
}

/** The persistence ack's keys (persistAck-12.lua). */
export function persistAckKeys(prefix: string, internalId: number): string[] {
  const k = leaderboardKeys(prefix, internalId);
  return [
    k.dirty,
    k.scores,
    k.dirtyClans,
    k.clanVersions,
    k.queued,
    k.season,
    k.versions,
    k.hidden,
    k.sortKeys,
    k.layout,
    k.seats,
    k.bestRanks,
  ];
}

/** The keys of the script that sets how a board's entries are laid out (setLayout-4.lua). */
export function setLayoutKeys(prefix: string, internalId: number): string[] {
  const k = leaderboardKeys(prefix, internalId);
  return [k.layout, k.scores, k.hidden, k.endedSeasons];
}

/** The keys of the script reading a player's seat and the seats taken (seatOf-9.lua). */
export function seatOfKeys(prefix: string, internalId: number): string[] {
  const k = leaderboardKeys(prefix, internalId);
  return [k.season, k.scores, k.sortKeys, k.layout, k.hidden, k.seats, k.waiting, k.reservations, k.reserved];
}

/** The keys of the script putting persisted seats back into a rebuilt board (restoreSeats-10.lua). */
export function restoreSeatsKeys(prefix: string, internalId: number): string[] {
  const k = leaderboardKeys(prefix, internalId);
  return [k.season, k.scores, k.sortKeys, k.layout, k.hidden, k.seats, k.waiting, k.groups, k.groupIndex, k.groupRoom];
}

/** The keys of the script reading a player's held score as their own reads show it (heldView-8.lua). */
export function heldViewKeys(prefix: string, internalId: number): string[] {
  const k = leaderboardKeys(prefix, internalId);
  return [k.scores, k.sortKeys, k.layout, k.held, k.season, k.hidden, k.shadowed, k.metadata];
}

/** The keys of the script putting persisted held scores back on a rebuild (restoreHeld-2.lua). */
export function restoreHeldKeys(prefix: string, internalId: number): string[] {
  const k = leaderboardKeys(prefix, internalId);
  return [k.season, k.held];
}

/** The keys of the script entering or withdrawing a player (enterSeason-24.lua). */
export function enterSeasonKeys(prefix: string, internalId: number): string[] {
  const k = leaderboardKeys(prefix, internalId);
  return [
    ...boardKeys(k),
    k.season,
    k.banned,
    k.seasonStarted,
    k.hidden,
    k.seats,
    k.waiting,
    k.dirty,
    k.queued,
    k.groups,
    k.groupIndex,
    k.groupRoom,
    k.tiers,
    k.reservations,
    k.reserved,
    k.shadowed,
  ];
}

/** The keys of the script reading one league group (readGroup-8.lua). */
export function readGroupKeys(prefix: string, internalId: number): string[] {
  const k = leaderboardKeys(prefix, internalId);
  return [k.season, k.scores, k.sortKeys, k.layout, k.groups, k.seats, k.metadata, k.banned];
}

/** The keys of the script listing a league's groups (listGroups-3.lua). */
export function listGroupsKeys(prefix: string, internalId: number): string[] {
  const k = leaderboardKeys(prefix, internalId);
  return [k.season, k.groups, k.groupIndex];
}

/**
 * The keys of the script reserving a batch's reports on a board before the batch writes
 * (reserveReports-11.lua).
 */
export function reserveReportsKeys(prefix: string, internalId: number): string[] {
  const k = leaderboardKeys(prefix, internalId);
  return [k.season, k.banned, k.seasonStarted, k.scores, k.sortKeys, k.layout, k.hidden, k.seats, k.waiting, k.reservations, k.reserved];
}

/** The keys of the script giving back a batch's reservations (releaseReports-2.lua). */
export function releaseReportsKeys(prefix: string, internalId: number): string[] {
  const k = leaderboardKeys(prefix, internalId);
  return [k.reservations, k.reserved];
}

/** The keys of the script reading an ended season's hidden entries (scanHidden-3.lua). */
export function scanHiddenKeys(prefix: string, internalId: number, season: number): string[] {
  const ended = endedSeasonKeys(prefix, internalId, season);
  return [ended.hidden, ended.metadata, leaderboardKeys(prefix, internalId).layout];
}

/** The keys of the script indexing boards about to be marked (markPending-1.lua). */
export function markPendingKeys(prefix: string): string[] {
  return [pendingIndexKey(prefix)];
}

/** The keys of the script dropping idle index entries (dropIdlePending-1.lua). */
export function dropIdlePendingKeys(prefix: string): string[] {
  return [pendingIndexKey(prefix)];
}

/** The keys of the script asking for a rebuild walk (requestRebuild-1.lua). */
export function requestRebuildKeys(prefix: string): string[] {
  return [rebuildCursorKey(prefix)];
}

// compareAndSet-1.lua changes whatever key its caller names (a lock, the rebuild cursor, a retry record).

/**
 * string: the first answer of one board's part of a request sent with an Idempotency-Key (its
 * fingerprint, then the answer), written by the board's report script in the board's slot, so a
 * report and the record of its answer are one step. `digest` names the key's scope.
 */
export function boardRetryKey(prefix: string, internalId: number, digest: string): string {
  return `${boardBase(prefix, internalId)}:idem:${digest}`;
}

/**
 * string: the fingerprint of the request first sent with an Idempotency-Key, over every board it
 * reports to: a different request under the same key is refused before any board sees it. It
 * spans leaderboards (a slot of its own) and is written before the boards' scripts run.
 */
export function requestRetryKey(prefix: string, digest: string): string {
  return `${prefix}:idem:${digest}`;
}

/**
 * A clan leaderboard keeps every clan member of the game as player -> clan number, spread by the
 * player id's CRC-32 over this many hashes. A hash of up to 128 short fields stays in Redis's
 * compact listpack encoding (hash-max-listpack-entries): ~21 bytes per member with 12-character
 * ids, against ~56 in one big hashtable. 16,384 buckets hold ~1.5 million members before buckets
 * start to outgrow that; past it, each bucket that does costs what the single hash did.
 */
export const MEMBER_BUCKETS = 16_384;

/** The hash (player -> clan number) that holds this player's membership on a clan leaderboard. */
export function memberKey(prefix: string, internalId: number, playerId: string): string {
  return `${boardBase(prefix, internalId)}:members:${crc32(playerId) % MEMBER_BUCKETS}`;
}

/** Every membership hash of a leaderboard, to read or drop them all. */
export function allMemberKeys(prefix: string, internalId: number): string[] {
  const base = boardBase(prefix, internalId);
  return Array.from({ length: MEMBER_BUCKETS }, (_, bucket) => `${base}:members:${bucket}`);
}

/**
 * How many hashes a large board's best ranks are spread over at each level past the first (the
 * board's own best-ranks hash); includes/best-ranks.lua says it too.
 */
export const BEST_RANK_LEVELS = [1021, 16381] as const;

/** Every key that may hold best ranks of a leaderboard beside its best-ranks hash, to drop them or measure them. */
export function allBestRankKeys(prefix: string, internalId: number): string[] {
  const base = leaderboardKeys(prefix, internalId).bestRanks;
  const spread = BEST_RANK_LEVELS.flatMap((buckets, i) => Array.from({ length: buckets }, (_, bucket) => `${base}:${i + 1}:${bucket}`));
  return [`${base}:level`, ...spread];
}

/** Channel on which API processes announce key, player and leaderboard changes to each other. */
export function invalidationChannel(prefix: string): string {
  return `${prefix}:invalidate`;
}

/** The channel a board's first-entries changes are published on (docs/events.md part 6). */
export function liveChannel(prefix: string, internalId: number): string {
  return `${prefix}:live:${internalId}`;
}

/**
 * BullMQ prefix of one persistence queue shard; its hash tag keeps the queue's keys in one Cluster
 * slot, as BullMQ requires, and differs per shard so the shards land on different nodes.
 */
export function queuePrefix(prefix: string, shard: number): string {
  return `${prefix}:{q${shard}}`;
}

/**
 * zset internal id -> time of the last touch (ms): the leaderboards that may have persistence marks.
 * It spans leaderboards, so it lives in a slot of its own and is written before a board's script.
 */
export function pendingIndexKey(prefix: string): string {
  return `${prefix}:pending-boards`;
}

/**
 * The dataset identity (the id PostgreSQL was created with) on one Redis node: the tag picks a slot
 * that node serves. It tells a Redis of this database from another's, and its absence tells a
 * node that lost its data.
 */
export function datasetKey(prefix: string, tag: string): string {
  return `${datasetKeysPrefix(prefix)}:{${tag}}`;
}

/** What every dataset identity key starts with (to find or remove them all). */
export function datasetKeysPrefix(prefix: string): string {
  return `${prefix}:dataset`;
}

/** The SCAN pattern of every key under a prefix. */
export function keysUnder(prefix: string): string {
  return `${prefix}:*`;
}

/**
 * zset internal id -> time (ms) of the board's next scheduled reset. It spans leaderboards, so it
 * lives in a slot of its own; the worker's scheduler reads the due ones.
 */
export function resetScheduleKey(prefix: string): string {
  return `${prefix}:reset-schedule`;
}

/**
 * string: a requested rebuild walk, '<mode>' or '<mode>:<where it has got>' (absent: none requested);
 * the mode is 'lost' (boards whose live state is gone) or 'all' (every board merged back).
 */
export function rebuildCursorKey(prefix: string): string {
  return `${prefix}:rebuild-cursor`;
}

/** Lock names, each in the slot of the thing it guards. */
export function lockKey(prefix: string, what: string, board?: { internalId: number }): string {
  return board ? `${boardBase(prefix, board.internalId)}:lock:${what}` : `${prefix}:lock:${what}`;
}

export function rateLimitPrefix(prefix: string): string {
  return `${prefix}:rl`;
}

/** What every dashboard session's key starts with (one string key per session, its id after this). */
export function dashboardSessionPrefix(prefix: string): string {
  return `${prefix}:dashboard-session:`;
}

/**
 * hash minute of the hour -> score reports counted in that minute, for one game and one hour (ms of
 * the hour's start); the game's hash tag keeps an hour and the one before in one slot. Kept 2 hours.
 */
export function reportsPerMinuteKey(prefix: string, gameId: string, hourStartMs: number): string {
  return `${prefix}:reports:{${gameId}}:${hourStartMs}`;
}
