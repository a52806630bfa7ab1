import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../src/webhooks/signing.js';
import { createUser, request, startTestApp, type TestApp, type TestUser } from '../support/app.js';
import { createTestDatabase, serverUrl, type TestDatabase } from '../support/db.js';
import { mediaFixtures, serveFolder, type FileServer } from '../support/media.js';
import { spawnReady, type Child } from '../support/process.js';
import { readSse, subscribeSse } from '../support/sse.js';
import { httpsWebhookInbox, type HttpsWebhookInbox } from '../support/webhooks.js';

const run = promisify(execFile);

// Cross-process job pick-up and events need a real PostgreSQL (NOTIFY does not cross PGlite's connections).
describe.skipIf(!serverUrl())('a worker killed in the middle of a project', () => {
  let database: TestDatabase;
  let api: TestApp;
  let files: FileServer;
  let user: TestUser;
  let receiver: HttpsWebhookInbox;
  const workers: Child[] = [];

  beforeAll(async () => {
    const fx = await mediaFixtures();
    // three times the talk: long enough to be killed while transcribing
    const long = path.join(fx.dir, 'long-talk.mp4');
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-stream_loop', '2', '-i', fx.talk, '-c', 'copy', long]);
    [database, files, receiver] = await Promise.all([createTestDatabase(), serveFolder(fx.dir), httpsWebhookInbox()]);
    api = await startTestApp({ role: 'server', database });
    user = await createUser(api);
  });
  afterAll(async () => {
    for (const w of workers) await w.stop('SIGKILL');
    await api?.stop();
    await database?.drop();
    await files?.close();
    await receiver?.close();
  });

  const worker = async (name: string) => {
    const w = await spawnReady('test/fixtures/worker-process.ts', {
      DATABASE_URL: database.url,
      DATA_DIR: api.dataDir,
      PUBLIC_URL: api.url,
      LOG_LEVEL: 'warn',
      JOB_POLL_MS: '300',
      ALLOW_PRIVATE_NETWORK: '1',
      NODE_EXTRA_CA_CERTS: receiver.cert,
      // a dead worker's lock runs out fast; the live one renews it every second
      PROJECT_JOB_LOCK_MS: '4000',
      INSTANCE_NAME: name,
    });
    workers.push(w);
    return w;
  };

  it('another worker completes it once: one webhook, signed; subscribers of the API see it through', async () => {
    const first = await worker('worker-a');
    const created = await request(api, 'POST', '/v1/projects', {
      key: user.key,
      json: { title: 'Crash test', language: 'en', videoUrl: files.url('long-talk.mp4'), autoRender: false, webhookUrl: receiver.url },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;

    // an SSE subscriber on the API process, which runs no job itself
    const sse = subscribeSse(api.url, user.key, 'subscription($id: ID!) { projectUpdates(projectId: $id) { status stage percent } }', { id }).then((res) =>
      readSse(
        res,
        (d) => d.projectUpdates as { status: string; stage: string },
        (e) => e.status === 'completed',
      ),
    );

    const db = api.runtime.app.db;
    for (const t0 = Date.now(); ; ) {
      const p = await db.project.findUniqueOrThrow({ where: { id } });
      if (p.status === 'transcribing' && ((p.progress as { percent?: number } | null)?.percent ?? 0) >= 0) break;
      if (Date.now() - t0 > 60_000) throw new Error(`never reached transcribing: ${p.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await first.stop('SIGKILL');
    expect((await db.project.findUniqueOrThrow({ where: { id } })).status).toBe('transcribing');

    await worker('worker-b');
    for (const t0 = Date.now(); ; ) {
      const p = await db.project.findUniqueOrThrow({ where: { id } });
      if (p.status === 'completed') break;
      if (p.status === 'failed' || Date.now() - t0 > 90_000) throw new Error(`not completed: ${p.status} ${p.failureReason}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const seen = (await sse).map((e) => `${e.status}:${e.stage}`);
    expect(seen).toContain('transcribing:transcribe');
    expect(seen.at(-1)).toBe('completed:done');

    for (const t0 = Date.now(); receiver.received.length === 0 && Date.now() - t0 < 20_000; ) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 1500)); // a second POST would come now
    expect(receiver.received).toHaveLength(1);
    const hook = receiver.received[0];
    const secret = (await db.user.findUniqueOrThrow({ where: { id: user.id } })).webhookSecret;
    const payload = verifyWebhook(secret, hook.headers, hook.body) as Record<string, unknown>;
    expect(payload).toEqual({
      event: 'project.completed',
      projectId: id,
      status: 'completed',
      downloadUrl: null,
      directUrl: null,
      timestamp: expect.any(String),
    });
    expect(await db.webhookDelivery.count({ where: { subjectId: id } })).toBe(1);
    const p = await request(api, 'GET', `/v1/projects/${id}`, { key: user.key });
    expect(p.body.words.filter((w: { type: string }) => w.type === 'word').length).toBeGreaterThan(20);
  }, 180_000);
});
