// A mutation's body read once per request, through either door.
import type { Context } from './context.js';

/**
 * The domain's reading of one mutation's body (a service's reader, as
 * readCreateBody), declared beside its resolver. Through GraphQL the service
 * reads its typed input itself. Through /v1 the REST adapter's check runs it on
 * the raw body before GraphQL coerces it (plugins/variable-checks.ts), so a
 * body of wrong types is refused whole in the service's words; what that check
 * read is kept on the request's context under this reader, and the resolver
 * hands it to the service instead of having the body read, and its presets,
 * themes and library files looked up, a second time.
 */
export interface BodyReader<TArgs, T> {
  /** The REST adapter's check: reads the raw variables and keeps what it read for the resolver; throws the service's AppError. */
  check: (ctx: Context, raw: TArgs) => Promise<T>;
  /** What this request's check read, taken once (a retry of the work reads again); undefined when no check ran. */
  kept: (ctx: Context) => T | undefined;
}

export function bodyReader<TArgs, T>(read: (ctx: Context, args: TArgs) => T | Promise<T>): BodyReader<TArgs, T> {
  const reader: BodyReader<TArgs, T> = {
    async check(ctx, raw) {
      const value = await read(ctx, raw);
      (ctx.bodyReads ??= new Map()).set(reader, value);
      return value;
    },
    kept(ctx) {
      if (!ctx.bodyReads?.has(reader)) return undefined;
      const value = ctx.bodyReads.get(reader) as T;
      ctx.bodyReads.delete(reader);
      return value;
    },
  };
  return reader;
}
