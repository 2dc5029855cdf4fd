import type { Leaderboard } from '../../../engine/leaderboards/leaderboard-store.js';
import type { Standings } from '../../../engine/live/types.js';
import { avatarUrl } from '../../views.js';
import { html, type Html } from '../../html.js';
import { formatScore } from './html.js';
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
  /** The viewer's player id: the script marks their row in live updates. */
  viewerId: string;
  /** The live stream the script follows (the current season's players only), else null. */
  live: string | null;
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

/**
 * One ranked line; the page's script builds the same structure for rows it loads later. A board's
 * tiebreakers follow the score, each with its name: under the name on a phone, in columns under the
 * heads on a wider screen (page.css).
 */
function rowHtml(row: Row, view: Standings, base: string, columns: string[]): Html {
  const classes = ['row', row.viewer ? 'me' : '', row.rank <= 3 ? `top top-${row.rank}` : ''].filter(Boolean).join(' ');
  const avatar =
    view === 'players'
      ? html`<img class="avatar" src="${avatarUrl(base, row.id, AVATAR_SIZE)}" alt="" width="40" height="40">`
      : html`<span class="avatar badge" aria-hidden="true">${initial(row.name)}</span>`;
  const sub = view === 'clans' ? html`<span class="sub">${plural(row.memberCount ?? 0, 'member', 'members')}</span>` : html``;
  const you = row.viewer ? html`<span class="you">${view === 'clans' ? 'Your clan' : 'You'}</span>` : html``;
  return html`<li class="${classes}" data-id="${row.id}"${row.viewer ? html` aria-current="true"` : html``}><span class="rank">${row.rank}</span>${avatar}<span class="who"><span class="name">${row.name}</span>${you}${moveHtml(row.rankChange)}${sub}</span><span class="score">${formatScore(row.score)}</span>${tiebreakersHtml(row, columns)}</li>`;
}

/**
 * How far the row moved since the board's latest daily snapshot (docs/history.md): an arrow and the
 * places, read out as words (the arrow is hidden from screen readers); nothing when it did not move.
 */
function moveHtml(change: number | null | undefined): Html {
  if (!change) return html``;
  const up = change > 0;
  const places = Math.abs(change);
  return html`<span class="move ${up ? 'up' : 'down'}" title="${up ? 'Up' : 'Down'} ${places} since the last daily ranking"><span aria-hidden="true">${up ? '▲' : '▼'}</span>${formatScore(places)}<span class="sr-only"> ${places === 1 ? 'place' : 'places'} ${up ? 'up' : 'down'}</span></span>`;
}

function tiebreakersHtml(row: Row, columns: string[]): Html {
  if (!row.tiebreakers || row.tiebreakers.length === 0) return html``;
  return html`<span class="tbs">${row.tiebreakers.map((value, i) => html`<span class="tb"><span class="tb-name">${columns[i] ?? ''}</span> ${formatScore(value)}</span>`)}</span>`;
}

/** The column names above the rows of a board with tiebreakers, on the rows' own grid. */
function headsHtml(columns: string[]): Html {
  if (columns.length === 0) return html``;
  return html`<div class="heads tb-${columns.length}" aria-hidden="true"><span></span><span></span><span></span><span>Score</span>${columns.map((name) => html`<span>${name}</span>`)}</div>`;
}

function tabsHtml(tabs: Record<Standings, string>, view: Standings): Html {
  const tab = (which: Standings, label: string) =>
    html`<a class="tab" href="${tabs[which]}"${which === view ? html` aria-current="page"` : html``}>${label}</a>`;
  return html`<nav class="tabs" aria-label="Ranking">${tab('players', 'Players')}${tab('clans', 'Clans')}</nav>`;
}

const seasonLabel = (link: SeasonLink) => `Season ${link.season}${link.current ? ' (current)' : ''}`;

const CHEVRON = html`<svg class="chevron" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false"><path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/></svg>`;

/**
 * The season switcher: a disclosure of plain links, so it works before (and without) the script
 * and under the page's policy, which allows no inline script and no form submission.
 */
function seasonsHtml(links: SeasonLink[]): Html {
  const shown = links.find((link) => link.shown);
  const items = links.map(
    (link) =>
      html`<li><a class="season" href="${link.href}"${link.shown ? html` aria-current="page"` : html``}>${seasonLabel(link)}</a></li>`,
  );
  return html`<nav class="seasons" aria-label="Season"><details class="season-menu" id="seasons"><summary class="season-pick">${shown ? seasonLabel(shown) : 'Seasons'}${CHEVRON}</summary><ul class="season-list">${items}</ul></details></nav>`;
}

function emptyHtml(view: Standings, pastSeason: number | null): Html {
  const [heading, text] =
    pastSeason === null
      ? ['No scores yet', view === 'clans' ? 'No clan is on the board yet.' : 'Be the first to get on the board!']
      : ['No scores this season', `${view === 'clans' ? 'No clan' : 'Nobody'} got on the board in season ${pastSeason}.`];
  return html`<section class="empty">
<svg viewBox="0 0 48 48" width="56" height="56" aria-hidden="true" focusable="false"><path d="M14 8h20v6a10 10 0 0 1-20 0zM14 10H8v3a6 6 0 0 0 6 6M34 10h6v3a6 6 0 0 1-6 6M24 24v8M17 40h14l-2-8H19z" fill="none" stroke="currentColor" stroke-width="2.5" stroke-linejoin="round"/></svg>
<h2>${heading}</h2>
<p>${text}</p>
</section>`;
}

export function renderPage(m: PageModel): string {
  const { leaderboard, view, base } = m;
  // Clan standings are sums: only players' entries carry tiebreakers.
  const columns = view === 'players' ? leaderboard.tiebreakers.map((column) => column.name) : [];
  const grid = columns.length > 0 ? ` tb-${columns.length}` : '';
  const inList = m.rows.some((row) => row.viewer);
  const list = m.rows.length
    ? html`${headsHtml(columns)}<ol class="rows${grid}" id="entries">${m.rows.map((row) => rowHtml(row, view, base, columns))}</ol>`
    : emptyHtml(view, m.pastSeason);
  const more =
    m.total > m.next
      ? html`<button class="more" id="more" type="button">Show more</button><p class="status" id="status" role="status"></p>`
      : html``;
  // Shown at once when the viewer's row is beyond the first page; the script shows or hides it as
  // the row in the list scrolls out of or into view.
  const pinned = m.viewerRow
    ? html`<aside class="pinned" id="pinned" aria-label="${view === 'clans' ? 'Your clan' : 'Your rank'}"${inList ? html` hidden` : html``}><ol class="rows${grid}">${rowHtml(m.viewerRow, view, base, columns)}</ol></aside>`
    : html``;
  const body = html`<main class="board${m.viewerRow ? ' has-pinned' : ''}" id="board" data-entries="${base}/leaderboards/${encodeURIComponent(leaderboard.id)}/entries" data-token="${m.token}" data-view="${view}" data-next="${m.next}" data-total="${m.total}" data-limit="${m.pageSize}" data-base="${base}" data-tiebreakers="${columns.join(',')}" data-viewer="${m.viewerId}"${m.live === null ? html`` : html` data-live="${m.live}"`}${m.season === undefined ? html`` : html` data-season="${m.season}"`}>
<header class="bar">
<div class="titles"><h1>${leaderboard.name}</h1><p class="meta">${plural(m.total, view === 'clans' ? 'clan' : 'player', view === 'clans' ? 'clans' : 'players')}</p></div>
${closeButton(m.close)}
</header>
${m.seasons ? seasonsHtml(m.seasons) : html``}
${m.tabs ? tabsHtml(m.tabs, view) : html``}
${list}
${more}
${pinned}
</main>`;
  const title = m.pastSeason === null ? leaderboard.name : `${leaderboard.name} · Season ${m.pastSeason}`;
  return shell({ title, css: m.css, icon: m.icon, script: m.script, body });
}
