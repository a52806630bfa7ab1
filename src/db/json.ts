/**
 * A JSON column's codec: what the column holds, said once as a zod schema.
 * A read parses the stored value with it, so a row that does not hold what the
 * code expects stops the read with an error naming the column instead of
 * travelling on as a lie of a type; a write is typed, so the code stores the
 * column's type and nothing else without casting it to Prisma's JSON type.
 * Each codec sits beside the type its column stores, in that type's domain.
 */
import { z } from 'zod';
import type { Prisma } from '../generated/prisma/client.ts';

/** A stored JSON value that does not fit its column's schema: a bug or a damaged row, never the caller's doing. */
export class StoredJsonError extends Error {
  constructor(
    readonly column: string,
    readonly issues: z.core.$ZodIssue[],
  ) {
    super(`${column} holds a value that does not fit its schema: ${z.prettifyError({ issues } as z.ZodError)}`);
    this.name = 'StoredJsonError';
  }
}

export interface JsonColumn<T> {
  /** `Model.field`, as the errors name it */
  readonly column: string;
  /** the stored value, checked; Prisma reads SQL NULL and JSON null alike as null */
  read(json: Prisma.JsonValue): T;
  /** the value as Prisma stores it; SQL NULL is written with Prisma.DbNull, not through the codec */
  write(value: Exclude<T, null>): Prisma.InputJsonValue;
}

/**
 * The codec of `column`, which holds what `schema` reads. Objects of a stored
 * shape are best read with z.looseObject: keys the schema does not name come
 * back as they were stored, so a read returns the value the code wrote.
 */
export function jsonColumn<T>(column: string, schema: z.ZodType<T>): JsonColumn<T> {
  return {
    column,
    read(json) {
      const parsed = schema.safeParse(json);
      if (!parsed.success) throw new StoredJsonError(column, parsed.error.issues);
      return parsed.data;
    },
    // the one conversion: T is JSON (what the schema reads from JSON), but an interface
    // lacks the index signature TypeScript looks for in Prisma's JSON object type
    write: (value) => value as Prisma.InputJsonValue,
  };
}

/** Any JSON value, for a column whose shape belongs to someone else (a platform, a caller's answer). */
export const anyJson: z.ZodType<Prisma.JsonValue> = z.json();
/** Any JSON object. */
export const jsonObject: z.ZodType<Prisma.JsonObject> = z.record(z.string(), z.json());
