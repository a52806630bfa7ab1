import type { FastifyRequest } from 'fastify';
import { fieldError, isAppError, validationError, type FieldError } from '../src/errors.js';
import { MAX_PAGE_SIZE } from '../src/pagination.js';
import { unstorable } from '../src/validation.js';
import type { JsonSchema } from './response.js';

/** A query parameter: how it is read, and the schema the reference gives it. */
export interface QueryParam<T> {
  read: (req: FastifyRequest, name: string) => T | undefined;
  schema: JsonSchema;
}

/** The declared parameters of a request, each read; every refused one is named in one VALIDATION_ERROR. */
export function readQuery(req: FastifyRequest, params: Record<string, QueryParam<unknown>> = {}): Record<string, unknown> {
  const refused: FieldError[] = [];
  const read = Object.entries(params).map(([name, p]) => {
    try {
      return [name, p.read(req, name)];
    } catch (e) {
      const details = isAppError(e) && e.code === 'VALIDATION_ERROR' ? e.extensions.details : undefined;
      if (!Array.isArray(details)) throw e;
      refused.push(...details);
      return [name, undefined];
    }
  });
  if (refused.length) throw validationError(refused);
  return Object.fromEntries(read);
}

/** Text the service judges (a cursor, a date, a filter), described by `schema`. */
export const textParam = (schema: JsonSchema): QueryParam<string> => ({ read: queryString, schema: { type: 'string', ...schema } });

/** One of `values`, judged here. */
export const enumParam = <T extends string>(values: readonly T[], schema: JsonSchema): QueryParam<T> => ({
  read: (req, name) => queryEnum(req, name, values),
  schema: { type: 'string', enum: values, ...schema },
});

/** The size of a page, 1-100 (its range judged by the service). */
export const pageSize = (fallback: number): QueryParam<number> => ({
  read: (req, name) => queryInt(req, name),
  schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: fallback, description: `items per page, 1-${MAX_PAGE_SIZE}` },
});

/**
 * A query-string integer. Only the text is judged here (is it a whole number that
 * fits GraphQL's Int?); the service judges its range, so both doors say the same.
 */
export function queryInt(req: FastifyRequest, name: string, hint = `must be an integer from 1 to ${MAX_PAGE_SIZE}`): number | undefined {
  const raw = (req.query as Record<string, unknown>)[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^[+-]?\d{1,9}$/.test(raw)) throw fieldError(name, hint, raw);
  return Number(raw);
}

/** A query-string value given at most once; text the service could not store is named here as the query names it. */
export function queryString(req: FastifyRequest, name: string): string | undefined {
  const raw = (req.query as Record<string, unknown>)[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw fieldError(name, 'must be given once', raw);
  const why = unstorable(raw);
  if (why) throw fieldError(name, why, raw);
  return raw;
}

/** A query-string value that must be one of `values`. */
export function queryEnum<T extends string>(req: FastifyRequest, name: string, values: readonly T[]): T | undefined {
  const raw = queryString(req, name);
  if (raw === undefined) return undefined;
  if (!values.includes(raw as T)) throw fieldError(name, `must be one of ${values.join(', ')}`, raw);
  return raw as T;
}
