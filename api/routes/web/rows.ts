import type { Engine } from '../../../engine/engine.js';
import { AppError } from '../../../engine/errors.js';
import type { Leaderboard } from '../../../engine/leaderboards/leaderboard-store.js';
import type { ClanEntry, PlayerEntry } from '../../../engine/reads/leaderboard-reader.js';
import type { AskedSeason, Standings } from '../../../engine/live/types.js';

import type { Viewer } from '../../middleware/auth.js';

/** One line of the page, a player or a clan, as both the HTML and the entries JSON need it. */
export interface Row {
  id: string;
  name: string;
  score: number;
  rank: number;
  viewer: boolean;
  /** Clans only. */
  memberCount?: number;
  /** Players only. */
  clanId?: string | null;
  /** Players of boards with tiebreaker columns only: one value per column. */
  tiebreakers?: number[];
  /** Players only: places moved since the board's latest daily snapshot (docs/history.md), null when unknown. */
  rankChange?: number | null;
}

export interface Rows {
  leaderboard: Leaderboard;
  view: Standings;
  total: number;
  rows: Row[];
}

/**
 * The viewer's side of the view: themself, or their clan (null when they have none). In an asked
 * season, the clan they scored for that season (an archive keeps it) when they scored then.
 */
async function viewerKey(
  engine: Engine,
  viewer: Viewer,
  leaderboardId: string,
  view: Standings,
  season: AskedSeason,
): Promise<string | null> {
  if (view === 'players') return viewer.playerId;
  if (season !== undefined) {
    const own = await ownEntry(engine, viewer, leaderboardId, season);
    if (own) return own.player.clanId;
  }
  const profile = await engine.players.find(viewer.playerId);
  return profile?.gameId === viewer.gameId ? profile.clanId : null;
}

/** The viewer's own entry in the season; undefined while they have no score in it. */
async function ownEntry(engine: Engine, viewer: Viewer, leaderboardId: string, season: AskedSeason): Promise<PlayerEntry | undefined> {
  try {
    // The viewer's own row: a held score of theirs shows (docs/review.md).
    const around = await engine.reader.around(viewer.gameId, leaderboardId, viewer.playerId, 0, season, true);
    return around.entries.find((e) => e.player.id === viewer.playerId);
  } catch (error) {
    if (error instanceof AppError && error.code === 'record_not_found') return undefined;
    throw error;
  }
}

function toRow(entry: PlayerEntry | ClanEntry, mine: string | null): Row {
  if ('clan' in entry) {
    const { clan } = entry;
    return { id: clan.id, name: clan.name, score: entry.score, rank: entry.rank, viewer: clan.id === mine, memberCount: clan.memberCount };
  }
  const { player } = entry;
  return {
    id: player.id,
    name: player.displayName,
    score: entry.score,
    rank: entry.rank,
    viewer: player.id === mine,
    clanId: player.clanId,
    tiebreakers: entry.tiebreakers,
    rankChange: entry.rankChange,
  };
}

export async function readRows(
  engine: Engine,
  viewer: Viewer,
  leaderboardId: string,
  view: Standings,
  offset: number,
  limit: number,
  season?: AskedSeason,
): Promise<Rows> {
  const [page, mine] = await Promise.all([
    engine.reader.page(viewer.gameId, leaderboardId, view, offset, limit, season),
    viewerKey(engine, viewer, leaderboardId, view, season),
  ]);
  return { leaderboard: page.leaderboard, view, total: page.total, rows: page.entries.map((e) => toRow(e, mine)) };
}

/** The viewer's own row (or their clan's) in the season, wherever it ranks; null without a score or a clan. */
export async function readViewerRow(
  engine: Engine,
  viewer: Viewer,
  leaderboardId: string,
  view: Standings,
  season?: AskedSeason,
): Promise<Row | null> {
  try {
    if (view === 'players') {
      const entry = await ownEntry(engine, viewer, leaderboardId, season);
      return entry ? toRow(entry, viewer.playerId) : null;
    }
    const clanId = await viewerKey(engine, viewer, leaderboardId, view, season);
    if (!clanId) return null;
    const record = await engine.reader.clanRecord(viewer.gameId, leaderboardId, clanId, season);
    if (record.rank === null) return null;
    return toRow({ clan: record.clan, score: record.score, rank: record.rank }, clanId);
  } catch (error) {
    // No score yet, or the clan went away since the viewer joined it: nothing to pin.
    if (error instanceof AppError && (error.code === 'record_not_found' || error.code === 'clan_not_found')) return null;
    throw error;
  }
}
