import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Response } from 'express';
import { projectRoot } from '../../../engine/paths.js';
import { cachePublicly } from '../../middleware/no-store.js';
import { html } from '../../html.js';

/**
 * The interactive API reference at /docs: Swagger UI, from the swagger-ui-dist package, served by
 * this service itself. The page is a small HTML shell; everything it runs is a file under
 * /docs/assets/, so its policy can forbid inline scripts and anything from elsewhere.
 */

/**
 * The Content-Security-Policy of /docs (helmet sets it, see api/app.ts): everything from this service
 * only, nothing inline. Swagger UI needs no more than that, with one addition:
 * - img-src data: its stylesheet draws its icons (the arrows, the locks, the select boxes' chevrons)
 *   as data: URIs.
 * - connect-src 'self': the page fetches /openapi.json, and "Try it out" calls this service.
 * - style-src 'self' holds, without 'unsafe-inline': its React components set their inline styles
 *   through the DOM (element.style), which the policy does not govern, and it adds no <style>
 *   element or style attribute in markup (the browser test watches the console for any refusal).
 * - script-src 'self': the bundle and the script that starts it are files here; it needs no eval.
 */
export const REFERENCE_CSP = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
  frameAncestors: ["'self'"],
};

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

const SWAGGER_UI = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
/** The only files served (any other name is 404): Swagger UI's bundle, stylesheet and icon, and the script that starts it. */
const SOURCES: Record<string, { file: string; type: string }> = {
  'swagger-ui-bundle.js': { file: path.join(SWAGGER_UI, 'swagger-ui-bundle.js'), type: 'text/javascript; charset=utf-8' },
  'swagger-ui.css': { file: path.join(SWAGGER_UI, 'swagger-ui.css'), type: 'text/css; charset=utf-8' },
  'favicon-32x32.png': { file: path.join(SWAGGER_UI, 'favicon-32x32.png'), type: 'image/png' },
  // tsc does not copy it into dist/: it is read from the source tree.
  'reference.js': { file: path.join(projectRoot, 'api', 'openapi', 'reference', 'reference.js'), type: 'text/javascript; charset=utf-8' },
};
export const REFERENCE_ASSETS = Object.keys(SOURCES);

let loaded: Map<string, Asset> | undefined;

/** Read on first use, once per process: the bundle alone is 1.7 MB, and most apps built by the tests never serve it. */
function assets(): Map<string, Asset> {
  if (loaded) return loaded;
  loaded = new Map();
  for (const [name, { file, type }] of Object.entries(SOURCES)) {
    // The stylesheet names a source map that is not served; without the comment, developer tools do not ask for it.
    const body = name.endsWith('.css') ? stripSourceMap(readFileSync(file)) : readFileSync(file);
    const hash = createHash('sha256').update(body).digest('base64url').slice(0, 16);
    loaded.set(name, { body, type, etag: `"${hash}"` });
  }
  return loaded;
}

function stripSourceMap(body: Buffer): Buffer {
  return Buffer.from(body.toString('utf8').replace(/\/\*# sourceMappingURL=[^*]*\*\/\s*$/, ''), 'utf8');
}

/** The file's body with its headers set, cached for a year (its URL carries its hash); undefined when there is no such file. */
export function serveReferenceAsset(name: string, res: Response): Buffer | undefined {
  const asset = assets().get(name);
  if (!asset) return undefined;
  res.setHeader('Content-Type', asset.type);
  res.setHeader('ETag', asset.etag);
  cachePublicly(res, 'public, max-age=31536000, immutable');
  return asset.body;
}

const pages = new Map<string, string>();

/**
 * The page's HTML for a service whose routes are under `base` (BASE_URL's path: '' at the root).
 * Swagger UI reads /openapi.json itself, so the page holds nothing but links to its files.
 */
export function referencePage(base: string, title: string): string {
  const key = `${base} ${title}`;
  let page = pages.get(key);
  if (page === undefined) pages.set(key, (page = renderPage(base, title)));
  return page;
}

function renderPage(base: string, title: string): string {
  const url = (name: string) => `${base}/docs/assets/${name}?v=${assets().get(name)!.etag.slice(1, -1)}`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}: API reference</title>
<link rel="icon" type="image/png" href="${url('favicon-32x32.png')}">
<link rel="stylesheet" href="${url('swagger-ui.css')}">
</head>
<body>
<noscript><p>This reference needs JavaScript. The API description itself is at <a href="${base}/openapi.json">/openapi.json</a>.</p></noscript>
<div id="reference"></div>
<script src="${url('swagger-ui-bundle.js')}" defer></script>
<script src="${url('reference.js')}" defer></script>
</body>
</html>
`.text;
}
