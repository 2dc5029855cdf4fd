import type { Leaderboard } from '../leaderboards/leaderboard-store.js';
import type { GroupResult, SeasonRotation } from '../live/season-rotation.js';
import { leagueZones, tierAfter, type LeagueSettings } from './leagues.js';
import { unpaced, type Pace } from '../pace.js';

/** Groups read and moved at once: enough to finish a 100,000-player league in about a second. */
const GROUPS_AT_ONCE = 16;
/** Paced (in the worker), fewer at once: each step's burst of scripts queues ahead of reports in Redis. */
const PACED_GROUPS_AT_ONCE = 4;

/**
 * A league's moves at a season's end (docs/competitions.md, part 6): for every group of the ended
 * season, as it stood at the end, the zones of `leagueZones` become tiers for the next season. Each
 * group moves in one Redis step that marks it moved, so the worker's persistence job (before the
 * archive), an API process whose player would join a group meanwhile (LBMOVES), or both at once,
 * apply every move exactly once; a runner killed half way leaves the rest to the next.
 */
export class LeagueMoves {
  /** One run per board and season in this process: a burst of first reports waits on the same run. */
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: {
      rotation: SeasonRotation;
      find: (internalId: number) => Promise<Leaderboard | undefined>;
    },
  ) {}

  /**
   * Applies every move of the board's ended season `season` that is not applied yet (none off
   * leagues). A caller holding the board's settings passes them; the rest are read when needed. The
   * worker paces the run (a player waiting on it in an API process does not).
   */
  apply(board: Leaderboard | { internalId: number }, season: number, pace: Pace = unpaced): Promise<void> {
    const key = `${board.internalId}:${season}`;
    let run = this.running.get(key);
    if (!run) {
      run = this.run(board, season, pace).finally(() => this.running.delete(key));
      this.running.set(key, run);
    }
    return run;
  }

  private async run(given: Leaderboard | { internalId: number }, season: number, pace: Pace): Promise<void> {
    const count = await this.deps.rotation.endedGroupCount(given, season);
    if (count > 0) {
      const board = 'sortOrder' in given ? given : await this.deps.find(given.internalId);
      if (!board) return; // deleted: its keys go with it
      // A board whose groups were removed since moves nobody (the lowest tier stays the lowest).
      const league = board.groups ?? { size: 0, tiers: [''], promote: 0, relegate: 0 };
      const atOnce = pace === unpaced ? GROUPS_AT_ONCE : PACED_GROUPS_AT_ONCE;
      for (let first = 1; first <= count; first += atOnce) {
        const groups = Array.from({ length: Math.min(atOnce, count - first + 1) }, (_, i) => first + i);
        await pace(() => Promise.all(groups.map((group) => this.moveGroup(board, league, season, group))));
      }
    }
    await this.deps.rotation.finishMoves(given, season);
  }

  private async moveGroup(board: Leaderboard, league: LeagueSettings, season: number, group: number): Promise<void> {
    const standing = await this.deps.rotation.endedGroup(board, season, group);
    if (standing?.moved) return;
    // A number with no group behind it moves nobody, but is marked, so the season's moves can finish.
    await this.deps.rotation.applyGroupMoves(board, season, group, standing ? groupResult(standing, league, group) : []);
  }
}

/** Each visible member's rank within the group and tier after the season's end. */
export function groupResult(
  standing: { tier: number; ranked: { playerId: string; rank: number }[]; unscored: string[] },
  league: LeagueSettings,
  group: number,
): GroupResult[] {
  const zones = leagueZones(standing, league, standing.tier);
  const after = (playerId: string) => tierAfter(standing.tier, zones.get(playerId) ?? 'stay');
  return [
    ...standing.ranked.map(({ playerId, rank }) => ({ playerId, group, tier: standing.tier, groupRank: rank, movedTo: after(playerId) })),
    ...standing.unscored.map((playerId) => ({ playerId, group, tier: standing.tier, groupRank: null, movedTo: after(playerId) })),
  ];
}
