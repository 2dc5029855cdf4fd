import type Joi from 'joi';
import type { Request } from 'express';
import { ValidationError } from '../../engine/errors.js';

export interface Schemas {
  params?: Joi.Schema | undefined;
  query?: Joi.Schema | undefined;
  body?: Joi.Schema | undefined;
  /** Headers the handler reads (beside credentials); the others pass unchecked. */
  headers?: Joi.ObjectSchema | undefined;
}

export interface Validated {
  params: unknown;
  query: unknown;
  body: unknown;
}

const PREFERENCES: Joi.ValidationOptions = { abortEarly: false, convert: true, errors: { wrap: { label: false } } };
const PARTS = ['params', 'query', 'body', 'headers'] as const;

/**
 * Checks params, query and body against joi schemas and returns the converted values (Express 5
 * makes req.query read-only, so they are not written back). Every problem is listed, not just the
 * first. A part without a schema is passed on as it arrived.
 */
export function validator(schemas: Schemas): (req: Request) => Validated {
  // Preferences are merged into each schema once, not on every request.
  const prepared = PARTS.flatMap((part) => {
    const schema = part === 'headers' ? schemas.headers?.unknown(true) : schemas[part];
    return schema ? [[part, schema.prefs(PREFERENCES)] as const] : [];
  });
  return (req) => {
    // Read once: Express 5 parses the query string again on every read of req.query.
    const values: Validated = { params: req.params, query: req.query, body: req.body };
    let details: { field: string; message: string }[] | undefined;
    for (const [part, schema] of prepared) {
      const input: unknown = part === 'body' ? (req.body ?? {}) : part === 'query' ? values.query : req[part];
      const { value, error } = schema.validate(input);
      if (error) {
        details ??= [];
        for (const detail of error.details) {
          details.push({ field: fieldName(detail.path) || part, message: detail.message });
        }
      } else if (part !== 'headers') {
        values[part] = value;
      }
    }
    if (details) {
      const fields = [...new Set(details.map((d) => d.field))].join(', ');
      throw new ValidationError(`The request is not valid: check ${fields}.`, details);
    }
    return values;
  };
}

/** A field as the service's own errors name it: `scores[1]`, `tiebreakers[1][0]`, `metadata[2].car`. */
function fieldName(path: (string | number)[]): string {
  return path.reduce<string>((name, key) => (typeof key === 'number' ? `${name}[${key}]` : name ? `${name}.${key}` : key), '');
}
