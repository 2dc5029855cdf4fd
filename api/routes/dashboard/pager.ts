import { html, type Html } from '../../html.js';

export interface PageLink {
  href: string;
  label: string;
}

/**
 * Every list's pager: a link to the page before, what this page shows, a link to the page after.
 * Nothing at all when there is neither another page nor a count to show.
 */
export function pager(label: string, previous: PageLink | null, next: PageLink | null, shown?: string): Html {
  if (!previous && !next && shown === undefined) return html``;
  const link = (to: PageLink | null) => (to ? html`<a href="${to.href}">${to.label}</a>` : html``);
  return html`<nav class="pager" aria-label="${label}">
    ${link(previous)} ${shown === undefined ? html`` : html`<span class="muted">${shown}</span>`} ${link(next)}
  </nav>`;
}

/** Where a list read `limit` at a time from `offset` stands, of `total`. */
export interface Window {
  offset: number;
  limit: number;
  total: number;
}

/**
 * The pager of a list read `limit` at a time from `offset`: "Previous page" and "Next page" (`at`
 * gives the URL of the page from an offset), and, when `counted`, "51–100 of 120" (`counted.empty`
 * when there is nothing).
 */
export function offsetPager(
  label: string,
  { offset, limit, total }: Window,
  at: (offset: number) => string,
  counted?: { empty: string },
): Html {
  const previous = offset > 0 ? { href: at(Math.max(0, offset - limit)), label: 'Previous page' } : null;
  const next = offset + limit < total ? { href: at(offset + limit), label: 'Next page' } : null;
  const shown = counted && (total === 0 ? counted.empty : `${Math.min(offset + 1, total)}–${Math.min(total, offset + limit)} of ${total}`);
  return pager(label, previous, next, shown);
}
