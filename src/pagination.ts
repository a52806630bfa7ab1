import { Prisma } from './db/client.js';
import { FieldErrors } from './errors.js';
import { isUuid } from './ids.js';

/**
 * Keyset pagination: rows ordered by a sort key with the row's id as the
 * tie-breaker, in either direction, and a page starts strictly after the last
 * row seen. Each page is one indexed query whatever its depth; with a creation
 * date key, newest first, rows created while a client walks the pages land
 * before its first page, so every row is seen exactly once.
 *
 * A cursor is either the last row's UUID (`id`: the position is read back from
 * that row, which must be the caller's), or `opaque`: the position itself,
 * encoded, for keys that a row's id cannot give back cheaply (a computed sum).
 */
export interface PageArgs {
  first?: number | null;
  after?: string | null;
}

export type SortDirection = 'asc' | 'desc';
export type SortValue = Date | number | bigint | string;
export type CursorKind = 'id' | 'opaque';

/** Where a page resumes: the sort key of the last row seen, and its id. */
export interface Position {
  key: SortValue;
  id: string;
}

/** Validated page arguments: the size, and the cursor as sent and as read. */
export interface PageRequest {
  first: number;
  after: string | null;
  /** the position of an opaque cursor; id cursors are read back by the source */
  from: Position | null;
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
  /** the cursor of the last item, present only when hasMore */
  nextCursor: string | null;
  /** the cursor that resumes right after `item` (a relay edge's cursor) */
  cursorOf(item: T): string;
}

const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

/** Field names of the page arguments in errors: the REST query's, for both doors. */
const PAGE_FIELDS = { first: 'limit', after: 'cursor' };

/**
 * The one check of `first` (1-100) and `after` (a UUID, or an opaque cursor this
 * module wrote); violations are added to `errors`, which the caller throws.
 */
export function checkPageArgs(args: PageArgs, { cursor = 'id' as CursorKind, errors = new FieldErrors() } = {}): PageRequest & { errors: FieldErrors } {
  const first = args.first ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE)
    errors.add(PAGE_FIELDS.first, `must be an integer from 1 to ${MAX_PAGE_SIZE}`, args.first);
  const after = args.after ?? null;
  const from = after != null && cursor === 'opaque' ? decodeCursor(after) : null;
  if (after != null && (cursor === 'id' ? !isUuid(after) : !from)) errors.add(PAGE_FIELDS.after, 'must be the nextCursor of a previous page', after);
  return { first, after, from, errors };
}

/** A row and its sort key, as a source reads them. */
export interface Keyed<T> {
  item: T;
  key: SortValue;
}

/** How one listing is ordered and read: modelSource for a column key, sqlSource for a computed one. */
export interface KeysetSource<T extends { id: string }> {
  cursor: CursorKind;
  /** the position of the caller's row `id`, or null when it is not one of theirs */
  positionOf(id: string): Promise<Position | null>;
  /** up to `take` rows strictly after `from` in the source's order */
  rows(from: Position | null, take: number): Promise<Keyed<T>[]>;
}

/**
 * One page of `source`. An id cursor must name a row inside the caller's scope;
 * anything else is a VALIDATION_ERROR on the cursor, never a silent empty page.
 */
export async function keysetPage<T extends { id: string }>(source: KeysetSource<T>, { first, after, from }: PageRequest): Promise<Page<T>> {
  let position = from;
  if (after != null && source.cursor === 'id') {
    position = await source.positionOf(after);
    if (!position) {
      const errors = new FieldErrors();
      errors.add(PAGE_FIELDS.after, 'must be the nextCursor of one of your previous pages', after);
      errors.throwIfAny();
    }
  }
  const rows = await source.rows(position, first + 1);
  const hasMore = rows.length > first;
  const kept = hasMore ? rows.slice(0, first) : rows;
  const keys = new Map(kept.map((r) => [r.item, r.key]));
  const cursorOf = (item: T) => (source.cursor === 'id' ? item.id : encodeCursor({ key: keys.get(item)!, id: item.id }));
  const items = kept.map((r) => r.item);
  return { items, hasMore, nextCursor: hasMore ? cursorOf(items[items.length - 1]) : null, cursorOf };
}

/** The two calls of a Prisma model that a keyset page needs. */
interface PagedModel<T> {
  findFirst(args: { where: object; select: object }): Promise<Record<string, unknown> | null>;
  findMany(args: { where: object; orderBy: object[]; take: number }): Promise<T[]>;
}

/**
 * Rows of a Prisma model matching `where`, ordered by the column `key` (not
 * null) then id. `scope` bounds the rows an id cursor may name (the caller's).
 */
export function modelSource<T extends { id: string }>(
  model: PagedModel<T>,
  {
    scope,
    where,
    key = 'createdAt',
    direction = 'desc',
    cursor = 'id',
  }: { scope: object; where: object; key?: string; direction?: SortDirection; cursor?: CursorKind },
): KeysetSource<T> {
  const beyond = direction === 'desc' ? 'lt' : 'gt';
  return {
    cursor,
    async positionOf(id) {
      const row = await model.findFirst({ where: { ...scope, id }, select: { id: true, [key]: true } });
      return row ? { key: row[key] as SortValue, id } : null;
    },
    async rows(from, take) {
      const after = from && { OR: [{ [key]: { [beyond]: from.key } }, { [key]: from.key, id: { [beyond]: from.id } }] };
      const rows = await model.findMany({ where: after ? { AND: [where, after] } : where, orderBy: [{ [key]: direction }, { id: direction }], take });
      return rows.map((item) => ({ item, key: (item as Record<string, unknown>)[key] as SortValue }));
    },
  };
}

interface RawQuerier {
  $queryRaw<R>(query: Prisma.Sql): Promise<R>;
}

/**
 * Rows ordered by an SQL expression (e.g. a sum of metrics, never null) then
 * id: one query finds the page's ids and keys, `load` reads those rows.
 * `from` is the FROM clause (table and joins), `where` the filter, `id` the
 * id column, all as SQL of the same query.
 */
export function sqlSource<T extends { id: string }>(
  db: RawQuerier,
  opts: {
    from: Prisma.Sql;
    where: Prisma.Sql;
    key: Prisma.Sql;
    id: Prisma.Sql;
    direction: SortDirection;
    cursor?: CursorKind;
    load(ids: string[]): Promise<T[]>;
  },
): KeysetSource<T> {
  const { from: table, where, key, id, direction, load } = opts;
  const order = direction === 'desc' ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const beyond = direction === 'desc' ? Prisma.sql`<` : Prisma.sql`>`;
  return {
    cursor: opts.cursor ?? 'opaque',
    async positionOf(rowId) {
      if (!isUuid(rowId)) return null;
      const [row] = await db.$queryRaw<{ key: SortValue }[]>(Prisma.sql`SELECT ${key} AS key FROM ${table} WHERE (${where}) AND ${id} = ${rowId}::uuid`);
      return row ? { key: row.key, id: rowId } : null;
    },
    async rows(position, take) {
      // a row comparison keeps the tie-breaker in the same direction as the key
      const after = position ? Prisma.sql`AND (${key}, ${id}) ${beyond} (${position.key}, ${position.id}::uuid)` : Prisma.empty;
      const found = await db.$queryRaw<{ id: string; key: SortValue }[]>(
        Prisma.sql`SELECT ${id}::text AS id, ${key} AS key FROM ${table} WHERE (${where}) ${after} ORDER BY ${key} ${order}, ${id} ${order} LIMIT ${take}`,
      );
      const byId = new Map((await load(found.map((r) => r.id))).map((row) => [row.id, row]));
      return found.filter((r) => byId.has(r.id)).map((r) => ({ item: byId.get(r.id)!, key: r.key }));
    },
  };
}

// An opaque cursor is base64url JSON of [type, key, id]: the key keeps its type
// so the next page compares it as the same SQL type.
const KEY_TYPES = {
  d: { is: (v: SortValue) => v instanceof Date, write: (v: SortValue) => (v as Date).toISOString(), read: (s: string) => new Date(s) },
  b: { is: (v: SortValue) => typeof v === 'bigint', write: String, read: (s: string) => BigInt(s) },
  n: { is: (v: SortValue) => typeof v === 'number', write: String, read: (s: string) => Number(s) },
  s: { is: (v: SortValue) => typeof v === 'string', write: String, read: (s: string) => s },
} as const;

function encodeCursor({ key, id }: Position): string {
  const [type, codec] = Object.entries(KEY_TYPES).find(([, c]) => c.is(key))!;
  return Buffer.from(JSON.stringify([type, codec.write(key), id])).toString('base64url');
}

/** The position an opaque cursor names, or null when it is not one this module wrote. */
function decodeCursor(cursor: string): Position | null {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(parts) || parts.length !== 3) return null;
  const [type, raw, id] = parts as unknown[];
  if (typeof type !== 'string' || !Object.hasOwn(KEY_TYPES, type) || typeof raw !== 'string' || typeof id !== 'string' || !isUuid(id)) return null;
  let key: SortValue;
  try {
    key = KEY_TYPES[type as keyof typeof KEY_TYPES].read(raw);
  } catch {
    return null;
  }
  if ((key instanceof Date && Number.isNaN(key.getTime())) || (typeof key === 'number' && !Number.isFinite(key))) return null;
  return { key, id };
}
