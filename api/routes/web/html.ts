import type { Response } from 'express';

// The same formatting as the page's script, so server-rendered and loaded rows read alike.
const scoreFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 });

export function formatScore(score: number): string {
  return scoreFormat.format(score);
}

/**
 * The page's own policy, replacing helmet's app-wide one: nothing inline, nothing from elsewhere.
 * Scripts, styles, images and fetches come from this service only.
 */
const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

/** The headers of every web page, its errors included. */
export function setPageHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', PAGE_CSP);
  // The page is personal (the viewer's row, their token in its links): never cached or shared.
  res.setHeader('Cache-Control', 'no-store');
  res.type('html');
}

export function sendHtml(res: Response, status: number, html: string): void {
  setPageHeaders(res);
  res.status(status).send(html);
}

/** The raw query string of a request, exactly as it arrived (engines do not always URL-encode). */
export function rawQuery(originalUrl: string): string {
  const at = originalUrl.indexOf('?');
  return at === -1 ? '' : originalUrl.slice(at + 1);
}

/**
 * The close control's target: this page's own URL with sdk_action=close_window added. A relative
 * "?…" URL keeps the page's path whatever proxy prefix it is served under; host apps watch for it.
 */
export function closeHref(originalUrl: string): string {
  const query = rawQuery(originalUrl);
  return `?${query}${query ? '&' : ''}sdk_action=close_window`;
}

/**
 * The page's own URL with other choices (a view, a season; null removes one): its other parameters
 * stay, so the token and the close setting carry over. Relative, like the close control's.
 */
export function pageHref(originalUrl: string, choices: Record<string, string | null>): string {
  const params = new URLSearchParams(rawQuery(originalUrl));
  params.delete('sdk_action');
  for (const [key, value] of Object.entries(choices)) {
    if (value === null) params.delete(key);
    else params.set(key, value);
  }
  return `?${params.toString()}`;
}

export function hidesCloseButton(value: unknown): boolean {
  return value === 'true' || value === '1';
}

/** The path APP_URL puts in front of the service's routes ('' when it is served at the root). */
export function basePath(appUrl: string): string {
  return new URL(appUrl).pathname.replace(/\/+$/, '');
}
