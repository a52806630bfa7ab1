/**
 * DELETE /v1/projects/{id} and the deleteProject mutation: a real project
 * (fetched, transcribed, rendered, published) goes with its exports and every
 * stored file; its scheduled publication is cancelled with the credit back,
 * its published one stays listed with the project's id and title; a render at
 * work stops within seconds (its ffmpeg killed, its job gone); a publication
 * being delivered refuses the deletion and nothing changes. Idempotent: the
 * second DELETE is 404, as are another user's project and a malformed id.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_NAMES } from '../../src/jobs/names.js';
import { connectSandboxAccount } from '../../src/publishing/accounts.js';
import { createProfile } from '../../src/publishing/profiles.js';
import { createUser, eventually, gql, logLines, request, startTestApp, waitProject, type TestApp, type TestUser } from '../support/app.js';
import { FF, H264_AAC, mediaFixtures, serveFolder, type FileServer } from '../support/media.js';
import { SAMPLE_POSTS } from '../support/publishing.js';

const run = promisify(execFile);

let app: TestApp;
let files: FileServer;
let user: TestUser;
let other: TestUser;
let profileId: string;
let dir: string;
const logs = logLines();

const db = () => app.runtime.app.db;
/** where the local store keeps a project's files */
const folderOf = (id: string) => path.join(app.dataDir, 'media', 'projects', id);

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'deletion-'));
  const fx = await mediaFixtures();
  // a source whose tall render takes long enough to be caught at work: 20 s of the talk, 1280x720
  await run('ffmpeg', [...FF, ...['-stream_loop', '2', '-i', fx.talk, '-t', '20', '-vf', 'scale=1280:720', ...H264_AAC, path.join(dir, 'long.mp4')]]);
  await fs.copyFile(fx.talk, path.join(dir, 'talk.mp4'));
  [app, files] = await Promise.all([startTestApp({ role: 'all', logDestination: logs.destination, env: { LOG_LEVEL: 'info' } }), serveFolder(dir)]);
  [user, other] = await Promise.all([createUser(app, { apiCredits: 20, apiPublishing: true }), createUser(app)]);
  profileId = (await createProfile(db(), user.id, { name: 'Brand', primary: true })).id;
  await connectSandboxAccount(db(), profileId, { platform: 'microblog', isPrivate: false, followers: 10 });
}, 120_000);
afterAll(async () => {
  await files?.close();
  await app?.stop();
  await fs.rm(dir, { recursive: true, force: true });
});

async function created(video: string, extra: Record<string, unknown> = {}) {
  const r = await request(app, 'POST', '/v1/projects', { key: user.key, json: { title: 'Launch talk', language: 'en', videoUrl: files.url(video), ...extra } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id as string;
}

const apiCredits = async () => (await db().user.findUniqueOrThrow({ where: { id: user.id } })).apiCredits;

describe('DELETE /v1/projects/{id}', () => {
  it('removes a rendered and published project with its exports and files; the scheduled publication is cancelled with its credit, the published one stays', async () => {
    const id = await created('talk.mp4');
    await waitProject(app, user.key, id, (p) => p.status === 'completed' && p.downloadUrl, 120_000);
    expect((await fs.readdir(folderOf(id), { recursive: true })).length).toBeGreaterThan(2);

    const now = await request(app, 'POST', `/v1/projects/${id}/publish`, { key: user.key, json: { platforms: { microblog: SAMPLE_POSTS.microblog } } });
    expect(now.status, JSON.stringify(now.body)).toBe(200);
    const later = await request(app, 'POST', `/v1/projects/${id}/publish`, {
      key: user.key,
      json: { platforms: { microblog: SAMPLE_POSTS.microblog }, scheduledFor: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(later.status, JSON.stringify(later.body)).toBe(202);
    await eventually(async () => {
      const p = await request(app, 'GET', `/v1/projects/published/${now.body.id}`, { key: user.key });
      expect(p.body.posts[0].publishStatus).toBe('published');
    }, 30_000);
    const before = await apiCredits();

    // another user's, and an id that is not one, are unknown
    for (const [key, target] of [
      [other.key, id],
      [user.key, 'not-a-uuid'],
    ]) {
      const r = await request(app, 'DELETE', `/v1/projects/${target}`, { key });
      expect(r.status).toBe(404);
      expect(r.body.error).toBe('NOT_FOUND');
    }

    const r = await request(app, 'DELETE', `/v1/projects/${id}`, { key: user.key });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ id, title: 'Launch talk', kind: 'edit', cancelledPublications: [{ id: later.body.id, refundedCredits: 1 }], deleted: true });

    expect((await request(app, 'GET', `/v1/projects/${id}`, { key: user.key })).status).toBe(404);
    expect(await db().export.count({ where: { projectId: id } })).toBe(0);
    expect(existsSync(folderOf(id))).toBe(false);
    // the scheduled one is gone and its credit is back; the published one stays as it was
    expect(await apiCredits()).toBe(before + 1);
    expect((await request(app, 'GET', `/v1/projects/published/${later.body.id}`, { key: user.key })).status).toBe(404);
    const kept = await request(app, 'GET', `/v1/projects/published/${now.body.id}`, { key: user.key });
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ projectId: id, project: { id, title: 'Launch talk' }, posts: [{ publishStatus: 'published' }] });
    const listed = await request(app, 'GET', '/v1/projects/published', { key: user.key });
    expect(listed.body.data.map((p: { id: string }) => p.id)).toContain(now.body.id);
    // a project of that id no longer exists: publishing it is refused, and a second DELETE is 404
    expect(
      (await request(app, 'POST', `/v1/projects/${id}/publish`, { key: user.key, json: { platforms: { microblog: SAMPLE_POSTS.microblog } } })).status,
    ).toBe(404);
    expect((await request(app, 'DELETE', `/v1/projects/${id}`, { key: user.key })).status).toBe(404);
    // the late sweep is queued, for a file a stopping run may still write
    const [sweep] = await app.runtime.app.jobs.jobsFor({ deletedProjectId: id }, [JOB_NAMES.removeProjectFiles]);
    expect(sweep).toBeDefined();
  }, 180_000);

  it('stops a render at work: its ffmpeg is killed within seconds, its jobs are gone and no file is left', async () => {
    const id = await created('long.mp4', { autoRender: false, disableCaptions: true });
    await waitProject(app, user.key, id, (p) => p.status === 'completed', 120_000);
    const exported = await request(app, 'POST', `/v1/projects/${id}/export`, { key: user.key, json: { width: 1080, height: 1920, fps: 30 } });
    expect(exported.status, JSON.stringify(exported.body)).toBe(200);
    const exportId = await db()
      .export.findFirstOrThrow({ where: { projectId: id }, orderBy: { createdAt: 'desc' } })
      .then((e) => e.id);
    const rendering = async () => (await run('pgrep', ['-f', `export-${exportId}`]).catch(() => ({ stdout: '' }))).stdout.trim();
    await eventually(async () => expect(await rendering()).not.toBe(''), 30_000);

    const r = await request(app, 'DELETE', `/v1/projects/${id}`, { key: user.key });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // the project's row is looked up every 2 s: a busy machine gets more
    await eventually(async () => expect(await rendering()).toBe(''), 15_000);
    await eventually(async () => {
      const said = logs.lines.filter((l) => l.projectId === id).map((l) => `${l.msg} ${l.job ?? ''} ${l.reason ?? ''} ${l.err?.message ?? ''}`);
      expect(
        said.some((m) => m.startsWith('job stopped: its project was deleted')),
        said.join('\n'),
      ).toBe(true);
    }, 15_000);
    expect(await app.runtime.app.jobs.jobsFor({ projectId: id }, [JOB_NAMES.renderExport, JOB_NAMES.processProject])).toEqual([]);
    expect(existsSync(folderOf(id))).toBe(false);
    // the worker is free for the next render
    const next = await created('talk.mp4', { disableCaptions: true });
    await waitProject(app, user.key, next, (p) => p.status === 'completed' && p.downloadUrl, 120_000);
  }, 240_000);

  it('is refused while a publication of the project is being delivered, and nothing changes', async () => {
    const project = await db().project.create({
      data: { userId: user.id, title: 'Busy', language: 'en', templateName: 'classic', status: 'completed', renderedKey: 'projects/x/render.mp4' },
    });
    const account = await db().socialAccount.findFirstOrThrow({ where: { profileId } });
    await db().publication.create({
      data: {
        id: 'pub_delivering',
        userId: user.id,
        projectId: project.id,
        projectTitle: project.title,
        profileId,
        publishedAt: new Date(),
        status: 'processing',
        platforms: ['microblog'],
        mediaKey: 'projects/x/render.mp4',
        // due tomorrow: no delivery runs while the test looks
        posts: {
          create: [
            {
              platform: 'microblog',
              accountId: account.id,
              content: { content: 'x' },
              publishStatus: 'processing',
              nextAttemptAt: new Date(Date.now() + 86_400_000),
            },
          ],
        },
      },
    });
    const r = await request(app, 'DELETE', `/v1/projects/${project.id}`, { key: user.key });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'BAD_REQUEST', message: expect.stringContaining('pub_delivering') });
    expect(await db().project.count({ where: { id: project.id } })).toBe(1);
    expect(await db().publication.count({ where: { id: 'pub_delivering' } })).toBe(1);
  });
});

describe('deleteProject (GraphQL)', () => {
  const DELETE = 'mutation($id: ID!) { deleteProject(id: $id) { id title kind cancelledPublications { id refundedCredits } removedFiles } }';

  it('answers the project as it was, and NOT_FOUND the second time', async () => {
    const project = await db().project.create({ data: { userId: user.id, title: 'Draft', language: 'en', templateName: 'classic', status: 'failed' } });
    const r = await gql(app, user.key, DELETE, { id: project.id });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.deleteProject).toEqual({ id: project.id, title: 'Draft', kind: 'edit', cancelledPublications: [], removedFiles: 0 });
    const again = await gql(app, user.key, DELETE, { id: project.id });
    expect(again.body.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });
});
