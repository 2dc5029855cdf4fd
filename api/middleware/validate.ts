import type { RequestHandler } from 'express';
import type Joi from 'joi';
import { ValidationError } from '../../engine/errors.js';

interface Schemas {
  params?: Joi.Schema;
  query?: Joi.Schema;
  body?: Joi.Schema;
}

const PREFERENCES: Joi.ValidationOptions = { abortEarly: false, convert: true, errors: { wrap: { label: false } } };
const PARTS = ['params', 'query', 'body'] as const;

/**
 * Checks params, query and body against joi schemas and puts the converted values on
 * res.locals (Express 5 makes req.query read-only). Every problem is listed, not just the first.
 */
export function validate(schemas: Schemas): RequestHandler {
  // Preferences are merged into each schema once, not on every request.
  const prepared = PARTS.flatMap((part) => (schemas[part] ? [[part, schemas[part].prefs(PREFERENCES)] as const] : []));
  return (req, res, next) => {
    const details: { field: string; message: string }[] = [];
    for (const [part, schema] of prepared) {
      const input: unknown = part === 'body' ? (req.body ?? {}) : req[part];
      const { value, error } = schema.validate(input);
      if (error) {
        for (const detail of error.details) {
          details.push({ field: detail.path.join('.') || part, message: detail.message });
        }
      } else {
        res.locals[part] = value;
      }
    }
    if (details.length > 0) {
      const fields = [...new Set(details.map((d) => d.field))].join(', ');
      return next(new ValidationError(`The request is not valid: check ${fields}.`, details));
    }
    next();
  };
}
