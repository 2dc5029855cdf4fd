import { Router } from 'express';
import { openApiDocument } from '../../openapi/document.js';
import { renderReference } from '../../openapi/reference-page.js';

/** The OpenAPI document and a readable reference rendered from it, with no outside assets. */
export function documentationRoutes(): Router {
  const router = Router();
  const page = renderReference(openApiDocument);
  router.get('/openapi.json', (_req, res) => {
    res.json(openApiDocument);
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(page);
  });
  return router;
}
