import { html, type Html } from '../../html.js';

// The web page's markup is laid out by hand, not by Prettier (see .prettierrc): a space between two
// inline elements shows on the page, so the templates say exactly what is sent.

/** An inline "×" icon: part of the markup, so the page needs no image for it. */
const CLOSE_ICON = html`<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false"><path d="M6 6l12 12M18 6L6 18" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/></svg>`;

/** The close control: a link, so it works before (and without) the script; announced as "Close". */
export function closeButton(href: string | null): Html {
  if (href === null) return html``;
  return html`<a class="close" id="close" role="button" aria-label="Close" title="Close" href="${href}">${CLOSE_ICON}</a>`;
}

interface Shell {
  title: string;
  css: string;
  /** Linked so browsers do not ask for /favicon.ico, which the service does not have. */
  icon: string;
  script?: string;
  body: Html;
}

/** The document around every web page: mobile viewport, one stylesheet, at most one deferred script. */
export function shell({ title, css, icon, script, body }: Shell): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="color-scheme" content="light dark">
<title>${title}</title>
<link rel="icon" href="${icon}" type="image/svg+xml">
<link rel="stylesheet" href="${css}">
${script ? html`<script src="${script}" defer></script>` : html``}
</head>
<body>
${body}
</body>
</html>
`.text;
}
