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
    credentials: 'none',
    responses: { 200: { content: 'application/json', description: 'Success' } },
    errors: [],
    handler: ({ app }) => ({ status: 200, body: openApiDocument(app.engine.config) }),
  }),

  endpoint({
    method: 'get',
    path: '/docs',
    operationId: 'getApiReference',
    tag: 'Operations',
    summary: 'A readable API reference',
    credentials: 'none',
    responses: { 200: { content: 'text/html', description: 'Success' } },
    errors: [],
    handler({ app, res }) {
      res.type('html');
      return { status: 200, body: referencePage(openApiDocument(app.engine.config)) };
    },
  }),
];
