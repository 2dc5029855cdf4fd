import { leaderboardId, object, oneOf, optional, wholeNumber } from '../../schemas.js';

// What every page and form of the Leaderboards section shares.

/** Entries a page by default. */
export const PAGE = 50;
/** `?limit=`: entries a page, 1-200 (default 50). */
export const pageSize = wholeNumber(1, 200, PAGE);
export const pageOffset = wholeNumber(0, Number.MAX_SAFE_INTEGER, 0);

/** What a change redirects with (`?done=`): fixed words, so a link cannot put any text on the page. */
export const DONE = {
  created: 'Leaderboard created.',
  updated: 'Settings saved.',
  removed: 'Score removed.',
  reset: 'Season reset: the ended season is archived below.',
  deleted: 'Leaderboard deleted.',
} as const;
type Done = keyof typeof DONE;
export const done = optional(oneOf(...(Object.keys(DONE) as Done[])).empty(''));

export const boardParams = object({ leaderboard_id: leaderboardId.description('The leaderboard') });

/** A board's page, under /dashboard. */
export const boardPath = (id: string) => `/leaderboards/${encodeURIComponent(id)}`;

/** A date as the section shows it, to the minute. */
export const when = (date: Date | null | undefined) => (date ? date.toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : '—');
