import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.js';
import { createUser, gql, request, startTestApp, type TestApp, type TestUser } from '../support/app.js';
import { createTestDatabase, serverUrl, type TestDatabase } from '../support/db.js';
import { mediaFixtures, serveFolder, type FileServer } from '../support/media.js';
import { spawnReady, spawnServer, type Child } from '../support/process.js';
import { readSse, subscribeSse } from '../support/sse.js';

const REDIS_URL = process.env.TEST_REDIS_URL;
/** GET /v1/user-media and GraphQL userMedia: per user and hour (SPEC.md, Limits) */
const USER_MEDIA_LIMIT = 500;

type Update = { status: string; stage: string | null };

// Workers pick up jobs of other processes through PostgreSQL's NOTIFY; events and counters go through Redis.
describe.skipIf(!serverUrl() || !REDIS_URL)('two server instances and two workers on one PostgreSQL and Redis', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: Child & { url: string };
  let files: FileServer;
  let openai: FakeOpenAI;
  const workers: Child[] = [];
  let env: Record<string, string>;

  /** `npm run worker`, bound to no instance */
  const worker = async (name: string) => {
    const w = await spawnReady('test/fixtures/worker-process.ts', {
      ...env,
      INSTANCE_NAME: name,
      RENDER_PRESET: 'ultrafast',
      TRANSCRIBER: 'openai',
      OPENAI_BASE_URL: openai.url,
      OPENAI_API_KEY: openai.apiKey,
    });
    workers.push(w);
  };

  beforeAll(async () => {
    const fx = await mediaFixtures();
    [database, files, openai] = await Promise.all([createTestDatabase(), serveFolder(fx.dir), startFakeOpenAI()]);
    const shared = { REDIS_URL: REDIS_URL!, ALLOW_PRIVATE_NETWORK: '1' };
    // instance A runs in this process, B in its own, as `npm run server` starts it
    a = await startTestApp({ role: 'server', database, env: shared });
    env = { ...shared, DATABASE_URL: database.url, DATA_DIR: a.dataDir, LOG_LEVEL: 'warn', JOB_POLL_MS: '500' };
    b = await spawnServer({ ...env, INSTANCE_NAME: 'server-b' });
  });
  afterAll(async () => {
    for (const w of workers) await w.stop();
    await b?.stop();
    await a?.stop();
    await database?.drop();
    await files?.close();
    await openai?.close();
  });

  it('share their rate limits: each request counts on both, and a limit used up through A is refused on B, on both doors', async () => {
    const user: TestUser = await createUser(a);
    const remaining = async (app: { url: string }) => {
      const r = await request(app, 'GET', '/v1/user-media?limit=1', { key: user.key });
      expect(r.status).toBe(200);
      return Number(r.headers.get('x-ratelimit-remaining'));
    };
    const first = await remaining(a);
    expect(await remaining(b)).toBe(first - 1);
    expect(await remaining(a)).toBe(first - 2);

    // the rest of the hour's requests, through A only
    let left = first - 2;
    while (left > 0) {
      const batch = await Promise.all(Array.from({ length: Math.min(left, 25) }, () => request(a, 'GET', '/v1/user-media?limit=1', { key: user.key })));
      for (const r of batch) expect(r.status).toBe(200);
      left -= batch.length;
    }
    expect(first).toBe(USER_MEDIA_LIMIT - 1);

    const rest = await request(b, 'GET', '/v1/user-media?limit=1', { key: user.key });
    expect(rest.status).toBe(429);
    expect(rest.body).toMatchObject({ error: 'RATE_LIMIT_EXCEEDED', retryAfter: expect.any(Number) });
    expect(rest.headers.get('x-ratelimit-remaining')).toBe('0');
    const graphql = await gql(b, user.key, '{ userMedia { edges { node { id } } } }');
    expect(graphql.status).toBe(429);
    expect(graphql.body.errors![0].extensions).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', retryAfter: expect.any(Number) });
    expect((await request(a, 'GET', '/v1/user-media?limit=1', { key: user.key })).status).toBe(429);

    // another user of the same instances is not limited by it
    const other = await createUser(a);
    expect((await request(b, 'GET', '/v1/user-media?limit=1', { key: other.key })).status).toBe(200);
  });

  it('a subscriber on B follows a project created through A and processed by one of the workers', async () => {
    const user = await createUser(a);
    const ids: string[] = [];
    // two projects: both workers may take one
    for (let i = 0; i < 2; i++) {
      const created = await request(a, 'POST', '/v1/projects', {
        key: user.key,
        json: { title: `Two instances ${i}`, language: 'en', videoUrl: files.url('clip.mp4'), autoRender: true },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      ids.push(created.body.id);
    }
    const signal = AbortSignal.timeout(90_000);
    const opened: Array<Promise<void>> = [];
    const seen = ids.map((id) => {
      let heard!: () => void;
      opened.push(new Promise<void>((r) => (heard = r)));
      return subscribeSse(b.url, user.key, 'subscription($id: ID!) { projectUpdates(projectId: $id) { status stage } }', { id }, signal).then((res) => {
        expect(res.status).toBe(200);
        return readSse(
          res,
          (d) => {
            heard();
            return d.projectUpdates as Update;
          },
          (e) => e.status === 'completed' || e.status === 'failed',
          { signal, aborted: (events) => new Error(`no final update within 90 s; received ${JSON.stringify(events)}`) },
        );
      });
    });
    // the subscriptions hear the projects' current state; only then do the workers start
    await Promise.all(opened);
    await Promise.all([worker('worker-1'), worker('worker-2')]);

    for (const events of await Promise.all(seen)) {
      const moves = events.map((e) => `${e.status}:${e.stage}`);
      expect(moves[0]).toBe('processing:queued');
      // every step ran in a worker process; B heard of each through Redis
      expect(moves).toEqual(expect.arrayContaining(['transcribing:transcribe', 'exporting:render']));
      expect(moves.at(-1)).toBe('completed:done');
    }
  });
});
