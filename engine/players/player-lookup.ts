import { NotFoundError } from '../errors.js';
import { storable } from '../db.js';
import { profile, type PlayerProfile } from './player-service.js';
import type { AliasStore } from './alias-store.js';
import type { BanKind, Player, PlayerStore } from './player-store.js';
import type { Leaderboard } from '../leaderboards/leaderboard-store.js';
import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import type { Rankings } from '../live/rankings.js';

/** How many name matches past a page a search counts (README: Looking a player up). */
export const COUNT_AHEAD = 1000;

/** A player as support sees them: profile, aliases, ban and signup time. */
export interface PlayerSummary extends PlayerProfile {
  aliases: Record<string, string>;
  bannedAt: Date | null;
  banReason: string | null;
  banKind: BanKind | null;
  createdAt: Date;
}

/** A player's score on one leaderboard in its current season, with the live rank (null while banned: out of the ranking). */
export interface HeldScore {
  leaderboardId: string;
  score: number;
  rank: number | null;
}

export interface PlayerDetails extends PlayerSummary {
  /** Every leaderboard of the game where the player holds a score this season, oldest board first. */
  scores: HeldScore[];
}

/**
 * Support's view of players: one player with their scores on every board, and search by id, alias
 * id or display-name prefix. Reads PostgreSQL directly, not the player cache: what support sees of a
 * ban or a rename must be what is stored.
 */
export class PlayerLookup {
  constructor(
    private readonly deps: {
      store: PlayerStore;
      aliases: AliasStore;
      leaderboards: LeaderboardService;
      rankings: Rankings;
    },
  ) {}

  /**
   * The player with their live score and rank on each board of the game: one PostgreSQL query for
   * the boards, then one script per board, sent together (the request connection pipelines them:
   * one round trip per Redis node, whatever the number of boards).
   */
  async details(gameId: string, playerId: string): Promise<PlayerDetails> {
    const { store, aliases, leaderboards } = this.deps;
    const [player, boards] = await Promise.all([store.findInGame(gameId, playerId), leaderboards.all(gameId)]);
    if (!player) throw new NotFoundError('player_not_found', `No player has the id '${playerId}' in this game.`);
    // A banned player's scores wait out of the ranking, unranked, for the unban.
    const [held, scores] = await Promise.all([
      aliases.of(player.id),
      player.bannedAt === null ? this.rankedScores(boards, player.id) : this.hiddenScores(boards, player.id),
    ]);
    return { ...summary(player, held), scores };
  }

  private async rankedScores(boards: Leaderboard[], playerId: string): Promise<HeldScore[]> {
    const read = await Promise.all(boards.map((board) => this.deps.rankings.scoresOf(board, 'players', [playerId])));
    return boards.flatMap((board, i): HeldScore[] => {
      const entry = read[i]?.entries[0];
      return entry ? [{ leaderboardId: board.id, score: Number(entry.score), rank: entry.rank }] : [];
    });
  }

  private async hiddenScores(boards: Leaderboard[], playerId: string): Promise<HeldScore[]> {
    const read = await Promise.all(boards.map((board) => this.deps.rankings.hiddenScore(board, playerId)));
    return boards.flatMap((board, i): HeldScore[] =>
      read[i] === undefined ? [] : [{ leaderboardId: board.id, score: read[i]!, rank: null }],
    );
  }

  /**
   * Players matching `text`: the one whose id it is, then those holding it as an alias id, then those
   * whose display name starts with it (case-insensitive) by name; each player once, a page at a time.
   * Name matches are counted up to COUNT_AHEAD past the page, so a search costs what its page does,
   * however many players share a short prefix: `totalExact` is false when more match than `total`
   * says (then `total` is a lower bound, past the page by more than COUNT_AHEAD).
   */
  async search(
    gameId: string,
    text: string,
    offset: number,
    limit: number,
  ): Promise<{ total: number; totalExact: boolean; players: PlayerSummary[] }> {
    if (!storable(text)) return { total: 0, totalExact: true, players: [] };
    const { store, aliases } = this.deps;
    // At most a few players match exactly: they are read whole, and the name matches page after them.
    const exact = await store.exactMatches(gameId, text);
    const leading = exact.slice(offset, offset + limit);
    const countedNames = offset + limit + COUNT_AHEAD;
    const named = await store.namePrefixPage(
      gameId,
      text,
      exact.map((player) => player.id),
      Math.max(0, offset - exact.length),
      limit - leading.length,
      countedNames + 1,
    );
    const players = [...leading, ...named.players];
    const held = await aliases.ofMany(players.map((player) => player.id));
    return {
      total: exact.length + named.total,
      totalExact: named.total <= countedNames,
      players: players.map((player) => summary(player, held.get(player.id) ?? {})),
    };
  }
}

function summary(player: Player, aliases: Record<string, string>): PlayerSummary {
  return {
    ...profile(player),
    aliases,
    bannedAt: player.bannedAt,
    banReason: player.banReason,
    banKind: player.banKind,
    createdAt: player.createdAt,
  };
}
