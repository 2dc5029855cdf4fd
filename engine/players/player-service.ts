import DataLoader from 'dataloader';
import { LRUCache } from 'lru-cache';
import { NotFoundError } from '../errors.js';
import { newPlayerId } from '../credentials.js';
import { generatedDisplayName } from './display-names.js';
import type { Player, PlayerStore } from './player-store.js';
import type { Invalidator } from '../invalidator.js';
import type { TokenCodec } from '../tokens.js';

export interface PlayerProfile {
  id: string;
  gameId: string;
  displayName: string;
  clanId: string | null;
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
  private readonly misses = new DataLoader<string, Player | null>(
    async (ids) => {
      const found = new Map((await this.store.findMany([...ids])).map((player) => [player.id, player]));
      return ids.map((id) => found.get(id) ?? null);
    },
    { cache: false, batchScheduleFn: (load) => setImmediate(load), maxBatchSize: 1000 },
  );

  constructor(
    private readonly store: PlayerStore,
    private readonly tokens: TokenCodec,
    private readonly invalidator: Invalidator,
    cacheSize: number,
  ) {
    this.cache = new LRUCache({ max: Math.max(cacheSize, 1) });
    invalidator.onChange((change) => {
      if (change.kind === 'player') this.cache.delete(change.playerId);
      if (change.kind === 'all') this.cache.clear();
    });
  }

  /** The same device in the same game always gets the same player. */
  async signup(gameId: string, deviceId: string | null): Promise<{ player: Player; token: string; created: boolean }> {
    for (;;) {
      const inserted = await this.store.insert(newPlayerId(), gameId, deviceId).catch((error: { code?: string }) => {
        if (error.code === '23505') return null; // the random id was taken: draw another
        throw error;
      });
      if (inserted === null) continue;
      const player = inserted ?? (deviceId !== null ? await this.store.findByDevice(gameId, deviceId) : undefined);
      if (!player) continue; // the device row vanished between the two statements; try again
      return { player, token: this.tokens.issue(player.id, gameId), created: inserted !== undefined };
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
  async getMany(gameId: string, playerIds: string[], retain: (playerId: string) => boolean = () => true): Promise<Map<string, PlayerProfile>> {
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
    const player = await this.store.setDisplayName(gameId, playerId, displayName);
    if (!player) throw new NotFoundError('player_not_found', `No player has the id '${playerId}' in this game.`);
    await this.changed(player);
    return profile(player);
  }

  /** Records a change made elsewhere (clan membership) in this cache and every other process's. */
  async changed(player: Player): Promise<void> {
    await this.invalidator.playerChanged(player.id);
    this.cache.set(player.id, profile(player));
  }
}

export function profile(player: Player): PlayerProfile {
  return {
    id: player.id,
    gameId: player.gameId,
    displayName: player.displayName ?? generatedDisplayName(player.id),
    clanId: player.clanId,
  };
}
