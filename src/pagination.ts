import { FieldErrors } from './errors.js';
import { isUuid } from './ids.js';

/**
 * Keyset pagination, newest first: rows ordered by (createdAt DESC, id DESC) and
 * a page starts strictly after the row named by the cursor (a plain UUID). Rows
 * created while a client walks the pages land before its first page, so every
 * row is seen exactly once; each page is one indexed query whatever its depth.
 */
export interface PageArgs {
  first?: number | null;
  after?: string | null;
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
  /** the id of the last item, present only when hasMore */
  nextCursor: string | null;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

/** Validates `first` (1-100) and `after` (a UUID); fields named as the REST query names them. */
export function checkPageArgs(args: PageArgs, names = { first: 'limit', after: 'cursor' }, errors = new FieldErrors()) {
  const first = args.first ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) errors.add(names.first, `must be an integer from 1 to ${MAX_PAGE_SIZE}`, args.first);
  if (args.after != null && !isUuid(args.after)) errors.add(names.after, 'must be the nextCursor of a previous page', args.after);
  return { first, after: args.after ?? null, errors };
}

/**
 * `where` filter for rows after the cursor row `{ createdAt, id }`:
 * (createdAt, id) < (cursor.createdAt, cursor.id) in DESC order.
 */
export function afterCursor(cursor: { createdAt: Date; id: string }) {
  return {
    OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }],
  };
}

export const NEWEST_FIRST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

/** Turns `first + 1` fetched rows into a page. */
export function toPage<T extends { id: string }>(rows: T[], first: number): Page<T> {
  const hasMore = rows.length > first;
  const items = hasMore ? rows.slice(0, first) : rows;
  return { items, hasMore, nextCursor: hasMore ? items[items.length - 1].id : null };
}

/** The two calls of a Prisma model that a keyset page needs. */
interface PagedModel<T> {
  findFirst(args: { where: object; select: { id: true; createdAt: true } }): Promise<{ id: string; createdAt: Date } | null>;
  findMany(args: { where: object; orderBy: typeof NEWEST_FIRST; take: number }): Promise<T[]>;
}

/**
 * One page of `model` rows matching `where`, newest first. The cursor must name
 * a row inside `scope` (the caller's rows); anything else is a VALIDATION_ERROR
 * on `cursor`, never a silent empty page.
 */
export async function keysetPage<T extends { id: string }>(
  model: PagedModel<T>,
  scope: object,
  where: object,
  { first, after }: { first: number; after: string | null },
): Promise<Page<T>> {
  const cursor = after ? await model.findFirst({ where: { ...scope, id: after }, select: { id: true, createdAt: true } }) : null;
  if (after && !cursor) {
    const errors = new FieldErrors();
    errors.add('cursor', 'must be the nextCursor of one of your previous pages', after);
    errors.throwIfAny();
  }
  const rows = await model.findMany({ where: cursor ? { AND: [where, afterCursor(cursor)] } : where, orderBy: NEWEST_FIRST, take: first + 1 });
  return toPage(rows, first);
}
