import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_KEYS, type PlatformKey } from '../../src/catalog/platforms.js';
import { createUser, gql, request, startTestApp, type Answer, type TestApp, type TestUser } from '../support/app.js';

// Publishing statistics through both doors, over a fixed data set written straight to the
// daily tables, checked against sums worked out by hand (docs/publishing.md, Statistics).

let app: TestApp;
let user: TestUser;
let other: TestUser;
let main: string;
let second: string;
let foreign: string;

const db = () => app.runtime.app.db;
const DAY_MS = 86_400_000;
const date = (d: string) => new Date(`${d}T00:00:00Z`);

type Gains = { views: number; likes?: number; comments?: number; shares?: number };

async function profile(
  owner: TestUser,
  name: string,
  isPrimary: boolean,
  accounts: Partial<Record<PlatformKey, Record<string, number>>>,
  gains: Partial<Record<PlatformKey, Record<string, Gains>>>,
) {
  const p = await db().profile.create({ data: { userId: owner.id, name, isPrimary } });
  for (const [platform, levels] of Object.entries(accounts) as Array<[PlatformKey, Record<string, number>]>) {
    const a = await db().socialAccount.create({ data: { profileId: p.id, platform, externalId: `x-${randomUUID()}`, followers: 123_456 } });
    await db().accountFollowersDaily.createMany({ data: Object.entries(levels).map(([day, followers]) => ({ accountId: a.id, day: date(day), followers })) });
  }
  for (const [platform, days] of Object.entries(gains) as Array<[PlatformKey, Record<string, Gains>]>) {
    await db().profileMetricsDaily.createMany({
      data: Object.entries(days).map(([day, g]) => ({
        profileId: p.id,
        platform,
        day: date(day),
        views: BigInt(g.views),
        likes: BigInt(g.likes ?? 0),
        comments: BigInt(g.comments ?? 0),
        shares: BigInt(g.shares ?? 0),
        // figures the statistics do not read
        impressions: 999n,
        reach: 999n,
        clicks: 999n,
      })),
    });
  }
  return p.id;
}

beforeAll(async () => {
  app = await startTestApp({ role: 'server' });
  [user, other] = [await createUser(app), await createUser(app)];
  // The window of most tests: [2026-03-01, 2026-03-08), days 03-01..03-07; prior days 02-22..02-28.
  main = await profile(
    user,
    'Main',
    true,
    {
      videoshare: { '2026-02-20': 1000, '2026-02-27': 1010, '2026-03-02': 1050, '2026-03-06': 1100, '2026-03-09': 1200 },
      shortvideo: { '2026-03-04': 500, '2026-03-07': 520 },
    },
    {
      videoshare: {
        '2026-02-25': { views: 50, likes: 5, comments: 1 },
        '2026-03-01': { views: 100, likes: 10, comments: 2, shares: 1 },
        '2026-03-03': { views: 40, likes: 4 },
        '2026-03-07': { views: 7, likes: 1, comments: 1, shares: 1 },
        '2026-03-08': { views: 1000 },
      },
      shortvideo: {
        '2026-02-21': { views: 999, likes: 99 },
        '2026-02-28': { views: 30, likes: 3 },
        '2026-03-01': { views: 20, likes: 2, comments: 1 },
        '2026-03-05': { views: 60, likes: 6, comments: 2, shares: 2 },
      },
    },
  );
  second = await profile(
    user,
    'Second',
    false,
    { socialnet: {}, shortvideo: { '2026-02-26': 300 } },
    {
      shortvideo: { '2026-03-02': { views: 500, likes: 50, comments: 5, shares: 5 } },
      socialnet: { '2026-02-23': { views: 10, likes: 1 }, '2026-03-04': { views: 200, likes: 20 } },
    },
  );
  foreign = await profile(other, 'Theirs', true, { videoshare: { '2026-03-01': 77_777 } }, { videoshare: { '2026-03-01': { views: 123_456, likes: 1 } } });
});
afterAll(async () => {
  await app?.stop();
});

const WINDOW = { from: '2026-03-01T00:00:00Z', to: '2026-03-08T00:00:00Z' };
const DAYS = ['2026-03-01', '2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07'];

const qs = (q: Record<string, string>) => (Object.keys(q).length ? `?${new URLSearchParams(q)}` : '');
const rest = (id: string, q: Record<string, string> = {}, key = user.key) =>
  request(app, 'GET', `/v1/publishing/stats/profiles/${encodeURIComponent(id)}${qs(q)}`, { key });
const restAll = (q: Record<string, string> = {}, key = user.key) => request(app, 'GET', `/v1/publishing/stats${qs(q)}`, { key });

const FIELDS = `period { from to priorFrom priorTo }
  summary { views { current prior } engagement { current prior } followers { current prior } }
  metric timeseries { date total breakdown { platform value } }`;
const PROFILE_STATS = `query($profileId: ID!, $from: String, $to: String, $platform: String, $metric: String) {
  profileStats(profileId: $profileId, from: $from, to: $to, platform: $platform, metric: $metric) { profile { id name isPrimary } ${FIELDS} } }`;
const PUBLISHING_STATS = `query($from: String, $to: String, $platform: String, $metric: String) {
  publishingStats(from: $from, to: $to, platform: $platform, metric: $metric) { ${FIELDS} } }`;

/** One day's entry from its values per platform, in the order given. */
const day = (d: string, values: Partial<Record<PlatformKey, number>>) => ({
  date: d,
  total: Object.values(values).reduce((s, v) => s + v, 0),
  breakdown: Object.entries(values).map(([platform, value]) => ({ platform, value })),
});

function expectFields(r: Answer, fields: string[]) {
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.body.error).toBe('VALIDATION_ERROR');
  expect(r.body.details.map((d: { field: string }) => d.field).sort()).toEqual([...fields].sort());
}

function expectNotFound(r: Answer) {
  expect(r.status, JSON.stringify(r.body)).toBe(404);
  expect(r.body).toEqual({ error: 'NOT_FOUND', message: 'Profile not found' });
}

describe('GET /v1/publishing/stats/profiles/{profileId}', () => {
  it('answers the spec shape: views per day and platform, the prior window, empty days as 0', async () => {
    const r = await rest(main, WINDOW);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(Object.keys(r.body)).toEqual(['profile', 'period', 'summary', 'metric', 'timeseries']);
    expect(r.body).toEqual({
      profile: { id: main, name: 'Main', isPrimary: true },
      period: { from: '2026-03-01T00:00:00.000Z', to: '2026-03-08T00:00:00.000Z', priorFrom: '2026-02-22T00:00:00.000Z', priorTo: '2026-03-01T00:00:00.000Z' },
      summary: {
        // 100 + 40 + 7 + 20 + 60; prior 50 + 30 (02-21 is before the prior window, 03-08 after the window)
        views: { current: 227, prior: 80 },
        // 13 + 4 + 3 + 3 + 10; prior 6 + 3
        engagement: { current: 33, prior: 9 },
        // at the end of 03-07: 1100 + 520; at the end of 02-28: 1010 + none yet
        followers: { current: 1620, prior: 1010 },
      },
      metric: 'views',
      timeseries: [
        day('2026-03-01', { videoshare: 100, shortvideo: 20 }),
        day('2026-03-02', { videoshare: 0, shortvideo: 0 }),
        day('2026-03-03', { videoshare: 40, shortvideo: 0 }),
        day('2026-03-04', { videoshare: 0, shortvideo: 0 }),
        day('2026-03-05', { videoshare: 0, shortvideo: 60 }),
        day('2026-03-06', { videoshare: 0, shortvideo: 0 }),
        day('2026-03-07', { videoshare: 7, shortvideo: 0 }),
      ],
    });
  });

  it('engagement per day is likes + comments + shares, adding up to the summary', async () => {
    const r = await rest(main, { ...WINDOW, metric: 'engagement' });
    expect(r.status).toBe(200);
    expect(r.body.metric).toBe('engagement');
    expect(r.body.timeseries).toEqual([
      day('2026-03-01', { videoshare: 13, shortvideo: 3 }),
      day('2026-03-02', { videoshare: 0, shortvideo: 0 }),
      day('2026-03-03', { videoshare: 4, shortvideo: 0 }),
      day('2026-03-04', { videoshare: 0, shortvideo: 0 }),
      day('2026-03-05', { videoshare: 0, shortvideo: 10 }),
      day('2026-03-06', { videoshare: 0, shortvideo: 0 }),
      day('2026-03-07', { videoshare: 3, shortvideo: 0 }),
    ]);
    expect(r.body.timeseries.reduce((s: number, d: { total: number }) => s + d.total, 0)).toBe(r.body.summary.engagement.current);
  });

  it('followers per day are levels carried forward, 0 before an account has one, the last one the summary', async () => {
    const r = await rest(main, { ...WINDOW, metric: 'followers' });
    expect(r.status).toBe(200);
    expect(r.body.summary.followers).toEqual({ current: 1620, prior: 1010 });
    expect(r.body.timeseries).toEqual([
      day('2026-03-01', { videoshare: 1010, shortvideo: 0 }),
      day('2026-03-02', { videoshare: 1050, shortvideo: 0 }),
      day('2026-03-03', { videoshare: 1050, shortvideo: 0 }),
      day('2026-03-04', { videoshare: 1050, shortvideo: 500 }),
      day('2026-03-05', { videoshare: 1050, shortvideo: 500 }),
      day('2026-03-06', { videoshare: 1100, shortvideo: 500 }),
      day('2026-03-07', { videoshare: 1100, shortvideo: 520 }),
    ]);
  });

  it('a day counts in the window that holds its midnight: the partial first day goes to the prior window, the partial last day to this one', async () => {
    const r = await rest(main, { from: '2026-03-01T12:00:00Z', to: '2026-03-08T12:00:00Z' });
    expect(r.status).toBe(200);
    expect(r.body.period).toEqual({
      from: '2026-03-01T12:00:00.000Z',
      to: '2026-03-08T12:00:00.000Z',
      priorFrom: '2026-02-22T12:00:00.000Z',
      priorTo: '2026-03-01T12:00:00.000Z',
    });
    expect(r.body.timeseries.map((d: { date: string }) => d.date)).toEqual([...DAYS.slice(1), '2026-03-08']);
    expect(r.body.timeseries.at(-1)).toEqual(day('2026-03-08', { videoshare: 1000, shortvideo: 0 }));
    // days 03-02..03-08: 40 + 7 + 1000 + 60; prior days 02-23..03-01: 50 + 100 + 30 + 20
    expect(r.body.summary.views).toEqual({ current: 1107, prior: 200 });
    // at the end of 03-08 and of 03-01
    expect(r.body.summary.followers).toEqual({ current: 1620, prior: 1010 });
  });

  it('windows side by side count each day once', async () => {
    const halves = await Promise.all([
      rest(main, { from: '2026-03-01T06:00:00Z', to: '2026-03-04T18:00:00Z' }),
      rest(main, { from: '2026-03-04T18:00:00Z', to: '2026-03-08T06:00:00Z' }),
    ]);
    const dates = halves.flatMap((h) => h.body.timeseries.map((d: { date: string }) => d.date));
    expect(dates).toEqual(['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08']);
    expect(halves[0].body.summary.views.current + halves[1].body.summary.views.current).toBe(40 + 60 + 7 + 1000);
  });

  it('a window shorter than a day without a midnight has no days; its followers are the level of the day it is in', async () => {
    const r = await rest(main, { from: '2026-03-03T01:00:00Z', to: '2026-03-03T05:00:00+00:00' });
    expect(r.status).toBe(200);
    expect(r.body.timeseries).toEqual([]);
    // the prior window, from 03-02T21:00, holds the midnight of 03-03 and so its gains
    expect(r.body.period.priorFrom).toBe('2026-03-02T21:00:00.000Z');
    expect(r.body.summary).toEqual({ views: { current: 0, prior: 40 }, engagement: { current: 0, prior: 4 }, followers: { current: 1050, prior: 1050 } });
  });

  it('an offset other than Z names the same instant', async () => {
    const r = await rest(main, { from: '2026-03-01T01:00:00+01:00', to: '2026-03-07T19:00:00-05:00' });
    expect(r.status).toBe(200);
    expect(r.body.period.from).toBe('2026-03-01T00:00:00.000Z');
    expect(r.body.period.to).toBe('2026-03-08T00:00:00.000Z');
    expect(r.body.summary.views.current).toBe(227);
  });

  it('platform restricts the summary, the timeseries and the breakdown to it', async () => {
    const r = await rest(main, { ...WINDOW, platform: 'shortvideo' });
    expect(r.status).toBe(200);
    expect(r.body.summary).toEqual({ views: { current: 80, prior: 30 }, engagement: { current: 13, prior: 3 }, followers: { current: 520, prior: 0 } });
    expect(r.body.timeseries).toEqual(DAYS.map((d) => day(d, { shortvideo: d === '2026-03-01' ? 20 : d === '2026-03-05' ? 60 : 0 })));

    const followers = await rest(main, { ...WINDOW, platform: 'videoshare', metric: 'followers' });
    expect(followers.body.timeseries.map((d: { total: number }) => d.total)).toEqual([1010, 1050, 1050, 1050, 1050, 1100, 1100]);
    expect(followers.body.summary.followers).toEqual({ current: 1100, prior: 1010 });
  });

  it('a platform without an account of the profile answers zeros for it', async () => {
    const r = await rest(main, { ...WINDOW, platform: 'photoshare', metric: 'engagement' });
    expect(r.status).toBe(200);
    expect(r.body.summary).toEqual({ views: { current: 0, prior: 0 }, engagement: { current: 0, prior: 0 }, followers: { current: 0, prior: 0 } });
    expect(r.body.timeseries).toEqual(DAYS.map((d) => day(d, { photoshare: 0 })));
  });

  it('a profile with no account has a day per entry and an empty breakdown', async () => {
    const bare = await profile(user, 'Bare', false, {}, {});
    const r = await rest(bare, WINDOW);
    expect(r.status).toBe(200);
    expect(r.body.profile).toEqual({ id: bare, name: 'Bare', isPrimary: false });
    expect(r.body.timeseries).toEqual(DAYS.map((d) => ({ date: d, total: 0, breakdown: [] })));
    expect(r.body.summary.followers).toEqual({ current: 0, prior: 0 });
  });

  it('without from and to: the 7 days before now, the partial first day in the prior window, today in this one', async () => {
    // not across midnight: the rows are placed relative to today
    const wait = DAY_MS - (Date.now() % DAY_MS);
    if (wait < 5_000) await new Promise((res) => setTimeout(res, wait + 100));
    const owner = await createUser(app);
    const today = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
    const ago = (n: number) => new Date(today.getTime() - n * DAY_MS).toISOString().slice(0, 10);
    const id = await profile(
      owner,
      'Now',
      true,
      { microblog: { [ago(10)]: 40, [ago(0)]: 45 } },
      {
        microblog: {
          [ago(0)]: { views: 5 },
          [ago(3)]: { views: 3 },
          [ago(6)]: { views: 6 },
          [ago(7)]: { views: 7 },
          [ago(13)]: { views: 13 },
          [ago(14)]: { views: 14 },
        },
      },
    );
    const before = Date.now();
    const r = await rest(id, {}, owner.key);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const { from, to, priorFrom, priorTo } = r.body.period;
    expect(Date.parse(to)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(to)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(to) - Date.parse(from)).toBe(7 * DAY_MS);
    expect(Date.parse(priorTo)).toBe(Date.parse(from));
    expect(Date.parse(from) - Date.parse(priorFrom)).toBe(7 * DAY_MS);
    expect(r.body.timeseries.map((d: { date: string }) => d.date)).toEqual([6, 5, 4, 3, 2, 1, 0].map(ago));
    expect(r.body.timeseries.map((d: { total: number }) => d.total)).toEqual([6, 0, 0, 3, 0, 0, 5]);
    expect(r.body.summary.views).toEqual({ current: 14, prior: 20 });
    expect(r.body.summary.followers).toEqual({ current: 45, prior: 40 });
    expect(r.body.metric).toBe('views');
  });

  it('only from: up to now; only to: the 7 days before it', async () => {
    const onlyFrom = await rest(main, { from: '2026-03-01T00:00:00Z' });
    expect(onlyFrom.status, JSON.stringify(onlyFrom.body)).toBe(200);
    expect(Date.parse(onlyFrom.body.period.to)).toBeLessThanOrEqual(Date.now());
    expect(Date.parse(onlyFrom.body.period.to)).toBeGreaterThan(Date.now() - 60_000);
    expect(onlyFrom.body.period.from).toBe('2026-03-01T00:00:00.000Z');

    const onlyTo = await rest(main, { to: '2026-03-08T00:00:00Z' });
    expect(onlyTo.status).toBe(200);
    expect(onlyTo.body.period).toEqual({
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-03-08T00:00:00.000Z',
      priorFrom: '2026-02-22T00:00:00.000Z',
      priorTo: '2026-03-01T00:00:00.000Z',
    });
    expect(onlyTo.body.summary.views).toEqual({ current: 227, prior: 80 });
  });

  it('a window of 400 days has 400 entries; one longer is refused', async () => {
    const r = await rest(main, { from: '2025-02-01T00:00:00Z', to: new Date(Date.parse('2025-02-01T00:00:00Z') + 400 * DAY_MS).toISOString() });
    expect(r.status).toBe(200);
    expect(r.body.timeseries).toHaveLength(400);
    // days 2025-02-01..2026-03-07: everything of the profile but 03-08
    expect(r.body.summary.views.current).toBe(999 + 30 + 50 + 227);
    expectFields(await rest(main, { from: '2025-02-01T00:00:00Z', to: new Date(Date.parse('2025-02-01T00:00:00Z') + 400 * DAY_MS + 1000).toISOString() }), [
      'from',
    ]);
  });

  describe('refused', () => {
    it("another user's profile, an unknown id and a malformed one: 404 Profile not found", async () => {
      expectNotFound(await rest(foreign, WINDOW));
      expectNotFound(await rest(randomUUID(), WINDOW));
      expectNotFound(await rest('not-a-uuid', WINDOW));
      expectNotFound(await rest(main, WINDOW, other.key));
    });

    it('a date without a time is an invalid date-time, named from', async () => {
      const r = await rest(main, { from: '2026-03-01' });
      expectFields(r, ['from']);
      expect(r.body.details[0]).toMatchObject({ field: 'from', value: '2026-03-01' });
      expectFields(await rest(main, { from: '2026-03-01T00:00:00' }), ['from']);
      expectFields(await rest(main, { to: 'yesterday' }), ['to']);
    });

    it('an unknown platform or metric is named; every violated member at once', async () => {
      expectFields(await rest(main, { ...WINDOW, platform: 'tiktok' }), ['platform']);
      expectFields(await rest(main, { ...WINDOW, metric: 'likes' }), ['metric']);
      expectFields(await rest(main, { ...WINDOW, metric: 'VIEWS' }), ['metric']);
      const r = await rest(main, { from: '2026-03-01', to: 'soon', platform: '', metric: 'clicks' });
      expectFields(r, ['from', 'to', 'platform', 'metric']);
      expectFields(await rest(main, { from: '2026-03-09T00:00:00Z', to: '2026-03-01T00:00:00Z', platform: 'x' }), ['from', 'platform']);
    });

    it('from at or after to, and from in the future without to', async () => {
      expectFields(await rest(main, { from: '2026-03-08T00:00:00Z', to: '2026-03-01T00:00:00Z' }), ['from']);
      expectFields(await rest(main, { from: '2026-03-01T00:00:00Z', to: '2026-03-01T00:00:00Z' }), ['from']);
      expectFields(await rest(main, { from: new Date(Date.now() + DAY_MS).toISOString() }), ['from']);
    });

    it('instants before 1970 or in the year 9999 end', async () => {
      expectFields(await rest(main, { from: '1969-12-31T23:59:59Z', to: '1970-01-02T00:00:00Z' }), ['from']);
      expectFields(await rest(main, { from: '9999-12-30T00:00:00Z', to: '9999-12-31T23:00:00Z' }), ['to']);
      expect((await rest(main, { to: '1970-01-01T00:00:00Z' })).status).toBe(200);
    });

    it('a not-found profile is answered before the query is read', async () => {
      expectNotFound(await rest(foreign, { from: '2026-03-01', metric: 'nope' }));
    });

    it('a query member given twice is named', async () => {
      expectFields(await request(app, 'GET', `/v1/publishing/stats/profiles/${main}?metric=views&metric=followers`, { key: user.key }), ['metric']);
    });

    it('without a key: 401', async () => {
      const r = await request(app, 'GET', `/v1/publishing/stats/profiles/${main}`);
      expect(r.status).toBe(401);
      expect(r.body.error).toBe('UNAUTHORIZED');
      expect((await request(app, 'GET', '/v1/publishing/stats')).status).toBe(401);
    });
  });
});

describe('GET /v1/publishing/stats', () => {
  it("sums all of the caller's profiles (and no one else's), platforms of all their accounts in catalogue order", async () => {
    const r = await restAll(WINDOW);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(Object.keys(r.body)).toEqual(['period', 'summary', 'metric', 'timeseries']);
    expect(r.body).toEqual({
      period: { from: '2026-03-01T00:00:00.000Z', to: '2026-03-08T00:00:00.000Z', priorFrom: '2026-02-22T00:00:00.000Z', priorTo: '2026-03-01T00:00:00.000Z' },
      summary: {
        views: { current: 227 + 500 + 200, prior: 80 + 10 },
        engagement: { current: 33 + 60 + 20, prior: 9 + 1 },
        followers: { current: 1620 + 300 + 0, prior: 1010 + 300 },
      },
      metric: 'views',
      timeseries: [
        day('2026-03-01', { videoshare: 100, shortvideo: 20, socialnet: 0 }),
        day('2026-03-02', { videoshare: 0, shortvideo: 500, socialnet: 0 }),
        day('2026-03-03', { videoshare: 40, shortvideo: 0, socialnet: 0 }),
        day('2026-03-04', { videoshare: 0, shortvideo: 0, socialnet: 200 }),
        day('2026-03-05', { videoshare: 0, shortvideo: 60, socialnet: 0 }),
        day('2026-03-06', { videoshare: 0, shortvideo: 0, socialnet: 0 }),
        day('2026-03-07', { videoshare: 7, shortvideo: 0, socialnet: 0 }),
      ],
    });
  });

  it('followers of every account, per platform', async () => {
    const r = await restAll({ ...WINDOW, metric: 'followers' });
    expect(r.status).toBe(200);
    expect(r.body.timeseries[0]).toEqual(day('2026-03-01', { videoshare: 1010, shortvideo: 300, socialnet: 0 }));
    expect(r.body.timeseries[6]).toEqual(day('2026-03-07', { videoshare: 1100, shortvideo: 820, socialnet: 0 }));
  });

  it('platform restricts it too; bad members are refused the same way', async () => {
    const r = await restAll({ ...WINDOW, platform: 'shortvideo', metric: 'engagement' });
    expect(r.status).toBe(200);
    expect(r.body.summary).toEqual({ views: { current: 580, prior: 30 }, engagement: { current: 73, prior: 3 }, followers: { current: 820, prior: 300 } });
    expect(r.body.timeseries.map((d: { total: number }) => d.total)).toEqual([3, 60, 0, 0, 10, 0, 0]);
    expectFields(await restAll({ from: '2026-03-01', platform: 'tiktok', metric: 'reach' }), ['from', 'platform', 'metric']);
  });

  it("another user's own profile is what they see", async () => {
    const r = await restAll(WINDOW, other.key);
    expect(r.body.summary.views).toEqual({ current: 123_456, prior: 0 });
    expect(r.body.summary.followers).toEqual({ current: 77_777, prior: 0 });
  });
});

describe('a year of six platforms', () => {
  it('sums what SQL sums directly; the days add up to the summary and the last level is the current followers', async () => {
    const owner = await createUser(app);
    const id = await profile(owner, 'Year', true, Object.fromEntries(PLATFORM_KEYS.map((k) => [k, {}])), {});
    // a row every day for every platform, and a level every third day
    await db().$executeRaw`
      INSERT INTO "ProfileMetricsDaily" ("profileId", platform, day, views, likes, comments, shares)
      SELECT ${id}::uuid, a.platform, d, (extract(doy FROM d) * 10 + ord)::int, 3, 2, ord::int
      FROM unnest(enum_range(NULL::"Platform")) WITH ORDINALITY AS a(platform, ord), generate_series('2025-01-01'::date, '2026-03-01'::date, '1 day') AS d`;
    await db().$executeRaw`
      INSERT INTO "AccountFollowersDaily" ("accountId", day, followers, "updatedAt")
      SELECT a.id, d, (extract(doy FROM d) * 7 + length(a.platform::text))::int, now()
      FROM "SocialAccount" a, generate_series('2025-01-01'::date, '2026-03-01'::date, '3 days') AS d WHERE a."profileId" = ${id}::uuid`;
    const q = { from: '2025-03-01T00:00:00Z', to: '2026-03-02T00:00:00Z' };
    const [views, followers] = [await rest(id, q, owner.key), await rest(id, { ...q, metric: 'followers' }, owner.key)];
    expect(views.status).toBe(200);
    expect(views.body.timeseries).toHaveLength(366);
    expect(views.body.timeseries[0].breakdown.map((b: { platform: string }) => b.platform)).toEqual(PLATFORM_KEYS);
    const [direct] = await db().$queryRaw<Array<{ views: number; prior: number }>>`
      SELECT sum(views) FILTER (WHERE day >= '2025-03-01')::float8 AS views, sum(views) FILTER (WHERE day < '2025-03-01')::float8 AS prior
      FROM "ProfileMetricsDaily" WHERE "profileId" = ${id}::uuid AND day >= '2024-02-29' AND day < '2026-03-02'`;
    expect(views.body.summary.views).toEqual({ current: direct.views, prior: direct.prior });
    expect(views.body.timeseries.reduce((sum: number, d: { total: number }) => sum + d.total, 0)).toBe(direct.views);
    expect(followers.body.timeseries.at(-1).total).toBe(followers.body.summary.followers.current);
    expect(followers.body.summary).toEqual(views.body.summary);
    // the window ends with 2026-03-01, whose latest level is of 02-28 (day 59); the prior one with 2025-02-28, whose is of 02-27 (day 58)
    const level = (doy: number) => PLATFORM_KEYS.reduce((sum, k) => sum + doy * 7 + k.length, 0);
    expect(followers.body.summary.followers).toEqual({ current: level(59), prior: level(58) });
  });
});

describe('any query', () => {
  it('is answered 200 or 400 in the spec shape, never more than 400 days', async () => {
    const instant = fc.oneof(
      fc.date({ min: new Date('1960-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()),
      fc
        .tuple(
          fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
          fc.integer({ min: -1439, max: 1439 }),
        )
        .map(([d, m]) => {
          const at = new Date(d.getTime() + m * 60_000);
          const offset = `${m < 0 ? '-' : '+'}${String(Math.floor(Math.abs(m) / 60)).padStart(2, '0')}:${String(Math.abs(m) % 60).padStart(2, '0')}`;
          return at.getUTCFullYear() > 9999 || at.getUTCFullYear() < 0 ? d.toISOString() : `${at.toISOString().slice(0, 19)}${offset}`;
        }),
      fc.constantFrom(
        '2026-03-01',
        '2026-03-01T00:00',
        '2026-13-01T00:00:00Z',
        '2026-02-30T00:00:00Z',
        '0000-01-01T00:00:00Z',
        '9999-12-31T23:59:59-23:59',
        '2026-03-01T00:00:00+99:99',
        '',
      ),
      fc.string({ maxLength: 30 }),
    );
    const member = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
    // windows near the data, up to a little over the longest, as well as any two instants
    const near = fc
      .tuple(
        fc.date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2026-04-01T00:00:00Z'), noInvalidDate: true }),
        fc.integer({ min: 1, max: 410 * DAY_MS }),
      )
      .map(([from, span]) => ({ from: from.toISOString(), to: new Date(from.getTime() + span).toISOString() }));
    const filters = {
      platform: member(fc.oneof(fc.constantFrom(...PLATFORM_KEYS), fc.string({ maxLength: 12 }))),
      metric: member(fc.oneof(fc.constantFrom('views', 'engagement', 'followers'), fc.string({ maxLength: 12 }))),
    };
    const query = fc.oneof(
      fc.record({ from: member(instant), to: member(instant), ...filters }),
      fc.tuple(near, fc.record(filters)).map(([w, f]) => ({ ...w, ...f })),
    );
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(query, fc.boolean(), async (q, all) => {
        const sent = Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)) as Record<string, string>;
        const r = all ? await restAll(sent) : await rest(second, sent);
        if (r.status === 200) {
          answered++;
          expect(r.body.timeseries.length).toBeLessThanOrEqual(400);
          expect(Date.parse(r.body.period.to) - Date.parse(r.body.period.from)).toBe(Date.parse(r.body.period.priorTo) - Date.parse(r.body.period.priorFrom));
          return;
        }
        expect(r.status, JSON.stringify(r.body)).toBe(400);
        expect(r.body.error).toBe('VALIDATION_ERROR');
        const named = r.body.details.map((d: { field: string }) => d.field);
        expect(named.length).toBeGreaterThan(0);
        for (const f of named) expect(Object.keys(sent)).toContain(f);
      }),
      { numRuns: 150, seed: 20_260_301 },
    );
    expect(answered).toBeGreaterThan(20);
  }, 60_000);
});

describe('both doors', () => {
  it('GraphQL answers the same numbers as REST', async () => {
    for (const q of [
      WINDOW,
      { ...WINDOW, metric: 'followers' },
      { ...WINDOW, platform: 'videoshare', metric: 'engagement' },
      { from: '2026-03-01T12:00:00Z', to: '2026-03-08T12:00:00Z' },
    ]) {
      const [r, g] = await Promise.all([rest(main, q), gql(app, user.key, PROFILE_STATS, { profileId: main, ...q })]);
      expect(g.body.errors).toBeUndefined();
      expect(g.body.data.profileStats).toEqual(r.body);
      const [ra, ga] = await Promise.all([restAll(q), gql(app, user.key, PUBLISHING_STATS, q)]);
      expect(ga.body.data.publishingStats).toEqual(ra.body);
    }
  });

  it('GraphQL names the same fields and the same not-found', async () => {
    const bad = await gql(app, user.key, PROFILE_STATS, { profileId: main, from: '2026-03-01', platform: 'tiktok', metric: 'likes' });
    expect(bad.body.errors![0].extensions!.code).toBe('VALIDATION_ERROR');
    expect(bad.body.errors![0].extensions!.details.map((d: { field: string }) => d.field).sort()).toEqual(['from', 'metric', 'platform']);
    const missing = await gql(app, user.key, PROFILE_STATS, { profileId: foreign });
    expect(missing.body.errors![0]).toMatchObject({ message: 'Profile not found', extensions: { code: 'NOT_FOUND' } });
    const anonymous = await gql(app, undefined, PUBLISHING_STATS, {});
    expect(anonymous.body.errors![0].extensions!.code).toBe('UNAUTHORIZED');
  });

  it("each call is counted against the operation's hourly limit", async () => {
    const r = await rest(main, WINDOW);
    expect(r.headers.get('x-ratelimit-limit')).toBe('1000');
    const before = Number(r.headers.get('x-ratelimit-remaining'));
    await gql(app, user.key, PROFILE_STATS, { profileId: main, ...WINDOW });
    expect(Number((await rest(main, WINDOW)).headers.get('x-ratelimit-remaining'))).toBe(before - 2);
  });
});
