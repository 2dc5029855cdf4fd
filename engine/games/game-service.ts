import { NotFoundError } from '../errors.js';
import { constantTimeEqual, hashKey, newGameId, newPublishableKey, newSecretKey } from '../credentials.js';
import type { RunInTransaction } from '../db.js';
import type { Actor, AuditStore } from '../audit/audit-store.js';
import type { Game, GameStore } from './game-store.js';
import type { Invalidator } from '../invalidator.js';
import type { LeaderboardService } from '../leaderboards/leaderboard-service.js';

export interface CreatedGame extends Game {
  /** Shown once: only its hash is stored. */
  secretKey: string;
}

export interface DemoGame {
  gameId: string;
  publishableKey: string;
  secretKey: string;
  leaderboardId: string;
}

export class GameService {
  constructor(
    private readonly deps: {
      store: GameStore;
      leaderboards: LeaderboardService;
      invalidator: Invalidator;
      transact: RunInTransaction;
      audit: AuditStore;
    },
  ) {}

  /**
   * With no games in the database, creates a demo game with one leaderboard so a newcomer can try
   * every endpoint at once. Processes starting together take turns, so only one makes it.
   */
  ensureDemo(): Promise<DemoGame | undefined> {
    return this.deps.store.exclusively('demo-game', async () => {
      if ((await this.deps.store.count()) > 0) return undefined;
      const game = await this.create('Demo game', 'system');
      await this.deps.leaderboards.put(game.id, 'demo', { name: 'Demo leaderboard' }, 'system');
      return { gameId: game.id, publishableKey: game.publishableKey, secretKey: game.secretKey, leaderboardId: 'demo' };
    });
  }

  async create(name: string, actor: Actor): Promise<CreatedGame> {
    const secretKey = newSecretKey();
    const game = await this.deps.transact(async (client) => {
      const inserted = await this.deps.store.in(client).insert({
        id: newGameId(),
        name,
        publishableKey: newPublishableKey(),
        secretKeyHash: hashKey(secretKey),
      });
      await this.deps.audit
        .in(client)
        .record({ gameId: inserted.id, actor, action: 'game.create', target: inserted.id, details: { name } });
      return inserted;
    });
    return { ...game, secretKey };
  }

  /** Games, oldest first, a page at a time, with the count of all. */
  async list(offset: number, limit: number): Promise<{ total: number; games: Game[] }> {
    const [games, total] = await Promise.all([this.deps.store.page(offset, limit), this.deps.store.count()]);
    return { total, games };
  }

  /**
   * Issues a new secret key; the old one is refused by every API process from now on, and every
   * dashboard session signed in with it ends (its generation is no longer the game's).
   */
  async rotateSecretKey(gameId: string, actor: Actor): Promise<{ secretKey: string; generation: number }> {
    const secretKey = newSecretKey();
    const generation = await this.deps.transact(async (client) => {
      const raised = await this.deps.store.in(client).setSecretKeyHash(gameId, hashKey(secretKey));
      if (raised === undefined) throw new NotFoundError('game_not_found', `No game has the id '${gameId}'.`);
      // That it happened, never the key.
      await this.deps.audit.in(client).record({ gameId, actor, action: 'game.rotate_secret_key', target: gameId });
      return raised;
    });
    await this.deps.invalidator.keysChanged();
    return { secretKey, generation };
  }

  /** The game whose secret key this is, with the key's generation: what a dashboard sign-in keeps. Uncached. */
  async findBySecretKey(secretKey: string): Promise<{ game: Game; generation: number } | undefined> {
    const hash = hashKey(secretKey);
    const found = await this.deps.store.findBySecretKeyHash(hash);
    if (!found || !constantTimeEqual(found.secretKeyHash, hash)) return undefined;
    const { secretKeyHash: _hash, keyGeneration, ...game } = found;
    return { game, generation: keyGeneration };
  }

  /** The game with its secret key's current generation (a dashboard session checks it on every request). */
  withKeyGeneration(gameId: string): Promise<{ game: Game; generation: number } | undefined> {
    return this.deps.store.withKeyGeneration(gameId);
  }
}
