import Joi from 'joi';
import { NotFoundError } from '../../../engine/errors.js';
import { openApiDocument } from '../../openapi/document.js';
import { REFERENCE_ASSETS, referencePage, serveReferenceAsset } from '../../openapi/reference/page.js';
import { endpoint } from '../endpoint.js';
import { basePath } from '../web/html.js';
import { documentedAs, object } from '../schemas.js';

/** The OpenAPI document and an interactive reference to it (Swagger UI), with no outside assets. */
export const documentationEndpoints = [
  endpoint({
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'Operations',
    summary: 'This document',
    description:
      'The OpenAPI 3.1 description of every endpoint of this service, generated from the same definitions that route, validate and answer requests. Feed it to a client generator.',
    credentials: 'none',
    responses: {
      200: {
        content: 'application/json',
        description: 'This OpenAPI 3.1 document, as a JSON object',
        example: { openapi: '3.1.0', info: { title: 'Leaderboard service', version: '1.0.0' }, paths: {} },
      },
    },
    errors: [],
    handler: ({ app }) => ({ status: 200, body: openApiDocument(app.endpoints, app.engine.config) }),
  }),

  endpoint({
    method: 'get',
    path: '/docs',
    operationId: 'getApiReference',
    tag: 'Operations',
    summary: 'An interactive API reference',
    description:
      'Swagger UI on this document: the operations by tag, their examples, and "Try it out" calls to this service. ' +
      'Every file it loads is served by the service under /docs/assets/.',
    credentials: 'none',
    responses: {
      200: {
        content: 'text/html',
        description: 'The reference page',
        example: '<!doctype html><html lang="en"><head><title>Leaderboard service API</title>…</head><body>…</body></html>',
      },
    },
    errors: [],
    handler({ app, res }) {
      const { config } = app.engine;
      res.type('html');
      return { status: 200, body: referencePage(basePath(config.baseUrl), openApiDocument(app.endpoints, config).info.title) };
    },
  }),

  endpoint({
    method: 'get',
    path: '/docs/assets/:file',
    operationId: 'getApiReferenceAsset',
    tag: 'Operations',
    summary: "The reference's files: Swagger UI's script, stylesheet and icon, and the script that starts it",
    description: 'Cached for a year: the page links them with a hash of their content. A matching If-None-Match gives 304.',
    credentials: 'none',
    // Any name is let through: one that is not a file is 404 not_found.
    params: object({ file: documentedAs(Joi.string(), { enum: REFERENCE_ASSETS }).description('The file') }),
    responses: {
      200: { content: 'text/css', description: 'The file (text/javascript, text/css or image/png)', example: '.swagger-ui { … }' },
      304: { description: 'Not modified: the If-None-Match given is the current version' },
    },
    errors: [404],
    handler({ params: { file }, req, res }) {
      const body = serveReferenceAsset(file, res);
      if (!body) throw new NotFoundError('not_found', `No reference file is named '${file}'.`);
      if (req.fresh) return { status: 304 };
      return { status: 200, body };
    },
  }),
];
