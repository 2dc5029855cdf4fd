import { openApiDocument, referencePage } from '../../openapi/document.js';
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
    handler: () => ({ status: 200, body: openApiDocument() }),
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
    handler({ res }) {
      res.type('html');
      return { status: 200, body: referencePage() };
    },
  }),
];
