import { NotFoundError, ValidationError } from '../errors.js';
import type { Leaderboard } from '../leaderboards/leaderboard-store.js';
import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import { tieFieldsOf, type TieFields } from '../leaderboards/ties.js';
import type { LiveGroup, Rankings } from '../live/rankings.js';
import { parseMetadata, type AskedSeason } from '../live/types.js';
import type { PlayerProfile, PlayerService } from '../players/player-service.js';
import { leagueZones, tierAfter, type LeagueSettings, type Zone } from './leagues.js';
import { windowOf, windowState } from './window.js';
import type { ArchivedGroup, SeasonArchiveStore } from '../seasons/season-archive-store.js';

export interface GroupEntry extends TieFields {
  player: PlayerProfile;
  score: number;
  /** Within the group, by the board's tie rule. */
  rank: number;
  metadata: object | null;
  /** While the season runs: where its end would move the player, as the group stands. */
  zone?: Zone;
  /** Once the season has ended (closed or archived): the tier its end moved the player to. */
  movedTo?: string;
}

export interface LeagueGroup {
  leaderboard: Leaderboard;
  season: number;
  tier: string;
  groupId: string;
  /** The group's ranked members (banned ones and those without a score left out). */
  total: number;
  entries: GroupEntry[];
}

export interface GroupSummary {
  groupId: string;
  tier: string;
  /** Players in the group, banned ones included. */
  players: number;
}

/** A player's place in their league: on records of league boards. */
export interface GroupPlace {
  tier: string;
  groupId: string;
  /** Within the group; null without a score. */
  groupRank: number | null;
}

/**
 * League reads (docs/competitions.md, part 6): a group ranked within itself, with each member's zone
 * while the season runs and the tier they moved to once it ended, and the pages of a league's
 * groups; the current season's from Redis, archived ones from their archive.
 */
export class LeagueReads {
  constructor(
    private readonly deps: {
      leaderboards: LeaderboardService;
      players: PlayerService;
      rankings: Rankings;
      archives: SeasonArchiveStore;
    },
  ) {}

  /** The group the player is in that season (default: this one); 404 record_not_found when in none. */
  async groupOf(gameId: string, leaderboardId: string, playerId: string, season?: AskedSeason): Promise<LeagueGroup> {
    const { board, league } = await this.league(gameId, leaderboardId);
    const group = await this.read(board, league, season, { playerId });
    if (!group) {
      throw new NotFoundError('record_not_found', `Player '${playerId}' is in no group of leaderboard '${leaderboardId}' in this season.`);
    }
    return group;
  }

  /** One group of that season (default: this one), by its id; 404 group_not_found when there is none. */
  async group(gameId: string, leaderboardId: string, groupId: string, season?: AskedSeason): Promise<LeagueGroup> {
    const { board, league } = await this.league(gameId, leaderboardId);
    const group = /^[1-9][0-9]{0,8}$/.test(groupId) ? await this.read(board, league, season, { group: groupId }) : undefined;
    if (!group) throw new NotFoundError('group_not_found', `Leaderboard '${leaderboardId}' has no group '${groupId}' in this season.`);
    return group;
  }

  private async read(
    board: Leaderboard,
    league: LeagueSettings,
    season: AskedSeason,
    by: { playerId: string } | { group: string },
  ): Promise<LeagueGroup | undefined> {
    if (season === undefined || season === board.season) {
      const group = await this.deps.rankings.group(board, by);
      return group && this.view(board, league, group);
    }
    if (season > board.season) return undefined;
    const archived = await this.deps.archives.group(board.internalId, season, 'group' in by ? { group: Number(by.group) } : by);
    return archived && this.archivedView(board, league, season, archived);
  }

  /** A page of this season's groups, oldest first, of one tier (by name) or all. */
  async groups(
    gameId: string,
    leaderboardId: string,
    tier: string | undefined,
    offset: number,
    limit: number,
    season?: AskedSeason,
  ): Promise<{ leaderboard: Leaderboard; season: number; total: number; groups: GroupSummary[] }> {
    const { board, league } = await this.league(gameId, leaderboardId);
    const tierIndex = tier === undefined ? undefined : league.tiers.indexOf(tier);
    if (tierIndex === -1) {
      throw new ValidationError(`Leaderboard '${leaderboardId}' has no tier '${tier}'.`, [
        { field: 'tier', message: 'must be one of the tiers' },
      ]);
    }
    if (season !== undefined && season !== board.season) {
      const archived =
        season < board.season ? await this.deps.archives.groups(board.internalId, season, tierIndex, offset, limit) : undefined;
      return {
        leaderboard: board,
        season,
        total: archived?.total ?? 0,
        groups: (archived?.groups ?? []).map((g) => ({ groupId: String(g.group), tier: tierName(league, g.tier), players: g.members })),
      };
    }
    const page = await this.deps.rankings.groups(board, tierIndex, offset, limit);
    return {
      leaderboard: board,
      season: board.season,
      total: page.total,
      groups: page.groups.map((g) => ({ groupId: g.group, tier: tierName(league, g.tier), players: g.members })),
    };
  }

  /**
   * The player's tier, group and rank within it in `season` (this one, or an archived one), on a
   * league board; undefined off leagues or outside any group.
   */
  async placeOf(board: Leaderboard, playerId: string, season = board.season): Promise<GroupPlace | undefined> {
    if (!board.groups) return undefined;
    if (season !== board.season) {
      const archived = season < board.season ? await this.deps.archives.group(board.internalId, season, { playerId }) : undefined;
      const member = archived?.members.find((m) => m.id === playerId);
      if (!archived || !member) return undefined;
      return { tier: tierName(board.groups, archived.tier), groupId: String(archived.group), groupRank: member.groupRank };
    }
    const group = await this.deps.rankings.group(board, { playerId });
    if (!group) return undefined;
    return {
      tier: tierName(board.groups, group.tier),
      groupId: group.group,
      groupRank: group.entries.find((entry) => entry.id === playerId)?.rank ?? null,
    };
  }

  private async league(gameId: string, leaderboardId: string): Promise<{ board: Leaderboard; league: LeagueSettings }> {
    const board = await this.deps.leaderboards.get(gameId, leaderboardId);
    if (!board.groups) throw new NotFoundError('group_not_found', `Leaderboard '${leaderboardId}' has no groups.`);
    return { board, league: board.groups };
  }

  private async view(board: Leaderboard, league: LeagueSettings, group: LiveGroup): Promise<LeagueGroup> {
    // A closed season is final: its zones are the moves its end makes.
    const ended = windowState(windowOf(board, board.season, board.seasonStartedAt), Date.now()) === 'closed';
    const zones = leagueZones(
      { ranked: group.entries.map((entry) => ({ playerId: entry.id, rank: entry.rank })), unscored: group.unscored },
      league,
      group.tier,
    );
    const profiles = await this.deps.players.getMany(
      board.gameId,
      group.entries.map((entry) => entry.id),
    );
    const entries: GroupEntry[] = [];
    for (const entry of group.entries) {
      const player = profiles.get(entry.id);
      if (!player) continue;
      entries.push({
        player,
        score: Number(entry.score),
        rank: entry.rank,
        metadata: parseMetadata(entry.metadata),
        ...tieFieldsOf(board, entry),
        ...zoneOrMove(league, group.tier, zones.get(entry.id) ?? 'stay', ended),
      });
    }
    return {
      leaderboard: board,
      season: board.season,
      tier: tierName(league, group.tier),
      groupId: group.group,
      total: entries.length,
      entries,
    };
  }

  private async archivedView(board: Leaderboard, league: LeagueSettings, season: number, group: ArchivedGroup): Promise<LeagueGroup> {
    const profiles = await this.deps.players.getMany(
      board.gameId,
      group.members.map((member) => member.id),
    );
    const entries: GroupEntry[] = [];
    for (const member of group.members) {
      const player = profiles.get(member.id);
      if (!player) continue;
      entries.push({
        player,
        score: member.score,
        rank: member.groupRank,
        metadata: parseMetadata(member.metadata),
        ...tieFieldsOf(board, member),
        movedTo: tierName(league, member.movedTo),
      });
    }
    return { leaderboard: board, season, tier: tierName(league, group.tier), groupId: String(group.group), total: entries.length, entries };
  }
}

/** A member's zone while the season runs, or the tier its end moves them to once it has ended. */
function zoneOrMove(league: LeagueSettings, tier: number, zone: Zone, ended: boolean): Pick<GroupEntry, 'zone' | 'movedTo'> {
  if (!ended) return { zone };
  return { movedTo: tierName(league, tierAfter(tier, zone)) };
}

/** A tier's name; a tier beyond the names (they may only grow at the top) reads as the highest. */
function tierName(league: LeagueSettings, tier: number): string {
  return league.tiers[Math.min(tier, league.tiers.length - 1)]!;
}
