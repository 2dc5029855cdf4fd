import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Response } from 'express';
import { projectRoot } from '../../../engine/paths.js';
import { cachePublicly } from '../../middleware/no-store.js';

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};
/** The service's own files (api/web-assets), and the dashboard's chart library from its npm package. */
const FILES: Record<string, string[]> = {
  'page.css': ['api', 'web-assets', 'page.css'],
  'page.js': ['api', 'web-assets', 'page.js'],
  'favicon.svg': ['api', 'web-assets', 'favicon.svg'],
  'dashboard.css': ['api', 'web-assets', 'dashboard.css'],
  'dashboard.js': ['api', 'web-assets', 'dashboard.js'],
  'uPlot.min.css': ['node_modules', 'uplot', 'dist', 'uPlot.min.css'],
  'uPlot.iife.min.js': ['node_modules', 'uplot', 'dist', 'uPlot.iife.min.js'],
};

/** The names the assets are served under (/web-assets/:file). */
export const ASSET_NAMES = Object.keys(FILES);

/**
 * The web page's and the dashboard's stylesheets, scripts and icon, read once from the source tree (tsc does not copy them into
 * dist/). Each URL carries a hash of the content, so browsers may keep a file for a year and
 * still see a new version as soon as it ships.
 */
export class Assets {
  private readonly files = new Map<string, Asset>();

  constructor(private readonly base: string) {
    for (const [name, where] of Object.entries(FILES)) {
      const body = readFileSync(path.join(projectRoot, ...where));
      const hash = createHash('sha256').update(body).digest('base64url').slice(0, 16);
      this.files.set(name, { body, type: TYPES[path.extname(name)]!, etag: `"${hash}"` });
    }
  }

  url(name: string): string {
    const asset = this.files.get(name)!;
    return `${this.base}/web-assets/${name}?v=${asset.etag.slice(1, -1)}`;
  }

  /** The file's body, with its headers set on the answer; undefined when there is no such file. */
  serve(name: string, res: Response): Buffer | undefined {
    const asset = this.files.get(name);
    if (!asset) return undefined;
    res.setHeader('Content-Type', asset.type);
    res.setHeader('ETag', asset.etag);
    cachePublicly(res, 'public, max-age=31536000, immutable');
    return asset.body;
  }
}
