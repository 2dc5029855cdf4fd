import type { Leaderboard } from '../../../engine/leaderboards/leaderboard-store.js';
import type { Standings } from '../../../engine/live/types.js';
import { avatarUrl } from '../../views.js';
import { escapeHtml, formatScore } from './html.js';
import { closeButton, shell } from './layout.js';
import type { Row } from './rows.js';

export interface PageModel {
  leaderboard: Leaderboard;
  view: Standings;
  total: number;
  rows: Row[];
  viewerRow: Row | null;
  /** Where the next rows start, for the script's "more". */
  next: number;
  pageSize: number;
  token: string;
  base: string;
  css: string;
  icon: string;
  script: string;
  close: string | null;
  /** The players/clans switch, on clan leaderboards only. */
  tabs: Record<Standings, string> | null;
  /** The season asked for (undefined: the current one); "more" reads the same. */
  season: number | undefined;
  /** The season shown, when it has ended (null for the current one). */
  pastSeason: number | null;
  /** The season switcher, latest first; null when the board has one season. */
  seasons: SeasonLink[] | null;
}

export interface SeasonLink {
  season: number;
  current: boolean;
  /** The season on this page. */
  shown: boolean;
  href: string;
}

// Drawn at 40 CSS pixels: 80 keeps it sharp on high-density screens.
const AVATAR_SIZE = 80;

const initial = (name: string) => (Array.from(name.trim())[0] ?? '?').toUpperCase();
const plural = (n: number, one: string, many: string) => `${formatScore(n)} ${n === 1 ? one : many}`;

/** One ranked line; the page's script builds the same structure for rows it loads later. */
function rowHtml(row: Row, view: Standings, base: string): string {
  const classes = ['row', row.viewer ? 'me' : '', row.rank <= 3 ? `top top-${row.rank}` : ''].filter(Boolean).join(' ');
  const avatar =
    view === 'players'
      ? `<img class="avatar" src="${escapeHtml(avatarUrl(base, row.id, AVATAR_SIZE))}" alt="" width="40" height="40">`
      : `<span class="avatar badge" aria-hidden="true">${escapeHtml(initial(row.name))}</span>`;
  const sub = view === 'clans' ? `<span class="sub">${plural(row.memberCount ?? 0, 'member', 'members')}</span>` : '';
  const you = row.viewer ? `<span class="you">${view === 'clans' ? 'Your clan' : 'You'}</span>` : '';
  return (
    `<li class="${classes}" data-id="${escapeHtml(row.id)}"${row.viewer ? ' aria-current="true"' : ''}>` +
    `<span class="rank">${row.rank}</span>${avatar}` +
    `<span class="who"><span class="name">${escapeHtml(row.name)}</span>${you}${sub}</span>` +
    `<span class="score">${formatScore(row.score)}</span></li>`
  );
}

function tabsHtml(tabs: Record<Standings, string>, view: Standings): string {
  const tab = (which: Standings, label: string) =>
    `<a class="tab" href="${escapeHtml(tabs[which])}"${which === view ? ' aria-current="page"' : ''}>${label}</a>`;
  return `<nav class="tabs" aria-label="Ranking">${tab('players', 'Players')}${tab('clans', 'Clans')}</nav>`;
}

const seasonLabel = (link: SeasonLink) => `Season ${link.season}${link.current ? ' (current)' : ''}`;

const CHEVRON =
  '<svg class="chevron" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false"><path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/></svg>';

/**
 * The season switcher: a disclosure of plain links, so it works before (and without) the script
 * and under the page's policy, which allows no inline script and no form submission.
 */
function seasonsHtml(links: SeasonLink[]): string {
  const shown = links.find((link) => link.shown);
  const items = links
    .map(
      (link) =>
        `<li><a class="season" href="${escapeHtml(link.href)}"${link.shown ? ' aria-current="page"' : ''}>${seasonLabel(link)}</a></li>`,
    )
    .join('');
  return `<nav class="seasons" aria-label="Season"><details class="season-menu" id="seasons"><summary class="season-pick">${shown ? seasonLabel(shown) : 'Seasons'}${CHEVRON}</summary><ul class="season-list">${items}</ul></details></nav>`;
}

function emptyHtml(view: Standings, pastSeason: number | null): string {
  const [heading, text] =
    pastSeason === null
      ? ['No scores yet', view === 'clans' ? 'No clan is on the board yet.' : 'Be the first to get on the board!']
      : ['No scores this season', `${view === 'clans' ? 'No clan' : 'Nobody'} got on the board in season ${pastSeason}.`];
  return `<section class="empty">
<svg viewBox="0 0 48 48" width="56" height="56" aria-hidden="true" focusable="false"><path d="M14 8h20v6a10 10 0 0 1-20 0zM14 10H8v3a6 6 0 0 0 6 6M34 10h6v3a6 6 0 0 1-6 6M24 24v8M17 40h14l-2-8H19z" fill="none" stroke="currentColor" stroke-width="2.5" stroke-linejoin="round"/></svg>
<h2>${heading}</h2>
<p>${text}</p>
</section>`;
}

export function renderPage(m: PageModel): string {
  const { leaderboard, view, base } = m;
  const inList = m.rows.some((row) => row.viewer);
  const list = m.rows.length
    ? `<ol class="rows" id="entries">${m.rows.map((row) => rowHtml(row, view, base)).join('')}</ol>`
    : emptyHtml(view, m.pastSeason);
  const more =
    m.total > m.next
      ? `<button class="more" id="more" type="button">Show more</button><p class="status" id="status" role="status"></p>`
      : '';
  // Shown at once when the viewer's row is beyond the first page; the script shows or hides it as
  // the row in the list scrolls out of or into view.
  const pinned = m.viewerRow
    ? `<aside class="pinned" id="pinned" aria-label="${view === 'clans' ? 'Your clan' : 'Your rank'}"${inList ? ' hidden' : ''}><ol class="rows">${rowHtml(m.viewerRow, view, base)}</ol></aside>`
    : '';
  const body = `<main class="board${m.viewerRow ? ' has-pinned' : ''}" id="board" data-entries="${escapeHtml(`${base}/leaderboards/${encodeURIComponent(leaderboard.id)}/entries`)}" data-token="${escapeHtml(m.token)}" data-view="${view}" data-next="${m.next}" data-total="${m.total}" data-limit="${m.pageSize}" data-base="${escapeHtml(base)}"${m.season === undefined ? '' : ` data-season="${m.season}"`}>
<header class="bar">
<div class="titles"><h1>${escapeHtml(leaderboard.name)}</h1><p class="meta">${plural(m.total, view === 'clans' ? 'clan' : 'player', view === 'clans' ? 'clans' : 'players')}</p></div>
${closeButton(m.close)}
</header>
${m.seasons ? seasonsHtml(m.seasons) : ''}
${m.tabs ? tabsHtml(m.tabs, view) : ''}
${list}
${more}
${pinned}
</main>`;
  const title = m.pastSeason === null ? leaderboard.name : `${leaderboard.name} · Season ${m.pastSeason}`;
  return shell({ title, css: m.css, icon: m.icon, script: m.script, body });
}
