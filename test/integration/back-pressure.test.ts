// Back-pressure (src/limits/back-pressure.ts): a service with no worker (its jobs stay waiting) and small limits.
// A user over their share of the queue gets 429, everyone once the queue is full gets 503, both with
// Retry-After, through both doors, before the body is read, and nothing is kept; /healthz and /metrics show
// the queue by class.
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusalFor } from '../../src/limits/back-pressure.js';
import { createUser, gql, request, startTestApp, type TestApp, type TestUser } from '../support/app.js';
import { type FileServer, mediaFixtures, serveFolder } from '../support/media.js';

let app: TestApp;
let files: FileServer;
let videoUrl: string;
let heavy: TestUser;
let second: TestUser;
let late: TestUser;

const create = (user: TestUser, title: string) => request(app, 'POST', '/v1/projects', { key: user.key, json: { title, language: 'en', videoUrl } });
const projectsOf = (user: TestUser) => app.runtime.app.db.project.count({ where: { userId: user.id } });
/** the service-wide reading stands for a second: the next one sees what was just queued */
const nextReading = () => new Promise((r) => setTimeout(r, 1100));

beforeAll(async () => {
  const fx = await mediaFixtures();
  files = await serveFolder(fx.dir);
  videoUrl = files.url(path.basename(fx.video));
  app = await startTestApp({ role: 'server', env: { QUEUE_MAX_WAITING: '4', USER_MAX_WAITING: '2' } });
  [heavy, second, late] = await Promise.all([createUser(app), createUser(app), createUser(app)]);
}, 60_000);
afterAll(async () => {
  await files?.close();
  await app?.stop();
});

describe('back-pressure', () => {
  it("refuses a user's work past their share of the queue with 429 and Retry-After, keeping nothing", async () => {
    for (const n of [1, 2]) {
      const made = await create(heavy, `Talk ${n}`);
      expect(made.status, JSON.stringify(made.body)).toBe(201);
    }
    const over = await create(heavy, 'Talk 3');
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('30');
    expect(over.body).toMatchObject({ error: 'RATE_LIMIT_EXCEEDED', retryAfter: 30, message: expect.stringContaining('2 jobs waiting') });
    expect(await projectsOf(heavy)).toBe(2);
    // another user still gets in
    expect((await create(second, 'Other 1')).status).toBe(201);
  });

  it('refuses everyone with 503 and Retry-After once the queue is full, through both doors, keeping nothing', async () => {
    expect((await create(second, 'Other 2')).status).toBe(201);
    await nextReading();
    const full = await create(late, 'Late');
    expect(full.status).toBe(503);
    expect(full.headers.get('retry-after')).toBe('30');
    expect(full.body).toMatchObject({ error: 'SERVICE_UNAVAILABLE', retryAfter: 30, message: expect.stringContaining('4 jobs waiting') });

    const g = await gql(app, late.key, 'mutation($url: String!) { createProject(input: { title: "Late", language: "en", videoUrl: $url }) { id } }', {
      url: videoUrl,
    });
    expect(g.status).toBe(503);
    expect(g.headers.get('retry-after')).toBe('30');
    expect(g.body.errors?.[0].extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfter: 30 });
    expect(await projectsOf(late)).toBe(0);
    // reading is not work: the queue does not stop the rest of the API
    expect((await request(app, 'GET', '/v1/projects', { key: late.key })).status).toBe(200);
  });

  it('answers before the body of an upload is read', async () => {
    const url = new URL('/v1/projects/upload', app.url);
    const answer = await new Promise<{ status: number; retryAfter: string | undefined; sent: number }>((resolve, reject) => {
      const req = http.request(url, {
        method: 'POST',
        headers: { 'x-api-key': late.key, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(500 * 2 ** 20) },
      });
      let sent = 0;
      req.on('response', (res) => {
        resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined, sent });
        res.resume();
        req.destroy();
      });
      req.on('error', (e) => (sent ? undefined : reject(e)));
      // the headers and one small piece of the 500 MiB announced: the answer comes without the rest
      req.write('--x\r\n');
      sent = 5;
    });
    expect(answer).toEqual({ status: 503, retryAfter: '30', sent: 5 });
    expect(await projectsOf(late)).toBe(0);
  });

  it('refuses with 503 when the data disk is short of space', async () => {
    const { config, jobs } = app.runtime.app;
    const refused = await refusalFor({ config: { ...config, backPressure: { ...config.backPressure, diskMinFreeBytes: 2 ** 60 } }, jobs }, late.id);
    expect(refused?.extensions).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, retryAfter: 300 });
    expect(refused?.message).toMatch(/low on disk space \(\d+ MiB free\)/);
  });

  it('shows the queue by class on /healthz and per job, class and wait on /metrics', async () => {
    const health = await request(app, 'GET', '/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', queue: { interactive: { waiting: 4, running: 0 }, batch: { waiting: 0 } } });
    expect(health.body.queue.interactive.waitP99).toBeGreaterThan(0);
    const metrics = await (await fetch(new URL('/metrics', app.url))).text();
    expect(metrics).toMatch(/job_queue_waiting\{job="projects.process",class="interactive"\} 4/);
    expect(metrics).toMatch(/job_queue_wait_seconds\{class="interactive",quantile="0.95"\} [\d.]+/);
  });
});
