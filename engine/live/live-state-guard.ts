import { UnavailableError } from '../errors.js';

/** Rebuilds a board's live state from PostgreSQL (the recovery above this layer provides it). */
export type Recover = (board: { internalId: number }) => Promise<void>;

/** Ends a board's season `season` at its scheduled reset (the season rotation provides it). */
export type EndDueSeason = (board: { internalId: number; seasonStartedAt?: Date }, season: number) => Promise<unknown>;

/** Applies an ended season's league moves on a board (the league moves above this layer provide it). */
export type ApplyMoves = (board: { internalId: number }, season: number) => Promise<void>;

/**
 * What a script's LBMISSING or LBDUE error (engine/live/scripts/includes/live-season.lua) or LBMOVES
 * error (includes/seats.lua) asks for.
 */
function liveStateRequest(error: unknown): { missing: true } | { dueSeason: number } | { movesSeason: number } | undefined {
  if (!(error instanceof Error)) return undefined;
  const match = /^LB(MISSING|DUE|MOVES)\b(?: (\d+))?/.exec(error.message);
  if (!match) return undefined;
  if (match[1] === 'MISSING') return { missing: true };
  return match[1] === 'DUE' ? { dueSeason: Number(match[2]) } : { movesSeason: Number(match[2]) };
}

/**
 * A read script's LBARCHIVING error (engine/live/scripts/includes/season-ranking.lua): the ended
 * season asked was moderated after its end, and reads wait for its archive.
 */
function archivingError(error: unknown): UnavailableError | undefined {
  const match = error instanceof Error ? /^LBARCHIVING (\d+)/.exec(error.message) : null;
  return match ? new UnavailableError(`Season ${match[1]} is being archived after a moderation; retry shortly.`) : undefined;
}

/** How many times one call may find its board missing, due or awaiting moves before it answers 503. */
const LIVE_STATE_ATTEMPTS = 4;

const rebuilding = () => new UnavailableError('The leaderboard is being rebuilt from PostgreSQL; retry shortly.');

/**
 * Runs calls on a board's live state. A board that lost it (LBMISSING) is rebuilt first, a
 * season that reached its scheduled reset (LBDUE) is ended first, and a league's last season's
 * moves (LBMOVES) are applied first; then the call is asked again. All are injected: the recovery
 * and the league moves live above this layer, the season rotation beside it.
 */
export class LiveStateGuard {
  private recoverBoard: Recover = () => Promise.reject(rebuilding());
  private endDue: EndDueSeason = () => Promise.reject(rebuilding());
  private applyMoves: ApplyMoves = () => Promise.reject(rebuilding());

  /** How a board that lost its live state is rebuilt before a call on it is asked again. */
  recoverWith(recover: Recover): void {
    this.recoverBoard = recover;
  }

  /** How a season that reached its scheduled reset is ended before a call on it is asked again. */
  endDueWith(endDue: EndDueSeason): void {
    this.endDue = endDue;
  }

  /** How an ended season's league moves are applied before a player joins a group of the next one. */
  movesWith(applyMoves: ApplyMoves): void {
    this.applyMoves = applyMoves;
  }

  /** Rebuilds the board's live state (or waits for the process rebuilding it). */
  recover(board: { internalId: number }): Promise<void> {
    return this.recoverBoard(board);
  }

  /** The script stopped before touching anything, so asking again is safe. */
  async run<T>(board: { internalId: number; seasonStartedAt?: Date }, call: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        const request = liveStateRequest(error);
        if (!request) throw archivingError(error) ?? error;
        if (attempt >= LIVE_STATE_ATTEMPTS) throw rebuilding();
        if ('missing' in request) await this.recoverBoard(board);
        else if ('dueSeason' in request) await this.endDue(board, request.dueSeason);
        else await this.applyMoves(board, request.movesSeason);
      }
    }
  }
}
