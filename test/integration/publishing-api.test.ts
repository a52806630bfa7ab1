import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfile } from '../../src/publishing/profiles.js';
import { connectSandboxAccount } from '../../src/publishing/accounts.js';
import { dispatchPosts, failPosts, MAX_ATTEMPTS } from '../../src/publishing/delivery.js';
import { publicationEvent } from '../../src/publishing/events.js';
import { loadPublications } from '../../src/publishing/records.js';
import { createUser, gql, request, startTestApp, type TestApp, type TestUser } from '../support/app.js';
import { readSse } from '../support/sse.js';
import { SAMPLE_POSTS } from '../support/publishing.js';

// Publishing through both doors, on a real database with the workers running:
// every rule and error of POST /v1/projects/{id}/publish, delivery on the
// sandbox platform, failures and refunds, scheduling and cancelling.

let app: TestApp;
const db = () => app.runtime.app.db;

beforeAll(async () => {
  app = await startTestApp({ env: { SANDBOX_PUBLISH_DELAY_MS: '150', PUBLISH_RETRY_BASE_MS: '50' } });
});
afterAll(async () => {
  await app?.stop();
});

interface Publisher extends TestUser {
  profileId: string;
  projectId: string;
}

const ALL = ['videoshare', 'shortvideo', 'photoshare', 'microblog', 'socialnet', 'prosocial'] as const;

/** A user with API publishing and credits, a primary profile with `platforms` connected, and an exported project. */
async function publisher(
  opts: { credits?: number; platforms?: readonly string[]; privateShortvideo?: boolean; plan?: boolean; exported?: boolean } = {},
): Promise<Publisher> {
  const user = await createUser(app, { apiCredits: opts.credits ?? 50, apiPublishing: opts.plan ?? true });
  const profile = await createProfile(db(), user.id, { name: 'Brand', primary: true });
  for (const platform of opts.platforms ?? ALL) {
    await connectSandboxAccount(db(), profile.id, { platform, isPrivate: platform === 'shortvideo' && !!opts.privateShortvideo, followers: 100 });
  }
  const exported = opts.exported ?? true;
  const renderedKey = `renders/${user.id}/video.mp4`;
  if (exported) await app.runtime.app.storage.put(renderedKey, Readable.from(Buffer.alloc(64 * 1024, 7)), { contentType: 'video/mp4' });
  const project = await db().project.create({
    data: {
      userId: user.id,
      title: 'Launch video',
      language: 'en',
      templateName: 'classic',
      status: exported ? 'completed' : 'processing',
      renderedKey: exported ? renderedKey : null,
    },
  });
  return { ...user, profileId: profile.id, projectId: project.id };
}

const body = (...keys: string[]) => ({ platforms: Object.fromEntries(keys.map((k) => [k, SAMPLE_POSTS[k]])) });

const publish = (p: Publisher, json: unknown, projectId = p.projectId) => request(app, 'POST', `/v1/projects/${projectId}/publish`, { key: p.key, json });
const credits = async (p: TestUser) => (await db().user.findUniqueOrThrow({ where: { id: p.id } })).apiCredits;
const read = (p: TestUser, id: string) => request(app, 'GET', `/v1/projects/published/${id}`, { key: p.key });

async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms (last: ${JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The publication once every post has ended (published or failed). */
const settled = (p: TestUser, id: string) =>
  until(`publication ${id} delivered`, async () => {
    const r = await read(p, id);
    return r.status === 200 && r.body.posts.every((x: { publishStatus: string }) => ['published', 'failed'].includes(x.publishStatus)) ? r.body : null;
  });

describe('POST /v1/projects/{id}/publish', () => {
  it('publishes at once: 200 published, 1 credit per post, posts delivered with platform ids and URLs', async () => {
    const p = await publisher();
    const r = await publish(p, body(...ALL));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^pub_[0-9a-f-]{36}$/),
      projectId: p.projectId,
      scheduled: false,
      publishedAt: expect.any(String),
      status: 'published',
      platforms: [...ALL],
    });
    expect(await credits(p)).toBe(50 - 6);
    const done = await settled(p, r.body.id);
    expect(done.status).toBe('published');
    expect(done.project).toEqual({ id: p.projectId, title: 'Launch video' });
    expect(done.posts.map((x: { platform: string }) => x.platform)).toEqual([...ALL]);
    for (const post of done.posts) {
      expect(post).toMatchObject({ publishStatus: 'published', syncStatus: 'pending', error: null, platformPostId: expect.stringMatching(/^[0-9a-f]{19}$/) });
      expect(post.platformPostUrl).toBe(`https://sandbox.clipcast.local/${post.platform}/p/${post.platformPostId}`);
      expect(post.analytics).toBeUndefined();
    }
    // the sandbox published each post once
    const uploads = await db().sandboxUpload.findMany({
      where: { postId: { in: (await db().post.findMany({ where: { publicationId: r.body.id } })).map((x) => x.id) }, publishedAt: { not: null } },
    });
    expect(uploads).toHaveLength(6);
  });

  it('schedules: 202 scheduled; fires once at its time and delivers', async () => {
    const p = await publisher();
    const scheduledFor = new Date(Date.now() + 1500).toISOString();
    const r = await publish(p, { ...body('microblog', 'socialnet'), scheduledFor });
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ scheduled: true, status: 'scheduled', publishedAt: scheduledFor, platforms: ['microblog', 'socialnet'] });
    expect((await read(p, r.body.id)).body.posts.map((x: { publishStatus: string }) => x.publishStatus)).toEqual(['scheduled', 'scheduled']);
    const done = await settled(p, r.body.id);
    expect(done).toMatchObject({ status: 'published', scheduled: true, publishedAt: scheduledFor });
    expect(await credits(p)).toBe(48);
  });

  it('a scheduled publication can be cancelled before it fires, giving its credits back; not once it fired', async () => {
    const p = await publisher();
    const r = await publish(p, { ...body('microblog', 'prosocial'), scheduledFor: new Date(Date.now() + 3600_000).toISOString() });
    expect(await credits(p)).toBe(48);
    const del = await request(app, 'DELETE', `/v1/projects/published/${r.body.id}`, { key: p.key });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id: r.body.id, refundedCredits: 2, cancelled: true });
    expect(await credits(p)).toBe(50);
    expect((await read(p, r.body.id)).status).toBe(404);
    expect((await request(app, 'DELETE', `/v1/projects/published/${r.body.id}`, { key: p.key })).status).toBe(404);

    const now = await publish(p, body('microblog'));
    const refused = await request(app, 'DELETE', `/v1/projects/published/${now.body.id}`, { key: p.key });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'BAD_REQUEST', message: expect.stringMatching(/Only a scheduled publication can be cancelled/) });
  });

  it('404 for a project that is missing or not the caller’s; 403 without the plan; 400 when not exported', async () => {
    const p = await publisher();
    const other = await publisher();
    for (const id of [crypto.randomUUID(), other.projectId, 'not-a-uuid']) {
      expect(await publish(p, body('microblog'), id)).toMatchObject({ status: 404, body: { error: 'NOT_FOUND', message: 'Project not found' } });
    }
    const noPlan = await publisher({ plan: false });
    expect(await publish(noPlan, body('microblog'))).toMatchObject({
      status: 403,
      body: { error: 'FORBIDDEN', message: 'Your plan does not allow API publishing' },
    });
    // the plan comes first, whatever else is wrong
    expect(await publish(noPlan, { platforms: { myspace: {} } }, crypto.randomUUID())).toMatchObject({ status: 403, body: { error: 'FORBIDDEN' } });
    const fresh = await publisher({ exported: false });
    expect(await publish(fresh, body('microblog'))).toMatchObject({
      status: 400,
      body: { error: 'BAD_REQUEST', message: expect.stringMatching(/not exported/) },
    });
    for (const u of [noPlan, fresh]) expect(await credits(u)).toBe(50);
    expect(await db().publication.count({ where: { userId: { in: [noPlan.id, fresh.id] } } })).toBe(0);
  });

  it('412 names every platform not connected in the profile, and nothing is debited', async () => {
    const p = await publisher({ platforms: ['microblog'] });
    const r = await publish(p, body('microblog', 'prosocial', 'videoshare'));
    expect(r.status).toBe(412);
    expect(r.body).toMatchObject({ error: 'PRECONDITION_FAILED', message: expect.stringContaining('videoshare, prosocial') });
    expect(r.body.details.map((d: { field: string }) => d.field)).toEqual(['platforms.videoshare', 'platforms.prosocial']);
    expect(await credits(p)).toBe(50);
  });

  it('402 when the credits do not cover every post; nothing is written', async () => {
    const p = await publisher({ credits: 2 });
    const r = await publish(p, body('microblog', 'socialnet', 'prosocial'));
    expect(r.status).toBe(402);
    expect(r.body).toMatchObject({ error: 'PAYMENT_REQUIRED', message: 'Publishing to 3 platforms costs 3 API credits; you have 2' });
    expect(await credits(p)).toBe(2);
    expect(await db().publication.count({ where: { userId: p.id } })).toBe(0);
    expect(await db().creditLedger.count({ where: { userId: p.id, reason: 'publish' } })).toBe(0);
  });

  it('reports every violated field at once, named by its path', async () => {
    const p = await publisher({ privateShortvideo: true });
    const r = await publish(p, {
      scheduledFor: '2020-01-01T00:00:00Z',
      platforms: {
        videoshare: { title: 'x'.repeat(101), tags: Array.from({ length: 51 }, (_, i) => `t${i}`), extra: 1 },
        shortvideo: { content: 'ok', privacyLevel: 'private', commercialContentType: 'brand_content' },
        photoshare: { format: 'reel' },
        microblog: { content: 'x'.repeat(281) },
        socialnet: { content: '   ' },
        prosocial: { content: 7 },
        myspace: { content: 'hello' },
      },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('VALIDATION_ERROR');
    const fields = r.body.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'scheduledFor',
        'platforms.videoshare.title',
        'platforms.videoshare.description',
        'platforms.videoshare.tags',
        'platforms.videoshare.extra',
        'platforms.shortvideo.privacyLevel',
        'platforms.photoshare.content',
        'platforms.microblog.content',
        'platforms.socialnet.content',
        'platforms.prosocial.content',
        'platforms.myspace',
      ]),
    );
    expect(await credits(p)).toBe(50);
    expect(await db().publication.count({ where: { userId: p.id } })).toBe(0);
  });

  it('a private shortvideo account cannot post public, which is the default', async () => {
    const p = await publisher({ privateShortvideo: true });
    const r = await publish(p, { platforms: { shortvideo: { content: 'hi' } } });
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([{ field: 'platforms.shortvideo.privacyLevel', message: expect.stringMatching(/private/), value: 'public' }]);
    expect((await publish(p, { platforms: { shortvideo: { content: 'hi', privacyLevel: 'followers' } } })).status).toBe(200);
  });

  it('counts text in code points: 280 emoji fit a microblog post, 281 do not', async () => {
    const p = await publisher();
    expect((await publish(p, { platforms: { microblog: { content: '😀'.repeat(280) } } })).status).toBe(200);
    const r = await publish(p, { platforms: { microblog: { content: '😀'.repeat(281) } } });
    expect(r.body.details).toEqual([{ field: 'platforms.microblog.content', message: 'must be 1-280 characters, not only spaces', value: '😀'.repeat(281) }]);
  });

  it('refuses a body without platforms, with none, a date without time, an unknown field and a profile not the caller’s', async () => {
    const p = await publisher();
    const other = await publisher();
    const cases: Array<[unknown, string]> = [
      [{}, 'platforms'],
      [{ platforms: {} }, 'platforms'],
      [{ ...body('microblog'), scheduledFor: '2030-01-01' }, 'scheduledFor'],
      [{ ...body('microblog'), when: 'now' }, 'when'],
      [{ ...body('microblog'), profileId: other.profileId }, 'profileId'],
      ['not an object', 'body'],
    ];
    for (const [json, field] of cases) {
      const r = await publish(p, json);
      expect(r.status, JSON.stringify(json)).toBe(400);
      expect(r.body.details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });

  it('publishes through a profile named in the body', async () => {
    const p = await publisher({ platforms: ['microblog'] });
    const second = await createProfile(db(), p.id, { name: 'Second' });
    await connectSandboxAccount(db(), second.id, { platform: 'prosocial', isPrivate: false });
    const r = await publish(p, { ...body('prosocial'), profileId: second.id });
    expect(r.status).toBe(200);
    expect((await settled(p, r.body.id)).posts[0].publishStatus).toBe('published');
    expect((await db().publication.findUniqueOrThrow({ where: { id: r.body.id } })).profileId).toBe(second.id);
  });
});

describe('delivery failures and refunds', () => {
  it('a post the platform refuses fails at once without a refund; the others publish, so the publication is published', async () => {
    const p = await publisher();
    const r = await publish(p, { platforms: { microblog: { content: 'nope [sandbox:reject]' }, socialnet: { content: 'fine' } } });
    const done = await settled(p, r.body.id);
    expect(done.status).toBe('published');
    expect(done.posts).toEqual([
      expect.objectContaining({ platform: 'microblog', publishStatus: 'failed', error: expect.stringMatching(/refused/), platformPostId: null }),
      expect.objectContaining({ platform: 'socialnet', publishStatus: 'published' }),
    ]);
    expect(await credits(p)).toBe(48);
  });

  it(`a platform that stays down is tried ${MAX_ATTEMPTS} times, then the post fails and its credit comes back`, async () => {
    const p = await publisher();
    const r = await publish(p, { platforms: { microblog: { content: 'down [sandbox:unavailable]' } } });
    const done = await settled(p, r.body.id);
    expect(done.status).toBe('failed');
    expect(done.posts[0]).toMatchObject({ publishStatus: 'failed', error: expect.stringMatching(new RegExp(`gave up after ${MAX_ATTEMPTS} attempts`)) });
    expect(await credits(p)).toBe(50);
    const ledger = await db().creditLedger.findMany({ where: { userId: p.id, subjectId: r.body.id }, orderBy: { createdAt: 'asc' } });
    expect(ledger.map((l) => [l.reason, l.delta])).toEqual([
      ['publish', -1],
      ['publish failed', 1],
    ]);
  });

  it('a passing failure is retried with the same upload and the post publishes once', async () => {
    const p = await publisher();
    const r = await publish(p, { platforms: { microblog: { content: 'busy [sandbox:flaky]' } } });
    const done = await settled(p, r.body.id);
    expect(done.posts[0].publishStatus).toBe('published');
    const post = await db().post.findFirstOrThrow({ where: { publicationId: r.body.id } });
    expect(post.attempts).toBe(1);
    expect(await db().sandboxUpload.count({ where: { postId: post.id } })).toBe(1);
    expect(await credits(p)).toBe(49);
  });

  it(`a post whose deliveries died ${MAX_ATTEMPTS} times fails and its credit comes back; one that died fewer times goes on`, async () => {
    const p = await publisher();
    // scheduled far ahead, so nothing delivers it until its posts are where deliveries killed with their worker leave them
    const r = await publish(p, { ...body('microblog', 'socialnet'), scheduledFor: new Date(Date.now() + 3600_000).toISOString() });
    const [microblog, socialnet] = await db().post.findMany({ where: { publicationId: r.body.id }, orderBy: { platform: 'asc' } });
    await db().publication.update({ where: { id: r.body.id }, data: { status: 'processing' } });
    // processing, held by a lease that ran out: the last delivery died; the attempts count those before it
    const dead = { publishStatus: 'processing' as const, leaseUntil: new Date(Date.now() - 1000), nextAttemptAt: new Date(Date.now() - 60_000) };
    await db().post.update({ where: { id: microblog.id }, data: { ...dead, attempts: MAX_ATTEMPTS - 1 } });
    await db().post.update({ where: { id: socialnet.id }, data: { ...dead, attempts: MAX_ATTEMPTS - 2 } });
    await dispatchPosts(app.runtime.app, r.body.id, p.id);

    const done = await settled(p, r.body.id);
    expect(done.status).toBe('published');
    expect(done.posts.find((x: { platform: string }) => x.platform === 'microblog')).toMatchObject({
      publishStatus: 'failed',
      error: expect.stringMatching(new RegExp(`gave up after ${MAX_ATTEMPTS} attempts`)),
    });
    expect(done.posts.find((x: { platform: string }) => x.platform === 'socialnet')).toMatchObject({ publishStatus: 'published', error: null });
    // the one given up on was not uploaded again
    expect(await db().sandboxUpload.count({ where: { postId: microblog.id } })).toBe(0);
    expect(await db().post.findUniqueOrThrow({ where: { id: socialnet.id } })).toMatchObject({ attempts: MAX_ATTEMPTS - 1, leaseUntil: null });
    expect(await credits(p)).toBe(49);
  });

  it('an expired authorisation and a gone account fail with their reason and a refund; all failed makes the publication failed', async () => {
    const p = await publisher();
    const r = await publish(p, { platforms: { microblog: { content: 'a [sandbox:reauthorize]' }, socialnet: { content: 'b [sandbox:disconnected]' } } });
    const done = await settled(p, r.body.id);
    expect(done.status).toBe('failed');
    expect(done.posts.map((x: { error: string }) => x.error)).toEqual([
      expect.stringMatching(/connect it again/),
      expect.stringMatching(/no longer connected/),
    ]);
    expect(await credits(p)).toBe(50);
  });
});

describe('the GraphQL door', () => {
  const PUBLISH = `mutation($projectId: ID!, $input: PublishInput!) { publishProject(projectId: $projectId, input: $input) { id status scheduled platforms posts { platform publishStatus } } }`;

  it('publishes, reads, lists profiles and cancels as REST does', async () => {
    const p = await publisher({ platforms: ['microblog', 'photoshare'] });
    const r = await gql(app, p.key, PUBLISH, {
      projectId: p.projectId,
      input: { platforms: { photoshare: { format: 'story' }, microblog: { content: 'hi' } } },
    });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.publishProject).toMatchObject({ status: 'published', scheduled: false, platforms: ['photoshare', 'microblog'] });

    const profiles = await gql(app, p.key, '{ profiles { id name isPrimary accounts { platform isPrivate followers connector } } }');
    expect(profiles.body.data.profiles).toEqual([
      {
        id: p.profileId,
        name: 'Brand',
        isPrimary: true,
        accounts: [
          { platform: 'photoshare', isPrivate: false, followers: 100, connector: 'sandbox' },
          { platform: 'microblog', isPrivate: false, followers: 100, connector: 'sandbox' },
        ],
      },
    ]);

    const later = await gql(app, p.key, PUBLISH, {
      projectId: p.projectId,
      input: { platforms: { microblog: { content: 'later' } }, scheduledFor: new Date(Date.now() + 3600_000).toISOString() },
    });
    expect(later.body.data.publishProject.status).toBe('scheduled');
    const cancel = await gql(app, p.key, 'mutation($id: ID!) { cancelPublication(id: $id) { id refundedCredits } }', { id: later.body.data.publishProject.id });
    expect(cancel.body.data.cancelPublication).toEqual({ id: later.body.data.publishProject.id, refundedCredits: 1 });
  });

  it('the same errors as REST, in GraphQL’s shape', async () => {
    const p = await publisher({ platforms: ['microblog'] });
    const missing = await gql(app, p.key, PUBLISH, { projectId: p.projectId, input: { platforms: { prosocial: { content: 'x' } } } });
    expect(missing.body.errors?.[0].extensions).toMatchObject({ code: 'PRECONDITION_FAILED' });
    const long = await gql(app, p.key, PUBLISH, { projectId: p.projectId, input: { platforms: { microblog: { content: 'x'.repeat(281) } } } });
    expect(long.body.errors?.[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'platforms.microblog.content' }] });
  });

  it('publicationUpdates carries the publication and its posts until every post has ended', async () => {
    const p = await publisher({ platforms: ['microblog', 'socialnet'] });
    const r = await publish(p, { ...body('microblog', 'socialnet'), scheduledFor: new Date(Date.now() + 1200).toISOString() });
    const res = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-api-key': p.key },
      body: JSON.stringify({
        query: 'subscription($id: ID!) { publicationUpdates(publicationId: $id) { publicationId status posts { platform publishStatus platformPostUrl } } }',
        variables: { id: r.body.id },
      }),
      signal: AbortSignal.timeout(20_000),
    });
    const events = await readSse(
      res,
      (d) => d.publicationUpdates as { status: string; posts: Array<{ publishStatus: string }> } | undefined,
      (e) => e.posts.every((x) => x.publishStatus === 'published'),
    );
    expect(events[0]).toMatchObject({ publicationId: r.body.id, status: 'scheduled' });
    expect(events.map((e) => e.status)).toContain('processing');
    expect(events.at(-1)).toMatchObject({ status: 'published', posts: [{ publishStatus: 'published' }, { publishStatus: 'published' }] });
  });
});

describe('reading publications while their posts end', () => {
  it('the status read always agrees with the posts read with it, in the views and in the events', async () => {
    const p = await publisher({ platforms: ['microblog'] });
    const account = await db().socialAccount.findFirstOrThrow({ where: { profile: { userId: p.id } } });
    // posts due in a day: neither a worker nor the sweep delivers them while the test ends them one by one
    const later = new Date(Date.now() + 86_400_000);
    const ids: string[] = [];
    const posts: string[] = [];
    for (let i = 0; i < 20; i++) {
      const created = await db().publication.create({
        data: {
          id: `pub_${crypto.randomUUID()}`,
          userId: p.id,
          projectId: p.projectId,
          projectTitle: 'Launch video',
          profileId: account.profileId,
          publishedAt: new Date(),
          status: 'processing',
          platforms: ['microblog'],
          mediaKey: 'renders/none.mp4',
          posts: { create: [{ platform: 'microblog', accountId: account.id, content: { content: 'x' }, publishStatus: 'processing', nextAttemptAt: later }] },
        },
        include: { posts: true },
      });
      ids.push(created.id);
      posts.push(created.posts[0].id);
    }
    const contradictions: string[] = [];
    const judge = (what: string, status: string, states: string[]) => {
      const ended = states.every((s) => s !== 'processing');
      if ((status === 'processing') === ended) contradictions.push(`${what}: ${status} over ${states.join(',')}`);
    };
    let done = false;
    let reads = 0;
    const reader = (async () => {
      while (!done) {
        const [views, events] = await Promise.all([loadPublications(db(), ids), Promise.all(ids.map((id) => publicationEvent(app.runtime.app, id)))]);
        for (const v of views)
          judge(
            `view ${v.id}`,
            v.status,
            v.posts.map((x) => x.publishStatus),
          );
        for (const e of events)
          judge(
            `event ${e!.publicationId}`,
            e!.status,
            e!.posts.map((x) => x.publishStatus),
          );
        reads++;
      }
    })();
    for (const id of posts) await failPosts(db(), [id], 'ended by the test', false);
    done = true;
    await reader;
    expect(reads).toBeGreaterThan(1);
    expect(contradictions).toEqual([]);
  });
});

describe('dates', () => {
  it('a scheduledFor on a day that does not exist is refused, not rolled over', async () => {
    const p = await publisher();
    const r = await publish(p, { ...body('microblog'), scheduledFor: '2031-02-30T09:00:00Z' });
    expect(r.body).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ field: 'scheduledFor' }] });
  });

  it('a scheduledFor past the dates the service stores (year 10000 in UTC) is refused, through either door, and spends nothing', async () => {
    const p = await publisher();
    const late = '9999-12-31T23:00:00-14:00';
    const r = await publish(p, { ...body('microblog'), scheduledFor: late });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      error: 'VALIDATION_ERROR',
      details: [{ field: 'scheduledFor', message: 'must be from 1970-01-01T00:00:00.000Z up to 9999-12-31T00:00:00.000Z', value: late }],
    });
    const g = await gql(app, p.key, 'mutation($projectId: ID!, $input: PublishInput!) { publishProject(projectId: $projectId, input: $input) { id } }', {
      projectId: p.projectId,
      input: { platforms: { microblog: { content: 'late' } }, scheduledFor: late },
    });
    expect(g.body.errors?.[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'scheduledFor' }] });
    expect(await db().publication.count({ where: { userId: p.id } })).toBe(0);
    expect((await db().user.findUniqueOrThrow({ where: { id: p.id } })).apiCredits).toBe(50);
  });
});
