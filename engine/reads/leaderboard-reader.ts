import { NotFoundError, ValidationError } from '../errors.js';
import type { ClanService } from '../clans/clan-service.js';
import type { Clan } from '../clans/clan-store.js';
import type { Leaderboard } from '../leaderboards/leaderboard-store.js';
import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import { ranksWithin, tieFieldsOf, type TieFields } from '../leaderboards/ties.js';
import type { PlayerProfile, PlayerService } from '../players/player-service.js';
import { parseMetadata, type AskedSeason, type Standings } from '../live/types.js';
import type { RankChanges } from '../history/rank-changes.js';
import type { Rankings } from '../live/rankings.js';
import type { SeasonEntry, SeasonReads } from './season-reads.js';

export interface PlayerEntry extends TieFields {
  player: PlayerProfile;
  score: number;
  rank: number;
  metadata: object | null;
  /** The rank at the board's latest snapshot minus this one (docs/history.md); null when unknown, and in archives. */
  rankChange: number | null;
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

/** Whose ranks a list asks for: players by id, or by their aliases of one type. */
export type ListedPlayers = { playerIds: string[] } | { aliasType: string; aliasIds: string[] };

/** The ranks of a list of players: each found entry with its rank among them; the rest as asked. */
export interface ListRanks {
  leaderboard: Leaderboard;
  season: number;
  total: number;
  entries: (PlayerEntry & { listRank: number })[];
  /** The asked ids (player or alias ids, as asked) that hold no entry. */
  notFound: string[];
}

export interface ClanRecord {
  leaderboard: Leaderboard;
  clan: Clan;
  score: number;
  rank: number | null;
  total: number;
}

export interface MemberEntry extends TieFields {
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

/** Whether a read keeps the profile of an entry at `rank` in the cache: near the top of the current season only. */
function retainedAt(rank: number | undefined, season: AskedSeason): boolean {
  return rank !== undefined && rank <= RETAINED_TOP && season === undefined;
}

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
      rankChanges: RankChanges;
      /** The viewer's own held score (docs/review.md). */
      rankings: Rankings;
    },
  ) {}

  /**
   * The viewer's held score as their own reads show it (docs/review.md): an entry ranked as if it
   * counted, and the total counting them; a shadow-banned viewer's hidden entry so (part 6).
   * Undefined for another's read, an archived season, and a board without review rules unless the
   * viewer is shadow-banned (reads then cost nothing more than a cached profile).
   */
  private async ownHeld(
    leaderboard: Leaderboard,
    viewer: string | undefined,
    season: AskedSeason,
  ): Promise<{ entry: SeasonEntry; total: number } | undefined> {
    if (viewer === undefined || season !== undefined) return undefined;
    // getMany: a viewer erased a moment ago has no profile, and their read goes on without a hold.
    if (leaderboard.review === null && (await this.deps.players.getMany(leaderboard.gameId, [viewer])).get(viewer)?.banKind !== 'shadow')
      return undefined;
    return this.deps.rankings.heldView(leaderboard, viewer);
  }

  /** Rank changes of the current season's entries (docs/history.md); an archive's are all null. */
  private rankChangesOf(leaderboard: Leaderboard, entries: readonly SeasonEntry[], season: AskedSeason): Promise<(number | null)[]> {
    if (season !== undefined) return Promise.resolve(entries.map(() => null));
    return this.deps.rankChanges.of(leaderboard, entries);
  }

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
    const retained = retainedAt(entries[0]?.rank, season);
    const [profiles, changes] = await Promise.all([
      this.deps.players.getMany(gameId, ids, () => retained),
      this.rankChangesOf(leaderboard, entries, season),
    ]);
    return { leaderboard, view, total, entries: playerRows(leaderboard, entries, profiles, changes) };
  }

  /**
   * The player's entry with up to `range` entries above and below it. `own`: the player reads their
   * own (around_me checks only their token's signature and game), so their profile comes with the
   * neighbours' names, in one lookup: an erased viewer (no profile) has no entry to show, which the
   * API answers as it answers any refusal of an erased player's token (api/routes/mount.ts), and a
   * shadow-banned one sees their hidden entry (docs/review.md, part 6; docs/performance.md, around_me).
   */
  async around(
    gameId: string,
    leaderboardId: string,
    playerId: string,
    range: number,
    season?: AskedSeason,
    own = false,
  ): Promise<Page<PlayerEntry>> {
    const leaderboard = await this.deps.leaderboards.get(gameId, leaderboardId);
    const current = own && season === undefined;
    // On a board with review rules the viewer's hold is read first, whoever they are (as ownHeld does).
    const reviewed = current && leaderboard.review !== null ? await this.deps.rankings.heldView(leaderboard, playerId) : undefined;
    let found = reviewed
      ? await this.aroundHeld(leaderboard, reviewed, range)
      : await this.deps.seasons.around(leaderboard, playerId, range, season);
    let named = await this.namedAround(leaderboard, found, season, own ? playerId : undefined);
    if (own) {
      const viewer = named.profiles.get(playerId);
      if (!viewer) found = undefined;
      const held =
        current &&
        leaderboard.review === null &&
        viewer?.banKind === 'shadow' &&
        (await this.deps.rankings.heldView(leaderboard, playerId));
      if (held) {
        found = await this.aroundHeld(leaderboard, held, range);
        named = await this.namedAround(leaderboard, found, season, playerId);
      }
    }
    if (!found) {
      throw new NotFoundError('record_not_found', `Player '${playerId}' has no score on leaderboard '${leaderboardId}'.`);
    }
    return {
      leaderboard,
      view: 'players',
      total: found.total,
      entries: playerRows(leaderboard, found.entries, named.profiles, named.changes),
    };
  }

  /** The profiles of around's entries (and of the viewer, kept in the cache), and their rank changes. */
  private async namedAround(
    leaderboard: Leaderboard,
    found: { entries: SeasonEntry[] } | undefined,
    season: AskedSeason,
    viewer: string | undefined,
  ): Promise<{ profiles: Map<string, PlayerProfile>; changes: (number | null)[] }> {
    const entries = found?.entries ?? [];
    const ids = entries.map((entry) => entry.id);
    if (viewer !== undefined && !ids.includes(viewer)) ids.push(viewer);
    // The viewer is kept, and their neighbours when they are near the top.
    const retained = retainedAt(entries[0]?.rank, season);
    const [profiles, changes] = await Promise.all([
      this.deps.players.getMany(leaderboard.gameId, ids, (id) => retained || id === viewer),
      this.rankChangesOf(leaderboard, entries, season),
    ]);
    return { profiles, changes };
  }

  /** The counted entries around the viewer's held one, up to `range` above and below it. */
  private async aroundHeld(leaderboard: Leaderboard, held: { entry: SeasonEntry; total: number }, range: number) {
    const start = Math.max(0, held.entry.rank - 1 - range);
    // One more than both sides: the viewer's own counted entry, if among them, makes way for the held one.
    const { entries } = await this.deps.seasons.page(leaderboard, 'players', start, 2 * range + 2, undefined);
    const rows = withHeld(entries, held.entry);
    const at = rows.indexOf(held.entry);
    return { total: held.total, entries: rows.slice(Math.max(0, at - range), at + range + 1) };
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
                  ...tieFieldsOf(leaderboard, member),
                },
              ]
            : [];
        });
        return { leaderboard, clan, total: archived.length, entries };
      }
    }
    const memberIds = await this.deps.clans.memberIds(gameId, clanId);
    const { entries: ranked } = await this.deps.seasons.scoresOf(leaderboard, 'players', memberIds, season);
    const members = memberIds
      .map((id, i) => ({ id, entry: ranked[i] }))
      .sort((a, b) => {
        if (!a.entry || !b.entry) return a.entry ? -1 : b.entry ? 1 : a.id < b.id ? -1 : 1;
        return a.entry.position - b.entry.position;
      });
    // The rank within the clan, by the board's tie rule (scored members come first).
    const scored = members.flatMap((member) => (member.entry ? [member.entry.rank] : []));
    const clanRanks: (number | null)[] = [...ranksWithin(scored), ...members.slice(scored.length).map(() => null)];
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
          ...(member.entry && tieFieldsOf(leaderboard, member.entry)),
        },
      ];
    });
    return { leaderboard, clan, total: memberIds.length, entries };
  }

  /**
   * The entries of a list of players (friends, rivals, a Discord server's members) in the board's
   * order, each with its rank on the board and among the list by the board's tie rule. Unknown,
   * unscored, banned and erased players are all simply not found. Cost: one script for the scores
   * and ranks and at most one PostgreSQL query for the names (by alias: one query finds the players
   * and their names), whatever the size of the board.
   */
  async ranks(gameId: string, leaderboardId: string, listed: ListedPlayers, season?: AskedSeason, viewer?: string): Promise<ListRanks> {
    const leaderboard = await this.deps.leaderboards.get(gameId, leaderboardId);
    // A client's own held score shows in its own row (docs/review.md).
    const held = await this.ownHeld(leaderboard, viewer, season);
    // Asked id -> player id, and the profiles an alias lookup brought along.
    const byAlias = 'aliasIds' in listed ? await this.deps.players.byAliases(gameId, listed.aliasType, listed.aliasIds) : undefined;
    const asked = 'aliasIds' in listed ? listed.aliasIds : listed.playerIds;
    const playerOf = (id: string) => (byAlias ? byAlias.get(id)?.id : id);
    const ids = [...new Set(byAlias ? asked.map(playerOf).filter((id) => id !== undefined) : asked)];
    const read = await this.deps.seasons.scoresOf(leaderboard, 'players', ids, season);
    const counted = read.entries.filter((entry) => entry !== undefined);
    const scored = held ? withHeld(counted, held.entry) : counted;
    // Kept in the cache as a page keeps them: players near the top of the current season only (a
    // list names players anywhere on the board, and keeping each would churn the whole cache).
    const retained = new Set(scored.filter((entry) => retainedAt(entry.rank, season)).map((entry) => entry.id));
    const profiles = byAlias
      ? new Map([...byAlias.values()].map((profile) => [profile.id, profile]))
      : await this.deps.players.getMany(
          gameId,
          scored.map((entry) => entry.id),
          (id) => retained.has(id),
        );
    const shown = held
      ? withHeld(
          scored.filter((entry) => entry !== held.entry && profiles.has(entry.id)).sort((a, b) => a.position - b.position),
          held.entry,
        )
      : scored.filter((entry) => profiles.has(entry.id)).sort((a, b) => a.position - b.position);
    const listRanks = ranksWithin(shown.map((entry) => entry.rank));
    const changes = await this.rankChangesOf(leaderboard, shown, season);
    // Added to each row, not spread into a copy: copying a row by spread cost more than building it.
    const entries = playerRows(leaderboard, shown, profiles, changes).map((row, i) => Object.assign(row, { listRank: listRanks[i]! }));
    const found = new Set(shown.map((entry) => entry.id));
    const notFound = asked.filter((id) => !found.has(playerOf(id) ?? ''));
    return { leaderboard, season: read.season, total: held ? held.total : read.total, entries, notFound };
  }

  private async clanLeaderboard(gameId: string, leaderboardId: string): Promise<Leaderboard> {
    const leaderboard = await this.deps.leaderboards.get(gameId, leaderboardId);
    if (leaderboard.type !== 'clan') {
      throw new ValidationError(`Leaderboard '${leaderboardId}' is not a clan leaderboard.`, undefined, 'not_a_clan_leaderboard');
    }
    return leaderboard;
  }
}

/**
 * Ordered entries with the viewer's counted one (if any) replaced by their held one, placed by its
 * rank: after the entries strictly better, before those it ties with (docs/review.md).
 */
function withHeld(entries: SeasonEntry[], held: SeasonEntry): SeasonEntry[] {
  const others = entries.filter((entry) => entry.id !== held.id);
  const at = others.filter((entry) => entry.rank < held.rank).length;
  return [...others.slice(0, at), held, ...others.slice(at)];
}

/**
 * Player entries as reads show them, for those whose profile was found (a player erased meanwhile
 * has none). A loop, not flatMap: V8's flatMap took a fifth of a page's own time (docs/performance.md).
 */
function playerRows(
  leaderboard: Leaderboard,
  entries: SeasonEntry[],
  profiles: Map<string, PlayerProfile>,
  rankChanges: (number | null)[],
): PlayerEntry[] {
  const rows: PlayerEntry[] = [];
  for (const [i, e] of entries.entries()) {
    const player = profiles.get(e.id);
    if (!player) continue;
    // One literal, no spread of the tie fields: this runs once per row of every page.
    const { tiebreakers, achievedAt } = tieFieldsOf(leaderboard, e);
    rows.push({
      player: asArchivedPlayer(player, e),
      score: Number(e.score),
      rank: e.rank,
      metadata: parseMetadata(e.metadata),
      tiebreakers,
      achievedAt,
      rankChange: rankChanges[i] ?? null,
    });
  }
  return rows;
}

/** A player as an archived entry shows them: live name and avatar, the clan they were in when the season ended. */
function asArchivedPlayer(player: PlayerProfile, entry: SeasonEntry): PlayerProfile {
  return entry.archivedClanId === undefined ? player : { ...player, clanId: entry.archivedClanId };
}

/** A clan as an archived entry shows it: live name, the members who scored that season. */
function asArchivedClan(clan: Clan, entry: SeasonEntry): Clan {
  return entry.archivedMemberCount === undefined ? clan : { ...clan, memberCount: entry.archivedMemberCount };
}
