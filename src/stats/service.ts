/**
 * Publishing statistics (GET /v1/publishing/stats[/profiles/{id}]): what a
 * profile's posts gained in a window and the window just before it, and the
 * followers of its accounts, summed in SQL over the daily rows the analytics
 * sync writes (ProfileMetricsDaily, AccountFollowersDaily). docs/publishing.md,
 * Statistics, says how a window is cut into UTC days.
 */
import { PLATFORM_KEYS, type PlatformKey } from '../catalog/platforms.js';
import { Prisma, type Db } from '../db/client.js';
import { FieldErrors, notFound } from '../errors.js';
import { isUuid } from '../ids.js';
import { dateTime, fields, oneOf, outOfDateRange, readBody } from '../validation.js';

export const STATS_METRICS = ['views', 'engagement', 'followers'] as const;
export type StatsMetric = (typeof STATS_METRICS)[number];

/** The window when neither end is given, and the window when only `to` is. */
export const DEFAULT_WINDOW_DAYS = 7;
/** The longest window, so a timeseries stays bounded (at most this many days). */
export const MAX_WINDOW_DAYS = 400;

const DAY_MS = 86_400_000;

/** The query as either door passes it; an absent or null member takes its default. */
export interface StatsQuery {
  from?: string | null;
  to?: string | null;
  platform?: string | null;
  metric?: string | null;
}

export interface StatsPeriod {
  from: Date;
  to: Date;
  priorFrom: Date;
  priorTo: Date;
}

export interface Comparison {
  current: number;
  prior: number;
}

export interface StatsDay {
  /** the UTC day, YYYY-MM-DD */
  date: string;
  total: number;
  breakdown: Array<{ platform: PlatformKey; value: number }>;
}

export interface PublishingStats {
  period: StatsPeriod;
  summary: Record<StatsMetric, Comparison>;
  metric: StatsMetric;
  timeseries: StatsDay[];
}

export interface ProfileStats extends PublishingStats {
  profile: { id: string; name: string; isPrimary: boolean };
}

interface StatsRequest {
  period: StatsPeriod;
  platform: PlatformKey | null;
  metric: StatsMetric;
}

const statsQuery = fields({
  from: dateTime({ nullable: true }),
  to: dateTime({ nullable: true }),
  platform: oneOf(PLATFORM_KEYS as readonly PlatformKey[] as [PlatformKey, ...PlatformKey[]], { nullable: true }),
  metric: oneOf(STATS_METRICS, { nullable: true }),
});

/**
 * The window and filters a query asks for, every violated member named at
 * once. Without `from` the window is the 7 days before `to`; without `to` it
 * ends now. The prior window is as long and ends where the window starts.
 */
export function readStatsQuery(query: StatsQuery, now = new Date()): StatsRequest {
  const e = new FieldErrors();
  const sent = { from: query.from ?? undefined, to: query.to ?? undefined, platform: query.platform ?? undefined, metric: query.metric ?? undefined };
  const read = readBody(statsQuery, sent, e);
  const given = (name: 'from' | 'to') => (sent[name] === undefined || e.has(name) ? null : new Date(sent[name]));
  for (const name of ['from', 'to'] as const) {
    const t = given(name);
    const why = t && outOfDateRange(t);
    if (why) e.add(name, why, sent[name]);
  }
  if (e.has('from') || e.has('to')) e.throwIfAny();
  const to = given('to') ?? now;
  const from = given('from') ?? new Date(to.getTime() - DEFAULT_WINDOW_DAYS * DAY_MS);
  if (from >= to) e.add('from', sent.to === undefined ? 'must be in the past (to is now when left out)' : 'must be before to', sent.from);
  else if (to.getTime() - from.getTime() > MAX_WINDOW_DAYS * DAY_MS) e.add('from', `must be at most ${MAX_WINDOW_DAYS} days before to`, sent.from);
  e.throwIfAny();
  const span = to.getTime() - from.getTime();
  return {
    period: { from, to, priorFrom: new Date(from.getTime() - span), priorTo: from },
    platform: read!.platform ?? null,
    metric: read!.metric ?? 'views',
  };
}

/** Statistics of one of the user's profiles; a missing, foreign or malformed id is NOT_FOUND (before the query is read). */
export async function profileStats(db: Db, userId: string, profileId: string, query: StatsQuery, now = new Date()): Promise<ProfileStats> {
  const profile = isUuid(profileId)
    ? await db.profile.findFirst({ where: { id: profileId, userId }, select: { id: true, name: true, isPrimary: true } })
    : null;
  if (!profile) throw notFound('Profile');
  const stats = await statsOf(db, Prisma.sql`= ${profile.id}::uuid`, readStatsQuery(query, now));
  return { profile, ...stats };
}

/** Statistics over all of the user's profiles. */
export function publishingStats(db: Db, userId: string, query: StatsQuery, now = new Date()): Promise<PublishingStats> {
  // an array rather than IN (subquery): each profile's rows are then read through the primary keys
  return statsOf(db, Prisma.sql`= ANY(ARRAY(SELECT id FROM "Profile" WHERE "userId" = ${userId}::uuid))`, readStatsQuery(query, now));
}

/** The first UTC midnight at or after `t`, as YYYY-MM-DD: the first day a window starting at `t` holds. */
const dayFrom = (t: Date) => new Date(Math.ceil(t.getTime() / DAY_MS) * DAY_MS).toISOString().slice(0, 10);

/**
 * The days of the window and of the prior one, as half-open ranges of dates:
 * a day belongs to the window that holds its midnight, so none is in both.
 */
function daysOf(period: StatsPeriod) {
  return { priorFirst: dayFrom(period.priorFrom), first: dayFrom(period.from), end: dayFrom(period.to) };
}

/** `profiles` is the condition on a profile id column (`= $1` or `= ANY(...)`) that scopes every sum. */
async function statsOf(db: Db, profiles: Prisma.Sql, { period, platform, metric }: StatsRequest): Promise<PublishingStats> {
  const platforms = platform ? [platform] : await connectedPlatforms(db, profiles);
  const days = daysOf(period);
  const [summary, timeseries] = await Promise.all([
    summaryOf(db, profiles, platforms, days),
    metric === 'followers' ? followersSeries(db, profiles, platforms, days) : gainsSeries(db, profiles, platforms, days, metric),
  ]);
  return { period, summary, metric, timeseries: shapeSeries(timeseries) };
}

/** The platforms of the profiles' connected accounts, in catalogue order. */
async function connectedPlatforms(db: Db, profiles: Prisma.Sql): Promise<PlatformKey[]> {
  const rows = await db.$queryRaw<{ platform: string }[]>`SELECT DISTINCT platform::text AS platform FROM "SocialAccount" WHERE "profileId" ${profiles}`;
  const held = new Set(rows.map((r) => r.platform));
  return PLATFORM_KEYS.filter((k) => held.has(k));
}

type Days = ReturnType<typeof daysOf>;

/**
 * The three comparisons in one statement: gains summed over each window's
 * days, and followers as each account's latest level on or before the last
 * day of each window.
 */
async function summaryOf(db: Db, profiles: Prisma.Sql, platforms: PlatformKey[], { priorFirst, first, end }: Days): Promise<PublishingStats['summary']> {
  const [s] = await db.$queryRaw<Array<Record<'vc' | 'vp' | 'ec' | 'ep' | 'fc' | 'fp', number>>>`
    WITH gains AS (
      SELECT coalesce(sum(views) FILTER (WHERE day >= ${first}::date), 0)::float8 AS vc,
             coalesce(sum(views) FILTER (WHERE day < ${first}::date), 0)::float8 AS vp,
             coalesce(sum(likes + comments + shares) FILTER (WHERE day >= ${first}::date), 0)::float8 AS ec,
             coalesce(sum(likes + comments + shares) FILTER (WHERE day < ${first}::date), 0)::float8 AS ep
      FROM "ProfileMetricsDaily"
      WHERE "profileId" ${profiles} AND platform = ANY(${platforms}::"Platform"[]) AND day >= ${priorFirst}::date AND day < ${end}::date
    ), levels AS (
      SELECT coalesce(sum(cur.followers), 0)::float8 AS fc, coalesce(sum(pri.followers), 0)::float8 AS fp
      FROM "SocialAccount" a
      LEFT JOIN LATERAL (
        SELECT followers FROM "AccountFollowersDaily" f WHERE f."accountId" = a.id AND f.day < ${end}::date ORDER BY f.day DESC LIMIT 1
      ) cur ON true
      LEFT JOIN LATERAL (
        SELECT followers FROM "AccountFollowersDaily" f WHERE f."accountId" = a.id AND f.day < ${first}::date ORDER BY f.day DESC LIMIT 1
      ) pri ON true
      WHERE a."profileId" ${profiles} AND a.platform = ANY(${platforms}::"Platform"[])
    )
    SELECT * FROM gains, levels`;
  return {
    views: { current: s.vc, prior: s.vp },
    engagement: { current: s.ec, prior: s.ep },
    followers: { current: s.fc, prior: s.fp },
  };
}

/**
 * One row per day of the window and platform, days in order and platforms in
 * the order asked; a day has one row with no platform when none is asked.
 */
type SeriesRow = { date: string; platform: PlatformKey | null; value: number };

/** Each day of the window (date arithmetic, whatever the session's time zone), then each platform asked (none: the day alone). */
const dayRows = ({ first, end }: Days, platforms: PlatformKey[]) => Prisma.sql`
  (SELECT ${first}::date + i AS day FROM generate_series(0, ${end}::date - ${first}::date - 1) AS i) AS d
  LEFT JOIN unnest(${platforms}::"Platform"[]) WITH ORDINALITY AS p(platform, ord) ON true`;

/** Views or engagement gained on each day of the window, per platform; a day without a row is 0. */
function gainsSeries(db: Db, profiles: Prisma.Sql, platforms: PlatformKey[], days: Days, metric: 'views' | 'engagement'): Promise<SeriesRow[]> {
  const gained = metric === 'views' ? Prisma.sql`views` : Prisma.sql`likes + comments + shares`;
  return db.$queryRaw<SeriesRow[]>`
    WITH g AS (
      SELECT day, platform, sum(${gained}) AS value
      FROM "ProfileMetricsDaily"
      WHERE "profileId" ${profiles} AND platform = ANY(${platforms}::"Platform"[]) AND day >= ${days.first}::date AND day < ${days.end}::date
      GROUP BY day, platform
    )
    SELECT to_char(d.day, 'YYYY-MM-DD') AS date, p.platform::text AS platform, coalesce(g.value, 0)::float8 AS value
    FROM ${dayRows(days, platforms)}
    LEFT JOIN g ON g.day = d.day AND g.platform = p.platform
    ORDER BY d.day, p.ord`;
}

/**
 * Followers at the end of each day of the window, per platform: each
 * account's latest level on or before the day, 0 before its first one. The
 * levels are read once, as changes (the level before the window, through the
 * primary key (accountId, day), then each row of the window less the one
 * before it), and a running sum per platform over the days carries them forward.
 */
function followersSeries(db: Db, profiles: Prisma.Sql, platforms: PlatformKey[], days: Days): Promise<SeriesRow[]> {
  return db.$queryRaw<SeriesRow[]>`
    WITH a AS (
      SELECT id, platform FROM "SocialAccount" WHERE "profileId" ${profiles} AND platform = ANY(${platforms}::"Platform"[])
    ), levels AS (
      SELECT a.id, a.platform, ${days.first}::date AS day, 0 AS after, s.followers
      FROM a CROSS JOIN LATERAL (
        SELECT followers FROM "AccountFollowersDaily" f WHERE f."accountId" = a.id AND f.day < ${days.first}::date ORDER BY f.day DESC LIMIT 1
      ) s
      UNION ALL
      SELECT a.id, a.platform, f.day, 1, f.followers
      FROM a JOIN "AccountFollowersDaily" f ON f."accountId" = a.id
      -- the array, as for the profiles, has the accounts' rows read through the primary key
      WHERE f."accountId" = ANY(ARRAY(SELECT id FROM a)) AND f.day >= ${days.first}::date AND f.day < ${days.end}::date
    ), changes AS (
      SELECT platform, day, sum(change) AS change
      FROM (SELECT platform, day, followers - coalesce(lag(followers) OVER (PARTITION BY id ORDER BY day, after), 0) AS change FROM levels) c
      GROUP BY platform, day
    )
    SELECT to_char(d.day, 'YYYY-MM-DD') AS date, p.platform::text AS platform,
      coalesce(sum(c.change) OVER (PARTITION BY p.platform ORDER BY d.day), 0)::float8 AS value
    FROM ${dayRows(days, platforms)}
    LEFT JOIN changes c ON c.day = d.day AND c.platform = p.platform
    ORDER BY d.day, p.ord`;
}

/** The rows as one entry per day, its platforms' values and their total. */
function shapeSeries(rows: SeriesRow[]): StatsDay[] {
  const out: StatsDay[] = [];
  for (const { date, platform, value } of rows) {
    if (out.at(-1)?.date !== date) out.push({ date, total: 0, breakdown: [] });
    const day = out.at(-1)!;
    if (platform === null) continue;
    day.breakdown.push({ platform, value });
    day.total += value;
  }
  return out;
}
