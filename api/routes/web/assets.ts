import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Response } from 'express';
import Joi from 'joi';
import { NotFoundError } from '../../../engine/errors.js';
import { projectRoot } from '../../../engine/paths.js';
import { cachePublicly } from '../../middleware/no-store.js';
import { endpoint } from '../endpoint.js';
import { documentedAs, object } from '../schemas.js';

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

export const assetsEndpoint = endpoint({
  method: 'get',
  path: '/web-assets/:file',
  operationId: 'getWebAsset',
  tag: 'Web page',
  summary: "The page's stylesheet (page.css), script (page.js) and icon (favicon.svg), and the dashboard's files",
  description: 'Cached for a year: the page links them with a hash of their content. A matching If-None-Match gives 304.',
  credentials: 'none',
  servedFromAppUrl: true,
  // Any name is let through: one that is not a file is 404 not_found.
  params: object({ file: documentedAs(Joi.string(), { enum: Object.keys(FILES) }).description('The file') }),
  responses: {
    200: {
      content: 'text/css',
      description: 'The file (text/css, text/javascript or image/svg+xml)',
      example: ':root { color-scheme: light dark; }',
    },
    304: { description: 'Not modified: the If-None-Match given is the current version' },
  },
  errors: [404],
  handler({ params: { file }, app: { assets }, req, res }) {
    const body = assets.serve(file, res);
    if (!body) throw new NotFoundError('not_found', `No web asset is named '${file}'.`);
    if (req.fresh) return { status: 304 };
    return { status: 200, body };
  },
});
