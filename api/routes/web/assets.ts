import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';
import { NotFoundError } from '../../../engine/errors.js';
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
const FILES = ['page.css', 'page.js', 'favicon.svg'];

/**
 * The page's stylesheet, script and icon, read once from the source tree (tsc does not copy them into
 * dist/). Each URL carries a hash of the content, so browsers may keep a file for a year and
 * still see a new version as soon as it ships.
 */
export class Assets {
  private readonly files = new Map<string, Asset>();

  constructor(private readonly base: string) {
    for (const name of FILES) {
      const body = readFileSync(path.join(projectRoot, 'api', 'web-assets', name));
      const hash = createHash('sha256').update(body).digest('base64url').slice(0, 16);
      this.files.set(name, { body, type: TYPES[path.extname(name)]!, etag: `"${hash}"` });
    }
  }

  url(name: string): string {
    const asset = this.files.get(name)!;
    return `${this.base}/web-assets/${name}?v=${asset.etag.slice(1, -1)}`;
  }

  handler(): RequestHandler {
    return (req, res, next) => {
      const asset = this.files.get(String(req.params.file));
      if (!asset) return next(new NotFoundError('not_found', `No web asset is named '${String(req.params.file)}'.`));
      res.setHeader('Content-Type', asset.type);
      res.setHeader('ETag', asset.etag);
      cachePublicly(res, 'public, max-age=31536000, immutable');
      if (req.fresh) return res.status(304).end();
      res.send(asset.body);
    };
  }
}
