import Joi from 'joi';
import { NotFoundError } from '../../../engine/errors.js';
import { endpoint } from '../endpoint.js';
import { documentedAs, object } from '../schemas.js';
import { ASSET_NAMES } from './asset-files.js';

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
  params: object({ file: documentedAs(Joi.string(), { enum: ASSET_NAMES }).description('The file') }),
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
