// The keyset pager on its own, against the real database: a column key and a
// computed key, both with ties, in both directions; walking every page sees
// every row once and in order; bad cursors are refused on the cursor field.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrisma, Prisma, type Db } from '../../src/db/client.js';
import { isAppError } from '../../src/errors.js';
import { checkPageArgs, keysetPage, modelSource, sqlSource, type KeysetSource, type PageArgs, type SortDirection } from '../../src/pagination.js';
import { createTestDatabase, type TestDatabase } from '../support/db.ts';

let database: TestDatabase;
let db: Db;

interface Row {
  id: string;
  views: number;
  likes: number;
}

/** 23 rows whose engagement (views + likes) takes 4 values, so most rows tie. */
const ROWS: Row[] = Array.from({ length: 23 }, (_, i) => ({ id: crypto.randomUUID(), views: (i % 4) * 10, likes: i % 2 }));
const engagement = (r: Row) => r.views + r.likes;

/** 17 users, created at 3 distinct instants. */
const EMAIL_PREFIX = `pager-${crypto.randomBytes(4).toString('hex')}-`;
const USERS = Array.from({ length: 17 }, (_, i) => ({
  id: crypto.randomUUID(),
  email: `${EMAIL_PREFIX}${i}@example.com`,
  webhookSecret: 'whsec_test',
  createdAt: new Date(Date.UTC(2026, 0, 1 + (i % 3))),
}));

beforeAll(async () => {
  database = await createTestDatabase();
  db = createPrisma(database.url, { max: 2 });
  await db.$executeRawUnsafe('CREATE TABLE pager_row (id uuid PRIMARY KEY, views int NOT NULL, likes int NOT NULL)');
  for (const r of ROWS) await db.$executeRaw`INSERT INTO pager_row (id, views, likes) VALUES (${r.id}::uuid, ${r.views}, ${r.likes})`;
  await db.user.createMany({ data: USERS });
});

afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

/** The same engagement as an SQL expression of each key type a cursor carries. */
const ENGAGEMENT_KEYS = {
  number: Prisma.sql`(views + likes)`,
  bigint: Prisma.sql`(views + likes)::bigint`,
  date: Prisma.sql`(timestamptz '2026-01-01T00:00:00Z' + (views + likes) * interval '1 minute')`,
  string: Prisma.sql`lpad((views + likes)::text, 3, '0')`,
};

function engagementSource(direction: SortDirection, key = ENGAGEMENT_KEYS.number): KeysetSource<Row> {
  return sqlSource<Row>(db, {
    from: Prisma.sql`pager_row`,
    where: Prisma.sql`true`,
    key,
    id: Prisma.sql`id`,
    direction,
    load: (ids) => db.$queryRaw<Row[]>`SELECT id::text AS id, views, likes FROM pager_row WHERE id = ANY(${ids}::uuid[])`,
  });
}

function userSource(direction: SortDirection) {
  const scope = { email: { startsWith: EMAIL_PREFIX } };
  return modelSource<{ id: string; createdAt: Date }>(db.user as never, { scope, where: scope, direction });
}

/** Every page of `source`, `size` at a time. */
async function walk<T extends { id: string }>(source: KeysetSource<T>, size: number, cursor: 'id' | 'opaque'): Promise<T[][]> {
  const pages: T[][] = [];
  let after: string | null = null;
  for (;;) {
    const request = checkPageArgs({ first: size, after }, { cursor });
    request.errors.throwIfAny();
    const page = await keysetPage(source, request);
    pages.push(page.items);
    if (!page.hasMore) {
      expect(page.nextCursor).toBeNull();
      return pages;
    }
    expect(page.nextCursor).toBe(page.cursorOf(page.items.at(-1)!));
    after = page.nextCursor;
  }
}

/** The order the pager promises: key, then id, both in `direction`. */
function sorted<T extends { id: string }>(rows: T[], key: (r: T) => number, direction: SortDirection): string[] {
  const sign = direction === 'desc' ? -1 : 1;
  return [...rows].sort((a, b) => sign * (key(a) - key(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))).map((r) => r.id);
}

/** The field errors a rejected call reports. */
async function fieldErrors(run: () => unknown): Promise<{ field: string }[]> {
  try {
    await run();
  } catch (err) {
    if (isAppError(err) && err.code === 'VALIDATION_ERROR') return (err.extensions.details ?? []) as { field: string }[];
    throw err;
  }
  throw new Error('expected a VALIDATION_ERROR');
}

describe('keysetPage with a computed key (opaque cursors)', () => {
  for (const direction of ['desc', 'asc'] as const) {
    it(`walks every row once, ${direction}, ties broken by id`, async () => {
      for (const size of [1, 4, 23, 100]) {
        const pages = await walk(engagementSource(direction), size, 'opaque');
        const ids = pages.flat().map((r) => r.id);
        expect(ids).toEqual(sorted(ROWS, engagement, direction));
        expect(pages.every((p) => p.length <= size)).toBe(true);
      }
    });
  }

  it('resumes from the cursor alone, whatever the rows that were before it', async () => {
    const first = await keysetPage(engagementSource('desc'), { first: 5, after: null, from: null });
    const next = checkPageArgs({ first: 5, after: first.nextCursor }, { cursor: 'opaque' });
    expect(next.from).toEqual({ key: engagement(first.items[4]), id: first.items[4].id });
    const second = await keysetPage(engagementSource('desc'), next);
    expect(second.items.map((r) => r.id)).toEqual(sorted(ROWS, engagement, 'desc').slice(5, 10));
  });

  it('refuses a cursor it did not write, on the cursor field', async () => {
    const forged = [
      'not-a-cursor',
      crypto.randomUUID(),
      Buffer.from('["n","12"]').toString('base64url'),
      Buffer.from('["x","12","' + crypto.randomUUID() + '"]').toString('base64url'),
      Buffer.from('["d","yesterday","' + crypto.randomUUID() + '"]').toString('base64url'),
      Buffer.from('["n","12","not-a-uuid"]').toString('base64url'),
    ];
    for (const after of forged) {
      const { errors } = checkPageArgs({ first: 5, after }, { cursor: 'opaque' });
      expect(await fieldErrors(() => errors.throwIfAny())).toMatchObject([{ field: 'cursor' }]);
    }
  });

  it('keeps the type of the key in the cursor: number, bigint, date and text keys walk alike', async () => {
    for (const [type, key] of Object.entries(ENGAGEMENT_KEYS)) {
      const pages = await walk(engagementSource('asc', key), 3, 'opaque');
      expect(
        pages.flat().map((r) => r.id),
        type,
      ).toEqual(sorted(ROWS, engagement, 'asc'));
    }
  });
});

describe('keysetPage with a column key (UUID cursors)', () => {
  for (const direction of ['desc', 'asc'] as const) {
    it(`walks every row once, ${direction}, ties broken by id`, async () => {
      for (const size of [1, 5, 17]) {
        const pages = await walk(userSource(direction), size, 'id');
        expect(pages.flat().map((u) => u.id)).toEqual(sorted(USERS, (u) => u.createdAt.getTime(), direction));
      }
    });
  }

  it('gives the last item UUID as the cursor', async () => {
    const page = await keysetPage(userSource('desc'), { first: 3, after: null, from: null });
    expect(page.nextCursor).toBe(page.items[2].id);
  });

  it('refuses a cursor that is not a UUID, or not a row of the scope, on the cursor field', async () => {
    const { errors } = checkPageArgs({ first: 5, after: 'nope' });
    expect(await fieldErrors(() => errors.throwIfAny())).toMatchObject([{ field: 'cursor' }]);
    const stranger = crypto.randomUUID();
    expect(await fieldErrors(() => keysetPage(userSource('desc'), { first: 5, after: stranger, from: null }))).toMatchObject([{ field: 'cursor' }]);
  });
});

describe('checkPageArgs', () => {
  it('reports the size and the cursor at once, under the REST names', async () => {
    for (const args of [
      { first: 0, after: 'x' },
      { first: 101, after: 'x' },
      { first: 2.5, after: 'x' },
    ] as PageArgs[]) {
      const { errors } = checkPageArgs(args);
      expect(await fieldErrors(() => errors.throwIfAny())).toMatchObject([{ field: 'limit' }, { field: 'cursor' }]);
    }
    expect(checkPageArgs({}).first).toBe(50);
  });
});
