import { LRUCache } from 'lru-cache';
import { AuthenticationError, erasedPlayerToken } from '../errors.js';
import { constantTimeEqual, hashKey } from '../credentials.js';
import type { Game, GameStore } from '../games/game-store.js';
import type { ThirdPartyKeyStore } from './third-party-key-store.js';
import type { Invalidator } from '../invalidator.js';
import type { TokenCodec } from '../tokens.js';

interface CachedCredential {
  game: Game | null;
  keyId?: string;
}

const KNOWN_TTL_MS = 5 * 60_000;
// Unknown keys are remembered briefly so a client hammering with a bad key costs no query each time.
const UNKNOWN_TTL_MS = 1_000;
// Far longer than any key this service issues.
const MAX_KEY_LENGTH = 256;

/**
 * Turns the presented credentials into the game they belong to. Lookups are cached per process;
 * any key change is announced through the Invalidator and clears every process's cache at once.
 * Entries are named by the key as presented, which every request carries in memory anyway: hashing
 * it first would cost a SHA-256 per request (only the stored copy, in PostgreSQL, must be a hash).
 */
export class CredentialResolver {
  private readonly cache = new LRUCache<string, CachedCredential>({ max: 50_000 });
  // Counts invalidations. A lookup in flight while one arrives may have read the key before its
  // revocation committed: it still answers its own request, but must not be cached, or the revoked
  // key would live on in this process for KNOWN_TTL_MS.
  private generation = 0;

  constructor(
    private readonly deps: {
      games: GameStore;
      thirdPartyKeys: ThirdPartyKeyStore;
      tokens: TokenCodec;
      adminToken: string;
      invalidator: Invalidator;
      /** The player's game, or undefined once erased (the players' cache, dropped in every process on erasure). */
      gameOfPlayer: (playerId: string) => Promise<string | undefined>;
    },
  ) {
    deps.invalidator.onChange((change) => {
      if (change.kind !== 'keys' && change.kind !== 'all') return;
      this.generation += 1;
      this.cache.clear();
    });
  }

  publishable(key: string | undefined): Promise<Game> {
    return this.resolve('Publishable-Key', key, 'pk', async (value) => ({
      game: (await this.deps.games.findByPublishableKey(value)) ?? null,
    })).then(({ game }) => game);
  }

  secret(key: string | undefined): Promise<Game> {
    return this.resolve('Secret-Key', key, 'sk', async (value) => {
      const hash = hashKey(value);
      const found = await this.deps.games.findBySecretKeyHash(hash);
      return { game: found && constantTimeEqual(found.secretKeyHash, hash) ? found : null };
    }).then(({ game }) => game);
  }

  thirdParty(key: string | undefined): Promise<{ game: Game; keyId: string }> {
    return this.resolve('Api-Key', key, 'tpk', async (value) => {
      const found = await this.deps.thirdPartyKeys.findActiveByHash(hashKey(value));
      const game = found ? await this.deps.games.findById(found.gameId) : undefined;
      return game && found ? { game, keyId: found.id } : { game: null };
    }).then(({ game, keyId }) => ({ game, keyId: keyId! }));
  }

  /** The player id carried by an anonymous token, which must belong to `game` and to a player not erased. */
  async player(token: string | undefined, game: Game): Promise<string> {
    const playerId = this.signedPlayer(token, game);
    await this.livingPlayer(playerId, game.id);
    return playerId;
  }

  /**
   * The player id of a token whose signature and game are right, its player not looked up: for the
   * endpoints that refuse an erased player themselves, so they pay no lookup of their own. The score
   * report's script keeps erased players barred, and the API's last step tells them apart from banned
   * ones (api/routes/mount.ts, erasedFirst); around_me looks its viewer up with the names it reads
   * (LeaderboardReader.around).
   */
  signedPlayer(token: string | undefined, game: Game): string {
    if (!token?.trim()) {
      throw new AuthenticationError('missing_token', 'Send the player token in the Anonymous-Authorization header.');
    }
    const claims = this.deps.tokens.verify(token.replace(/^Bearer\s+/i, ''));
    if (claims.gameId !== game.id) {
      throw new AuthenticationError('invalid_token', 'The anonymous token belongs to another game.');
    }
    return claims.playerId;
  }

  /** Who is looking, from a token alone (the web page): its game and player, signature checked. */
  async viewer(token: string | undefined): Promise<{ gameId: string; playerId: string; issuedAt: number }> {
    if (!token?.trim()) throw new AuthenticationError('missing_token', 'The page needs the player token in ?token=.');
    const claims = this.deps.tokens.verify(token.replace(/^Bearer\s+/i, ''));
    await this.livingPlayer(claims.playerId, claims.gameId);
    return { gameId: claims.gameId, playerId: claims.playerId, issuedAt: claims.issuedAt };
  }

  /** A signed token of an erased player is refused like a forged one: that player is gone. */
  private async livingPlayer(playerId: string, gameId: string): Promise<void> {
    if ((await this.deps.gameOfPlayer(playerId)) !== gameId) {
      throw erasedPlayerToken();
    }
  }

  admin(authorization: string | undefined): void {
    const token = authorization?.replace(/^Bearer\s+/i, '').trim();
    if (!token) {
      throw new AuthenticationError('missing_admin_token', 'Send the admin token as "Authorization: Bearer <ADMIN_TOKEN>".');
    }
    if (!constantTimeEqual(token, this.deps.adminToken)) {
      throw new AuthenticationError('invalid_admin_token', 'The admin token is not valid.');
    }
  }

  private async resolve(
    header: string,
    key: string | undefined,
    kind: string,
    load: (key: string) => Promise<CachedCredential>,
  ): Promise<{ game: Game; keyId?: string }> {
    const value = key?.trim();
    if (!value) throw new AuthenticationError('missing_key', `Send the ${header} header.`);
    // No key is this long: refused without a lookup, and never cached, so entries stay small.
    if (value.length > MAX_KEY_LENGTH) throw new AuthenticationError('invalid_key', `The ${header} is not valid.`);
    const cacheKey = `${kind}:${value}`;
    let entry = this.cache.get(cacheKey);
    if (!entry) {
      const generation = this.generation;
      entry = await load(value);
      // While the subscription is down, announcements may be missed: then nothing is kept at all.
      if (generation === this.generation && this.deps.invalidator.listening) {
        this.cache.set(cacheKey, entry, { ttl: entry.game ? KNOWN_TTL_MS : UNKNOWN_TTL_MS });
      }
    }
    if (!entry.game) throw new AuthenticationError('invalid_key', `The ${header} is not valid.`);
    return entry as { game: Game; keyId?: string };
  }
}
