/**
 * The analytics sync (a recurring job): each published post's totals and each
 * account's followers, asked of the post's connector, written as one row per
 * post per UTC day (PostMetricsDaily: what the post gained that day), one per
 * account per day (AccountFollowersDaily: the level at the end of the day,
 * or now for today), and the rollup the statistics read (ProfileMetricsDaily,
 * per profile, platform and day). A post's `syncStatus` becomes `synced`, or
 * `failed` when its platform could not say.
 *
 * Totals move as deltas (the platform's total now minus the last one read),
 * all in one statement per batch of posts, with the posts locked: two syncs
 * at once cannot count a gain twice. Rows of past days never change: a sync
 * writes today's row, and the settlement (settle below) moves the listing's
 * sort keys over each day once it has ended.
 */
import type { App } from '../app.js';
import type { Db } from '../db/client.js';
import { connectorFor } from '../platforms/index.js';
import type { ConnectedAccount, PostMetrics } from '../platforms/types.js';
import type { PlatformKey } from '../catalog/platforms.js';

const BATCH = 200;
const FETCHES_AT_ONCE = 8;

/** The UTC day of an instant, as YYYY-MM-DD. */
export const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/** Runs `fn` over `items`, at most `limit` at a time, in order of the items. */
async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

const asConnected = (a: ConnectedAccount & { platform: string }) => ({ ...a, platform: a.platform as PlatformKey });

export interface SyncResult {
  posts: number;
  failedPosts: number;
  accounts: number;
  failedAccounts: number;
}

/** One sync of every published post and every account. */
export async function syncAnalytics(app: App, opts: { now?: () => Date; touch?: () => Promise<void> } = {}): Promise<SyncResult> {
  const now = opts.now ?? (() => new Date());
  const result: SyncResult = { posts: 0, failedPosts: 0, accounts: 0, failedAccounts: 0 };
  await settle(app.db, utcDay(now()));

  for (let after: string | undefined; ; ) {
    const posts = await app.db.post.findMany({
      // a disconnected account's posts cannot be read until it is connected again; they keep their last totals
      where: { publishStatus: 'published', platformPostId: { not: null }, account: { status: 'connected' }, ...(after ? { id: { gt: after } } : {}) },
      select: { id: true, platformPostId: true, account: true },
      orderBy: { id: 'asc' },
      take: BATCH,
    });
    if (posts.length === 0) break;
    after = posts.at(-1)!.id;
    const read = await mapLimit(posts, FETCHES_AT_ONCE, async (p) => {
      const connector = connectorFor(app, p.account.connector);
      try {
        if (!connector) throw new Error(`no connector ${p.account.connector}`);
        return { id: p.id, metrics: await connector.fetchPostMetrics(asConnected(p.account), p.platformPostId!) };
      } catch (err) {
        app.log.warn({ err, postId: p.id }, "could not read a post's metrics");
        return { id: p.id, metrics: null };
      }
    });
    const ok = read.filter((r): r is { id: string; metrics: PostMetrics } => r.metrics !== null);
    const failed = read.filter((r) => r.metrics === null).map((r) => r.id);
    await writePostMetrics(app.db, ok, utcDay(now()));
    if (failed.length) await app.db.post.updateMany({ where: { id: { in: failed } }, data: { syncStatus: 'failed', lastSyncedAt: now() } });
    result.posts += ok.length;
    result.failedPosts += failed.length;
    await opts.touch?.();
  }

  for (let after: string | undefined; ; ) {
    const accounts = await app.db.socialAccount.findMany({
      where: { status: 'connected', ...(after ? { id: { gt: after } } : {}) },
      orderBy: { id: 'asc' },
      take: BATCH,
    });
    if (accounts.length === 0) break;
    after = accounts.at(-1)!.id;
    const read = await mapLimit(accounts, FETCHES_AT_ONCE, async (a) => {
      const connector = connectorFor(app, a.connector);
      try {
        if (!connector) throw new Error(`no connector ${a.connector}`);
        return { id: a.id, followers: await connector.fetchFollowers(asConnected(a)) };
      } catch (err) {
        app.log.warn({ err, accountId: a.id }, "could not read an account's followers");
        return { id: a.id, followers: null };
      }
    });
    const ok = read.filter((r): r is { id: string; followers: number } => r.followers !== null);
    await writeFollowers(app.db, ok, utcDay(now()));
    result.accounts += ok.length;
    result.failedAccounts += read.length - ok.length;
    await opts.touch?.();
  }
  return result;
}

/**
 * Writes a batch of posts' totals: the gains since the last sync go to today's
 * rows (the post's, the profile's rollup) and to the publication's totals.
 * The settlement row is held shared, so the day cannot be settled while its
 * rows are still being written; a day already settled is written as the next one.
 */
export async function writePostMetrics(db: Db, batch: Array<{ id: string; metrics: PostMetrics }>, day: string): Promise<void> {
  if (batch.length === 0) return;
  const col = (k: keyof PostMetrics) => batch.map((b) => Math.max(0, Math.round(b.metrics[k])));
  const ids = batch.map((b) => b.id);
  await db.$transaction(async (tx) => {
    const [{ day: settled }] = await tx.$queryRaw<{ day: Date }[]>`SELECT day FROM "MetricsSettlement" WHERE id = 1 FOR SHARE`;
    const at = utcDay(settled) > day ? utcDay(settled) : day;
    await tx.$queryRaw`SELECT id FROM "Post" WHERE id = ANY(${ids}::uuid[]) ORDER BY id FOR UPDATE`;
    await tx.$executeRaw`
      WITH m AS (
        SELECT * FROM unnest(${ids}::uuid[], ${col('views')}::int[], ${col('likes')}::int[], ${col('comments')}::int[], ${col('shares')}::int[],
                             ${col('impressions')}::int[], ${col('reach')}::int[], ${col('clicks')}::int[])
          AS m(id, views, likes, comments, shares, impressions, reach, clicks)
      ), d AS (
        SELECT p.id, p."publicationId", a."profileId", p.platform,
          m.views - p.views AS views, m.likes - p.likes AS likes, m.comments - p.comments AS comments, m.shares - p.shares AS shares,
          m.impressions - p.impressions AS impressions, m.reach - p.reach AS reach, m.clicks - p.clicks AS clicks
        FROM m JOIN "Post" p ON p.id = m.id JOIN "SocialAccount" a ON a.id = p."accountId"
      ), changed AS (
        SELECT * FROM d WHERE views <> 0 OR likes <> 0 OR comments <> 0 OR shares <> 0 OR impressions <> 0 OR reach <> 0 OR clicks <> 0
      ), posts AS (
        UPDATE "Post" p SET views = m.views, likes = m.likes, comments = m.comments, shares = m.shares, impressions = m.impressions,
          reach = m.reach, clicks = m.clicks, "syncStatus" = 'synced', "lastSyncedAt" = now(), "updatedAt" = now()
        FROM m WHERE p.id = m.id
      ), daily AS (
        INSERT INTO "PostMetricsDaily" ("postId", day, views, likes, comments, shares, impressions, reach, clicks, "updatedAt")
        SELECT id, ${at}::date, views, likes, comments, shares, impressions, reach, clicks, now() FROM changed
        ON CONFLICT ("postId", day) DO UPDATE SET
          views = "PostMetricsDaily".views + EXCLUDED.views, likes = "PostMetricsDaily".likes + EXCLUDED.likes,
          comments = "PostMetricsDaily".comments + EXCLUDED.comments, shares = "PostMetricsDaily".shares + EXCLUDED.shares,
          impressions = "PostMetricsDaily".impressions + EXCLUDED.impressions, reach = "PostMetricsDaily".reach + EXCLUDED.reach,
          clicks = "PostMetricsDaily".clicks + EXCLUDED.clicks, "updatedAt" = now()
      ), rollup AS (
        INSERT INTO "ProfileMetricsDaily" ("profileId", platform, day, views, likes, comments, shares, impressions, reach, clicks)
        SELECT "profileId", platform, ${at}::date, sum(views), sum(likes), sum(comments), sum(shares), sum(impressions), sum(reach), sum(clicks)
        FROM changed GROUP BY "profileId", platform
        ON CONFLICT ("profileId", day, platform) DO UPDATE SET
          views = "ProfileMetricsDaily".views + EXCLUDED.views, likes = "ProfileMetricsDaily".likes + EXCLUDED.likes,
          comments = "ProfileMetricsDaily".comments + EXCLUDED.comments, shares = "ProfileMetricsDaily".shares + EXCLUDED.shares,
          impressions = "ProfileMetricsDaily".impressions + EXCLUDED.impressions, reach = "ProfileMetricsDaily".reach + EXCLUDED.reach,
          clicks = "ProfileMetricsDaily".clicks + EXCLUDED.clicks
      )
      UPDATE "Publication" x SET views = x.views + s.views, engagement = x.engagement + s.engagement, "updatedAt" = now()
      FROM (SELECT "publicationId", sum(views)::int AS views, sum(likes + comments + shares)::int AS engagement FROM changed GROUP BY "publicationId") s
      WHERE x.id = s."publicationId"`;
  });
}

/** Writes accounts' followers now: today's level, and the account's count. */
export async function writeFollowers(db: Db, batch: Array<{ id: string; followers: number }>, day: string): Promise<void> {
  if (batch.length === 0) return;
  const ids = batch.map((b) => b.id);
  const followers = batch.map((b) => Math.max(0, Math.round(b.followers)));
  await db.$executeRaw`
    WITH f AS (SELECT * FROM unnest(${ids}::uuid[], ${followers}::int[]) AS f(id, followers)),
    levels AS (
      INSERT INTO "AccountFollowersDaily" ("accountId", day, followers, "updatedAt")
      SELECT id, ${day}::date, followers, now() FROM f
      ON CONFLICT ("accountId", day) DO UPDATE SET followers = EXCLUDED.followers, "updatedAt" = now()
    )
    UPDATE "SocialAccount" a SET followers = f.followers, "updatedAt" = now() FROM f WHERE a.id = f.id`;
}

/**
 * How long a settlement's keys are kept after the next two settlements, and past that while a
 * traversal of their day has read a page within it (ListingKeyUse): one left longer writes its
 * own once, summed from the daily rows (listing.ts).
 */
export const KEPT_DAYS = 7;

/**
 * Moves the listing's sort keys (Publication.settled*) over every day before
 * `today` not yet settled, and the settlement to `today`, in one transaction
 * that waits for the syncs writing those days. Days before the settlement
 * never change again, so pages sorted by these keys keep one order. The keys
 * as they were are kept (previousSettled*), and the ones before those in
 * PublicationKeptKey for KEPT_DAYS days, and longer while a traversal of their
 * day still reads them, so a traversal begun before this settlement, or
 * before several, still reads its own keys through an index.
 */
export async function settle(db: Db, today: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const [{ day, previousDay }] = await tx.$queryRaw<
      { day: Date; previousDay: Date | null }[]
    >`SELECT day, "previousDay" FROM "MetricsSettlement" WHERE id = 1 FOR UPDATE`;
    if (utcDay(day) >= today) return false;
    // the keys of the settlement before the last are about to go: a traversal of that day reads them from here
    if (previousDay) {
      await tx.$executeRaw`
        INSERT INTO "PublicationKeptKey" (day, "publicationId", "userId", views, engagement)
        SELECT ${utcDay(previousDay)}::date, id, "userId", "previousSettledViews", "previousSettledEngagement" FROM "Publication"
        ON CONFLICT DO NOTHING`;
    }
    // past the kept week, a day's keys stay while a traversal of it reads them (a page within the week)
    await tx.$executeRaw`
      DELETE FROM "PublicationKeptKey" k WHERE k.day < ${today}::date - ${KEPT_DAYS}::int
      AND NOT EXISTS (
        SELECT 1 FROM "ListingKeyUse" u WHERE u."userId" = k."userId" AND u.day = k.day AND u."seenAt" >= ${today}::date - ${KEPT_DAYS}::int
      )`;
    await tx.$executeRaw`DELETE FROM "ListingKeyUse" WHERE "seenAt" < ${today}::date - ${KEPT_DAYS}::int`;
    // only the rows the last settlement moved differ from their previous keys
    await tx.$executeRaw`
      UPDATE "Publication" SET "previousSettledViews" = "settledViews", "previousSettledEngagement" = "settledEngagement"
      WHERE "previousSettledViews" <> "settledViews" OR "previousSettledEngagement" <> "settledEngagement"`;
    await tx.$executeRaw`
      UPDATE "Publication" x SET "settledViews" = x."settledViews" + s.views, "settledEngagement" = x."settledEngagement" + s.engagement
      FROM (
        SELECT p."publicationId", sum(d.views)::int AS views, sum(d.likes + d.comments + d.shares)::int AS engagement
        FROM "PostMetricsDaily" d JOIN "Post" p ON p.id = d."postId"
        WHERE d.day >= ${utcDay(day)}::date AND d.day < ${today}::date
        GROUP BY p."publicationId"
      ) s
      WHERE x.id = s."publicationId"`;
    await tx.$executeRaw`UPDATE "MetricsSettlement" SET day = ${today}::date, "previousDay" = day WHERE id = 1`;
    return true;
  });
}
