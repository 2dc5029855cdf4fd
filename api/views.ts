import type { AuditEntry } from '../engine/audit/audit-store.js';
import type { Review } from '../engine/reviews/review-store.js';
import type { DecidedReview } from '../engine/reviews/review-service.js';
import type { ThirdPartyKey } from '../engine/auth/third-party-key-store.js';
import type { Clan } from '../engine/clans/clan-store.js';
import type { CreatedGame } from '../engine/games/game-service.js';
import type { Game } from '../engine/games/game-store.js';
import type { Delivery, Webhook } from '../engine/events/webhook-store.js';
import type { Leaderboard } from '../engine/leaderboards/leaderboard-store.js';
import type { RankHistory } from '../engine/history/rank-history.js';
import { windowOf, windowState } from '../engine/competitions/window.js';
import { bandsView } from '../engine/competitions/rewards.js';
import type { ClaimedReward } from '../engine/competitions/claim-service.js';
import type { EntryResult } from '../engine/competitions/entries.js';
import type { GroupSummary, LeagueGroup } from '../engine/competitions/league-reads.js';
import type { Seat } from '../engine/live/rankings.js';
import type { TieFields } from '../engine/leaderboards/ties.js';
import type { PlayerDetails, PlayerSummary } from '../engine/players/player-lookup.js';
import type { PlayerProfile } from '../engine/players/player-service.js';
import type { ClanEntry, ClanRecord, ListRanks, MemberEntry, Page, PlayerEntry } from '../engine/reads/leaderboard-reader.js';
import type { PlayerRecord, ReportResult } from '../engine/scores/score-service.js';
import { nextResetAt } from '../engine/seasons/schedule.js';
import type { SeasonSummary } from '../engine/seasons/season-service.js';
import type * as R from './routes/responses.js';
import type { Value } from './routes/schemas.js';
import type { Row } from './routes/web/rows.js';

/**
 * The JSON bodies of the API, built from engine objects in one place. Each view's type is its
 * schema's in api/routes/responses.ts, so a view and the OpenAPI document cannot disagree on a field.
 */

/** A player's avatar, at the default size or the one given. */
export function avatarUrl(base: string, playerId: string, size?: number): string {
  const url = `${base}/api/v1/users/${encodeURIComponent(playerId)}/avatar.png`;
  return size === undefined ? url : `${url}?size=${size}`;
}

export function gameView(game: Game): Value<typeof R.Game> {
  return {
    game_id: game.id,
    name: game.name,
    publishable_key: game.publishableKey,
    created_at: game.createdAt.toISOString(),
  };
}

export function createdGameView(game: CreatedGame): Value<typeof R.GameCreated> {
  return { game_id: game.id, name: game.name, publishable_key: game.publishableKey, secret_key: game.secretKey };
}

export function leaderboardView(leaderboard: Leaderboard): Value<typeof R.Leaderboard> {
  const window = windowOf(leaderboard, leaderboard.season, leaderboard.seasonStartedAt);
  return {
    leaderboard_id: leaderboard.id,
    name: leaderboard.name,
    type: leaderboard.type,
    sort_order: leaderboard.sortOrder,
    client_reports: leaderboard.clientReports,
    min_score: leaderboard.minScore,
    max_score: leaderboard.maxScore,
    created_at: leaderboard.createdAt.toISOString(),
    updated_at: leaderboard.updatedAt.toISOString(),
    season: leaderboard.season,
    season_started_at: leaderboard.seasonStartedAt.toISOString(),
    next_reset_at: leaderboard.resetSchedule ? (nextResetAt(leaderboard.resetSchedule, new Date())?.toISOString() ?? null) : null,
    reset_schedule: leaderboard.resetSchedule,
    keep_seasons: leaderboard.keepSeasons,
    update_strategy: leaderboard.updateStrategy,
    tie_break: leaderboard.tieBreak,
    tiebreakers: leaderboard.tiebreakers.map((column) => ({ name: column.name, sort_order: column.sortOrder })),
    open_seconds: leaderboard.openSeconds,
    rewards: bandsView(leaderboard.rewards),
    // Group ranks need a league's groups, which no board has yet.
    rewards_by: leaderboard.rewardsBy,
    listed: leaderboard.listed,
    join_required: leaderboard.joinRequired,
    groups: leaderboard.groups,
    max_players: leaderboard.maxPlayers,
    max_attempts: leaderboard.maxAttempts,
    notify_top: leaderboard.notifyTop,
    review: leaderboard.review && {
      above: leaderboard.review.above,
      max_gain_per_second: leaderboard.review.maxGainPerSecond,
      outlier_factor: leaderboard.review.outlierFactor,
    },
    opens_at: window?.opensAt?.toISOString() ?? null,
    closes_at: window?.closesAt?.toISOString() ?? null,
    state: windowState(window, Date.now()),
  };
}

/**
 * When an entry was reached, on 'earliest' boards (the engine leaves it out elsewhere; a field left
 * undefined is not in the JSON, and keeps every view of a kind one object shape).
 */
const achievedAt = (entry: TieFields) => (entry.achievedAt === undefined ? undefined : new Date(entry.achievedAt).toISOString());

export function seasonListView(
  leaderboard: Leaderboard,
  list: { currentSeason: number; seasons: SeasonSummary[] },
  limit: number,
  offset: number,
): Value<typeof R.SeasonList> {
  return {
    leaderboard_id: leaderboard.id,
    current_season: list.currentSeason,
    seasons: list.seasons.slice(offset, offset + limit).map((season) => ({
      season: season.season,
      started_at: season.startedAt.toISOString(),
      ended_at: season.endedAt?.toISOString() ?? null,
      total: season.total,
    })),
    total: list.seasons.length,
    limit,
    offset,
  };
}

export function reportView(playerId: string, result: ReportResult): Value<typeof R.ReportResult> {
  return {
    leaderboard_id: result.leaderboardId,
    player_id: playerId,
    submitted_score: result.submittedScore,
    best_score: result.bestScore,
    improved: result.improved,
    rank: result.rank,
    total: result.total,
    season: result.season,
    tiebreakers: result.tiebreakers,
    achieved_at: achievedAt(result),
    attempts_left: result.attemptsLeft,
  };
}

export function batchView(playerId: string, results: ReportResult[]): Value<typeof R.BatchResult> {
  return {
    player_id: playerId,
    results: results.map((result) => ({
      leaderboard_id: result.leaderboardId,
      submitted_score: result.submittedScore,
      best_score: result.bestScore,
      improved: result.improved,
      rank: result.rank,
      season: result.season,
      tiebreakers: result.tiebreakers,
      achieved_at: achievedAt(result),
      attempts_left: result.attemptsLeft,
    })),
  };
}

// The views below build each object in one literal: they run once per listed entry, and in V8 an
// object spread costs tens of times what the literal does.

export function playerRecordView(baseUrl: string, record: PlayerRecord): Value<typeof R.PlayerRecord> {
  const { player } = record;
  return {
    leaderboard_id: record.leaderboard.id,
    player_id: player.id,
    display_name: player.displayName,
    avatar_url: avatarUrl(baseUrl, player.id),
    clan_id: player.clanId,
    score: record.score,
    rank: record.rank,
    total: record.total,
    metadata: record.metadata,
    tiebreakers: record.tiebreakers,
    achieved_at: achievedAt(record),
    // Undefined (left out of the JSON) while the season read is open.
    reward: record.reward?.reward,
    reward_claimed_at: record.reward && (record.reward.rewardClaimedAt?.toISOString() ?? null),
    tier: record.place?.tier,
    group_id: record.place?.groupId,
    group_rank: record.place?.groupRank,
    best_rank: record.bestRank?.rank ?? null,
    best_rank_at: record.bestRank?.at.toISOString() ?? null,
  };
}

export function rankHistoryView(history: RankHistory): Value<typeof R.RankHistory> {
  return {
    leaderboard_id: history.leaderboard.id,
    player_id: history.playerId,
    best_rank: history.bestRank?.rank ?? null,
    best_rank_at: history.bestRank?.at.toISOString() ?? null,
    points: history.points.map((point) => ({ date: point.day, season: point.season, rank: point.rank, score: point.score })),
  };
}

export function claimedRewardView(claim: ClaimedReward): Value<typeof R.ClaimedReward> {
  return {
    leaderboard_id: claim.leaderboardId,
    season: claim.season,
    player_id: claim.playerId,
    rank: claim.rank,
    reward: claim.reward,
    claimed_at: claim.claimedAt.toISOString(),
  };
}

export function playerEntryView(baseUrl: string, entry: PlayerEntry): Value<typeof R.PlayerEntry> {
  const { player } = entry;
  return {
    player_id: player.id,
    display_name: player.displayName,
    avatar_url: avatarUrl(baseUrl, player.id),
    clan_id: player.clanId,
    score: entry.score,
    rank: entry.rank,
    metadata: entry.metadata,
    tiebreakers: entry.tiebreakers,
    achieved_at: achievedAt(entry),
    rank_change: entry.rankChange,
  };
}

export function entryView(baseUrl: string, entry: PlayerEntry | ClanEntry): Value<typeof R.PlayerEntry> | Value<typeof R.ClanEntry> {
  if ('clan' in entry) return clanEntryView(entry.clan, entry.score, entry.rank);
  return playerEntryView(baseUrl, entry);
}

export function clanEntryView(clan: Clan, score: number, rank: number): Value<typeof R.ClanEntry> {
  return { clan_id: clan.id, name: clan.name, score, rank, member_count: clan.memberCount };
}

export function memberEntryView(baseUrl: string, entry: MemberEntry): Value<typeof R.MemberEntry> {
  const { player } = entry;
  return {
    player_id: player.id,
    display_name: player.displayName,
    avatar_url: avatarUrl(baseUrl, player.id),
    score: entry.score,
    rank: entry.rank,
    clan_rank: entry.clanRank,
    metadata: entry.metadata,
    tiebreakers: entry.tiebreakers,
    achieved_at: achievedAt(entry),
  };
}

export function pageView(
  baseUrl: string,
  page: Page<PlayerEntry | ClanEntry>,
  limit: number,
  offset: number,
): Value<typeof R.LeaderboardPage> {
  return {
    leaderboard_id: page.leaderboard.id,
    name: page.leaderboard.name,
    type: page.leaderboard.type,
    sort_order: page.leaderboard.sortOrder,
    view: page.view,
    total: page.total,
    limit,
    offset,
    entries: page.entries.map((entry) => entryView(baseUrl, entry)),
  };
}

export function aroundView(baseUrl: string, page: Page<PlayerEntry>): Value<typeof R.AroundMe> {
  return {
    leaderboard_id: page.leaderboard.id,
    total: page.total,
    entries: page.entries.map((entry) => playerEntryView(baseUrl, entry)),
  };
}

export function listRanksView(baseUrl: string, ranks: ListRanks): Value<typeof R.ListRanks> {
  return {
    leaderboard_id: ranks.leaderboard.id,
    season: ranks.season,
    total: ranks.total,
    entries: ranks.entries.map((entry) => ({
      player_id: entry.player.id,
      display_name: entry.player.displayName,
      avatar_url: avatarUrl(baseUrl, entry.player.id),
      clan_id: entry.player.clanId,
      score: entry.score,
      rank: entry.rank,
      list_rank: entry.listRank,
      metadata: entry.metadata,
      tiebreakers: entry.tiebreakers,
      achieved_at: achievedAt(entry),
      rank_change: entry.rankChange,
    })),
    not_found: ranks.notFound,
  };
}

export function clanRecordView(record: ClanRecord): Value<typeof R.ClanRecord> {
  const { clan } = record;
  return {
    leaderboard_id: record.leaderboard.id,
    clan_id: clan.id,
    name: clan.name,
    score: record.score,
    rank: record.rank,
    member_count: clan.memberCount,
    total: record.total,
  };
}

export interface ClanMembersPage {
  leaderboard: Leaderboard;
  clan: Clan;
  total: number;
  entries: MemberEntry[];
}

export function clanMembersView(baseUrl: string, members: ClanMembersPage, limit: number, offset: number): Value<typeof R.ClanMembers> {
  return {
    leaderboard_id: members.leaderboard.id,
    clan_id: members.clan.id,
    total: members.total,
    limit,
    offset,
    entries: members.entries.map((entry) => memberEntryView(baseUrl, entry)),
  };
}

export function playerView(player: PlayerProfile, aliases: Record<string, string>): Value<typeof R.Player> {
  return { player_id: player.id, display_name: player.displayName, clan_id: player.clanId, aliases };
}

export function playerSummaryView(player: PlayerSummary): Value<typeof R.PlayerSummary> {
  return {
    player_id: player.id,
    display_name: player.displayName,
    clan_id: player.clanId,
    aliases: player.aliases,
    banned: player.bannedAt !== null,
    ban_kind: player.banKind,
    created_at: player.createdAt.toISOString(),
  };
}

/** Support's view of one player (the lookup, and the answer of a ban or an unban): the summary, the ban and the scores. */
export function playerDetailsView(player: PlayerDetails): Value<typeof R.PlayerDetails> {
  return {
    ...playerSummaryView(player),
    banned_at: player.bannedAt?.toISOString() ?? null,
    ban_reason: player.banReason,
    scores: player.scores.map((held) => ({ leaderboard_id: held.leaderboardId, score: held.score, rank: held.rank })),
  };
}

export function playerSearchView(
  found: { total: number; totalExact: boolean; players: PlayerSummary[] },
  limit: number,
  offset: number,
): Value<typeof R.PlayerSearch> {
  return { players: found.players.map(playerSummaryView), total: found.total, total_exact: found.totalExact, limit, offset };
}

export function clanView(clan: Clan): Value<typeof R.Clan> {
  return {
    clan_id: clan.id,
    name: clan.name,
    member_count: clan.memberCount,
    created_at: clan.createdAt.toISOString(),
    updated_at: clan.updatedAt.toISOString(),
  };
}

export function thirdPartyKeyView(key: ThirdPartyKey): Value<typeof R.ThirdPartyKey> {
  return {
    key_id: key.id,
    name: key.name,
    created_at: key.createdAt.toISOString(),
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}

export function webhookView(webhook: Webhook): Value<typeof R.Webhook> {
  return {
    webhook_id: webhook.id,
    url: webhook.url,
    events: webhook.events,
    leaderboard_ids: webhook.leaderboardIds,
    enabled: webhook.enabled,
    created_at: webhook.createdAt.toISOString(),
  };
}

export function deliveryView(delivery: Delivery): Value<typeof R.Delivery> {
  return {
    delivery_id: delivery.id,
    event_id: delivery.eventId,
    type: delivery.type,
    attempt: delivery.attempt,
    status: delivery.status,
    response_status: delivery.responseStatus,
    duration_ms: delivery.durationMs,
    error: delivery.error,
    at: delivery.at.toISOString(),
  };
}

/** One row of the web page's entries: the same row the page renders, as JSON for its script. */
export function webEntryView(baseUrl: string, row: Row): Value<typeof R.WebPlayerEntry> | Value<typeof R.WebClanEntry> {
  if (row.memberCount !== undefined) {
    return { clan_id: row.id, name: row.name, member_count: row.memberCount, score: row.score, rank: row.rank, is_viewer: row.viewer };
  }
  return {
    player_id: row.id,
    display_name: row.name,
    avatar_url: avatarUrl(baseUrl, row.id),
    clan_id: row.clanId ?? null,
    score: row.score,
    rank: row.rank,
    is_viewer: row.viewer,
    tiebreakers: row.tiebreakers,
    rank_change: row.rankChange ?? null,
  };
}

export function auditLogView(page: { entries: AuditEntry[]; nextBefore: number | null }): Value<typeof R.AuditLog> {
  return {
    entries: page.entries.map((entry) => ({
      id: entry.id,
      at: entry.at.toISOString(),
      actor: entry.actor,
      action: entry.action,
      target: entry.target,
      details: entry.details,
    })),
    next_before: page.nextBefore,
  };
}

/** One board of the client's competitions list, with the caller's part in it. */
export function competitionView(board: Leaderboard, seat: Seat): Value<typeof R.CompetitionList>['leaderboards'][number] {
  const window = windowOf(board, board.season, board.seasonStartedAt);
  return {
    leaderboard_id: board.id,
    name: board.name,
    type: board.type,
    state: windowState(window, Date.now()),
    opens_at: window?.opensAt?.toISOString() ?? null,
    closes_at: window?.closesAt?.toISOString() ?? null,
    season: board.season,
    season_started_at: board.seasonStartedAt.toISOString(),
    players: seat.players,
    max_players: board.maxPlayers,
    entered: seat.entered,
    attempts_left: board.maxAttempts === null ? null : Math.max(board.maxAttempts - seat.attemptsUsed, 0),
  };
}

export function seasonEntryView(entry: EntryResult): Value<typeof R.Entry> {
  return {
    leaderboard_id: entry.leaderboardId,
    season: entry.season,
    player_id: entry.playerId,
    entered: entry.entered,
    players: entry.players,
    max_players: entry.maxPlayers,
  };
}

export function leagueGroupView(baseUrl: string, group: LeagueGroup): Value<typeof R.LeagueGroup> {
  return {
    leaderboard_id: group.leaderboard.id,
    season: group.season,
    tier: group.tier,
    group_id: group.groupId,
    total: group.total,
    entries: group.entries.map((entry) => {
      // A group's rank is within the group: no snapshot tells how it moved.
      const { rank_change: _, ...fields } = playerEntryView(baseUrl, { ...entry, rankChange: null });
      return { ...fields, zone: entry.zone, moved_to: entry.movedTo };
    }),
  };
}

export function groupListView(
  page: { leaderboard: Leaderboard; season: number; total: number; groups: GroupSummary[] },
  limit: number,
  offset: number,
): Value<typeof R.GroupList> {
  return {
    leaderboard_id: page.leaderboard.id,
    season: page.season,
    groups: page.groups.map((group) => ({ group_id: group.groupId, tier: group.tier, players: group.players })),
    total: page.total,
    limit,
    offset,
  };
}

/** A held score in the review queue (docs/review.md). */
export function reviewView(review: Review): Value<typeof R.Review> {
  return {
    review_id: review.reviewId,
    leaderboard_id: review.leaderboardId,
    season: review.season,
    player_id: review.playerId,
    display_name: review.displayName,
    score: review.score,
    previous_score: review.previousScore,
    metadata: review.metadata as Value<typeof R.Review>['metadata'],
    reason: review.reason,
    held_at: review.heldAt.toISOString(),
  };
}

export function reviewDecisionView(review: DecidedReview): Value<typeof R.ReviewDecision> {
  return {
    review_id: review.reviewId,
    leaderboard_id: review.leaderboardId,
    season: review.season,
    player_id: review.playerId,
    decision: review.decision,
    decided_at: review.decidedAt.toISOString(),
  };
}
