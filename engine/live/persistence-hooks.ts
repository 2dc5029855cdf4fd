/** How long a persistence job may stay silent before the sweep assumes it died and re-queues. */
export const QUEUED_FLAG_TTL_MS = 30_000;

/**
 * What the live layer asks of persistence around a script that may mark a board (implemented by
 * engine/persistence/marks.ts, which also owns the queue): the board goes in the pending index
 * before the script runs, and a script that took the board's queued flag asks for a job after.
 */
export interface PersistenceHooks {
  /** Undefined (nothing to wait for) when the board was touched recently: almost every report. */
  beforeMarking(board: { internalId: number }): Promise<void> | undefined;
  /** The same for several boards at once (one round trip). */
  beforeMarkingAll(boards: { internalId: number }[]): Promise<void>;
  /** Queues one job per given board. */
  requestJobs(internalIds: number[]): Promise<void>;
}
