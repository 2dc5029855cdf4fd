import DataLoader from 'dataloader';
import { LRUCache } from 'lru-cache';
import { AppError, ConflictError, NotFoundError, erasedPlayerToken } from '../errors.js';
import { newPlayerId } from '../credentials.js';
import { storable, type RunInTransaction } from '../db.js';
import type { Actor, AuditStore } from '../audit/audit-store.js';
import { generatedDisplayName } from './display-names.js';
import type { AliasStore } from './alias-store.js';
import type { BanKind, Player, PlayerStore, ProfileRow } from './player-store.js';
import type { ClanStore } from '../clans/clan-store.js';
import type { Invalidator } from '../invalidator.js';
import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';
import type { Rankings } from '../live/rankings.js';
import type { TokenCodec } from '../tokens.js';

export interface PlayerProfile {
  id: string;
  gameId: string;
  displayName: string;
  clanId: string | null;
  /** How the player is banned, if at all; a shadow-banned player's own reads show their entries as if counted (docs/review.md part 6). */
  banKind: BanKind | null;
}

export interface PlayerChanges {
  displayName?: string;
  /** null leaves the clan. */
  clanId?: string | null;
  /** Alias type -> alias id; null removes the alias of that type. */
  aliases?: Record<string, string | null>;
}

/**
 * Players and their metadata. Reads go through a bounded per-process cache, so ranking reads of
 * active players cost no PostgreSQL query; changes are announced to every process.
 */
export class PlayerService {
  // Profiles, not rows: the generated name (a hash) is computed once per cached player, not per read.
  private readonly cache: LRUCache<string, PlayerProfile>;
  // Cache misses of concurrent requests are looked up together: under load, one query per event-loop
  // turn instead of one per request (the pool's round trips and PostgreSQL's per-query work dominate
  // a primary-key lookup).
  private readonly misses = new DataLoader<string, ProfileRow | null>(
    async (ids) => {
      const found = new Map((await this.deps.store.findProfiles([...ids])).map((player) => [player.id, player]));
      return ids.map((id) => found.get(id) ?? null);
    },
    { cache: false, batchScheduleFn: (load) => setImmediate(load), maxBatchSize: 1000 },
  );

  constructor(
    private readonly deps: {
      transact: RunInTransaction;
      store: PlayerStore;
      aliases: AliasStore;
      clans: ClanStore;
      leaderboards: LeaderboardService;
      rankings: Rankings;
      tokens: TokenCodec;
      invalidator: Invalidator;
      audit: AuditStore;
      /** Profiles kept in this process's cache (PLAYER_CACHE_SIZE). */
      cacheSize: number;
    },
  ) {
    const { invalidator, cacheSize } = deps;
    this.cache = new LRUCache({ max: Math.max(cacheSize, 1) });
    invalidator.onChange((change) => {
      if (change.kind === 'player') this.cache.delete(change.playerId);
      if (change.kind === 'all') this.cache.clear();
    });
  }

  /** The same device in the same game always gets the same player. */
  async signup(gameId: string, deviceId: string | null): Promise<{ player: Player; token: string; created: boolean }> {
    for (;;) {
      const id = newPlayerId();
      // The generated name is stored, not computed on read, so a search by name finds it.
      const inserted = await this.deps.store.insert(id, gameId, deviceId, generatedDisplayName(id)).catch((error: { code?: string }) => {
        if (error.code === '23505') return null; // the random id was taken: draw another
        throw error;
      });
      if (inserted === null) continue;
      const player = inserted ?? (deviceId !== null ? await this.deps.store.findByDevice(gameId, deviceId) : undefined);
      if (!player) continue; // the device row vanished between the two statements; try again
      return { player, token: this.deps.tokens.issue(player.id, gameId), created: inserted !== undefined };
    }
  }

  async get(gameId: string, playerId: string): Promise<PlayerProfile> {
    const found = (await this.getMany(gameId, [playerId])).get(playerId);
    if (!found) throw new NotFoundError('player_not_found', `No player has the id '${playerId}' in this game.`);
    return found;
  }

  /**
   * Profiles of the given players of one game, in one query for those not cached. Looked-up
   * profiles are kept in the cache when `retain` says so: a list read deep in a big board is a scan,
   * and keeping its entries would only push out the players actually in use (and churn the heap).
   */
  async getMany(
    gameId: string,
    playerIds: string[],
    retain: (playerId: string) => boolean = () => true,
  ): Promise<Map<string, PlayerProfile>> {
    const profiles = new Map<string, PlayerProfile>();
    const missing: string[] = [];
    for (const id of playerIds) {
      const cached = this.cache.get(id);
      if (cached === undefined) missing.push(id);
      else if (cached.gameId === gameId) profiles.set(id, cached);
    }
    if (missing.length > 0) {
      for (const player of await Promise.all(missing.map((id) => this.misses.load(id)))) {
        if (!player) continue;
        const found = profile(player);
        if (retain(found.id)) this.cache.set(found.id, found);
        if (found.gameId === gameId) profiles.set(found.id, found);
      }
    }
    return profiles;
  }

  /**
   * The game's players holding the given alias ids of one type, by alias id: one query that also
   * brings their profiles (kept in the cache like any other read's).
   */
  async byAliases(gameId: string, aliasType: string, aliasIds: string[]): Promise<Map<string, PlayerProfile>> {
    const found = new Map<string, PlayerProfile>();
    for (const { aliasId, player } of await this.deps.store.findByAliases(gameId, aliasType, aliasIds)) {
      const held = profile(player);
      this.cache.set(held.id, held);
      found.set(aliasId, held);
    }
    return found;
  }

  /**
   * Rethrows what a board refused a token's player with, as a client sees it. A board refuses an
   * erased player as it does a banned one (they stay in its barred set): a player erased after their
   * token was checked is told apart only then, by looking them up (an entry; the score report and
   * around_me leave that to the API's last step, api/routes/mount.ts).
   */
  async rethrowForToken(gameId: string, playerId: string, error: unknown): Promise<never> {
    if (error instanceof AppError && error.code === 'player_banned' && (await this.isGone(gameId, playerId))) {
      throw erasedPlayerToken();
    }
    throw error;
  }

  /** Whether a signed token's player is gone: erased (or, never so with a valid token, of another game). */
  async isGone(gameId: string, playerId: string): Promise<boolean> {
    return (await this.find(playerId))?.gameId !== gameId;
  }

  /** A player of any game (the avatar endpoint takes no credentials), or undefined. */
  async find(playerId: string): Promise<PlayerProfile | undefined> {
    if (!this.cache.has(playerId)) {
      const player = await this.misses.load(playerId);
      if (!player) return undefined;
      this.cache.set(player.id, profile(player));
    }
    return this.cache.get(playerId);
  }

  async rename(gameId: string, playerId: string, displayName: string): Promise<PlayerProfile> {
    const player = await this.deps.store.setDisplayName(gameId, playerId, displayName);
    if (!player) throw new NotFoundError('player_not_found', `No player has the id '${playerId}' in this game.`);
    await this.changed(player);
    return profile(player);
  }

  /**
   * The game server's player update: display name, clan membership (moving best scores between
   * clan totals at once) and aliases, in one transaction (run again whole if PostgreSQL aborts it as
   * a deadlock: the Redis step comes last and sets memberships, so repeating it is harmless).
   * Atomic per clan leaderboard (one setClans script in its slot; a report racing it reads the
   * membership inside its own script, so it credits exactly one clan). Not atomic across
   * leaderboards: the player's row lock serialises updates of one player, so every board applies
   * them in the same order; a failure in between rolls PostgreSQL back and the scheduled
   * reconciliation realigns the boards already changed with PostgreSQL's membership.
   */
  async update(
    gameId: string,
    playerId: string,
    changes: PlayerChanges,
    actor: Actor,
  ): Promise<{ profile: PlayerProfile; aliases: Record<string, string> }> {
    if (!storable(playerId)) throw new NotFoundError('player_not_found', `No player has the id '${playerId}' in this game.`);
    const { transact, store, aliases, clans, leaderboards, rankings, invalidator, audit } = this.deps;
    const boards = changes.clanId !== undefined ? await leaderboards.clanBoards(gameId) : [];
    const player = await transact(async (client): Promise<Player> => {
      const locked = await store.in(client).lock(gameId, playerId);
      if (!locked) throw new NotFoundError('player_not_found', `No player has the id '${playerId}' in this game.`);
      if (changes.clanId && !(await clans.in(client).lock(gameId, changes.clanId, 'share'))) {
        throw new NotFoundError('clan_not_found', `This game has no clan '${changes.clanId}'.`);
      }
      // What the audit entry compares with: read under the player's lock, only for the fields asked to change.
      const nameBefore = changes.displayName !== undefined ? (await store.in(client).findProfiles([playerId]))[0]!.displayName : undefined;
      const aliasesBefore = changes.aliases ? await aliases.in(client).of(playerId) : {};
      const changed = (await store.in(client).update(gameId, playerId, changes))!;
      if (changes.aliases && !(await aliases.in(client).set(gameId, playerId, changes.aliases))) {
        throw new ConflictError('One of these aliases already belongs to another player of this game.', 'already_exists');
      }
      const details = changedFields({ displayName: nameBefore, clanId: locked.clanId }, changed, aliasesBefore, changes.aliases ?? {});
      // A PATCH that changes nothing is no change to record.
      if (Object.keys(details).length > 0)
        await audit.in(client).record({ gameId, actor, action: 'player.update', target: playerId, details });
      if (changes.clanId !== undefined && locked.clanId !== changed.clanId) {
        for (const board of boards) await rankings.setClans(board, [[playerId, changed.clanId]]);
      }
      return changed;
    });
    await this.changed(player);
    if (changes.clanId !== undefined) await invalidator.clansChanged();
    return { profile: profile(player), aliases: await aliases.of(playerId) };
  }

  /** The player's aliases, alias type -> alias id. */
  aliasesOf(playerId: string): Promise<Record<string, string>> {
    return this.deps.aliases.of(playerId);
  }

  /** The id of the game's player holding the alias, or undefined. */
  findByAlias(gameId: string, aliasType: string, aliasId: string): Promise<string | undefined> {
    return this.deps.aliases.findPlayer(gameId, aliasType, aliasId);
  }

  /**
   * The player a third-party read names: `aliasId` itself without an alias type, else the game's
   * player holding that alias (404 player_not_found when none does).
   */
  async playerNamed(gameId: string, aliasType: string | undefined, aliasId: string): Promise<string> {
    if (!aliasType) return aliasId;
    const playerId = await this.findByAlias(gameId, aliasType, aliasId);
    if (!playerId) throw new NotFoundError('player_not_found', `No player of this game has the ${aliasType} alias '${aliasId}'.`);
    return playerId;
  }

  /** Records a change in this cache and every other process's. */
  private async changed(player: Player): Promise<void> {
    await this.deps.invalidator.playerChanged(player.id);
    this.cache.set(player.id, profile(player));
  }
}

/**
 * What a player update changed, as the API names it, with the new values: `aliases` holds the
 * alias types that changed (null: removed).
 */
function changedFields(
  before: { displayName: string | null | undefined; clanId: string | null },
  after: Player,
  aliasesBefore: Record<string, string>,
  aliasChanges: Record<string, string | null>,
): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  // undefined before: the name was not asked to change.
  if (before.displayName !== undefined && after.displayName !== before.displayName) details.display_name = after.displayName;
  if (after.clanId !== before.clanId) details.clan_id = after.clanId;
  const aliases = Object.fromEntries(Object.entries(aliasChanges).filter(([type, id]) => (aliasesBefore[type] ?? null) !== id));
  if (Object.keys(aliases).length > 0) details.aliases = aliases;
  return details;
}

export function profile(player: ProfileRow): PlayerProfile {
  return {
    id: player.id,
    gameId: player.gameId,
    displayName: player.displayName ?? generatedDisplayName(player.id),
    clanId: player.clanId,
    banKind: player.banKind,
  };
}
