/**
 * A leaderboard's window: when its current season accepts reports (docs/competitions.md). A one-off
 * window belongs to the season it was set in, so a reset clears it without writing anything; with
 * `openSeconds`, every season accepts reports for that long from its start. The same
 * rule runs in the report script (engine/live/scripts/includes/window.lua), judged at the request's
 * arrival; this one serves bodies, settings changes and batches.
 */

export type WindowState = 'upcoming' | 'open' | 'closed';

export interface ReportWindow {
  opensAt: Date | null;
  closesAt: Date | null;
}

/** The window of the given current season, which started at `startedAt`, or null when the board has none for it. */
export function windowOf(
  board: { opensAt: Date | null; closesAt: Date | null; windowSeason: number | null; openSeconds: number | null },
  season: number,
  startedAt: Date,
): ReportWindow | null {
  if (board.openSeconds !== null) return { opensAt: startedAt, closesAt: new Date(startedAt.getTime() + board.openSeconds * 1000) };
  if (board.windowSeason !== season || (board.opensAt === null && board.closesAt === null)) return null;
  return { opensAt: board.opensAt, closesAt: board.closesAt };
}

/** Before the window, inside it (or no window at all), or after it, at `at` (ms). */
export function windowState(window: ReportWindow | null, at: number): WindowState {
  if (window?.opensAt && at < window.opensAt.getTime()) return 'upcoming';
  if (window?.closesAt && at >= window.closesAt.getTime()) return 'closed';
  return 'open';
}
