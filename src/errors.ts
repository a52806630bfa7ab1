import { GraphQLError } from 'graphql';

/** The error codes of SPEC.md, Errors, with their HTTP status. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  /** beyond SPEC.md's list: a request not received in time (README, Connection limits) */
  REQUEST_TIMEOUT: 408,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_SERVER_ERROR: 500,
  /** beyond SPEC.md's list: new work refused while the queue or the disk is full (src/limits/back-pressure.ts) */
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** One violated field; `field` is the path as the REST body names it, e.g. `items[1].endTime`. */
export interface FieldError {
  field: string;
  message: string;
  value?: unknown;
}

export interface AppErrorExtensions {
  code: ErrorCode;
  status: number;
  details?: FieldError[] | Record<string, unknown>;
  retryAfter?: number;
}

/**
 * The one domain error type. It is a GraphQLError so resolvers can throw it as is:
 * GraphQL clients read `extensions.code`, the REST layer turns it into
 * `{ error, message, details? }` with `extensions.status`.
 */
export class AppError extends GraphQLError {
  declare readonly extensions: AppErrorExtensions & Record<string, unknown>;

  constructor(code: ErrorCode, message: string, extra: Omit<AppErrorExtensions, 'code' | 'status'> = {}) {
    const details = Array.isArray(extra.details) ? extra.details.map(printable) : extra.details;
    super(message, { extensions: { code, status: ERROR_STATUS[code], ...stripUndefined({ ...extra, details }) } });
    this.name = 'AppError';
  }

  get code(): ErrorCode {
    return this.extensions.code;
  }
}

/** Deeper than this, a value the caller sent is not quoted back (JSON 5,000 levels deep would overflow the stack). */
const MAX_QUOTED_DEPTH = 64;

/** A field error as an answer can carry it: a value nested too deep is left out. */
function printable(e: FieldError): FieldError {
  if (!nestedDeeper(e.value, MAX_QUOTED_DEPTH)) return e;
  const { value: _left, ...rest } = e;
  return rest;
}

function nestedDeeper(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export const validationError = (details: FieldError[], message = describeFieldErrors(details)) => new AppError('VALIDATION_ERROR', message, { details });

export const fieldError = (field: string, message: string, value?: unknown) => validationError([{ field, message, ...(value === undefined ? {} : { value }) }]);

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const badRequest = (message: string) => new AppError('BAD_REQUEST', message);
export const unauthorized = (message = 'Invalid or missing API key') => new AppError('UNAUTHORIZED', message);
export const forbidden = (message: string) => new AppError('FORBIDDEN', message);

function describeFieldErrors(details: FieldError[]): string {
  if (details.length === 0) return 'Invalid request';
  if (details.length === 1) return `Invalid request: ${details[0].field}: ${details[0].message}`;
  return `Invalid request: ${details.length} fields are invalid (${details.map((d) => d.field).join(', ')})`;
}

/** Collects field errors so that one response names every violated field. */
export class FieldErrors {
  readonly list: FieldError[] = [];

  add(field: string, message: string, value?: unknown): void {
    if (this.list.some((e) => e.field === field)) return; // one entry per field
    this.list.push({ field, message, ...(value === undefined ? {} : { value }) });
  }

  has(field: string): boolean {
    return this.list.some((e) => e.field === field);
  }

  get size(): number {
    return this.list.length;
  }

  throwIfAny(): void {
    if (this.list.length) throw validationError(this.list);
  }
}

export function isAppError(e: unknown): e is AppError {
  return (
    e instanceof AppError ||
    (e instanceof GraphQLError && typeof e.extensions?.code === 'string' && e.extensions.code in ERROR_STATUS && typeof e.extensions.status === 'number')
  );
}
