// Publishing with workers in their own processes over a real PostgreSQL, the API in this one: two workers
// racing for the same scheduled publications fire each once; a worker SIGKILLed while its posts upload or
// wait on the platform, then the next one while it checks and finalizes them, leave them to the last, which
// publishes each exactly once. Each post is paid once and none is refunded. Nothing here waits for the
// sweep (every minute, for posts overdue by 30 s): a dead worker's delivery jobs stay locked until Agenda
// hands them to a live worker, once their lock (PROJECT_JOB_LOCK_MS) and the posts' leases (half of it) ran out.
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectSandboxAccount } from '../../src/publishing/accounts.js';
import { firePublication } from '../../src/publishing/delivery.js';
import { createProfile } from '../../src/publishing/profiles.js';
import type { Prisma } from '../../src/db/client.js';
import { JOB_NAMES } from '../../src/jobs/names.js';
import { JOBS_TABLE } from '../../workers/table.js';
import { createUser, request, startTestApp, type TestApp, type TestUser } from '../support/app.js';
import { createTestDatabase, serverUrl, type TestDatabase } from '../support/db.js';
import { spawnReady, type Child } from '../support/process.js';

const CREDITS = 100;
/** How long a sandbox upload takes to be ready where a worker is killed while posts wait on it. */
const SANDBOX_DELAY_MS = 1500;
/** A dead worker's jobs are taken over this long after it locked them; its posts' leases run out in half of it. */
const JOB_LOCK_MS = 3000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, ms = 20_000, every = 100): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(every);
  }
}

interface Publisher extends TestUser {
  projectId: string;
}

const PLATFORMS = ['microblog', 'socialnet', 'prosocial'] as const;
const CONTENT: Record<(typeof PLATFORMS)[number], Record<string, string>> = {
  microblog: { content: 'We launched' },
  socialnet: { content: 'We launched today' },
  prosocial: { content: 'Proud to announce our launch' },
};
const body = (platforms: readonly (typeof PLATFORMS)[number][], scheduledFor?: Date) => ({
  platforms: Object.fromEntries(platforms.map((k) => [k, CONTENT[k]])),
  ...(scheduledFor ? { scheduledFor: scheduledFor.toISOString() } : {}),
});

// Cross-process job pick-up needs a real PostgreSQL (NOTIFY does not cross PGlite's connections).
describe.skipIf(!serverUrl())('publishing with workers that race and die', () => {
  let database: TestDatabase;
  let api: TestApp;
  const workers: Child[] = [];
  const db = () => api.runtime.app.db;

  beforeAll(async () => {
    database = await createTestDatabase();
    api = await startTestApp({
      role: 'server',
      database,
      env: { PROJECT_JOB_LOCK_MS: String(JOB_LOCK_MS), SANDBOX_PUBLISH_DELAY_MS: String(SANDBOX_DELAY_MS) },
    });
  });
  // each test starts with no worker running: one left by a test that failed would deliver the next one's posts
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop('SIGTERM')));
  });
  afterAll(async () => {
    await api?.stop();
    await database?.drop();
  });

  const worker = async (name: string, sandboxDelayMs = SANDBOX_DELAY_MS) => {
    const w = await spawnReady('test/fixtures/worker-process.ts', {
      DATABASE_URL: database.url,
      DATA_DIR: api.dataDir,
      PUBLIC_URL: api.url,
      LOG_LEVEL: 'warn',
      JOB_POLL_MS: '300',
      PROJECT_JOB_LOCK_MS: String(JOB_LOCK_MS),
      SANDBOX_PUBLISH_DELAY_MS: String(sandboxDelayMs),
      // no retry is expected; one that happens anyway should not outlast the test
      PUBLISH_RETRY_BASE_MS: '500',
      INSTANCE_NAME: name,
    });
    workers.push(w);
    return w;
  };
  const alive = (w: Child) => w.proc.exitCode === null && w.proc.signalCode === null;

  /** A user with API publishing and credits, a profile with the sandbox accounts, and an exported project. */
  async function publisher(): Promise<Publisher> {
    const user = await createUser(api, { apiCredits: CREDITS, apiPublishing: true });
    const profile = await createProfile(db(), user.id, { name: 'Brand', primary: true });
    for (const platform of PLATFORMS) await connectSandboxAccount(db(), profile.id, { platform, isPrivate: false, followers: 100 });
    const renderedKey = `renders/${user.id}/video.mp4`;
    await api.runtime.app.storage.put(renderedKey, Readable.from(Buffer.alloc(4 * 1024 * 1024, 7)), { contentType: 'video/mp4' });
    const project = await db().project.create({
      data: { userId: user.id, title: 'Launch video', language: 'en', templateName: 'classic', status: 'completed', renderedKey },
    });
    return { ...user, projectId: project.id };
  }

  const publish = async (p: Publisher, json: { scheduledFor?: string }) => {
    const r = await request(api, 'POST', `/v1/projects/${p.projectId}/publish`, { key: p.key, json });
    expect(r.status, JSON.stringify(r.body)).toBe(json.scheduledFor ? 202 : 200);
    return r.body.id as string;
  };

  /** The user's posts once every one has ended (published or failed). */
  const ended = (p: TestUser, ms = 25_000) =>
    until(
      'every post ended',
      async () => {
        const posts = await db().post.findMany({ where: { publication: { userId: p.id } } });
        return posts.every((x) => x.publishStatus === 'published' || x.publishStatus === 'failed') ? posts : null;
      },
      ms,
    );

  /** Each post was published once on its platform; every upload of the post is counted too. */
  async function uploadsOf(postIds: string[]) {
    const rows = await db().sandboxUpload.findMany({ where: { postId: { in: postIds } } });
    const published = new Map<string, number>();
    const all = new Map<string, number>();
    for (const r of rows) {
      all.set(r.postId, (all.get(r.postId) ?? 0) + 1);
      if (r.publishedAt) published.set(r.postId, (published.get(r.postId) ?? 0) + 1);
    }
    return { published, all, rows };
  }

  /** The balance and the ledger: one debit per publication of 1 credit per post, nothing given back. */
  async function expectPaidOnce(p: TestUser, publications: Map<string, number>) {
    const posts = [...publications.values()].reduce((a, b) => a + b, 0);
    expect((await db().user.findUniqueOrThrow({ where: { id: p.id } })).apiCredits).toBe(CREDITS - posts);
    const ledger = await db().creditLedger.findMany({ where: { userId: p.id, kind: 'api' } });
    expect(ledger.map((l) => ({ subjectId: l.subjectId, delta: l.delta, reason: l.reason })).sort((a, b) => a.subjectId!.localeCompare(b.subjectId!))).toEqual(
      [...publications].map(([id, n]) => ({ subjectId: id, delta: -n, reason: 'publish' })).sort((a, b) => a.subjectId.localeCompare(b.subjectId)),
    );
  }

  /** Jobs of `name` whose run failed (Agenda records the failure on the job). */
  const failedJobs = async (name: string) =>
    db().$queryRawUnsafe<{ id: string; fail_reason: string }[]>(`SELECT id, fail_reason FROM "${JOBS_TABLE}" WHERE name = $1 AND fail_count > 0`, name);

  it('a scheduled publication fires once with two workers running', async () => {
    // uploads ready after 300 ms: no post needs to wait on the platform here
    const [a, b, p] = await Promise.all([worker('pub-race-a', 300), worker('pub-race-b', 300), publisher()]);

    // five publications 1.5 to 3 s ahead (time enough for the request to arrive), to two or three platforms each
    const publications = new Map<string, number>();
    for (let i = 0; i < 5; i++) {
      const platforms = i % 2 === 0 ? PLATFORMS : PLATFORMS.slice(0, 2);
      const id = await publish(p, body(platforms, new Date(Date.now() + 1500 + i * 375)));
      publications.set(id, platforms.length);
    }
    const postCount = [...publications.values()].reduce((x, y) => x + y, 0);

    const posts = await ended(p);
    expect(posts).toHaveLength(postCount);
    expect(posts.filter((x) => x.publishStatus !== 'published').map((x) => x.error)).toEqual([]);
    for (const [id] of publications) {
      const r = await request(api, 'GET', `/v1/projects/published/${id}`, { key: p.key });
      expect(r.body).toMatchObject({ status: 'published', scheduled: true });
    }

    // one upload per post, published once: no second firing delivered anything
    const { published, all } = await uploadsOf(posts.map((x) => x.id));
    for (const post of posts) {
      expect(published.get(post.id), post.id).toBe(1);
      expect(all.get(post.id), post.id).toBe(1);
    }
    await expectPaidOnce(p, publications);

    // one firing job per publication, and no job run failed
    const fires = await db().$queryRawUnsafe<{ publicationId: string }[]>(
      `SELECT data->>'publicationId' AS "publicationId" FROM "${JOBS_TABLE}" WHERE name = $1`,
      JOB_NAMES.firePublication,
    );
    expect(fires.map((f) => f.publicationId).sort()).toEqual([...publications.keys()].sort());
    expect(await failedJobs(JOB_NAMES.firePublication)).toEqual([]);
    expect(await failedJobs(JOB_NAMES.deliverPost)).toEqual([]);
    expect(alive(a) && alive(b), a.output() + b.output()).toBe(true);

    // firing one again does nothing: no post changes, no upload, no job, no credit
    const [first] = publications.keys();
    const before = await db().post.findMany({ where: { publicationId: first }, orderBy: { id: 'asc' } });
    const jobsBefore = await db().$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM "${JOBS_TABLE}"`);
    expect(await firePublication(api.runtime.app, first)).toBe(false);
    await sleep(500);
    expect(await db().post.findMany({ where: { publicationId: first }, orderBy: { id: 'asc' } })).toEqual(before);
    expect(await db().$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM "${JOBS_TABLE}"`)).toEqual(jobsBefore);
    expect((await uploadsOf(before.map((x) => x.id))).rows).toHaveLength(before.length);
    await expectPaidOnce(p, publications);
  }, 60_000);

  it('a worker killed mid-delivery loses no post and double-posts nothing', async () => {
    const [a, p] = await Promise.all([worker('pub-crash-a'), publisher()]);

    const publications = new Map<string, number>();
    const ids = await Promise.all(Array.from({ length: 4 }, () => publish(p, body(PLATFORMS))));
    for (const id of ids) publications.set(id, PLATFORMS.length);
    const postCount = ids.length * PLATFORMS.length;

    // killed once a post waits on the platform while another is being delivered (leased, its job locked)
    await until(
      'a post waiting on the platform while another is delivered',
      async () => {
        const posts = await db().post.findMany({ where: { publicationId: { in: ids } }, select: { platformRef: true, leaseUntil: true } });
        return posts.some((x) => x.platformRef) && posts.some((x) => x.leaseUntil && !x.platformRef);
      },
      15_000,
      10,
    );
    await a.stop('SIGKILL');
    let killedAt = new Date();
    // what the dead worker left: posts waiting, posts leased by its dead deliveries, jobs it held locked
    const left = await db().post.findMany({ where: { publicationId: { in: ids } } });
    expect(left.filter((x) => x.publishStatus !== 'processing')).toEqual([]);
    const waiting = left.filter((x) => x.platformRef && !x.leaseUntil).length;
    const leased = left.filter((x) => x.leaseUntil && x.leaseUntil > killedAt).map((x) => x.id);
    const [{ locked }] = await db().$queryRawUnsafe<{ locked: number }[]>(
      `SELECT count(*)::int AS locked FROM "${JOBS_TABLE}" WHERE name = $1 AND locked_at IS NOT NULL AND last_finished_at IS NULL`,
      JOB_NAMES.deliverPost,
    );
    let state = `killed with ${waiting} posts waiting, ${leased.length} leased, ${locked} delivery jobs locked`;
    expect(waiting, state).toBeLessThan(postCount);

    // the next worker takes over; it is killed in turn while it checks and finalizes (a post published, another
    // leased with its platform handle), possibly after the platform published a post and before it was saved
    // (when that moment is missed for 6 s, any moment with a post published and another not)
    const b = await worker('pub-crash-b');
    const settle = Date.now() + 6000;
    await until(
      'a post published while another is checked',
      async () => {
        const count = (where: Prisma.PostWhereInput) => db().post.count({ where: { publicationId: { in: ids }, ...where } });
        if ((await count({ publishStatus: 'published' })) === 0) return false;
        if ((await count({ publishStatus: 'processing', platformRef: { not: null }, leaseUntil: { gt: new Date() } })) > 0) return true;
        return Date.now() > settle && (await count({ publishStatus: 'processing' })) > 0;
      },
      15_000,
      10,
    );
    await b.stop('SIGKILL');
    killedAt = new Date();
    const second = await db().post.findMany({ where: { publicationId: { in: ids } } });
    const finalizing = await db().sandboxUpload.count({
      where: { postId: { in: second.filter((x) => x.publishStatus === 'processing').map((x) => x.id) }, publishedAt: { not: null } },
    });
    const checking = second.filter((x) => x.publishStatus === 'processing' && x.platformRef && x.leaseUntil && x.leaseUntil > killedAt).map((x) => x.id);
    state += `; then with ${second.filter((x) => x.publishStatus === 'published').length} published, ${checking.length} being checked, ${finalizing} published on the platform but not saved`;

    const c = await worker('pub-crash-c');
    const posts = await ended(p);
    expect(posts).toHaveLength(postCount);
    expect(
      posts.filter((x) => x.publishStatus !== 'published').map((x) => x.error),
      state,
    ).toEqual([]);
    for (const id of ids) expect((await db().publication.findUniqueOrThrow({ where: { id } })).status).toBe('published');

    // each post published once; an upload cut short by a kill may stay behind unpublished, one per kill at most
    const { published, all } = await uploadsOf(posts.map((x) => x.id));
    for (const post of posts) {
      expect(published.get(post.id), post.id).toBe(1);
      expect(all.get(post.id), post.id).toBeLessThanOrEqual(3);
      const upload = await db().sandboxUpload.findFirstOrThrow({ where: { postId: post.id, publishedAt: { not: null } } });
      expect(post.platformPostId).toBe(upload.platformPostId);
      expect(post.platformRef).toBe(upload.ref);
    }
    // a dead delivery's post was taken over once its lease ran out, which counted as an attempt
    for (const post of posts.filter((x) => leased.includes(x.id) || checking.includes(x.id))) expect(post.attempts, state).toBeGreaterThanOrEqual(1);
    await expectPaidOnce(p, publications);
    expect(alive(c), c.output()).toBe(true);
  }, 60_000);
});
