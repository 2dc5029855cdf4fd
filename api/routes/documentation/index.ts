import { openApiDocument } from '../../openapi/document.js';
import { referencePage } from '../../openapi/reference-page.js';
import { endpoint } from '../endpoint.js';

/** The OpenAPI document and a readable reference rendered from it, with no outside assets. */
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
    handler: ({ app }) => ({ status: 200, body: openApiDocument(app.engine.config) }),
  }),

  endpoint({
    method: 'get',
    path: '/docs',
    operationId: 'getApiReference',
    tag: 'Operations',
    summary: 'A readable API reference',
    description:
      'An interactive reference of this document, served by the service itself with no outside assets: operations grouped by audience, their examples, and calls tried against this service.',
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
      res.type('html');
      return { status: 200, body: referencePage(openApiDocument(app.engine.config)) };
    },
  }),
];
