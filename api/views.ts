import type { Game } from '../engine/games/game-store.js';
import type { Leaderboard } from '../engine/leaderboards/leaderboard-store.js';
import type { PlayerProfile } from '../engine/players/player-service.js';
import type { PlayerRecord, ReportResult } from '../engine/ranking/score-service.js';
import type { Clan } from '../engine/clans/clan-store.js';
import type { ClanEntry, ClanRecord, MemberEntry, Page, PlayerEntry } from '../engine/ranking/leaderboard-reader.js';

/** The JSON shapes of the API (CONTRACT section 4), built from engine objects in one place. */
export function avatarUrl(baseUrl: string, playerId: string): string {
  return `${baseUrl}/api/v1/users/${encodeURIComponent(playerId)}/avatar.png`;
}

export function gameView(game: Game) {
  return {
    game_id: game.id,
    name: game.name,
    publishable_key: game.publishableKey,
    created_at: game.createdAt.toISOString(),
  };
}

export function leaderboardView(leaderboard: Leaderboard) {
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
  };
}

export function reportView(playerId: string, result: ReportResult) {
  return {
    leaderboard_id: result.leaderboardId,
    player_id: playerId,
    submitted_score: result.submittedScore,
    best_score: result.bestScore,
    improved: result.improved,
    rank: result.rank,
    total: result.total,
  };
}

// The views below build each object in one literal: they run once per listed entry, and in V8 an
// object spread costs tens of times what the literal does.

export function playerRecordView(baseUrl: string, record: PlayerRecord) {
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
  };
}

export function entryView(baseUrl: string, entry: PlayerEntry | ClanEntry) {
  if ('clan' in entry) return clanEntryView(entry.clan, entry.score, entry.rank);
  const { player } = entry;
  return {
    player_id: player.id,
    display_name: player.displayName,
    avatar_url: avatarUrl(baseUrl, player.id),
    clan_id: player.clanId,
    score: entry.score,
    rank: entry.rank,
  };
}

export function clanEntryView(clan: Clan, score: number, rank: number | null) {
  return { clan_id: clan.id, name: clan.name, score, rank, member_count: clan.memberCount };
}

export function memberEntryView(baseUrl: string, entry: MemberEntry) {
  const { player } = entry;
  return {
    player_id: player.id,
    display_name: player.displayName,
    avatar_url: avatarUrl(baseUrl, player.id),
    score: entry.score,
    rank: entry.rank,
    clan_rank: entry.clanRank,
  };
}

export function pageView(baseUrl: string, page: Page<PlayerEntry | ClanEntry>, limit: number, offset: number) {
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

export function clanRecordView(record: ClanRecord) {
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

export function playerView(player: PlayerProfile, aliases: Record<string, string>) {
  return { player_id: player.id, display_name: player.displayName, clan_id: player.clanId, aliases };
}

export function clanView(clan: Clan) {
  return {
    clan_id: clan.id,
    name: clan.name,
    member_count: clan.memberCount,
    created_at: clan.createdAt.toISOString(),
    updated_at: clan.updatedAt.toISOString(),
  };
}
