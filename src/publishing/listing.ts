/**
 * GET /v1/projects/published and its connection: the caller's publications
 * with their project, totals and posts, filtered, sorted and paged by an
 * opaque keyset cursor.
 *
 * A traversal is pinned to the instant of its first page (`asOf`, carried by
 * the cursor): publications made after it are left out, and `to` defaults to
 * it, so a publication arriving while a client pages is never met in the middle.
 * Sorting by views or engagement orders by the totals settled at the end of
 * the last settled UTC day (Publication.settled*, analytics.ts), which do not
 * change while today's counts grow; the cursor carries that day too, and a
 * traversal that outlives a settlement reads its keys as of its own day (the
 * previous keys, or the keys kept of its day), so no page repeats or skips an
 * item. A cursor also names
 * the sortBy and direction it was made for, and is refused with others.
 * `totals` show the latest counts.
 */
import { Prisma, type Db } from '../db/client.js';
import { FieldErrors } from '../errors.js';
import { isPlatformKey, PLATFORM_KEYS, type PlatformKey } from '../catalog/platforms.js';
import { isUuid } from '../ids.js';
import { MAX_PAGE_SIZE } from '../pagination.js';
import { outOfDateRange, parseDateTime, unstorable } from '../validation.js';
import { loadPublications, type PublicationView } from './records.js';
import { utcDay } from './analytics.js';

export const SORT_KEYS = ['publishedAt', 'views', 'engagement'] as const;
export const DIRECTIONS = ['asc', 'desc'] as const;
export type SortKey = (typeof SORT_KEYS)[number];
type Direction = (typeof DIRECTIONS)[number];
export const DEFAULT_LIMIT = 25;

const isOneOf = <T extends string>(values: readonly T[], v: unknown): v is T => typeof v === 'string' && (values as readonly string[]).includes(v);

/** The listing's query as either door passes it: text, read here. */
export interface ListingArgs {
  platform?: string | null;
  profileId?: string | null;
  from?: string | null;
  to?: string | null;
  sortBy?: string | null;
  direction?: string | null;
  limit?: number | null;
  cursor?: string | null;
}

interface Pin {
  /** the instant of the traversal's first page */
  asOf: Date;
  /** the settlement day the sort keys were read at */
  day: string;
}

/**
 * A page's position: the order it was made in (a key means nothing in
 * another), the last row's sort key (an ISO instant, or a number) and id, and
 * the traversal's pin.
 */
export interface Cursor extends Pin {
  sortBy: SortKey;
  direction: Direction;
  key: string | number;
  id: string;
}

// exported for the bench, which times pages deep in a listing from the cursors of their rows
export const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify([c.sortBy, c.direction, c.key, c.id, c.asOf.toISOString(), c.day])).toString('base64url');

/**
 * An instant as a cursor writes it (toISOString), or null. JavaScript holds
 * years PostgreSQL does not (0000, and up to 275760 either side of it): only
 * the years 0001-9999 a cursor is made with are taken back.
 */
function cursorInstant(s: unknown): Date | null {
  if (typeof s !== 'string' || !/^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(s)) return null;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) || d.toISOString() !== s ? null : d;
}

/** A views or engagement key: an integer of the columns it is read from (int4). */
const isIntKey = (n: unknown): n is number => Number.isInteger(n) && Math.abs(n as number) <= 2 ** 31 - 1;

/**
 * A cursor this listing gave, or null. Every member goes to the database as a
 * parameter, so one it cannot hold (a year beyond its range, a day of no
 * calendar, a NUL in the id) is refused here rather than failing the query.
 */
export function decodeCursor(s: string): Cursor | null {
  try {
    const [sortBy, direction, key, id, asOf, day] = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as unknown[];
    if (!isOneOf(SORT_KEYS, sortBy) || !isOneOf(DIRECTIONS, direction)) return null;
    const at = cursorInstant(asOf);
    if (!(sortBy === 'publishedAt' ? cursorInstant(key) : isIntKey(key)) || typeof id !== 'string' || id.length > 80 || unstorable(id) || !at) return null;
    if (typeof day !== 'string' || !cursorInstant(`${day}T00:00:00.000Z`)) return null;
    return { sortBy, direction, key: key as string | number, id, asOf: at, day };
  } catch {
    return null;
  }
}

/** A listing's `from`/`to`: an ISO 8601 date-time, or a date alone (its midnight, UTC). */
function readInstant(s: string): Date | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) {
    const d = new Date(`${s}T00:00:00Z`);
    return Number.isNaN(d.getTime()) || utcDay(d) !== s ? null : d;
  }
  return parseDateTime(s);
}

export interface ReadListing {
  platform?: PlatformKey;
  profileId?: string;
  from?: Date;
  to?: Date;
  sortBy: SortKey;
  direction: Direction;
  limit: number;
  cursor: Cursor | null;
}

/** Every violated parameter at once, named as the REST query names it. */
export function readListing(args: ListingArgs): ReadListing {
  const e = new FieldErrors();
  const out: ReadListing = { sortBy: 'publishedAt', direction: 'desc', limit: DEFAULT_LIMIT, cursor: null };
  if (args.platform != null) {
    if (isPlatformKey(args.platform)) out.platform = args.platform;
    else e.add('platform', `must be one of ${PLATFORM_KEYS.join(', ')}`, args.platform);
  }
  if (args.profileId != null) {
    if (isUuid(args.profileId)) out.profileId = args.profileId;
    else e.add('profileId', 'must be the UUID of one of your profiles', args.profileId);
  }
  for (const name of ['from', 'to'] as const) {
    const v = args[name];
    if (v == null) continue;
    const d = readInstant(v);
    const why = d ? outOfDateRange(d) : 'must be an ISO 8601 date-time (2026-05-01T09:30:00Z) or date (2026-05-01)';
    if (why) e.add(name, why, v);
    else out[name] = d!;
  }
  if (out.from && out.to && out.from > out.to) e.add('from', 'must not be after to', args.from);
  if (args.sortBy != null) {
    if (isOneOf(SORT_KEYS, args.sortBy)) out.sortBy = args.sortBy;
    else e.add('sortBy', `must be one of ${SORT_KEYS.join(', ')}`, args.sortBy);
  }
  if (args.direction != null) {
    if (isOneOf(DIRECTIONS, args.direction)) out.direction = args.direction;
    else e.add('direction', `must be one of ${DIRECTIONS.join(', ')}`, args.direction);
  }
  if (args.limit != null) {
    if (Number.isInteger(args.limit) && args.limit >= 1 && args.limit <= MAX_PAGE_SIZE) out.limit = args.limit;
    else e.add('limit', `must be an integer from 1 to ${MAX_PAGE_SIZE}`, args.limit);
  }
  if (args.cursor != null) {
    const cursor = decodeCursor(args.cursor);
    if (!cursor) e.add('cursor', 'must be the nextCursor of a previous page of this listing', args.cursor);
    // a key is a position only in the order it was read in; a refused sortBy or direction is named by itself
    else if (!e.has('sortBy') && !e.has('direction') && (cursor.sortBy !== out.sortBy || cursor.direction !== out.direction)) {
      e.add(
        'cursor',
        `was made for sortBy=${cursor.sortBy} and direction=${cursor.direction}: ask with those, or leave cursor out to start again`,
        args.cursor,
      );
    } else out.cursor = cursor;
  }
  e.throwIfAny();
  return out;
}

export interface PublicationsPage {
  items: PublicationView[];
  nextCursor: string | null;
}

/** The settlement as a page reads it: its day, and the day before its last move. */
interface Settlement {
  day: string;
  previousDay: string | null;
}

/** Where a page reads its rows' sort key, and the tie-breaking id beside it. */
interface KeySource {
  key: Prisma.Sql;
  id: Prisma.Sql;
  /** the rows read, with the kept keys joined when the key comes from them */
  from: Prisma.Sql;
  /** the key's own owner condition, when it sits on another table (so its index leads the scan) */
  owner: Prisma.Sql | null;
}

/**
 * The sort key of a row as of the traversal's settlement day: the settled
 * keys, or the previous ones for a traversal begun before the last
 * settlement, or the keys kept of its own day for one begun before several
 * (each indexed by user, key and id; keepKeysOf writes them for a traversal
 * older than the kept week). Should they be missing still (the next
 * settlement dropped them between the two), the page takes back what the days
 * since its own day added, from the daily rows.
 */
function keySource(sortBy: SortKey, pinnedDay: string, settlement: Settlement, kept: boolean, userId: string): KeySource {
  const publications = Prisma.sql`"Publication" p`;
  const own = (key: Prisma.Sql): KeySource => ({ key, id: Prisma.sql`p.id`, from: publications, owner: null });
  if (sortBy === 'publishedAt') return own(Prisma.sql`p."publishedAt"`);
  const views = sortBy === 'views';
  if (pinnedDay === settlement.day) return own(views ? Prisma.sql`p."settledViews"` : Prisma.sql`p."settledEngagement"`);
  if (pinnedDay === settlement.previousDay) return own(views ? Prisma.sql`p."previousSettledViews"` : Prisma.sql`p."previousSettledEngagement"`);
  if (kept) {
    return {
      key: views ? Prisma.sql`k.views` : Prisma.sql`k.engagement`,
      id: Prisma.sql`k."publicationId"`,
      from: Prisma.sql`"PublicationKeptKey" k JOIN "Publication" p ON p.id = k."publicationId"`,
      owner: Prisma.sql`k."userId" = ${userId}::uuid AND k.day = ${pinnedDay}::date`,
    };
  }
  const settled = views ? Prisma.sql`p."settledViews"` : Prisma.sql`p."settledEngagement"`;
  const gained = views ? Prisma.sql`d.views` : Prisma.sql`d.likes + d.comments + d.shares`;
  return own(Prisma.sql`(${settled} - COALESCE((SELECT sum(${gained}) FROM "PostMetricsDaily" d JOIN "Post" po ON po.id = d."postId"
    WHERE po."publicationId" = p.id AND d.day >= ${pinnedDay}::date AND d.day < ${settlement.day}::date), 0))::int`);
}

/**
 * A traversal begun before the oldest kept day: the user's keys as of its
 * day, written once among the kept keys (the settled keys less what the days
 * from its day to the settlement's added, from the daily rows, summed in one
 * pass), so that this page and every later one read them through the kept
 * keys' index. Every publication the user has now is written: one made later
 * was made after the traversal began, and its pages leave it out. One
 * statement of its own, outside a page's transaction: two first pages at once
 * both write, the second's rows meeting the first's and becoming nothing. The
 * next settlement drops them with the week's oldest; a traversal still going
 * then writes them again.
 */
async function keepKeysOf(db: Pick<Db, '$executeRaw'>, userId: string, { day, until }: KeysToKeep): Promise<void> {
  await db.$executeRaw`
    INSERT INTO "PublicationKeptKey" (day, "publicationId", "userId", views, engagement)
    SELECT ${day}::date, p.id, p."userId", p."settledViews" - COALESCE(g.views, 0), p."settledEngagement" - COALESCE(g.engagement, 0)
    FROM "Publication" p LEFT JOIN (
      SELECT po."publicationId", sum(d.views)::int AS views, sum(d.likes + d.comments + d.shares)::int AS engagement
      FROM "Publication" own JOIN "Post" po ON po."publicationId" = own.id JOIN "PostMetricsDaily" d ON d."postId" = po.id
      WHERE own."userId" = ${userId}::uuid AND d.day >= ${day}::date AND d.day < ${until}::date
      GROUP BY po."publicationId"
    ) g ON g."publicationId" = p.id
    WHERE p."userId" = ${userId}::uuid
    ON CONFLICT DO NOTHING`;
}

/** The day whose keys a page would read through the index, were they kept, and the settlement day they are summed back from. */
interface KeysToKeep {
  day: string;
  until: string;
}

/** A page's query: the ids and keys of up to `limit + 1` rows after the cursor. */
export function pageQuery(userId: string, q: ReadListing, pin: Pin, source: KeySource): Prisma.Sql {
  const { key, id } = source;
  // `to` defaults to the traversal's first instant
  const to = q.to ?? pin.asOf;
  const order = q.direction === 'desc' ? Prisma.sql`DESC` : Prisma.sql`ASC`;
  const beyond = q.direction === 'desc' ? Prisma.sql`<` : Prisma.sql`>`;
  const where = [
    // kept keys carry their publication's owner: each row then joins by its primary key alone
    source.owner ?? Prisma.sql`p."userId" = ${userId}::uuid`,
    Prisma.sql`p."createdAt" <= ${pin.asOf}`,
    Prisma.sql`p."publishedAt" <= ${to}`,
    ...(q.from ? [Prisma.sql`p."publishedAt" >= ${q.from}`] : []),
    ...(q.profileId ? [Prisma.sql`p."profileId" = ${q.profileId}::uuid`] : []),
    ...(q.platform ? [Prisma.sql`p.platforms @> ARRAY[${q.platform}]::"Platform"[]`] : []),
    ...(q.cursor
      ? [Prisma.sql`(${key}, ${id}) ${beyond} (${q.sortBy === 'publishedAt' ? new Date(q.cursor.key as string) : q.cursor.key}, ${q.cursor.id})`]
      : []),
  ];
  return Prisma.sql`
    SELECT ${id} AS id, ${key} AS key FROM ${source.from}
    WHERE ${Prisma.join(where, ' AND ')}
    ORDER BY ${key} ${order}, ${id} ${order}
    LIMIT ${q.limit + 1}`;
}

/**
 * Reads the settlement, pins the traversal and finds where its keys are, in
 * the caller's transaction: the page's query, ready to run.
 */
export async function planPage(
  tx: Pick<Db, '$queryRaw'>,
  userId: string,
  q: ReadListing,
): Promise<{ sql: Prisma.Sql; pin: Pin; keysToKeep: KeysToKeep | null; seen: Seen | null }> {
  const [row] = await tx.$queryRaw<
    { day: Date; previousDay: Date | null; now: Date }[]
  >`SELECT day, "previousDay", now() AS now FROM "MetricsSettlement" WHERE id = 1`;
  const settlement = { day: utcDay(row.day), previousDay: row.previousDay && utcDay(row.previousDay) };
  const pin: Pin = q.cursor ? { asOf: q.cursor.asOf, day: q.cursor.day } : { asOf: row.now, day: settlement.day };
  // a traversal sorted by a key that has outlived a settlement: are its day's keys kept, and when did one last read them
  const outlived = q.sortBy !== 'publishedAt' && pin.day < settlement.day;
  const older = outlived && pin.day !== settlement.previousDay;
  const [found] = outlived
    ? await tx.$queryRaw<{ kept: boolean; seenAt: Date | null }[]>`
        SELECT EXISTS (SELECT 1 FROM "PublicationKeptKey" WHERE "userId" = ${userId}::uuid AND day = ${pin.day}::date) AS kept,
          (SELECT "seenAt" FROM "ListingKeyUse" WHERE "userId" = ${userId}::uuid AND day = ${pin.day}::date) AS "seenAt"`
    : [{ kept: false, seenAt: null }];
  const kept = older && found.kept;
  // a day before the previous settlement's has kept keys, or can have them (a cursor made up with another day reads from the daily rows)
  const keysToKeep = older && !kept && settlement.previousDay !== null && pin.day < settlement.previousDay ? { day: pin.day, until: settlement.day } : null;
  // seen once a settlement: the settlements of the next week keep the day's keys (analytics.ts, settle)
  const seen = outlived && (found.seenAt === null || utcDay(found.seenAt) < settlement.day) ? { day: pin.day, at: settlement.day } : null;
  return { sql: pageQuery(userId, q, pin, keySource(q.sortBy, pin.day, settlement, kept, userId)), pin, keysToKeep, seen };
}

/** A traversal of `day` read a page at the settlement of `at`. */
interface Seen {
  day: string;
  at: string;
}

/**
 * Notes that a traversal of the user's publications pinned to `day` is still read: the next
 * settlements keep that day's keys past the kept week while one is read within it. At most one
 * write for each day a traversal is pinned to and each settlement; a later `at` never goes back.
 * The page does not wait for the disk: a note lost in a crash costs, at worst, one page that
 * writes the keys again a week on.
 */
async function noteSeen(db: Db, userId: string, { day, at }: Seen): Promise<void> {
  await db.$transaction([
    db.$executeRaw`SET LOCAL synchronous_commit TO OFF`,
    db.$executeRaw`
      INSERT INTO "ListingKeyUse" ("userId", day, "seenAt") VALUES (${userId}::uuid, ${day}::date, ${at}::date)
      ON CONFLICT ("userId", day) DO UPDATE SET "seenAt" = GREATEST("ListingKeyUse"."seenAt", EXCLUDED."seenAt")`,
  ]);
}

/** One page of the caller's publications. */
export async function listPublications(db: Db, userId: string, args: ListingArgs): Promise<PublicationsPage> {
  const q = readListing(args);
  type Read = { rows: { id: string; key: Date | number }[]; pin: Pin; seen: Seen | null } | { keysToKeep: KeysToKeep };
  const read = (keysWritten: boolean): Promise<Read> =>
    db.$transaction(
      async (tx) => {
        const { sql, pin, keysToKeep, seen } = await planPage(tx, userId, q);
        // keys to write first: the page is read again once they are
        if (keysToKeep && !keysWritten) return { keysToKeep };
        return { rows: await tx.$queryRaw<{ id: string; key: Date | number }[]>(sql), pin, seen };
      },
      { isolationLevel: 'RepeatableRead' },
    );
  let found = await read(false);
  if ('keysToKeep' in found) {
    await keepKeysOf(db, userId, found.keysToKeep);
    found = await read(true);
  }
  if (!('rows' in found)) throw new Error('a listing page was planned without its rows');
  if (found.seen) await noteSeen(db, userId, found.seen);
  const hasMore = found.rows.length > q.limit;
  const rows = found.rows.slice(0, q.limit);
  const last = rows.at(-1);
  const nextCursor =
    hasMore && last
      ? encodeCursor({
          sortBy: q.sortBy,
          direction: q.direction,
          key: last.key instanceof Date ? last.key.toISOString() : Number(last.key),
          id: last.id,
          ...found.pin,
        })
      : null;
  return {
    items: await loadPublications(
      db,
      rows.map((r) => r.id),
    ),
    nextCursor,
  };
}
