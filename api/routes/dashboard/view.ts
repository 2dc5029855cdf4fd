import type { Request, Response } from 'express';
import type { Game } from '../../../engine/games/game-store.js';
import type { AppContext } from '../endpoint.js';
import { html, type Html } from '../../html.js';
import { csrfToken, type SignedIn } from '../../middleware/dashboard-session.js';

export type Section = 'Overview' | 'Leaderboards' | 'Players' | 'Review' | 'Audit log' | 'Settings';

const SECTIONS: { name: Section; path: string }[] = [
  { name: 'Overview', path: '/overview' },
  { name: 'Leaderboards', path: '/leaderboards' },
  { name: 'Players', path: '/players' },
  { name: 'Review', path: '/reviews' },
  { name: 'Audit log', path: '/audit-log' },
  { name: 'Settings', path: '/settings' },
];

/** What every page of one request needs: where the dashboard lives, its assets, the form token, who is signed in. */
export interface Screen {
  base: string;
  app: AppContext;
  csrf: string;
  game: Game | null;
  session: SignedIn | null;
  /** How many confirmation popovers the page has so far: each gets an id of its own. */
  confirmations: number;
}

export function screenOf(app: AppContext, req: Request, res: Response, game: Game | null = null): Screen {
  return { base: app.base, app, csrf: csrfToken(req, res), game, session: req.session?.signedIn ?? null, confirmations: 0 };
}

/** A dashboard URL: `path` is under /dashboard ('' for its root). */
export function href(screen: Pick<Screen, 'base'>, path: string): string {
  return `${screen.base}/dashboard${path}`;
}

/** A form that changes something: posted with this session's CSRF token. */
export function postForm(screen: Screen, action: string, inner: Html, attributes: Html = html``): Html {
  return html`<form method="post" action="${href(screen, action)}" ${attributes}>
    <input type="hidden" name="_csrf" value="${screen.csrf}" />
    ${inner}
  </form>`;
}

/** A one-button form (remove, revoke, sign out…). */
export function postButton(screen: Screen, action: string, label: string, className = 'button'): Html {
  return postForm(screen, action, html`<button type="submit" class="${className}">${label}</button>`, html`class="inline"`);
}

/**
 * A change that asks first: a button opens a popover with the question, any fields the change takes, and
 * the button that does it. The popover is the browser's own (`popovertarget`): it needs no script, opens in
 * front of scrolling tables, moves focus to "Cancel" and closes on Escape. The question names nothing
 * stored (a name already shows beside the button); a button in a list says whose it is in its accessible
 * name (`{ text, name }`).
 */
export function confirmButton(
  screen: Screen,
  action: string,
  label: string | { text: string; name: string },
  question: string,
  confirmLabel: string,
  fields: Html = html``,
): Html {
  const id = `confirm-${++screen.confirmations}`;
  const { text, name } = typeof label === 'string' ? { text: label, name: label } : label;
  return html`<button type="button" class="button danger" popovertarget="${id}" aria-label="${name}">${text}</button>
    <div id="${id}" popover class="confirm" role="dialog" aria-labelledby="${id}-question">
      <p id="${id}-question">${question}</p>
      ${postForm(
        screen,
        action,
        html`${fields}
          <div class="actions">
            <button type="submit" class="button danger confirmed">${confirmLabel}</button>
            <button type="button" class="button subtle" popovertarget="${id}" popovertargetaction="hide" autofocus>Cancel</button>
          </div>`,
        html`class="stack"`,
      )}
    </div>`;
}

/** A column: its heading, right-aligned numbers, or a heading only screen readers hear (a buttons column). */
export type Column = string | { label: string; numeric: true } | { hidden: string };

/**
 * Every table of the dashboard: inside a box that scrolls sideways on a narrow screen (focusable, so
 * a keyboard can scroll it too), with column headings and, when given, a caption screen readers hear.
 */
export function dataTable(columns: Column[], rows: unknown, options: { id?: string; className?: string; caption?: unknown } = {}): Html {
  const heading = (column: Column) =>
    typeof column === 'string'
      ? html`<th scope="col">${column}</th>`
      : 'hidden' in column
        ? html`<th scope="col"><span class="visually-hidden">${column.hidden}</span></th>`
        : html`<th scope="col" class="number">${column.label}</th>`;
  const caption =
    options.caption === undefined
      ? html``
      : html`<caption class="visually-hidden">
          ${options.caption}
        </caption>`;
  return html`<div class="table-wrap" tabindex="0">
<table${options.id ? html` id="${options.id}"` : html``}${options.className ? html` class="${options.className}"` : html``}>
${caption}
<thead><tr>${columns.map(heading)}</tr></thead>
<tbody>${rows}</tbody>
</table>
</div>`;
}

/** A notice shown at the top of a page after a change (`?done=` on the page it redirects to). */
export function notice(text: string | undefined, kind: 'ok' | 'error' = 'ok'): Html {
  if (!text) return html``;
  return html`<p class="notice ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${text}</p>`;
}

export interface PageParts {
  title: string;
  /** The navigation link shown as current; none on the sign-in and game pages. */
  section?: Section;
  body: Html;
  /** Extra scripts (the Overview's chart). */
  scripts?: string[];
  /** Extra stylesheets. */
  styles?: string[];
}

/**
 * The document around every dashboard page: a skip link, the header with the game's name and the
 * sign-out button, the sections' navigation (when a game is chosen), and the main content.
 */
export function dashboardPage(screen: Screen, { title, section, body, scripts = [], styles = [] }: PageParts): string {
  const { assets } = screen.app;
  const nav = screen.game
    ? html`<nav class="sections" aria-label="Dashboard">
        <ul>
          ${SECTIONS.map(
            ({ name, path }) =>
              html`<li><a href="${href(screen, path)}" ${name === section ? html` aria-current="page"` : html``}>${name}</a></li>`,
          )}
        </ul>
      </nav>`
    : html``;
  const who = screen.session
    ? html`<div class="who">
        ${screen.game ? html`<span class="game-name">${screen.game.name}</span>` : html``}
        ${screen.session.via === 'admin' ? html`<a href="${href(screen, '/games')}">Games</a>` : html``}
        ${postButton(screen, '/sign-out', 'Sign out', 'button subtle')}
      </div>`
    : html``;
  const page = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>${title} · Leaderboard dashboard</title>
        <link rel="icon" href="${assets.url('favicon.svg')}" type="image/svg+xml" />
        ${styles.map((name) => html`<link rel="stylesheet" href="${assets.url(name)}" />`)}
        <link rel="stylesheet" href="${assets.url('dashboard.css')}" />
        ${scripts.map((name) => html`<script src="${assets.url(name)}" defer></script>`)}
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="top">
          <a class="brand" href="${href(screen, '')}">Leaderboard service</a>
          ${who}
        </header>
        ${nav}
        <main id="main" tabindex="-1">
          <h1>${title}</h1>
          ${body}
        </main>
      </body>
    </html> `;
  return page.text;
}

/** Sends a page: the headers (CSP, no-store) are set for every dashboard response before its route. */
export function pageReply(text: string): { status: 200; body: string } {
  return { status: 200, body: text };
}

/** A form's answer: on to another dashboard page (303, so a reload does not post again). */
export function seeOther(screen: Pick<Screen, 'base'>, res: Response, path: string): { status: 303 } {
  res.location(href(screen, path));
  return { status: 303 };
}
