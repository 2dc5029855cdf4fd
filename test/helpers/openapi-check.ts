import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Response } from 'supertest';
import { openApiDocument as documentOf } from '../../api/openapi/document.js';

/**
 * Checks a response against the OpenAPI document: the operation must exist, the status must be
 * documented for it, and a JSON body must match the documented schema. Every response the
 * integration tests receive passes through here, so the document cannot drift from the code.
 */
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
const openApiDocument = documentOf();
ajv.addSchema({ $id: 'openapi', components: openApiDocument.components });

interface ResponseDoc {
  content?: Record<string, { schema: { $ref?: string } }>;
}
type Operations = Record<string, { responses: Record<string, ResponseDoc> }>;

const templates = Object.entries(openApiDocument.paths as Record<string, Operations>).map(([template, operations]) => ({
  template,
  pattern: new RegExp('^' + template.replace(/\{[^}]+\}/g, '[^/]+') + '$'),
  operations,
}));

const validators = new Map<string, ReturnType<Ajv2020['compile']>>();

export function checkAgainstOpenApi(res: Response): void {
  const request = (res as unknown as { req: { method: string; path: string } }).req;
  const pathname = new URL(request.path, 'http://local').pathname;
  const method = request.method.toLowerCase();
  const match = templates.find((t) => t.pattern.test(pathname) && t.operations[method]);
  if (!match) {
    if (res.status === 404 && res.body?.error?.code === 'not_found') return; // an unknown route, by design
    throw new Error(`OpenAPI: no operation documents ${request.method} ${pathname} (answered ${res.status})`);
  }
  const documented = match.operations[method]!.responses[String(res.status)];
  if (!documented) {
    throw new Error(`OpenAPI: ${request.method} ${match.template} answered ${res.status}, which is not documented: ${res.text?.slice(0, 300)}`);
  }
  if (res.status === 204 || res.status === 304) return;
  const json = documented.content?.['application/json'];
  if (!json) return;
  const ref = json.schema.$ref!;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: `openapi${ref}` });
    validators.set(ref, validate);
  }
  if (!validate(res.body)) {
    throw new Error(
      `OpenAPI: ${request.method} ${match.template} ${res.status} body does not match ${ref}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(res.body).slice(0, 500)}`,
    );
  }
}
