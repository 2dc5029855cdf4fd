import { NotFoundError } from '../errors.js';
import { hashKey, newThirdPartyKey, newThirdPartyKeyId } from '../credentials.js';
import type { Invalidator } from '../invalidator.js';
import type { ThirdPartyKey, ThirdPartyKeyStore } from './third-party-key-store.js';

/** Read-only keys for outside integrations: shown once, stored as hashes, revocable at any time. */
export class ThirdPartyKeyService {
  constructor(
    private readonly store: ThirdPartyKeyStore,
    private readonly invalidator: Invalidator,
  ) {}

  async create(gameId: string, name: string): Promise<ThirdPartyKey & { apiKey: string }> {
    const apiKey = newThirdPartyKey();
    const key = await this.store.insert({ id: newThirdPartyKeyId(), gameId, name, keyHash: hashKey(apiKey) });
    return { ...key, apiKey };
  }

  list(gameId: string, offset: number, limit: number): Promise<{ total: number; keys: ThirdPartyKey[] }> {
    return this.store.pageByGame(gameId, offset, limit);
  }

  /** Every API process refuses the key as soon as the change is published (well under 1 s). */
  async revoke(gameId: string, keyId: string): Promise<void> {
    if (!(await this.store.revoke(gameId, keyId))) {
      throw new NotFoundError('key_not_found', `This game has no third-party key '${keyId}'.`);
    }
    await this.invalidator.keysChanged();
  }
}
