import { NotFoundError } from '../errors.js';
import { hashKey, newThirdPartyKey, newThirdPartyKeyId } from '../credentials.js';
import type { RunInTransaction } from '../db.js';
import type { Actor, AuditStore } from '../audit/audit-store.js';
import type { Invalidator } from '../invalidator.js';
import type { ThirdPartyKey, ThirdPartyKeyStore } from './third-party-key-store.js';

/** Read-only keys for outside integrations: shown once, stored as hashes, revocable at any time. */
export class ThirdPartyKeyService {
  constructor(
    private readonly deps: {
      store: ThirdPartyKeyStore;
      invalidator: Invalidator;
      transact: RunInTransaction;
      audit: AuditStore;
    },
  ) {}

  async create(gameId: string, name: string, actor: Actor): Promise<ThirdPartyKey & { apiKey: string }> {
    const apiKey = newThirdPartyKey();
    const key = await this.deps.transact(async (client) => {
      const inserted = await this.deps.store.in(client).insert({ id: newThirdPartyKeyId(), gameId, name, keyHash: hashKey(apiKey) });
      // The key's id and name only: the log holds no secret.
      await this.deps.audit.in(client).record({ gameId, actor, action: 'third_party_key.create', target: inserted.id, details: { name } });
      return inserted;
    });
    return { ...key, apiKey };
  }

  list(gameId: string, offset: number, limit: number): Promise<{ total: number; keys: ThirdPartyKey[] }> {
    return this.deps.store.pageByGame(gameId, offset, limit);
  }

  /** Every API process refuses the key as soon as the change is published (well under 1 s). Revoking twice records once. */
  async revoke(gameId: string, keyId: string, actor: Actor): Promise<void> {
    await this.deps.transact(async (client) => {
      const keys = this.deps.store.in(client);
      if (await keys.revoke(gameId, keyId)) {
        await this.deps.audit.in(client).record({ gameId, actor, action: 'third_party_key.revoke', target: keyId });
      } else if (!(await keys.exists(gameId, keyId))) {
        throw new NotFoundError('key_not_found', `This game has no third-party key '${keyId}'.`);
      }
    });
    await this.deps.invalidator.keysChanged();
  }
}
