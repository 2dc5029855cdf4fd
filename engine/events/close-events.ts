import type { RunInTransaction } from '../db.js';
import type { LeaderboardStore } from '../leaderboards/leaderboard-store.js';
import type { Rankings } from '../live/rankings.js';
import type { PlayerStore } from '../players/player-store.js';
import { EVENT_TOP, standingsData, type RecordedAttempts, type WebhookEvents } from './webhook-events.js';
import type { WebhookStore } from './webhook-store.js';

/** Boards looked at per round: more wait for the next round, a couple of seconds later. */
const CLOSES_PER_ROUND = 100;

/**
 * Records `leaderboard.closed` when a board's window closes (docs/events.md part 5): the worker
 * looks every couple of seconds for closes nobody has recorded, and records each once, in the
 * transaction that marks it recorded, with the season's first entries as they stand in Redis.
 */
export class CloseEvents {
  constructor(
    private readonly deps: {
      store: WebhookStore;
      leaderboards: LeaderboardStore;
      rankings: Rankings;
      players: PlayerStore;
      events: WebhookEvents;
      transact: RunInTransaction;
    },
  ) {}

  /** Records the closes that are due; how many were recorded. */
  async recordDue(): Promise<number> {
    const { store, leaderboards, rankings, events, transact } = this.deps;
    let recorded = 0;
    for (const { internalId, season, closedAt } of await store.dueCloses(CLOSES_PER_ROUND)) {
      const board = await leaderboards.findByInternalId(internalId);
      if (!board) continue;
      const view = board.type === 'clan' ? 'clans' : 'players';
      // Read before the transaction: Redis is not held up by a row lock, and a report landing
      // between this read and the close's commit was refused by the closed window anyway.
      const page = await rankings.page(board, view, 0, EVENT_TOP, season);
      const entries = (page?.entries ?? []).map((entry) => ({ id: entry.id, score: Number(entry.score), rank: entry.rank }));
      let attempts: RecordedAttempts = [];
      await transact(async (client) => {
        if (!(await store.in(client).claimClose(internalId, season))) return;
        recorded += 1;
        attempts = await events.record(client, {
          gameId: board.gameId,
          type: 'leaderboard.closed',
          leaderboard: board,
          data: () => standingsData(client, this.deps.players, board, { season, at: closedAt, total: page?.total ?? 0 }, entries),
        });
      });
      await events.queue(attempts);
    }
    return recorded;
  }
}
