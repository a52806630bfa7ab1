import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { RATE_LIMITS } from '../src/limits/rate-limits.js';
import { decodeCursor, encodeCursor, type SortKey } from '../src/publishing/listing.js';
import { STATS_METRICS } from '../src/stats/service.js';
import { SAMPLE_POSTS as CONTENT } from '../test/support/publishing.js';
import type { Row } from './row.js';
import { admin, startService, startWorker, stopProcess, withPgDatabase, type Service } from './support.js';

const SECTION = 'publishing';
const PUBLICATIONS = 100_000;
const PROJECTS = 10_000;
const DAYS = 365;
/** each post has daily metrics rows for its first this many days (fewer when younger) */
const METRIC_DAYS = 30;

/** YYYY-MM-DD of an instant, UTC */
const utcDay = (d: Date) => d.toISOString().slice(0, 10);

export interface Seeded {
  profileId: string;
  ms: number;
  /** rows of each seeded table */
  rows: Record<string, number>;
}

const SEEDED_TABLES = [
  'Project',
  'Profile',
  'SocialAccount',
  'AccountFollowersDaily',
  'Publication',
  'PublicationKeptKey',
  'Post',
  'PostMetricsDaily',
  'ProfileMetricsDaily',
];

/**
 * One user's year of publishing, written with set-based SQL: a profile with an
 * account on each of the 6 platforms, PROJECTS projects and PUBLICATIONS
 * publications at random instants of the last DAYS days, each with 1-3
 * published posts (consecutive platforms of the catalogue). Each post has a
 * daily row for each of its first METRIC_DAYS days up to today: its first
 * day's views drawn log-uniformly from 50 to 5,000, a fifth fewer each day
 * after, plus a steady 1 % of the first day's; likes, comments, shares, impressions, reach and
 * clicks are fixed ratios of the views drawn per post. Every total is the sum
 * of those rows: Post totals, Publication views/engagement, the settled sort
 * keys (rows before today, the settlement day) and the ProfileMetricsDaily
 * rollup. Each account has a followers level for every day of the year.
 */
export async function seed(db: pg.Client, userId: string, now = new Date()): Promise<Seeded> {
  const t0 = performance.now();
  const today = utcDay(now);
  const run = async (label: string | null, sql: string, params: unknown[] = []) => {
    const t = performance.now();
    const r = await db.query(sql, params);
    if (label) process.stderr.write(`# ${SECTION}: seeded ${label} in ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
    return r;
  };
  await run(null, `SET TIME ZONE 'UTC'`);
  await run(null, `SET synchronous_commit = off`);
  await run(null, `SET work_mem = '64MB'`);

  const {
    rows: [{ id: profileId }],
  } = await run(
    null,
    `INSERT INTO "Profile" (id, "userId", name, "isPrimary", "createdAt", "updatedAt") VALUES (gen_random_uuid(), $1, 'Brand', true, $2::timestamptz - interval '400 days', now()) RETURNING id`,
    [userId, now],
  );

  // an account per platform: its followers a year ago and its daily gain
  await run(
    null,
    `CREATE TEMP TABLE seed_account AS
    SELECT gen_random_uuid() AS id, p AS platform, (row_number() OVER () - 1)::int AS n,
           2000 + floor(random() * 20000)::int AS base, 5 + random() * 60 AS gain
    FROM unnest(enum_range(NULL::"Platform")) p`,
  );
  await run(
    null,
    `INSERT INTO "SocialAccount" (id, "profileId", platform, connector, "externalId", followers, credentials, "createdAt", "updatedAt")
    SELECT id, $1, platform, 'sandbox', 'sandbox-' || platform || '-' || substr(md5(id::text), 1, 16), base + floor(gain * ${DAYS})::int,
           jsonb_build_object('followers', base, 'since', $2::text), $2::timestamptz, now()
    FROM seed_account`,
    [profileId, new Date(now.getTime() - DAYS * 86_400_000).toISOString()],
  );
  await run(
    null,
    `INSERT INTO "AccountFollowersDaily" ("accountId", day, followers, "updatedAt")
    SELECT a.id, $1::date - d, a.base + floor(a.gain * (${DAYS} - d))::int, now()
    FROM seed_account a, generate_series(0, ${DAYS}) d`,
    [today],
  );

  await run(
    null,
    `CREATE TEMP TABLE seed_project AS
    SELECT gen_random_uuid() AS id, i AS n, 'renders/bench/' || i || '.mp4' AS key, $1::timestamptz - interval '${DAYS + 5} days' + i * interval '1 hour' AS at
    FROM generate_series(0, ${PROJECTS - 1}) i`,
    [now],
  );
  await run(
    null,
    `INSERT INTO "Project" (id, "userId", title, language, "templateName", status, "renderedKey", "createdAt", "updatedAt", "completedAt")
    SELECT id, $1, 'Episode ' || (n + 1), 'en', 'classic', 'completed', key, at, at, at FROM seed_project`,
    [userId],
  );

  // publications at random instants of the year; `k` posts on consecutive platforms from `s`
  await run(
    null,
    `CREATE TEMP TABLE seed_pub AS
    SELECT 'pub_' || gen_random_uuid() AS id, i, $1::timestamptz - random() * interval '${DAYS} days' AS at,
           1 + floor(random() * 3)::int AS k, floor(random() * 6)::int AS s
    FROM generate_series(1, ${PUBLICATIONS}) i`,
    [now],
  );
  // per post: its day, how many daily rows it has, the first day's views and its ratios
  await run(
    null,
    `CREATE TEMP TABLE seed_post AS
    SELECT gen_random_uuid() AS id, p.id AS pub, a.id AS account, a.platform, p.at + interval '3 seconds' AS at,
           (p.at AT TIME ZONE 'UTC')::date AS d0, LEAST(${METRIC_DAYS}, $1::date - (p.at AT TIME ZONE 'UTC')::date + 1) AS n,
           50 * exp(random() * ln(100)) AS b,
           0.02 + random() * 0.08 AS lr, 0.003 + random() * 0.017 AS cr, 0.002 + random() * 0.008 AS sr,
           1.5 + random() * 1.5 AS ir, 0.6 + random() * 0.3 AS rr, 0.01 + random() * 0.04 AS clr
    FROM seed_pub p CROSS JOIN LATERAL generate_series(0, p.k - 1) j JOIN seed_account a ON a.n = (p.s + j) % 6
    ORDER BY 1`,
    [today],
  );
  // every daily row, as a function of its post and day (in the order of the primary key)
  await run(
    null,
    `CREATE TEMP VIEW seed_daily AS
    SELECT po.id AS "postId", po.pub, po.platform, po.d0 + k AS day, m.v AS views,
           floor(m.v * po.lr)::int AS likes, floor(m.v * po.cr)::int AS comments, floor(m.v * po.sr)::int AS shares,
           floor(m.v * po.ir)::int AS impressions, floor(m.v * po.ir * po.rr)::int AS reach, floor(m.v * po.clr)::int AS clicks
    FROM seed_post po CROSS JOIN LATERAL generate_series(0, po.n - 1) k
    CROSS JOIN LATERAL (SELECT floor(po.b * power(0.8, k) + po.b * 0.01)::int AS v) m`,
  );
  // the daily rows first, foreign keys unchecked row by row (the rows refer to posts written below):
  // each post's totals and the profile's rollup are summed from the rows as they are written
  await run(null, `SET session_replication_role = replica`);
  await run(
    null,
    `CREATE TEMP TABLE seed_total ("postId" uuid, views int, likes int, comments int, shares int, impressions int, reach int, clicks int,
                                              settled_views int, settled_engagement int, previous_views int, previous_engagement int,
                                              kept_views int, kept_engagement int)`,
  );
  await run(
    'PostMetricsDaily and ProfileMetricsDaily',
    `WITH daily AS (
      INSERT INTO "PostMetricsDaily" ("postId", day, views, likes, comments, shares, impressions, reach, clicks, "updatedAt")
      SELECT "postId", day, views, likes, comments, shares, impressions, reach, clicks, $2::timestamptz FROM seed_daily
      RETURNING "postId", day, views, likes, comments, shares, impressions, reach, clicks
    ), totals AS (
      INSERT INTO seed_total
      SELECT "postId", sum(views), sum(likes), sum(comments), sum(shares), sum(impressions), sum(reach), sum(clicks),
             COALESCE(sum(views) FILTER (WHERE day < $3::date), 0), COALESCE(sum(likes + comments + shares) FILTER (WHERE day < $3::date), 0),
             COALESCE(sum(views) FILTER (WHERE day < $3::date - 1), 0), COALESCE(sum(likes + comments + shares) FILTER (WHERE day < $3::date - 1), 0),
             COALESCE(sum(views) FILTER (WHERE day < $3::date - 2), 0), COALESCE(sum(likes + comments + shares) FILTER (WHERE day < $3::date - 2), 0)
      FROM daily GROUP BY "postId"
    )
    INSERT INTO "ProfileMetricsDaily" ("profileId", platform, day, views, likes, comments, shares, impressions, reach, clicks)
    SELECT $1, po.platform, d.day, sum(d.views), sum(d.likes), sum(d.comments), sum(d.shares), sum(d.impressions), sum(d.reach), sum(d.clicks)
    FROM daily d JOIN seed_post po ON po.id = d."postId" GROUP BY po.platform, d.day`,
    [profileId, now, today],
  );

  // in time order, as they would have been written
  await run(
    'Publication',
    `INSERT INTO "Publication" (id, "userId", "projectId", "projectTitle", "profileId", scheduled, "publishedAt", status, platforms, "mediaKey",
                                     views, engagement, "settledViews", "settledEngagement", "previousSettledViews", "previousSettledEngagement", "createdAt", "updatedAt")
    SELECT p.id, $1, pr.id, 'Episode ' || (pr.n + 1), $2, false, p.at, 'published', s.platforms, pr.key, s.views, s.engagement, s.settled_views, s.settled_engagement,
           s.previous_views, s.previous_engagement, p.at, p.at
    FROM seed_pub p
    JOIN (SELECT po.pub, array_agg(po.platform ORDER BY po.platform) AS platforms, sum(t.views) AS views,
                 sum(t.likes + t.comments + t.shares) AS engagement, sum(t.settled_views) AS settled_views, sum(t.settled_engagement) AS settled_engagement,
                 sum(t.previous_views) AS previous_views, sum(t.previous_engagement) AS previous_engagement
          FROM seed_post po JOIN seed_total t ON t."postId" = po.id GROUP BY po.pub) s ON s.pub = p.id
    JOIN seed_project pr ON pr.n = p.i % ${PROJECTS}
    ORDER BY p.at`,
    [userId, profileId],
  );
  await run(
    'Post',
    `INSERT INTO "Post" (id, "publicationId", "accountId", platform, content, "platformPostId", "platformPostUrl", "publishStatus", "syncStatus",
                              "publishedAt", "lastSyncedAt", views, likes, comments, shares, impressions, reach, clicks, "createdAt", "updatedAt")
    SELECT po.id, po.pub, po.account, po.platform,
           CASE WHEN po.platform = 'videoshare' THEN jsonb_build_object('title', 'Episode clip', 'description', 'This week''s episode')
                ELSE jsonb_build_object('content', 'This week''s episode') END,
           x.ppid, 'https://sandbox.clipcast.local/' || po.platform || '/p/' || x.ppid, 'published', 'synced',
           po.at, $1::timestamptz, t.views, t.likes, t.comments, t.shares, t.impressions, t.reach, t.clicks, po.at, $1::timestamptz
    FROM seed_post po JOIN seed_total t ON t."postId" = po.id CROSS JOIN LATERAL (SELECT substr(md5(po.id::text), 1, 19) AS ppid) x
    ORDER BY po.at`,
    [now],
  );
  // the keys the settlement two days ago left, kept when yesterday's was overwritten (analytics.ts: settle)
  await run(
    'PublicationKeptKey',
    `INSERT INTO "PublicationKeptKey" (day, "publicationId", "userId", views, engagement)
    SELECT $2::date - 2, po.pub, $1, sum(t.kept_views)::int, sum(t.kept_engagement)::int
    FROM seed_post po JOIN seed_total t ON t."postId" = po.id GROUP BY po.pub`,
    [userId, today],
  );
  await run(null, `RESET session_replication_role`);
  // the rows before today are settled (the listing's sort keys include them), the day before yesterday's kept as the previous keys
  await run(null, `UPDATE "MetricsSettlement" SET day = $1::date, "previousDay" = $1::date - 1 WHERE id = 1`, [today]);
  await run(null, `DROP VIEW seed_daily; DROP TABLE seed_total, seed_post, seed_pub, seed_project, seed_account`);
  // and what autovacuum would do to the new rows, so that it does not do it during the measures
  await run('(vacuum and analyze)', `VACUUM (ANALYZE)`);
  const ms = performance.now() - t0;
  const rows: Record<string, number> = {};
  for (const t of SEEDED_TABLES) rows[t] = Number((await db.query(`SELECT count(*) AS n FROM "${t}"`)).rows[0].n);
  return { profileId, ms, rows };
}

// ---------------------------------------------------------------------------
// measuring

/** timed requests at each page (after one untimed) */
const SAMPLES = 25;
const PAGE = 25;
const MIDDLE = PUBLICATIONS / 2;
const WALK_PAGE = 100;
const EXPORT_BYTES = 8 * 1024 * 1024;
const PUBLISHES = 20;
const POLL_MS = 20;
const SANDBOX_DELAY_MS = 1500;

const LISTING_TARGET_MS = 30;
const STATS_TARGET_MS = 100;

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const v = await fn();
  return [v, performance.now() - t0];
}

/** The nearest-rank percentile `q` (0-1) of `xs`. */
function percentile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.max(0, Math.ceil(q * s.length) - 1)];
}

const fmt = (ms: number) => ms.toFixed(1);

/** A p50 and a p95 row of a set of timings. */
function latencyRows(metric: string, ms: number[], target: number | null, note = ''): Row[] {
  const p95 = percentile(ms, 0.95);
  const verdict = target === null ? '' : `target p95 <= ${target} ms: ${p95 <= target ? 'met' : 'MISSED'}`;
  return [
    { section: SECTION, metric: `${metric}: p50`, value: percentile(ms, 0.5), unit: 'ms', note: [note, `n=${ms.length}`].filter(Boolean).join('; ') },
    { section: SECTION, metric: `${metric}: p95`, value: p95, unit: 'ms', note: verdict },
  ];
}

interface Client {
  svc: Service;
  key: string;
}

async function getJson<T>(c: Client, url: string): Promise<T> {
  const res = await fetch(`${c.svc.url}${url}`, { headers: { 'x-api-key': c.key } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

interface ListingPage {
  data: Array<{ id: string }>;
  pagination: { nextCursor: string | null };
}

type Direction = 'asc' | 'desc';
const SORTS: Array<[SortKey, Direction]> = [
  ['publishedAt', 'desc'],
  ['publishedAt', 'asc'],
  ['views', 'desc'],
  ['views', 'asc'],
  ['engagement', 'desc'],
  ['engagement', 'asc'],
];
const COLUMN: Record<SortKey, string> = { publishedAt: '"publishedAt"', views: '"settledViews"', engagement: '"settledEngagement"' };

/**
 * A page of the listing read from the table: the `offset`th row (from 1), whose
 * key and id make the cursor of the page after it, and the ids of that page.
 */
async function pageAt(db: pg.Client, userId: string, sortBy: SortKey, dir: Direction, offset: number) {
  const key = sortBy === 'publishedAt' ? `to_char("publishedAt", 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : COLUMN[sortBy];
  const { rows } = await db.query<{ id: string; key: string | number }>(
    `SELECT id, ${key} AS key FROM "Publication" WHERE "userId" = $1 ORDER BY ${COLUMN[sortBy]} ${dir}, id ${dir} OFFSET $2 LIMIT ${PAGE + 1}`,
    [userId, offset - 1],
  );
  return { before: rows[0], ids: rows.slice(1).map((r) => r.id) };
}

/**
 * GET /v1/projects/published over HTTP, for each sort and direction: the first
 * page, the page after the first half, and the last page, each timed SAMPLES
 * times. The deep pages are asked with the cursors of the rows before them,
 * as following nextCursor reaches them: the listing allows RATE_LIMITS.publications
 * calls an hour, and walking to each would take thousands. One walk to the
 * middle (by publishedAt, newest first, WALK_PAGE a page) checks that the
 * cursor it ends with is the one built here.
 */
async function measureListing(c: Client, db: pg.Client, userId: string): Promise<Row[]> {
  let calls = 0;
  const list = (query: Record<string, string | number>) => {
    if (++calls > RATE_LIMITS.publications) throw new Error(`more than ${RATE_LIMITS.publications} listing calls: the rate limit would refuse them`);
    return getJson<ListingPage>(c, `/v1/projects/published?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`);
  };
  const rows: Row[] = [];

  // the walk
  const walkMs: number[] = [];
  let walked: string | null = null;
  for (let seen = 0; seen < MIDDLE; ) {
    const [page, ms] = await timed(() => list({ sortBy: 'publishedAt', direction: 'desc', limit: WALK_PAGE, ...(walked ? { cursor: walked } : {}) }));
    walkMs.push(ms);
    seen += page.data.length;
    walked = page.pagination.nextCursor;
    if (!walked) throw new Error(`the walk ended after ${seen} publications`);
  }
  const walkedPin = decodeCursor(walked!)!;
  const expected = await pageAt(db, userId, 'publishedAt', 'desc', MIDDLE);
  const built = encodeCursor({ ...walkedPin, key: expected.before.key, id: expected.before.id });
  if (built !== walked) throw new Error(`the cursor after ${MIDDLE} publications is not the one built from the row there: ${walked} vs ${built}`);
  const tenth = Math.floor(walkMs.length / 10);
  rows.push({
    section: SECTION,
    metric: `walk by cursors to the middle (publishedAt desc, ${walkMs.length} pages of ${WALK_PAGE})`,
    value: walkMs.reduce((a, b) => a + b, 0) / 1000,
    unit: 's',
    note: `median page ${fmt(percentile(walkMs, 0.5))} ms over the first tenth, ${fmt(percentile(walkMs.slice(-tenth), 0.5))} ms over the last; ends at the cursor built from the row there`,
  });

  // each page is asked once and checked against the table, then timed in rounds over every page,
  // so that the other work of the machine weighs on all of them alike
  interface Timed {
    name: string;
    query: Record<string, string>;
    ms: number[];
  }
  const timedPages: Timed[] = [];
  for (const [sortBy, direction] of SORTS) {
    const { rows: first } = await db.query<{ id: string }>(
      `SELECT id FROM "Publication" WHERE "userId" = $1 ORDER BY ${COLUMN[sortBy]} ${direction}, id ${direction} LIMIT ${PAGE}`,
      [userId],
    );
    const firstPage = await list({ sortBy, direction });
    const pin = decodeCursor(firstPage.pagination.nextCursor!)!;
    const middle = await pageAt(db, userId, sortBy, direction, MIDDLE);
    const last = await pageAt(db, userId, sortBy, direction, PUBLICATIONS - PAGE);
    const cursorOf = (r: { key: string | number; id: string }) => encodeCursor({ ...pin, key: r.key, id: r.id });
    const pages: Array<{ name: string; query: Record<string, string>; ids: string[]; end: boolean }> = [
      { name: `first page (1-${PAGE})`, query: {}, ids: first.map((r) => r.id), end: false },
      { name: `middle page (${MIDDLE + 1}-${MIDDLE + PAGE})`, query: { cursor: cursorOf(middle.before) }, ids: middle.ids, end: false },
      { name: `last page (${PUBLICATIONS - PAGE + 1}-${PUBLICATIONS})`, query: { cursor: cursorOf(last.before) }, ids: last.ids, end: true },
    ];
    for (const p of pages) {
      const page = p.query.cursor ? await list({ sortBy, direction, ...p.query }) : firstPage;
      const got = page.data.map((x) => x.id);
      if (got.join() !== p.ids.join()) throw new Error(`${sortBy} ${direction}, ${p.name}: not the publications the table holds there`);
      if (p.end !== (page.pagination.nextCursor === null)) throw new Error(`${sortBy} ${direction}, ${p.name}: nextCursor ${page.pagination.nextCursor}`);
      timedPages.push({ name: `listing ${sortBy} ${direction}, ${p.name}`, query: { sortBy, direction, ...p.query }, ms: [] });
    }
  }
  for (let i = 0; i < SAMPLES; i++) for (const p of timedPages) p.ms.push((await timed(() => list(p.query)))[1]);
  for (const p of timedPages) rows.push(...latencyRows(p.name, p.ms, LISTING_TARGET_MS));

  // A traversal that began before the last settlement reads the keys the settlement kept (indexed);
  // one begun before the kept days has its first page write its keys among the kept ones, summed from
  // the daily rows of the days since (listing.ts, keepKeysOf), and every later page reads them so.
  const middle = await pageAt(db, userId, 'views', 'desc', MIDDLE);
  const daysBefore = (n: number) => utcDay(new Date(Date.parse(`${walkedPin.day}T00:00:00Z`) - n * 86_400_000));
  for (const [n, label, note] of [
    [1, 'the day before the last settlement', 'the keys the settlement kept (an index)'],
    [2, 'two days before the last settlement', 'the keys kept of its day (an index)'],
    [3, 'three days before the last settlement, past the kept keys', 'the keys its first page wrote among the kept ones (an index)'],
  ] as const) {
    const stale = {
      sortBy: 'views',
      direction: 'desc',
      cursor: encodeCursor({ sortBy: 'views', direction: 'desc', key: middle.before.key, id: middle.before.id, asOf: walkedPin.asOf, day: daysBefore(n) }),
    };
    const [, firstMs] = await timed(() => list(stale));
    if (n === 3) {
      rows.push({
        section: SECTION,
        metric: `listing views desc, the first page of a traversal begun ${label}`,
        value: firstMs,
        unit: 'ms',
        note: `once a traversal: it writes the user's ${PUBLICATIONS.toLocaleString('en')} keys of its day, summed from the daily rows`,
      });
    }
    const staleMs: number[] = [];
    // 8 for the last: the run's 999th listing call, the hourly limit being 1,000
    for (let i = 0; i < (n <= 2 ? 10 : 8); i++) staleMs.push((await timed(() => list(stale)))[1]);
    rows.push(...latencyRows(`listing views desc, a page of a traversal begun ${label}`, staleMs, LISTING_TARGET_MS, note));
  }
  rows.push({
    section: SECTION,
    metric: 'load average (1 min) after the listing timings',
    value: os.loadavg()[0],
    unit: '',
    note: `${os.cpus().length} cores`,
  });
  process.stderr.write(`# ${SECTION}: ${calls} listing calls\n`);
  return rows;
}

/** GET /v1/publishing/stats/profiles/{id} over the last 365 days, for each metric (in rounds, the first untimed). */
async function measureStats(c: Client, profileId: string): Promise<Row[]> {
  const ms = new Map<string, number[]>(STATS_METRICS.map((m) => [m, []]));
  for (let i = 0; i <= SAMPLES; i++) {
    for (const metric of STATS_METRICS) {
      const to = new Date();
      const from = new Date(to.getTime() - DAYS * 86_400_000);
      const [stats, t] = await timed(() =>
        getJson<{ timeseries: unknown[] }>(
          c,
          `/v1/publishing/stats/profiles/${profileId}?${new URLSearchParams({ from: from.toISOString(), to: to.toISOString(), metric })}`,
        ),
      );
      if (stats.timeseries.length < DAYS) throw new Error(`stats ${metric}: ${stats.timeseries.length} days`);
      if (i > 0) ms.get(metric)!.push(t);
    }
  }
  return STATS_METRICS.flatMap((m) =>
    latencyRows(`stats of the profile over 365 days, metric=${m}`, ms.get(m)!, STATS_TARGET_MS, `${DAYS} days and the ${DAYS} before, 6 platforms`),
  );
}

const PAIRS = [
  ['videoshare', 'shortvideo'],
  ['photoshare', 'microblog'],
  ['socialnet', 'prosocial'],
];

interface PublicationRecord {
  posts: Array<{ platform: string; publishStatus: string; error: string | null }>;
}

/**
 * PUBLISHES publications of an exported project (a stored file stands for the
 * render), one after another, each to 2 platforms of the sandbox: from the
 * POST to every post published, read by polling GET /v1/projects/published/{id}.
 */
async function measurePublishes(c: Client, db: pg.Client, userId: string): Promise<Row[]> {
  const key = `renders/${userId}/bench-export.mp4`;
  const file = path.join(c.svc.env.DATA_DIR!, 'media', ...key.split('/'));
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, Buffer.alloc(EXPORT_BYTES, 7));
  const {
    rows: [{ id: projectId }],
  } = await db.query<{ id: string }>(
    `INSERT INTO "Project" (id, "userId", title, language, "templateName", status, "renderedKey", "createdAt", "updatedAt", "completedAt")
     VALUES (gen_random_uuid(), $1, 'Launch video', 'en', 'classic', 'completed', $2, now(), now(), now()) RETURNING id`,
    [userId, key],
  );
  const answered: number[] = [];
  const done: number[] = [];
  for (let i = 0; i < PUBLISHES; i++) {
    const platforms = PAIRS[i % PAIRS.length];
    const t0 = performance.now();
    const res = await fetch(`${c.svc.url}/v1/projects/${projectId}/publish`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': c.key },
      body: JSON.stringify({ platforms: Object.fromEntries(platforms.map((p) => [p, CONTENT[p]])) }),
    });
    const body = (await res.json()) as { id: string };
    if (res.status !== 200) throw new Error(`publish: ${res.status} ${JSON.stringify(body)}`);
    answered.push(performance.now() - t0);
    for (;;) {
      const p = await getJson<PublicationRecord>(c, `/v1/projects/published/${body.id}`);
      const failed = p.posts.find((x) => x.publishStatus === 'failed');
      if (failed) throw new Error(`publication ${body.id}: ${failed.platform} failed: ${failed.error}`);
      if (p.posts.every((x) => x.publishStatus === 'published')) break;
      if (performance.now() - t0 > 60_000) throw new Error(`publication ${body.id} not published within 60 s`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    done.push(performance.now() - t0);
  }
  const note = `${PUBLISHES} publishes one after another, 2 platforms each, of a ${EXPORT_BYTES / 1024 / 1024} MiB export; SANDBOX_PUBLISH_DELAY_MS ${SANDBOX_DELAY_MS} and JOB_POLL_MS 5000 (their defaults on PostgreSQL)`;
  return [
    ...latencyRows('publish: POST answered', answered, null),
    ...latencyRows('publish: POST to every post published', done, null, note),
    ...latencyRows(
      'publish: beyond the sandbox delay',
      done.map((ms) => ms - SANDBOX_DELAY_MS),
      null,
      `the above less ${SANDBOX_DELAY_MS} ms; polled every ${POLL_MS} ms`,
    ),
  ];
}

/**
 * A year of one user's publishing (seed above) on PostgreSQL, through the
 * service's HTTP API: the listing's pages in every sort, the profile's
 * statistics over the year, and publishes on the sandbox platform with a
 * worker running.
 *
 * The worker's analytics sync (every 15 minutes, at once on a worker's first
 * start) would ask the sandbox for each seeded post, which it never published:
 * a worker is therefore started once before the seed, so the sync runs on the
 * empty database, then stopped until the publishes.
 */
export async function publishing(): Promise<Row[]> {
  return withPgDatabase(async (url) => {
    const svc = await startService({ DATABASE_URL: url }, 'server');
    const db = new pg.Client({ connectionString: url });
    let worker: ChildProcess | undefined;
    try {
      await db.connect();
      const { userId, apiKey } = await admin(
        svc.env,
        'user',
        'create',
        '--email',
        `bench-pub-${Date.now()}@bench.local`,
        '--api-credits',
        String(2 * PUBLISHES),
        '--api-publishing',
      );
      const c = { svc, key: apiKey };
      let syncs = 0;
      const onLine = (line: string) => {
        if (line.includes('"analytics synced"')) syncs++;
        else if (/"level":(4|5)\d/.test(line)) process.stderr.write(`# ${SECTION}: worker: ${line.slice(0, 400)}\n`);
      };
      worker = await startWorker(svc, onLine);
      for (const end = Date.now() + 60_000; syncs === 0; ) {
        if (Date.now() > end) throw new Error('the first analytics sync did not run within 60 s');
        await new Promise((r) => setTimeout(r, 100));
      }
      await stopProcess(worker);
      worker = undefined;

      const seeded = await seed(db, userId);
      process.stderr.write(`# ${SECTION}: seeded in ${(seeded.ms / 1000).toFixed(1)} s: ${JSON.stringify(seeded.rows)}\n`);
      const rows: Row[] = [
        {
          section: SECTION,
          metric: 'seed: one user, a year of publishing (SQL)',
          value: seeded.ms / 1000,
          unit: 's',
          note: `VACUUM (ANALYZE) included; each post has daily metrics for its first ${METRIC_DAYS} days (fewer if younger)`,
        },
        ...Object.entries(seeded.rows).map(([table, n]) => ({ section: SECTION, metric: `seed: ${table} rows`, value: n, unit: 'rows' })),
      ];
      rows.push(...(await measureListing(c, db, userId)));
      rows.push(...(await measureStats(c, seeded.profileId)));

      const before = syncs;
      worker = await startWorker(svc, onLine);
      const published = await measurePublishes(c, db, userId);
      rows.push(...published);
      if (syncs > before)
        rows.push({
          section: SECTION,
          metric: 'publish: analytics syncs during the publishes',
          value: syncs - before,
          unit: '',
          note: 'over the seeded posts: the publish figures are not clean',
        });
      return rows;
    } finally {
      if (worker) await stopProcess(worker);
      await db.end();
      await svc.stop();
    }
  });
}
