import { escapeHtml } from './html.js';

/** An inline "×" icon: part of the markup, so the page needs no image for it. */
const CLOSE_ICON =
  '<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false"><path d="M6 6l12 12M18 6L6 18" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/></svg>';

/** The close control: a link, so it works before (and without) the script; announced as "Close". */
export function closeButton(href: string | null): string {
  if (href === null) return '';
  return `<a class="close" id="close" role="button" aria-label="Close" title="Close" href="${escapeHtml(href)}">${CLOSE_ICON}</a>`;
}

interface Shell {
  title: string;
  css: string;
  /** Linked so browsers do not ask for /favicon.ico, which the service does not have. */
  icon: string;
  script?: string;
  body: string;
}

/** The document around every web page: mobile viewport, one stylesheet, at most one deferred script. */
export function shell({ title, css, icon, script, body }: Shell): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="${escapeHtml(icon)}" type="image/svg+xml">
<link rel="stylesheet" href="${escapeHtml(css)}">
${script ? `<script src="${escapeHtml(script)}" defer></script>` : ''}
</head>
<body>
${body}
</body>
</html>
`;
}
