import { FieldErrors } from './errors.js';

export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads a JSON body or GraphQL input field by field for the domain services:
 * unknown fields, wrong types and broken rules all land in one FieldErrors, so a
 * caller learns every violated field at once. A field that is absent (or
 * `undefined`, as GraphQL passes an input field that was not sent) reads as
 * `undefined`; an explicit `null` is refused unless the field allows it.
 */
export class InputReader {
  readonly errors = new FieldErrors();
  private readonly body: Record<string, unknown>;

  constructor(input: unknown, known: readonly string[]) {
    this.body = isPlainObject(input) ? input : {};
    if (!isPlainObject(input)) this.errors.add('body', 'must be a JSON object', input);
    for (const key of Object.keys(this.body)) {
      if (!known.includes(key)) this.errors.add(key, 'is not a known field', this.body[key]);
    }
  }

  /** the fields that were sent (unknown ones included) */
  get sent(): string[] {
    return Object.keys(this.body).filter((k) => this.body[k] !== undefined);
  }

  /** refuses a body with no field at all */
  requireSome(known: readonly string[]): void {
    if (this.sent.length === 0 && this.errors.size === 0) this.errors.add('body', `must contain at least one of: ${known.join(', ')}`);
  }

  /** a text of `min`-`max` characters; `min` 1 also refuses a text of spaces only */
  text(field: string, opts: { max: number; min?: number; nullable?: boolean; required?: boolean }): string | null | undefined {
    const min = opts.min ?? 1;
    return this.read(field, opts, (v) => {
      if (typeof v !== 'string') return 'must be a string';
      if (v.length < min || v.length > opts.max || (min > 0 && v.trim() === '')) {
        return min > 0 ? `must be ${min}-${opts.max} characters, not only spaces` : `must be at most ${opts.max} characters`;
      }
      return null;
    }) as string | null | undefined;
  }

  boolean(field: string): boolean | undefined {
    return this.read(field, {}, (v) => (typeof v === 'boolean' ? null : 'must be a boolean (true or false)')) as boolean | undefined;
  }

  /** an integer from `min` to `max` */
  int(field: string, min: number, max: number, opts: { nullable?: boolean } = {}): number | null | undefined {
    return this.read(field, opts, (v) => (Number.isInteger(v) && (v as number) >= min && (v as number) <= max ? null : `must be an integer from ${min} to ${max}`)) as
      | number
      | null
      | undefined;
  }

  /** a finite number from `min` to `max` */
  number(field: string, min: number, max: number, opts: { nullable?: boolean; required?: boolean } = {}): number | null | undefined {
    return this.read(field, opts, (v) =>
      typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max ? null : `must be a number from ${min} to ${max}`,
    ) as number | null | undefined;
  }

  /** the raw value of a field that a caller checks itself (objects, arrays, unions) */
  value(field: string): unknown {
    return this.body[field];
  }

  /** true when the field was sent (with any value, null included) */
  has(field: string): boolean {
    return this.body[field] !== undefined;
  }

  /** one of a fixed list of strings */
  oneOf<T extends string>(field: string, values: readonly T[], opts: { nullable?: boolean } = {}): T | null | undefined {
    return this.read(field, opts, (v) => (values.includes(v as T) ? null : `must be one of: ${values.join(', ')}`)) as T | null | undefined;
  }

  /** a string matching `pattern`, described by `rule` in the error */
  matching(field: string, pattern: RegExp, rule: string, opts: { nullable?: boolean } = {}): string | null | undefined {
    return this.read(field, opts, (v) => (typeof v === 'string' && pattern.test(v) ? null : rule)) as string | null | undefined;
  }

  private read(field: string, opts: { nullable?: boolean; required?: boolean }, problem: (v: unknown) => string | null): unknown {
    const v = this.body[field];
    if (v === undefined) {
      if (opts.required) this.errors.add(field, 'is required');
      return undefined;
    }
    if (v === null) {
      if (opts.nullable) return null;
      this.errors.add(field, opts.required ? 'is required' : 'must not be null', null);
      return undefined;
    }
    const message = problem(v);
    if (message) this.errors.add(field, message, v);
    return message ? undefined : v;
  }
}
