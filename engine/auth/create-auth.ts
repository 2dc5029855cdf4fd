import type { RunInTransaction } from '../db.js';
import type { AuditStore } from '../audit/audit-store.js';
import type { GameStore } from '../games/game-store.js';
import type { Invalidator } from '../invalidator.js';
import type { TokenCodec } from '../tokens.js';
import { CredentialResolver } from './credential-resolver.js';
import { ThirdPartyKeyService } from './third-party-key-service.js';
import type { ThirdPartyKeyStore } from './third-party-key-store.js';

/** Credentials: who a request's key or token names (cached per process), and third-party keys. */
export function createAuth(deps: {
  games: GameStore;
  thirdPartyKeys: ThirdPartyKeyStore;
  tokens: TokenCodec;
  adminToken: string;
  invalidator: Invalidator;
  transact: RunInTransaction;
  audit: AuditStore;
  /** The player's game, or undefined once erased. */
  gameOfPlayer: (playerId: string) => Promise<string | undefined>;
}) {
  return {
    credentials: new CredentialResolver(deps),
    thirdPartyKeys: new ThirdPartyKeyService({ ...deps, store: deps.thirdPartyKeys }),
  };
}
