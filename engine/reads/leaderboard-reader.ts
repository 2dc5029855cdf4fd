import { NotFoundError, ValidationError } from '../errors.js';
import type { ClanService } from '../clans/clan-service.js';
import type { Clan } from '../clans/clan-store.js';
import type { Leaderboard } from '../leaderboards/leaderboard-store.js';
import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import type { PlayerProfile, PlayerService } from '../players/player-service.js';
import { parseMetadata, type AskedSeason, type Standings } from '../live/types.js';
import type { SeasonEntry, SeasonReads } from './season-reads.js';

export interface PlayerEntry {
  player: PlayerProfile;
  score: number;
  rank: number;
  metadata: object | null;
}

export interface ClanEntry {
  clan: Clan;
  score: number;
  rank: number;
}

export interface Page<Entry> {
  leaderboard: Leaderboard;
  view: Standings;
  total: number;
  entries: Entry[];
}

export interface ClanRecord {
  leaderboard: Leaderboard;
  clan: Clan;
  score: number;
  rank: number | null;
  total: number;
}

export interface MemberEntry {
  player: PlayerProfile;
  score: number | null;
  rank: number | null;
  clanRank: number | null;
  metadata: object | null;
}

/**
 * Profiles of entries this near the top of a board stay in the player cache: the top is what most
 * reads show (the web page's first screen, bots paging from the start). Deeper pages are scans.
 */
const RETAINED_TOP = 1000;

/**
 * Reads rankings with their metadata: one script call for the ranks, one cached lookup (at most one
 * PostgreSQL query) for names, whatever the offset or the size of the leaderboard.
 */
export class LeaderboardReader {
  constructor(
    private readonly deps: {
      leaderboards: LeaderboardService;
      players: PlayerService;
      clans: ClanService;
      seasons: SeasonReads;
    },
  ) {}

  async page(
    gameId: string,
    leaderboardId: string,
    view: Standings,
    offset: number,
    limit: number,
    season?: AskedSeason,
  ): Promise<Page<PlayerEntry | ClanEntry>> {
    const leaderboard = await this.deps.leaderboards.get(gameId, leaderboardId);
    if (view === 'clans' && leaderboard.type !== 'clan') {
      throw new ValidationError(`Leaderboard '${leaderboardId}' is not a clan leaderboard.`, undefined, 'not_a_clan_leaderboard');
    }
    const { total, entries } = await this.deps.seasons.page(leaderboard, view, offset, limit, season);
    const ids = entries.map((entry) => entry.id);
    if (view === 'clans') {
      const clans = await this.deps.clans.getMany(gameId, ids);
      const rows = entries.flatMap((e) => {
        const clan = clans.get(e.id);
        return clan ? [{ clan: asArchivedClan(clan, e), score: Number(e.score), rank: e.rank }] : [];
      });
      return { leaderboard, view, total, entries: rows };
    }
    const nearTop = offset < RETAINED_TOP;
    const profiles = await this.deps.players.getMany(gameId, ids, () => nearTop && season === undefined);
    const rows = entries.flatMap((e) => {
      const player = profiles.get(e.id);
      return player
        ? [{ player: asArchivedPlayer(player, e), score: Number(e.score), rank: e.rank, metadata: parseMetadata(e.metadata) }]
        : [];
    });
    return { leaderboard, view, total, entries: rows };
  }

  async around(gameId: string, leaderboardId: string, playerId: string, range: number, season?: AskedSeason): Promise<Page<PlayerEntry>> {
    const leaderboard = await this.deps.leaderboards.get(gameId, leaderboardId);
    const found = await this.deps.seasons.around(leaderboard, playerId, range, season);
    if (!found) {
      throw new NotFoundError('record_not_found', `Player '${playerId}' has no score on leaderboard '${leaderboardId}'.`);
    }
    // The viewer is kept, and their neighbours when they are near the top.
    const nearTop = (found.entries[0]?.rank ?? Infinity) <= RETAINED_TOP;
    const profiles = await this.deps.players.getMany(
      gameId,
      found.entries.map((e) => e.id),
      (id) => nearTop || id === playerId,
    );
    const entries = found.entries.flatMap((e) => {
      const player = profiles.get(e.id);
      return player
        ? [{ player: asArchivedPlayer(player, e), score: Number(e.score), rank: e.rank, metadata: parseMetadata(e.metadata) }]
        : [];
    });
    return { leaderboard, view: 'players', total: found.total, entries };
  }

  async clanRecord(gameId: string, leaderboardId: string, clanId: string, season?: AskedSeason): Promise<ClanRecord> {
    const leaderboard = await this.clanLeaderboard(gameId, leaderboardId);
    const clan = await this.deps.clans.get(gameId, clanId);
    const { total, entries, archived } = await this.deps.seasons.scoresOf(leaderboard, 'clans', [clanId], season);
    const entry = entries[0];
    // In an archive, a clan that scored nothing that season had no scoring member.
    const asOfSeason = archived ? { ...clan, memberCount: entry?.archivedMemberCount ?? 0 } : clan;
    return { leaderboard, clan: asOfSeason, score: entry ? Number(entry.score) : 0, rank: entry?.rank ?? null, total };
  }

  /** Members best first with global rank and rank within the clan; members without a score last. */
  async clanMembers(
    gameId: string,
    leaderboardId: string,
    clanId: string,
    offset: number,
    limit: number,
    season?: AskedSeason,
  ): Promise<{ leaderboard: Leaderboard; clan: Clan; total: number; entries: MemberEntry[] }> {
    const leaderboard = await this.deps.leaderboards.get(gameId, leaderboardId);
    const clan = await this.deps.clans.get(gameId, clanId);
    if (season !== undefined) {
      // An archived season lists the members who scored for the clan that season, as they ranked.
      const archived = await this.deps.seasons.archivedClanMembers(leaderboard, clanId, season);
      if (archived) {
        const pageMembers = archived.slice(offset, offset + limit);
        const profiles = await this.deps.players.getMany(
          gameId,
          pageMembers.map((m) => m.id),
        );
        const entries = pageMembers.flatMap((member) => {
          const player = profiles.get(member.id);
          return player
            ? [
                {
                  player: asArchivedPlayer(player, member),
                  score: Number(member.score),
                  rank: member.rank,
                  clanRank: member.clanRank,
                  metadata: parseMetadata(member.metadata),
                },
              ]
            : [];
        });
        return { leaderboard, clan, total: archived.length, entries };
      }
    }
    const memberIds = await this.deps.clans.memberIds(gameId, clanId);
    const { entries: ranked } = await this.deps.seasons.scoresOf(leaderboard, 'players', memberIds, season);
    const better = leaderboard.sortOrder === 'asc' ? (a: number, b: number) => a - b : (a: number, b: number) => b - a;
    const members = memberIds
      .map((id, i) => ({ id, entry: ranked[i] }))
      .sort((a, b) => {
        if (!a.entry || !b.entry) return a.entry ? -1 : b.entry ? 1 : a.id < b.id ? -1 : 1;
        return a.entry.rank - b.entry.rank || (a.id < b.id ? -1 : 1);
      });
    // Competition rank within the clan: 1 + members with a strictly better score.
    const clanRanks: (number | null)[] = [];
    members.forEach((member, i) => {
      if (!member.entry) return clanRanks.push(null);
      const previous = members[i - 1]?.entry;
      const tied = previous && better(Number(previous.score), Number(member.entry.score)) === 0;
      clanRanks.push(tied ? clanRanks[i - 1]! : i + 1);
    });
    const pageMembers = members.slice(offset, offset + limit);
    const profiles = await this.deps.players.getMany(
      gameId,
      pageMembers.map((m) => m.id),
    );
    const entries = pageMembers.flatMap((member, i) => {
      const player = profiles.get(member.id);
      if (!player) return [];
      return [
        {
          player,
          score: member.entry ? Number(member.entry.score) : null,
          rank: member.entry?.rank ?? null,
          clanRank: clanRanks[offset + i] ?? null,
          metadata: member.entry ? parseMetadata(member.entry.metadata) : null,
        },
      ];
    });
    return { leaderboard, clan, total: memberIds.length, entries };
  }

  private async clanLeaderboard(gameId: string, leaderboardId: string): Promise<Leaderboard> {
    const leaderboard = await this.deps.leaderboards.get(gameId, leaderboardId);
    if (leaderboard.type !== 'clan') {
      throw new ValidationError(`Leaderboard '${leaderboardId}' is not a clan leaderboard.`, undefined, 'not_a_clan_leaderboard');
    }
    return leaderboard;
  }
}

/** A player as an archived entry shows them: live name and avatar, the clan they were in when the season ended. */
function asArchivedPlayer(player: PlayerProfile, entry: SeasonEntry): PlayerProfile {
  return entry.archivedClanId === undefined ? player : { ...player, clanId: entry.archivedClanId };
}

/** A clan as an archived entry shows it: live name, the members who scored that season. */
function asArchivedClan(clan: Clan, entry: SeasonEntry): Clan {
  return entry.archivedMemberCount === undefined ? clan : { ...clan, memberCount: entry.archivedMemberCount };
}
