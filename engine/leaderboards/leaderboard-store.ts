import { storable, type Queryable } from '../db.js';
import type { SortOrder, TieBreak, TiebreakerColumn, UpdateStrategy } from '../live/types.js';
import type { ResetSchedule } from '../seasons/schedule.js';
import { bandsOf, bandsView, type RewardBand } from '../competitions/rewards.js';
import type { WindowState } from '../competitions/window.js';
import type { LeagueSettings } from '../competitions/leagues.js';

export type LeaderboardType = 'individual' | 'clan';

/**
 * When a client report is held for review instead of ranked (docs/review.md); each rule null: none.
 * above: its resulting score is better than this (by the board's order); maxGainPerSecond: it beats the
 * player's kept score by more than this times the seconds since that score was reached; outlierFactor:
 * it is better than the first entry's score by more than this times that score's absolute value.
 */
export interface ReviewRules {
  above: number | null;
  maxGainPerSecond: number | null;
  outlierFactor: number | null;
}

export interface LeaderboardSettings {
  name: string;
  type: LeaderboardType;
  sortOrder: SortOrder;
  clientReports: boolean;
  minScore: number | null;
  maxScore: number | null;
  resetSchedule: ResetSchedule | null;
  /** Archived seasons kept; older ones are dropped. */
  keepSeasons: number;
  updateStrategy: UpdateStrategy;
  /** How equal entries rank, and the columns that tell them apart first (docs/ordering.md). */
  tieBreak: TieBreak;
  tiebreakers: TiebreakerColumn[];
  /**
   * A one-off window (docs/competitions.md, part 2): reports are accepted from opensAt and until
   * closesAt (either may be open-ended) while windowSeason, the season it was set in, is current.
   */
  opensAt: Date | null;
  closesAt: Date | null;
  windowSeason: number | null;
  /** With a reset schedule: each season accepts reports for this many seconds from its start. */
  openSeconds: number | null;
  /** Players must enter a season before reporting (docs/competitions.md, part 3). */
  joinRequired: boolean;
  /** At most this many players hold a seat in one season; null: no limit. */
  maxPlayers: number | null;
  /** Reports each player may make in one season; null: no limit. */
  maxAttempts: number | null;
  /** A league's groups and tiers (docs/competitions.md, part 6); null: no groups. */
  groups: LeagueSettings | null;
  /** Non-overlapping bands of ranks and what each earns once a season has closed, at most 50 (part 4). */
  rewards: RewardBand[];
  /** Which rank the bands read: the rank on the board, or (a league's) the rank within the group. */
  rewardsBy: RewardsBy;
  /** Players find it in the client's competitions list. */
  listed: boolean;
  /** `player.overtaken` names the players a report passes within the first this many ranks; 0: none (docs/events.md part 5). */
  notifyTop: number;
  /** When client reports are held for review (docs/review.md); null: never. */
  review: ReviewRules | null;
}

export interface Leaderboard extends LeaderboardSettings {
  /** Internal id: names the Redis keys and score rows. */
  internalId: number;
  gameId: string;
  id: string;
  createdAt: Date;
  updatedAt: Date;
  /** The current season's number (the first is 1) and when it started. */
  season: number;
  seasonStartedAt: Date;
  /** When its scores last reached PostgreSQL (to the minute): a rebuild takes the most active boards first. */
  activeAt: Date;
}

interface LeaderboardRow {
  internal_id: number;
  game_id: string;
  leaderboard_id: string;
  name: string;
  type: LeaderboardType;
  sort_order: SortOrder;
  client_reports: boolean;
  min_score: number | null;
  max_score: number | null;
  created_at: Date;
  updated_at: Date;
  season: number;
  season_started_at: Date;
  reset_cron: string | null;
  reset_timezone: string | null;
  keep_seasons: number;
  update_strategy: UpdateStrategy;
  tie_break: TieBreak;
  tiebreakers: { name: string; sort_order: SortOrder }[];
  opens_at: Date | null;
  closes_at: Date | null;
  window_season: number | null;
  open_seconds: number | null;
  join_required: boolean;
  max_players: number | null;
  max_attempts: number | null;
  groups: LeagueSettings | null;
  rewards: { rank_from: number; rank_to: number; reward: object }[];
  rewards_by: RewardsBy;
  listed: boolean;
  notify_top: number;
  review: ReviewRow | null;
  active_at: Date;
}

export type RewardsBy = 'rank' | 'group_rank';

/** The review rules as the review column holds them: the API's names. */
interface ReviewRow {
  above: number | null;
  max_gain_per_second: number | null;
  outlier_factor: number | null;
}

const reviewOf = (row: ReviewRow | null): ReviewRules | null =>
  row && { above: row.above ?? null, maxGainPerSecond: row.max_gain_per_second ?? null, outlierFactor: row.outlier_factor ?? null };

const reviewRow = (review: ReviewRules | null): ReviewRow | null =>
  review && { above: review.above, max_gain_per_second: review.maxGainPerSecond, outlier_factor: review.outlierFactor };

const toLeaderboard = (row: LeaderboardRow): Leaderboard => ({
  internalId: row.internal_id,
  gameId: row.game_id,
  id: row.leaderboard_id,
  name: row.name,
  type: row.type,
  sortOrder: row.sort_order,
  clientReports: row.client_reports,
  minScore: row.min_score,
  maxScore: row.max_score,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  season: row.season,
  seasonStartedAt: row.season_started_at,
  resetSchedule: row.reset_cron !== null && row.reset_timezone !== null ? { cron: row.reset_cron, timezone: row.reset_timezone } : null,
  keepSeasons: row.keep_seasons,
  updateStrategy: row.update_strategy,
  tieBreak: row.tie_break,
  tiebreakers: row.tiebreakers.map((column) => ({ name: column.name, sortOrder: column.sort_order })),
  opensAt: row.opens_at,
  closesAt: row.closes_at,
  windowSeason: row.window_season,
  openSeconds: row.open_seconds,
  joinRequired: row.join_required,
  maxPlayers: row.max_players,
  maxAttempts: row.max_attempts,
  groups: row.groups,
  rewards: bandsOf(row.rewards),
  rewardsBy: row.rewards_by,
  listed: row.listed,
  notifyTop: row.notify_top,
  review: reviewOf(row.review),
  activeAt: row.active_at,
});

/** The settings' column values, in the order both insert and update name the columns. */
const settingValues = (settings: LeaderboardSettings) => [
  settings.name,
  settings.type,
  settings.sortOrder,
  settings.clientReports,
  settings.minScore,
  settings.maxScore,
  settings.resetSchedule?.cron ?? null,
  settings.resetSchedule?.timezone ?? null,
  settings.keepSeasons,
  settings.updateStrategy,
  settings.tieBreak,
  JSON.stringify(settings.tiebreakers.map((column) => ({ name: column.name, sort_order: column.sortOrder }))),
  settings.opensAt,
  settings.closesAt,
  settings.windowSeason,
  settings.openSeconds,
  JSON.stringify(bandsView(settings.rewards)),
  settings.listed,
  settings.joinRequired,
  settings.maxPlayers,
  settings.maxAttempts,
  settings.groups && JSON.stringify(settings.groups),
  settings.rewardsBy,
  settings.notifyTop,
  settings.review && JSON.stringify(reviewRow(settings.review)),
];

/** A board's state now, as windowState() (engine/competitions/window.ts) tells it. */
const STATE_SQL = `CASE
  WHEN open_seconds IS NOT NULL THEN
    CASE WHEN now() >= season_started_at + open_seconds * interval '1 second' THEN 'closed' ELSE 'open' END
  WHEN window_season = season AND opens_at > now() THEN 'upcoming'
  WHEN window_season = season AND closes_at <= now() THEN 'closed'
  ELSE 'open' END`;

const COLUMNS =
  'internal_id, game_id, leaderboard_id, name, type, sort_order, client_reports, min_score, max_score, created_at, updated_at, season, season_started_at, reset_cron, reset_timezone, keep_seasons, update_strategy, tie_break, tiebreakers, opens_at, closes_at, window_season, open_seconds, rewards, rewards_by, listed, join_required, max_players, max_attempts, groups, notify_top, review, active_at';

export class LeaderboardStore {
  // The pool, or (through `in`) the client of a transaction.
  constructor(private readonly pool: Queryable) {}

  /** The same store inside a transaction: every query goes through its client. */
  in(client: Queryable): LeaderboardStore {
    return new LeaderboardStore(client);
  }

  async find(gameId: string, leaderboardId: string): Promise<Leaderboard | undefined> {
    if (!storable(leaderboardId)) return undefined;
    const { rows } = await this.pool.query<LeaderboardRow>(
      `SELECT ${COLUMNS} FROM leaderboards WHERE game_id = $1 AND leaderboard_id = $2`,
      [gameId, leaderboardId],
    );
    return rows[0] && toLeaderboard(rows[0]);
  }

  async findByInternalId(internalId: number): Promise<Leaderboard | undefined> {
    const { rows } = await this.pool.query<LeaderboardRow>(`SELECT ${COLUMNS} FROM leaderboards WHERE internal_id = $1`, [internalId]);
    return rows[0] && toLeaderboard(rows[0]);
  }

  /** The leaderboards of the given internal ids that exist, by internal id. */
  async findManyByInternalId(internalIds: number[]): Promise<Map<number, Leaderboard>> {
    const { rows } = await this.pool.query<LeaderboardRow>(`SELECT ${COLUMNS} FROM leaderboards WHERE internal_id = ANY($1::bigint[])`, [
      internalIds,
    ]);
    return new Map(rows.map((row) => [row.internal_id, toLeaderboard(row)]));
  }

  /** A game's leaderboards, oldest first, a page at a time, with the game's count. */
  async pageByGame(gameId: string, offset: number, limit: number): Promise<{ total: number; leaderboards: Leaderboard[] }> {
    const [page, count] = await Promise.all([
      this.pool.query<LeaderboardRow>(`SELECT ${COLUMNS} FROM leaderboards WHERE game_id = $1 ORDER BY internal_id LIMIT $2 OFFSET $3`, [
        gameId,
        limit,
        offset,
      ]),
      this.pool.query<{ count: number }>('SELECT count(*)::int AS count FROM leaderboards WHERE game_id = $1', [gameId]),
    ]);
    return { total: count.rows[0]!.count, leaderboards: page.rows.map(toLeaderboard) };
  }

  /**
   * A game's listed leaderboards, oldest first, a page at a time, each with its state now, and the
   * count of those in `state` (all listed ones without). The state is the rule of
   * engine/competitions/window.ts written in SQL, so the filter and the count are exact.
   */
  async pageListed(
    gameId: string,
    state: WindowState | undefined,
    offset: number,
    limit: number,
  ): Promise<{ total: number; leaderboards: Leaderboard[] }> {
    const listed = `SELECT *, ${STATE_SQL} AS state FROM leaderboards WHERE game_id = $1 AND listed`;
    const [page, count] = await Promise.all([
      this.pool.query<LeaderboardRow>(
        `SELECT ${COLUMNS} FROM (${listed}) l WHERE $2::text IS NULL OR state = $2 ORDER BY internal_id LIMIT $3 OFFSET $4`,
        [gameId, state ?? null, limit, offset],
      ),
      this.pool.query<{ count: number }>(`SELECT count(*)::int AS count FROM (${listed}) l WHERE $2::text IS NULL OR state = $2`, [
        gameId,
        state ?? null,
      ]),
    ]);
    return { total: count.rows[0]!.count, leaderboards: page.rows.map(toLeaderboard) };
  }

  /** Every leaderboard of a game, oldest first. */
  async allOf(gameId: string): Promise<Leaderboard[]> {
    const { rows } = await this.pool.query<LeaderboardRow>(`SELECT ${COLUMNS} FROM leaderboards WHERE game_id = $1 ORDER BY internal_id`, [
      gameId,
    ]);
    return rows.map(toLeaderboard);
  }

  /** A game's clan leaderboards (a player's clan moves on each of them). */
  async clanBoardsOf(gameId: string): Promise<Leaderboard[]> {
    const { rows } = await this.pool.query<LeaderboardRow>(
      `SELECT ${COLUMNS} FROM leaderboards WHERE game_id = $1 AND type = 'clan' ORDER BY internal_id`,
      [gameId],
    );
    return rows.map(toLeaderboard);
  }

  /**
   * Leaderboards of every game after the given internal id, in id order: background work walks
   * them a page at a time, never loading them all at once.
   */
  async pageAfter(afterInternalId: number, limit: number, type?: LeaderboardType): Promise<Leaderboard[]> {
    const { rows } = await this.pool.query<LeaderboardRow>(
      `SELECT ${COLUMNS} FROM leaderboards WHERE internal_id > $1 AND ($3::text IS NULL OR type = $3) ORDER BY internal_id LIMIT $2`,
      [afterInternalId, limit, type ?? null],
    );
    return rows.map(toLeaderboard);
  }

  /**
   * Leaderboards of every game by recent activity, most active first, after the given one in that
   * order: the rebuild of a lost dataset walks them a page at a time.
   */
  async pageByActivity(after: { activeAt: Date; internalId: number } | undefined, limit: number): Promise<Leaderboard[]> {
    const { rows } = await this.pool.query<LeaderboardRow>(
      `SELECT ${COLUMNS} FROM leaderboards WHERE $1::timestamptz IS NULL OR (active_at, internal_id) < ($1, $2)
       ORDER BY active_at DESC, internal_id DESC LIMIT $3`,
      [after?.activeAt ?? null, after?.internalId ?? 0, limit],
    );
    return rows.map(toLeaderboard);
  }

  /** Records that the board's scores reached PostgreSQL now (at most once a minute, to spare the row). */
  async markActive(internalId: number): Promise<void> {
    await this.pool.query(
      `UPDATE leaderboards SET active_at = date_trunc('milliseconds', now())
       WHERE internal_id = $1 AND active_at < now() - interval '1 minute'`,
      [internalId],
    );
  }

  /** Every leaderboard, a page at a time. */
  async *walk(type?: LeaderboardType, pageSize = 500): AsyncGenerator<Leaderboard[]> {
    for (let after = 0; ;) {
      const page = await this.pageAfter(after, pageSize, type);
      if (page.length === 0) return;
      yield page;
      after = page[page.length - 1]!.internalId;
    }
  }

  /** Inserts the leaderboard unless the game already has one with that id (then undefined). */
  async insert(gameId: string, leaderboardId: string, settings: LeaderboardSettings): Promise<Leaderboard | undefined> {
    const { rows } = await this.pool.query<LeaderboardRow>(
      `INSERT INTO leaderboards (game_id, leaderboard_id, name, type, sort_order, client_reports, min_score, max_score,
         reset_cron, reset_timezone, keep_seasons, update_strategy, tie_break, tiebreakers, opens_at, closes_at, window_season, open_seconds, rewards, listed,
         join_required, max_players, max_attempts, groups, rewards_by, notify_top, review)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27)
       ON CONFLICT (game_id, leaderboard_id) DO NOTHING RETURNING ${COLUMNS}`,
      [gameId, leaderboardId, ...settingValues(settings)],
    );
    return rows[0] && toLeaderboard(rows[0]);
  }

  async update(internalId: number, settings: LeaderboardSettings): Promise<Leaderboard | undefined> {
    const { rows } = await this.pool.query<LeaderboardRow>(
      `UPDATE leaderboards SET name = $2, type = $3, sort_order = $4, client_reports = $5, min_score = $6,
         max_score = $7, reset_cron = $8, reset_timezone = $9, keep_seasons = $10,
         update_strategy = $11, tie_break = $12, tiebreakers = $13, opens_at = $14, closes_at = $15,
         window_season = $16, open_seconds = $17, rewards = $18, listed = $19, join_required = $20,
         max_players = $21, max_attempts = $22, groups = $23, rewards_by = $24, notify_top = $25, review = $26, updated_at = now()
       WHERE internal_id = $1 RETURNING ${COLUMNS}`,
      [internalId, ...settingValues(settings)],
    );
    return rows[0] && toLeaderboard(rows[0]);
  }

  /**
   * Records that the leaderboard moved on to `season` at `startedAt` (never moves it back). The
   * leaderboard's game and id when this moved it, undefined when it had moved on already (or is gone).
   */
  async advanceSeason(internalId: number, season: number, startedAt: Date): Promise<{ gameId: string; id: string } | undefined> {
    const { rows } = await this.pool.query<{ game_id: string; leaderboard_id: string }>(
      'UPDATE leaderboards SET season = $2, season_started_at = $3 WHERE internal_id = $1 AND season < $2 RETURNING game_id, leaderboard_id',
      [internalId, season, startedAt],
    );
    return rows[0] && { gameId: rows[0].game_id, id: rows[0].leaderboard_id };
  }

  /** False when it was gone already (deleted concurrently). */
  async delete(internalId: number): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM leaderboards WHERE internal_id = $1', [internalId]);
    return rowCount === 1;
  }
}
