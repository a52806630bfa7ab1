import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandboxAccount } from '../../src/publishing/accounts.js';
import { settle, syncAnalytics, utcDay, writeFollowers, writePostMetrics } from '../../src/publishing/analytics.js';
import { deliverPost } from '../../src/publishing/delivery.js';
import { createProfile } from '../../src/publishing/profiles.js';
import type { PostMetrics } from '../../src/platforms/types.js';
import { decodeCursor, planPage, readListing } from '../../src/publishing/listing.js';
import { createUser, gql, request, startTestApp, type TestApp, type TestUser } from '../support/app.js';

// The analytics sync and GET /v1/projects/published on a real database: daily
// rows, totals, followers gained, sorting, filters, and pages that neither
// repeat nor skip while publications arrive, totals grow and days settle.

let app: TestApp;
const db = () => app.runtime.app.db;

beforeAll(async () => {
  // no workers: the analytics sync (due as a worker starts) would read the posts the tests write by hand;
  // the end-to-end test delivers its posts itself
  app = await startTestApp({ role: 'server', env: { SANDBOX_PUBLISH_DELAY_MS: '100' } });
});
afterAll(async () => {
  await app?.stop();
});

const PLATFORMS = ['microblog', 'socialnet', 'prosocial'] as const;

interface Owner extends TestUser {
  profileId: string;
  accounts: Record<string, string>;
  projectId: string;
}

async function owner(): Promise<Owner> {
  const user = await createUser(app, { apiCredits: 1000, apiPublishing: true });
  const profile = await createProfile(db(), user.id, { name: 'Brand', primary: true });
  const accounts: Record<string, string> = {};
  for (const platform of PLATFORMS) accounts[platform] = (await connectSandboxAccount(db(), profile.id, { platform, isPrivate: false, followers: 100 })).id;
  const project = await db().project.create({
    data: { userId: user.id, title: 'Weekly show', language: 'en', templateName: 'classic', status: 'completed', renderedKey: 'none' },
  });
  return { ...user, profileId: profile.id, accounts, projectId: project.id };
}

/** A published publication written straight to the tables, its posts published on `platforms`. */
async function publication(
  o: Owner,
  publishedAt: Date,
  platforms: readonly string[] = ['microblog'],
  extra: { profileId?: string; accounts?: Record<string, string> } = {},
) {
  const id = `pub_${crypto.randomUUID()}`;
  await db().publication.create({
    data: {
      id,
      userId: o.id,
      projectId: o.projectId,
      projectTitle: 'Weekly show',
      profileId: extra.profileId ?? o.profileId,
      publishedAt,
      status: 'published',
      platforms: platforms as never,
      mediaKey: 'none',
      posts: {
        create: platforms.map((platform) => ({
          platform: platform as never,
          accountId: (extra.accounts ?? o.accounts)[platform],
          content: { content: 'x' },
          publishStatus: 'published',
          platformPostId: crypto.randomBytes(8).toString('hex'),
          publishedAt,
        })),
      },
    },
  });
  return id;
}

const metrics = (views: number, likes = 0, comments = 0, shares = 0): PostMetrics => ({
  views,
  likes,
  comments,
  shares,
  impressions: views * 2,
  reach: views,
  clicks: 1,
});
const postsOf = (publicationId: string) => db().post.findMany({ where: { publicationId }, orderBy: { platform: 'asc' } });
const list = (o: TestUser, query: Record<string, string | number> = {}) =>
  request(app, 'GET', `/v1/projects/published?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, { key: o.key });

/** Every page of a listing, with `between` run after each page. */
async function walk(o: TestUser, query: Record<string, string | number>, between: (page: number) => Promise<void> = async () => {}) {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const r = await list(o, { ...query, ...(cursor ? { cursor } : {}) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    ids.push(...r.body.data.map((p: { id: string }) => p.id));
    cursor = r.body.pagination.nextCursor ?? undefined;
    if (!cursor) return ids;
    await between(page);
  }
  throw new Error('more than 100 pages');
}

const DAY = 86_400_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}
const planNodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(planNodes)];

/** The tables a page's query scans, as PostgreSQL ran it (EXPLAIN ANALYZE), and the rows it read in all. */
async function pageScans(userId: string, q: ReturnType<typeof readListing>) {
  const plan = await db().$transaction(async (tx) => {
    const { sql } = await planPage(tx, userId, q);
    const [row] = await tx.$queryRaw<{ 'QUERY PLAN': { Plan: PlanNode }[] }[]>`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`;
    return row['QUERY PLAN'][0].Plan;
  });
  const scans = planNodes(plan).filter((n) => n['Relation Name']);
  return { plan, scans, rowsRead: scans.reduce((sum, n) => sum + n['Actual Rows'] * n['Actual Loops'], 0) };
}

describe('the analytics sync', () => {
  // first: the tests after it move the settlement past today
  it('syncs sandbox posts end to end, and marks a post whose metrics cannot be read as failed', async () => {
    const o = await owner();
    await app.runtime.app.storage.put(`renders/${o.id}.mp4`, (await import('node:stream')).Readable.from(Buffer.alloc(1024)), { contentType: 'video/mp4' });
    await db().project.update({ where: { id: o.projectId }, data: { renderedKey: `renders/${o.id}.mp4` } });
    const r = await request(app, 'POST', `/v1/projects/${o.projectId}/publish`, {
      key: o.key,
      json: { platforms: { microblog: { content: 'hello' }, socialnet: { content: 'quiet [sandbox:no-metrics]' } } },
    });
    expect(r.status).toBe(200);
    // each post's delivery steps, as the worker's jobs run them: upload, then check until ready and finalize
    const deadline = Date.now() + 15_000;
    while ((await db().post.count({ where: { publicationId: r.body.id, publishStatus: 'published' } })) < 2) {
      if (Date.now() > deadline) throw new Error('posts not published');
      for (const post of await db().post.findMany({ where: { publicationId: r.body.id } })) await deliverPost(app.runtime.app, post.id);
      await new Promise((res) => setTimeout(res, 100));
    }
    await new Promise((res) => setTimeout(res, 1100));
    const result = await syncAnalytics(app.runtime.app);
    expect(result.failedPosts).toBeGreaterThanOrEqual(1);
    const item = (await request(app, 'GET', `/v1/projects/published/${r.body.id}`, { key: o.key })).body;
    const [mb, sn] = item.posts;
    expect(mb).toMatchObject({ platform: 'microblog', syncStatus: 'synced', analytics: { views: expect.any(Number), engagementRate: expect.any(Number) } });
    expect(mb.analytics.views).toBeGreaterThan(0);
    expect(mb.analytics.engagementRate).toBeCloseTo((mb.analytics.likes + mb.analytics.comments + mb.analytics.shares) / mb.analytics.views, 10);
    expect(sn).toMatchObject({ platform: 'socialnet', syncStatus: 'failed' });
    expect(item.totals.views).toBe(mb.analytics.views);
    const today = await db().postMetricsDaily.findMany({ where: { post: { publicationId: r.body.id } } });
    expect(today.reduce((s, d) => s + d.views, 0)).toBe(mb.analytics.views);
    // and counted in the profile's statistics, today's views on microblog
    const stats = (await request(app, 'GET', `/v1/publishing/stats/profiles/${o.profileId}`, { key: o.key })).body;
    expect(stats.summary.views.current).toBe(mb.analytics.views);
    expect(stats.summary.engagement.current).toBe(mb.analytics.likes + mb.analytics.comments + mb.analytics.shares);
    const todayEntry = stats.timeseries.find((e: { date: string }) => e.date === utcDay(new Date()));
    expect(todayEntry.breakdown.find((b: { platform: string }) => b.platform === 'microblog').value).toBe(mb.analytics.views);
    // followers were read for every account
    const levels = await db().accountFollowersDaily.findMany({
      where: { accountId: { in: Object.values(o.accounts) }, day: new Date(`${utcDay(new Date())}T00:00:00Z`) },
    });
    expect(levels).toHaveLength(3);
  });

  it('writes what each post gained today, and the next day what it gained since; a settled day is never written again', async () => {
    const o = await owner();
    const [{ day }] = await db().$queryRaw<{ day: Date }[]>`SELECT day FROM "MetricsSettlement"`;
    const d1 = utcDay(day);
    const d2 = utcDay(new Date(day.getTime() + DAY));
    const id = await publication(o, new Date(`${d1}T10:00:00Z`), ['microblog', 'socialnet']);
    const [mb, sn] = await postsOf(id);
    await writePostMetrics(
      db(),
      [
        { id: mb.id, metrics: metrics(100, 10, 2, 1) },
        { id: sn.id, metrics: metrics(40, 4) },
      ],
      d1,
    );
    // a sync that thinks it is still yesterday writes to the first day not settled
    await writePostMetrics(db(), [{ id: mb.id, metrics: metrics(150, 12, 2, 1) }], '2020-01-01');
    await writePostMetrics(
      db(),
      [
        { id: mb.id, metrics: metrics(400, 20, 5, 5) },
        { id: sn.id, metrics: metrics(40, 4) },
      ],
      d2,
    );

    const daily = await db().postMetricsDaily.findMany({ where: { postId: { in: [mb.id, sn.id] } } });
    const rows = daily.map((d) => [d.postId === mb.id ? 'mb' : 'sn', utcDay(d.day), d.views, d.likes + d.comments + d.shares]);
    expect(rows.sort()).toEqual([
      ['mb', d1, 150, 15],
      ['mb', d2, 250, 15],
      ['sn', d1, 40, 4],
    ]);
    expect(await db().publication.findUniqueOrThrow({ where: { id } })).toMatchObject({ views: 440, engagement: 34, settledViews: 0 });
    const rollup = await db().profileMetricsDaily.findMany({ where: { profileId: o.profileId }, orderBy: [{ day: 'asc' }, { platform: 'asc' }] });
    expect(rollup.map((x) => [utcDay(x.day), x.platform, Number(x.views)])).toEqual([
      [d1, 'microblog', 150],
      [d1, 'socialnet', 40],
      [d2, 'microblog', 250],
    ]);
    const [after] = await postsOf(id);
    expect(after).toMatchObject({ views: 400, likes: 20, comments: 5, shares: 5, syncStatus: 'synced' });
    // settling the first day moves its gains into the sort keys, once
    expect(await settle(db(), d2)).toBe(true);
    expect(await settle(db(), d2)).toBe(false);
    expect(await db().publication.findUniqueOrThrow({ where: { id } })).toMatchObject({ settledViews: 190, settledEngagement: 19 });
  });

  it('followersGained: the latest level minus the level at the end of the day before publishing', async () => {
    const o = await owner();
    const id = await publication(o, new Date('2026-02-10T15:00:00Z'), ['microblog', 'socialnet']);
    await writeFollowers(
      db(),
      [
        { id: o.accounts.microblog, followers: 500 },
        { id: o.accounts.socialnet, followers: 80 },
      ],
      '2026-02-09',
    );
    await writeFollowers(db(), [{ id: o.accounts.microblog, followers: 520 }], '2026-02-10');
    await writeFollowers(
      db(),
      [
        { id: o.accounts.microblog, followers: 610 },
        { id: o.accounts.socialnet, followers: 70 },
      ],
      '2026-02-20',
    );
    const item = (await request(app, 'GET', `/v1/projects/published/${id}`, { key: o.key })).body;
    // connecting wrote today's level (100), the latest of all: 100 - 500 and 100 - 80
    expect(item.totals.followersGained).toBe(100 - 500 + (100 - 80));
  });
});

describe('GET /v1/projects/published', () => {
  it('sorts by publishedAt, views or engagement, both ways, and filters by platform, profile and dates', async () => {
    const o = await owner();
    const second = await createProfile(db(), o.id, { name: 'Second' });
    const secondAccount = (await connectSandboxAccount(db(), second.id, { platform: 'microblog', isPrivate: false })).id;
    const a = await publication(o, new Date('2026-01-01T00:00:00Z'), ['microblog']);
    const b = await publication(o, new Date('2026-01-02T00:00:00Z'), ['socialnet']);
    const c = await publication(o, new Date('2026-01-03T00:00:00Z'), ['microblog', 'prosocial'], {
      profileId: second.id,
      accounts: { microblog: secondAccount, prosocial: o.accounts.prosocial },
    });
    await db().publication.update({ where: { id: a }, data: { settledViews: 30, settledEngagement: 1, views: 31, engagement: 1 } });
    await db().publication.update({ where: { id: b }, data: { settledViews: 10, settledEngagement: 9, views: 10, engagement: 9 } });
    await db().publication.update({ where: { id: c }, data: { settledViews: 20, settledEngagement: 5, views: 25, engagement: 5 } });
    const ids = async (q: Record<string, string | number>) => (await list(o, q)).body.data.map((p: { id: string }) => p.id);
    expect(await ids({})).toEqual([c, b, a]);
    expect(await ids({ direction: 'asc' })).toEqual([a, b, c]);
    expect(await ids({ sortBy: 'views' })).toEqual([a, c, b]);
    expect(await ids({ sortBy: 'views', direction: 'asc' })).toEqual([b, c, a]);
    expect(await ids({ sortBy: 'engagement' })).toEqual([b, c, a]);
    expect(await ids({ platform: 'microblog' })).toEqual([c, a]);
    expect(await ids({ profileId: second.id })).toEqual([c]);
    expect(await ids({ from: '2026-01-02', to: '2026-01-02T23:59:59Z' })).toEqual([b]);
    expect(await ids({ to: '2025-12-31T00:00:00Z' })).toEqual([]);
    const first = (await list(o, { limit: 1 })).body;
    expect(first.data).toHaveLength(1);
    expect(first.data[0]).toMatchObject({
      id: c,
      project: { id: o.projectId, title: 'Weekly show' },
      totals: { views: 25, engagement: 5, followersGained: 0 },
      status: 'published',
      scheduled: false,
    });
    expect(first.data[0].posts.map((p: { platform: string }) => p.platform)).toEqual(['microblog', 'prosocial']);
    expect(typeof first.pagination.nextCursor).toBe('string');
    const empty = await list(o, { platform: 'videoshare' });
    expect(empty.body).toEqual({ data: [], pagination: { nextCursor: null } });
  });

  it('refuses bad parameters, each by name, all at once', async () => {
    const o = await owner();
    const r = await list(o, { limit: 0, platform: 'myspace', sortBy: 'likes', direction: 'up', from: 'yesterday', profileId: 'nope' });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('VALIDATION_ERROR');
    expect(r.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['direction', 'from', 'limit', 'platform', 'profileId', 'sortBy']);
    expect((await list(o, { limit: 101 })).status).toBe(400);
    expect((await list(o, { cursor: 'garbage' })).body.details[0].field).toBe('cursor');
    await publication(o, new Date('2026-01-01T00:00:00Z'));
    await publication(o, new Date('2026-01-02T00:00:00Z'));
    const byDate = (await list(o, { limit: 1 })).body.pagination.nextCursor;
    expect((await list(o, { limit: 1, sortBy: 'views', cursor: byDate })).body).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ field: 'cursor' }] });
    expect((await list(o, { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' })).body.details[0].field).toBe('from');
  });

  it('refuses dates out of the range the statistics take (1970 up to 9999-12-31), by name, through either door: 400, never a fault', async () => {
    const o = await owner();
    const cases: Array<[Record<string, string>, string[]]> = [
      [{ from: '0000-01-01', to: '0000-06-01' }, ['from', 'to']],
      [{ from: '0000-01-01T00:00:00Z' }, ['from']],
      [{ from: '1969-12-31T23:59:59Z' }, ['from']],
      [{ to: '9999-12-31T23:00:00-14:00' }, ['to']],
    ];
    for (const [query, fields] of cases) {
      const r = await list(o, query);
      expect(r.status, JSON.stringify(query)).toBe(400);
      expect(r.body.error).toBe('VALIDATION_ERROR');
      expect(r.body.details.map((d: { field: string }) => d.field).sort()).toEqual(fields);
      expect(r.body.details[0].message).toBe('must be from 1970-01-01T00:00:00.000Z up to 9999-12-31T00:00:00.000Z');
    }
    const g = await gql(app, o.key, '{ publications(from: "0000-01-01", to: "0000-06-01") { nextCursor } }');
    expect(g.body.errors![0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'from' }, { field: 'to' }] });
    // the ends of the range are taken
    expect((await list(o, { from: '1970-01-01', to: '9999-12-30T23:59:59Z' })).body).toEqual({ data: [], pagination: { nextCursor: null } });
  });

  it('refuses a cursor it could not have given, members the database cannot hold included: 400, never a fault', async () => {
    const o = await owner();
    await publication(o, new Date('2026-01-01T00:00:00Z'));
    await publication(o, new Date('2026-01-02T00:00:00Z'));
    const given = JSON.parse(Buffer.from((await list(o, { limit: 1 })).body.pagination.nextCursor, 'base64url').toString('utf8'));
    const [, , key, id, asOf, day] = given as string[];
    const cursor = (...members: unknown[]) => Buffer.from(JSON.stringify(members)).toString('base64url');
    const byDate = (...members: unknown[]) => cursor('publishedAt', 'desc', ...members);
    const byViews = (...members: unknown[]) => cursor('views', 'desc', ...members);
    const cases: Array<[Record<string, string>, string]> = [
      // what the database cannot hold: a date JavaScript holds and PostgreSQL does not, a NUL in text,
      // a day of no calendar (read when the traversal's day is not today's), a key no int column holds
      [{ cursor: byDate('-271821-04-20T00:00:00.000Z', id, asOf, day) }, 'a key before year 0'],
      [{ cursor: byDate('0000-12-31T00:00:00.000Z', id, asOf, day) }, 'a key in year 0'],
      [{ cursor: byDate(key, id, '0000-01-01T00:00:00.000Z', day) }, 'an instant in year 0'],
      [{ sortBy: 'views', cursor: byViews(5, id, asOf, '0000-01-01') }, 'a day in year 0'],
      [{ cursor: byDate(key, `${id}\u0000`, asOf, day) }, 'an id with a NUL'],
      [{ sortBy: 'views', cursor: byViews(5, id, asOf, '2026-99-99') }, 'a day that does not exist'],
      [{ sortBy: 'views', cursor: byViews(1e308, id, asOf, day) }, 'a key no integer column holds'],
      [{ sortBy: 'engagement', cursor: cursor('engagement', 'desc', 1.5, id, asOf, day) }, 'a key that is not an integer'],
      [{ sortBy: 'views', cursor: byViews(key, id, asOf, day) }, 'an instant key of a sort by views'],
      [{ cursor: byDate(5, id, asOf, day) }, 'a number key of a sort by date'],
      [{ cursor: cursor('likes', 'desc', key, id, asOf, day) }, 'a sort the listing has not'],
      // instants no cursor is written with: a year of more than four digits
      [{ cursor: byDate('+275760-09-13T00:00:00.000Z', id, asOf, day) }, 'a key after year 9999'],
      [{ cursor: byDate(key, id, '+275760-09-13T00:00:00.000Z', day) }, 'an instant after year 9999'],
    ];
    for (const [query, what] of cases) {
      const r = await list(o, { limit: 1, ...query });
      expect(r.status, what).toBe(400);
      expect(r.body, what).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ field: 'cursor' }] });
    }
    // the cursor it gave still reads the next page
    expect((await list(o, { limit: 1, cursor: byDate(key, id, asOf, day) })).status).toBe(200);
  });

  it('refuses a cursor made for another sortBy or direction, through either door, and names the ones it was made for', async () => {
    const o = await owner();
    for (let i = 0; i < 3; i++) await publication(o, new Date(Date.parse('2026-07-01T00:00:00Z') + i * DAY));
    const pairs = [
      [
        ['views', 'desc'],
        ['engagement', 'desc'],
      ],
      [
        ['engagement', 'asc'],
        ['views', 'asc'],
      ],
      [
        ['views', 'desc'],
        ['views', 'asc'],
      ],
      [
        ['publishedAt', 'asc'],
        ['publishedAt', 'desc'],
      ],
    ] as const;
    for (const [[sortBy, direction], [askedSort, askedDirection]] of pairs) {
      const cursor = (await list(o, { sortBy, direction, limit: 1 })).body.pagination.nextCursor as string;
      const r = await list(o, { sortBy: askedSort, direction: askedDirection, limit: 1, cursor });
      expect(r.status, `${sortBy} ${direction} as ${askedSort} ${askedDirection}`).toBe(400);
      expect(r.body).toEqual({
        error: 'VALIDATION_ERROR',
        message: expect.any(String),
        details: [
          {
            field: 'cursor',
            message: `was made for sortBy=${sortBy} and direction=${direction}: ask with those, or leave cursor out to start again`,
            value: cursor,
          },
        ],
      });
      const g = await gql(
        app,
        o.key,
        'query($s: String, $d: String, $c: String) { publications(sortBy: $s, direction: $d, limit: 1, cursor: $c) { nextCursor } }',
        {
          s: askedSort,
          d: askedDirection,
          c: cursor,
        },
      );
      expect(g.body.errors![0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'cursor' }] });
      // with the order it was made for, it reads on
      expect((await list(o, { sortBy, direction, limit: 1, cursor })).status).toBe(200);
    }
    // a cursor made without a direction is one of the default, descending
    const unsaid = (await list(o, { sortBy: 'views', limit: 1 })).body.pagination.nextCursor as string;
    expect((await list(o, { sortBy: 'views', direction: 'desc', limit: 1, cursor: unsaid })).status).toBe(200);
  });

  it('another user sees none of them, by list or by id', async () => {
    const o = await owner();
    const id = await publication(o, new Date('2026-01-05T00:00:00Z'));
    const other = await owner();
    expect((await list(other)).body.data).toEqual([]);
    expect((await request(app, 'GET', `/v1/projects/published/${id}`, { key: other.key })).body).toMatchObject({
      error: 'NOT_FOUND',
      message: 'Publication not found',
    });
  });

  for (const sortBy of ['publishedAt', 'views', 'engagement'] as const) {
    for (const direction of ['desc', 'asc'] as const) {
      it(`pages sorted by ${sortBy} ${direction} hold every publication once while new ones arrive and totals change`, async () => {
        const o = await owner();
        const start = Date.parse('2026-04-01T00:00:00Z');
        const original: string[] = [];
        for (let i = 0; i < 23; i++) {
          const id = await publication(o, new Date(start + i * 3600_000), [PLATFORMS[i % 3]]);
          // ties on purpose: every third has the same totals
          await db().publication.update({
            where: { id },
            data: { settledViews: (i % 7) * 10, settledEngagement: (i % 5) * 3, views: (i % 7) * 10, engagement: (i % 5) * 3 },
          });
          original.push(id);
        }
        const seen = await walk(o, { sortBy, direction, limit: 4 }, async (page) => {
          // a new publication in the middle of the dates, and today's counts moving the live totals
          await publication(o, new Date(start + 5 * 3600_000 + page * 60_000), ['microblog']);
          const posts = await db().post.findMany({ where: { publicationId: { in: original.slice(page, page + 6) } } });
          await writePostMetrics(
            db(),
            posts.map((p, i) => ({ id: p.id, metrics: metrics(1000 * (i + 1) + page, 50 * i) })),
            utcDay(new Date()),
          );
        });
        expect(seen).toHaveLength(original.length);
        expect(new Set(seen)).toEqual(new Set(original));
        // the order is the one of the first page's instant
        const rows = await db().publication.findMany({ where: { id: { in: original } } });
        const key = (p: (typeof rows)[number]) =>
          sortBy === 'publishedAt' ? p.publishedAt.getTime() : sortBy === 'views' ? p.settledViews : p.settledEngagement;
        const expected = [...rows].sort((x, y) => (key(x) - key(y) || (x.id < y.id ? -1 : 1)) * (direction === 'asc' ? 1 : -1)).map((p) => p.id);
        expect(seen).toEqual(expected);
      });
    }
  }

  it('a traversal sorted by views that outlives a settlement keeps the order of its own day', async () => {
    const o = await owner();
    const [{ day: settled }] = await db().$queryRaw<{ day: Date }[]>`SELECT day FROM "MetricsSettlement"`;
    const today = utcDay(settled);
    const original: string[] = [];
    for (let i = 0; i < 12; i++) {
      const id = await publication(o, new Date(Date.parse('2026-05-01T00:00:00Z') + i * 3600_000), ['microblog']);
      await db().publication.update({ where: { id }, data: { settledViews: i * 10 } });
      original.push(id);
    }
    // today's gains reverse the order once settled
    const posts = await db().post.findMany({ where: { publicationId: { in: original } }, include: { publication: true } });
    await writePostMetrics(
      db(),
      posts.map((p) => ({ id: p.id, metrics: metrics(1000 - original.indexOf(p.publicationId) * 50) })),
      today,
    );
    const day = (n: number) => utcDay(new Date(Date.parse(`${today}T00:00:00Z`) + n * DAY));
    // one settlement in between: the keys it kept (indexed)
    const seen = await walk(o, { sortBy: 'views', limit: 5 }, async (page) => {
      if (page === 0) expect(await settle(db(), day(1))).toBe(true);
    });
    expect(seen).toEqual([...original].reverse());
    // a new traversal reads the settled order; two settlements during it, and it still reads its own day's
    const reversed = original.map((_, i) => original[original.length - 1 - i]);
    const posts2 = await db().post.findMany({ where: { publicationId: { in: original } } });
    await writePostMetrics(
      db(),
      posts2.map((p) => ({ id: p.id, metrics: metrics(1000 - original.indexOf(p.publicationId) * 50 + 5000 * (original.indexOf(p.publicationId) + 1)) })),
      day(1),
    );
    const fresh = await walk(o, { sortBy: 'views', limit: 5 }, async (page) => {
      if (page === 0) {
        expect(await settle(db(), day(2))).toBe(true);
        expect(await settle(db(), day(3))).toBe(true);
      }
    });
    expect(fresh).toEqual(original);
    expect(await walk(o, { sortBy: 'views', limit: 5 })).toEqual(reversed);
  });

  it("a traversal begun two settlements ago reads its own day's keys through an index: a page reads a bounded number of rows", async () => {
    const o = await owner();
    const [{ day: settled }] = await db().$queryRaw<{ day: Date }[]>`SELECT day FROM "MetricsSettlement"`;
    const today = utcDay(settled);
    const day = (n: number) => utcDay(new Date(Date.parse(`${today}T00:00:00Z`) + n * DAY));
    const ids: string[] = [];
    for (let i = 0; i < 120; i++) {
      const id = await publication(o, new Date(Date.parse('2026-04-01T00:00:00Z') + i * 60_000), ['microblog']);
      await db().publication.update({ where: { id }, data: { settledViews: (i * 37) % 120 } });
      ids.push(id);
    }
    const byKey = [...ids].sort((a, b) => ((ids.indexOf(b) * 37) % 120) - ((ids.indexOf(a) * 37) % 120));
    const first = await list(o, { sortBy: 'views', limit: 10 });
    expect(first.body.data.map((p: { id: string }) => p.id)).toEqual(byKey.slice(0, 10));
    // two settlements, the second reversing the order: the traversal's day is neither the settled nor the previous one
    const posts = await db().post.findMany({ where: { publicationId: { in: ids } } });
    for (const [n, gain] of [
      [0, (i: number) => 1 + i],
      [1, (i: number) => 10_000 - i * 50],
    ] as const) {
      await writePostMetrics(
        db(),
        posts.map((p) => ({ id: p.id, metrics: metrics(gain(ids.indexOf(p.publicationId))) })),
        day(n),
      );
      expect(await settle(db(), day(n + 1))).toBe(true);
    }
    const cursor = first.body.pagination.nextCursor;
    const second = await list(o, { sortBy: 'views', limit: 10, cursor });
    expect(second.body.data.map((p: { id: string }) => p.id)).toEqual(byKey.slice(10, 20));

    // what the page's query reads, measured by PostgreSQL
    const q = readListing({ sortBy: 'views', limit: 10, cursor });
    const { plan, scans, rowsRead } = await pageScans(o.id, q);
    expect(scans.map((n) => n['Relation Name']).sort()).toEqual(['Publication', 'PublicationKeptKey']);
    expect(
      scans.every((n) => n['Node Type'] !== 'Seq Scan'),
      JSON.stringify(plan),
    ).toBe(true);
    expect(rowsRead, JSON.stringify(plan, null, 1)).toBeLessThanOrEqual(4 * 11);

    // past the kept week (or before keys were kept): the first page writes the user's keys of its day, summed from the
    // daily rows, among the kept ones; the same pages come of them, and later pages read them through the index again
    // (two first pages at once: both write, neither fails)
    const pinned = decodeCursor(cursor)!.day;
    await db().$executeRaw`DELETE FROM "PublicationKeptKey" WHERE day = ${pinned}::date`;
    const [summed, twin] = await Promise.all([list(o, { sortBy: 'views', limit: 10, cursor }), list(o, { sortBy: 'views', limit: 10, cursor })]);
    expect(summed.body.data.map((p: { id: string }) => p.id)).toEqual(byKey.slice(10, 20));
    expect(twin.body).toEqual(summed.body);
    const kept = await db().publicationKeptKey.findMany({ where: { day: new Date(`${pinned}T00:00:00Z`) } });
    expect(kept.map((k) => k.publicationId).sort()).toEqual([...byKey].sort());
    expect(new Set(kept.map((k) => k.userId))).toEqual(new Set([o.id]));
    const again = await list(o, { sortBy: 'views', limit: 10, cursor: summed.body.pagination.nextCursor });
    expect(again.body.data.map((p: { id: string }) => p.id)).toEqual(byKey.slice(20, 30));
    const replanned = await pageScans(o.id, q);
    expect(replanned.scans.map((n) => n['Relation Name']).sort()).toEqual(['Publication', 'PublicationKeptKey']);
    expect(replanned.rowsRead, JSON.stringify(replanned.plan, null, 1)).toBeLessThanOrEqual(4 * 11);
  });

  it("a traversal still read keeps its day's keys past the kept week; one left for a week loses them, and writes them once if it comes back", async () => {
    const [{ day: settled }] = await db().$queryRaw<{ day: Date }[]>`SELECT day FROM "MetricsSettlement"`;
    const today = utcDay(settled);
    const day = (n: number) => utcDay(new Date(Date.parse(`${today}T00:00:00Z`) + n * DAY));
    const keptOf = async (o: TestUser) =>
      (await db().publicationKeptKey.findMany({ where: { userId: o.id, day: new Date(`${today}T00:00:00Z`) } })).map((k) => k.publicationId).sort();
    // two users, each with a traversal begun today: one reads on, the other stops after its first page
    const [reader, idle] = [await owner(), await owner()];
    const ids = new Map<TestUser, string[]>();
    for (const o of [reader, idle]) {
      const own: string[] = [];
      for (let i = 0; i < 30; i++) {
        const id = await publication(o, new Date(Date.parse('2026-03-01T00:00:00Z') + i * 60_000), ['microblog']);
        await db().publication.update({ where: { id }, data: { settledViews: (i * 7) % 30 } });
        own.push(id);
      }
      ids.set(o, own);
    }
    const byKey = (o: TestUser) => [...ids.get(o)!].sort((a, b) => ((ids.get(o)!.indexOf(b) * 7) % 30) - ((ids.get(o)!.indexOf(a) * 7) % 30));
    const first = await list(reader, { sortBy: 'views', limit: 2 });
    await list(idle, { sortBy: 'views', limit: 2 });
    let cursor = first.body.pagination.nextCursor as string;
    let shown = 2;
    const readOn = async () => {
      const r = await list(reader, { sortBy: 'views', limit: 2, cursor });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.data.map((p: { id: string }) => p.id)).toEqual(byKey(reader).slice(shown, shown + 2));
      shown += 2;
      cursor = r.body.pagination.nextCursor;
    };

    // the second settlement keeps both users' keys of today; the reader reads a page after it, then again after the sixth
    for (let n = 1; n <= 9; n++) {
      expect(await settle(db(), day(n))).toBe(true);
      if (n === 2 || n === 6) await readOn();
    }
    // nine settlements on, past the kept week: the idle traversal's keys went with the week's oldest, the reader's stayed
    expect(await keptOf(idle)).toEqual([]);
    expect(await keptOf(reader)).toEqual([...ids.get(reader)!].sort());
    const seen = await db().listingKeyUse.findMany({ where: { userId: { in: [reader.id, idle.id] } } });
    expect(seen.map((u) => [u.userId, utcDay(u.day), utcDay(u.seenAt)])).toEqual([[reader.id, today, day(6)]]);
    // and its next page still reads them through the index, a bounded number of rows
    const q = readListing({ sortBy: 'views', limit: 2, cursor });
    const { plan, scans, rowsRead } = await pageScans(reader.id, q);
    expect(scans.map((n) => n['Relation Name']).sort()).toEqual(['Publication', 'PublicationKeptKey']);
    expect(rowsRead, JSON.stringify(plan, null, 1)).toBeLessThanOrEqual(4 * 3);
    await readOn();

    // left for a week after that page (read at the ninth), the day's keys go with the week's oldest, and so does its note
    for (let n = 10; n <= 17; n++) expect(await settle(db(), day(n))).toBe(true);
    expect(await keptOf(reader)).toEqual([]);
    expect(await db().listingKeyUse.count({ where: { userId: reader.id } })).toBe(0);
    // the traversal comes back: its page writes the keys once, summed from the daily rows, and goes on where it was
    await readOn();
    expect(await keptOf(reader)).toEqual([...ids.get(reader)!].sort());
  });

  it('the GraphQL connection gives the same page as REST', async () => {
    const o = await owner();
    for (let i = 0; i < 3; i++) await publication(o, new Date(Date.parse('2026-06-01T00:00:00Z') + i * DAY));
    const rest = (await list(o, { limit: 2 })).body;
    const g = await gql(app, o.key, '{ publications(limit: 2) { data { id totals { views } posts { platform } } nextCursor } }');
    expect(g.body.data.publications.data.map((p: { id: string }) => p.id)).toEqual(rest.data.map((p: { id: string }) => p.id));
    expect(g.body.data.publications.nextCursor).toBe(rest.pagination.nextCursor.length ? g.body.data.publications.nextCursor : null);
  });
});

describe('rate limits (DECISIONS.md: 1000 an hour each), counted across both doors', () => {
  /** Spends `field` calls through /graphql, 50 aliases a request. */
  async function spend(key: string, field: string) {
    for (let left = 1000; left > 0; left -= 50) {
      const r = await gql(app, key, `{ ${Array.from({ length: 50 }, (_, i) => `a${i}: ${field}`).join(' ')} }`);
      expect(r.status).toBe(200);
    }
  }

  it('the listing: 1000 GraphQL calls, then REST answers 429 with retryAfter and the limit headers', async () => {
    const o = await owner();
    await spend(o.key, 'publications(limit: 1) { nextCursor }');
    const r = await list(o);
    expect(r.status).toBe(429);
    expect(r.body).toMatchObject({ error: 'RATE_LIMIT_EXCEEDED', retryAfter: expect.any(Number) });
    expect(r.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(r.headers.get('retry-after')).toBe(String(r.body.retryAfter));
  });

  it('publish: spent through GraphQL, refused through REST', async () => {
    const o = await owner();
    for (let left = 1000; left > 0; left -= 50) {
      const aliases = Array.from(
        { length: 50 },
        (_, i) => `a${i}: publishProject(projectId: "${crypto.randomUUID()}", input: { platforms: { microblog: { content: "x" } } }) { id }`,
      );
      await gql(app, o.key, `mutation { ${aliases.join(' ')} }`);
    }
    const r = await request(app, 'POST', `/v1/projects/${o.projectId}/publish`, { key: o.key, json: { platforms: { microblog: { content: 'x' } } } });
    expect(r.status).toBe(429);
    expect(r.body.error).toBe('RATE_LIMIT_EXCEEDED');
  });
});
