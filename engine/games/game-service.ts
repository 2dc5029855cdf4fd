import { NotFoundError } from '../errors.js';
import { hashKey, newGameId, newPublishableKey, newSecretKey } from '../credentials.js';
import type { Game, GameStore } from './game-store.js';
import type { Invalidator } from '../invalidator.js';

export interface CreatedGame extends Game {
  /** Shown once: only its hash is stored. */
  secretKey: string;
}

export class GameService {
  constructor(
    private readonly store: GameStore,
    private readonly invalidator: Invalidator,
  ) {}

  async create(name: string): Promise<CreatedGame> {
    const secretKey = newSecretKey();
    const game = await this.store.insert({
      id: newGameId(),
      name,
      publishableKey: newPublishableKey(),
      secretKeyHash: hashKey(secretKey),
    });
    return { ...game, secretKey };
  }

  /** Games, oldest first, a page at a time, with the count of all. */
  async list(offset: number, limit: number): Promise<{ total: number; games: Game[] }> {
    const [games, total] = await Promise.all([this.store.page(offset, limit), this.store.count()]);
    return { total, games };
  }

  /** Issues a new secret key; the old one is refused by every API process from now on. */
  async rotateSecretKey(gameId: string): Promise<string> {
    const secretKey = newSecretKey();
    const updated = await this.store.setSecretKeyHash(gameId, hashKey(secretKey));
    if (!updated) throw new NotFoundError('game_not_found', `No game has the id '${gameId}'.`);
    await this.invalidator.keysChanged();
    return secretKey;
  }
}
