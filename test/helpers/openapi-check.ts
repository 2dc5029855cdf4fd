import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Response } from 'supertest';
import { openApiDocument as documentOf } from '../../api/openapi/document.js';
import { ENDPOINTS } from '../../api/routes/index.js';

/**
 * Checks a response against the OpenAPI document: the operation must exist, the status must be
 * documented for it, and a JSON body must match the documented schema; and when the service
 * accepted the request, the JSON body it was sent must match the documented request body. Every
 * response the integration tests receive passes through here, so the document cannot drift from the code.
 */
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
const openApiDocument = documentOf(ENDPOINTS);
ajv.addSchema({ $id: 'openapi', components: openApiDocument.components });

interface ResponseDoc {
  content?: Record<string, { schema: { $ref?: string } }>;
}
interface OperationDoc {
  responses: Record<string, ResponseDoc>;
  requestBody?: { content: Record<string, { schema: object }> };
}
type Operations = Record<string, OperationDoc>;

const templates = Object.entries(openApiDocument.paths as Record<string, Operations>).map(([template, operations]) => ({
  template,
  pattern: new RegExp('^' + template.replace(/\{[^}]+\}/g, '[^/]+') + '$'),
  operations,
}));

const validators = new Map<string, ReturnType<Ajv2020['compile']>>();
const requestValidators = new Map<OperationDoc, ReturnType<Ajv2020['compile']>>();

/** A request the service accepted must be one the document describes. */
function checkRequestBody(res: Response, operation: OperationDoc, name: string): void {
  const schema = operation.requestBody?.content['application/json']?.schema;
  const sent = (res as unknown as { request?: { _data?: unknown } }).request?._data;
  if (res.status >= 300 || !schema || sent === undefined || typeof sent === 'string') return;
  let validate = requestValidators.get(operation);
  if (!validate) {
    // Request bodies are described inline (no $ref), so each compiles on its own.
    validate = ajv.compile(schema);
    requestValidators.set(operation, validate);
  }
  if (!validate(sent)) {
    throw new Error(
      `OpenAPI: ${name} accepted a request body the document does not describe: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(sent).slice(0, 500)}`,
    );
  }
}

/**
 * The dashboard is left out of the document (README, "The dashboard"): it answers HTML pages, or 303
 * on to another page, never cached, whatever the request.
 */
function checkDashboardAnswer(res: Response, name: string): void {
  if (res.status === 303) {
    if (!String(res.headers.location ?? '').includes('/dashboard'))
      throw new Error(`dashboard: ${name} sent the browser out of the dashboard`);
  } else if (!/^text\/html/.test(String(res.headers['content-type']))) {
    throw new Error(`dashboard: ${name} answered ${res.status} with ${res.headers['content-type']}, not an HTML page`);
  }
  if (res.headers['cache-control'] !== 'no-store') throw new Error(`dashboard: ${name} answered without Cache-Control: no-store`);
}

export function checkAgainstOpenApi(res: Response): void {
  const request = (res as unknown as { req: { method: string; path: string } }).req;
  const pathname = new URL(request.path, 'http://local').pathname;
  const method = request.method.toLowerCase();
  if (pathname === '/dashboard' || pathname.startsWith('/dashboard/')) return checkDashboardAnswer(res, `${request.method} ${pathname}`);
  const match = templates.find((t) => t.pattern.test(pathname) && t.operations[method]);
  if (!match) {
    if (res.status === 404 && res.body?.error?.code === 'not_found') return; // an unknown route, by design
    throw new Error(`OpenAPI: no operation documents ${request.method} ${pathname} (answered ${res.status})`);
  }
  checkRequestBody(res, match.operations[method]!, `${request.method} ${match.template}`);
  const documented = match.operations[method]!.responses[String(res.status)];
  if (!documented) {
    throw new Error(
      `OpenAPI: ${request.method} ${match.template} answered ${res.status}, which is not documented: ${res.text?.slice(0, 300)}`,
    );
  }
  if (res.status === 204 || res.status === 304) return;
  const json = documented.content?.['application/json'];
  if (!json) return;
  // A named body is a component; the one body described inline (this document's own) compiles alone.
  const ref = json.schema.$ref ?? JSON.stringify(json.schema);
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile(json.schema.$ref ? { $ref: `openapi${ref}` } : json.schema);
    validators.set(ref, validate);
  }
  if (!validate(res.body)) {
    throw new Error(
      `OpenAPI: ${request.method} ${match.template} ${res.status} body does not match ${ref}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(res.body).slice(0, 500)}`,
    );
  }
}
