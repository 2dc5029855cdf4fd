import type { AuditEntry, AuditStore } from './audit-store.js';

/** Reading a game's audit log, a page at a time (changes record themselves through AuditStore), and dashboard sign-ins. */
export class AuditLog {
  constructor(private readonly deps: { store: AuditStore }) {}

  /**
   * A game's entries older than entry `before`, newest first. `nextBefore` is the id to ask with
   * next: null when no older entry exists, so a client never fetches an empty last page.
   */
  async page(gameId: string, before: number | undefined, limit: number): Promise<{ entries: AuditEntry[]; nextBefore: number | null }> {
    // One more than asked for says whether there is a next page without a count.
    const rows = await this.deps.store.page(gameId, before, limit + 1);
    const entries = rows.slice(0, limit);
    return { entries, nextBefore: rows.length > limit ? entries[entries.length - 1]!.id : null };
  }

  /** A dashboard session began work on the game (a sign-in with its secret key, or the admin opening it). */
  signedIn(gameId: string, via: 'secret_key' | 'admin'): Promise<void> {
    return this.deps.store.record({ gameId, actor: 'dashboard', action: 'dashboard.sign_in', target: gameId, details: { via } });
  }
}
