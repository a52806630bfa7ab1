import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe } from '../../src/media/ffprobe.js';
import { gql, request, waitEntry, waitProject, type Reachable } from '../support/http.js';
import { createTestDatabase, serverUrl, type TestDatabase } from '../support/db.js';
import { FF, type FileServer, type Fixtures, frameAt, isRed, mediaFixtures, pixel, serveFolder } from '../support/media.js';
import { runEntry, spawnReady, spawnServer, type Child } from '../support/process.js';
import { multipartBody } from '../support/raw.js';
import { subscribeCrowd } from '../support/crowd.js';
import { startLocalS3, type LocalS3 } from '../support/s3.js';
import { readSse, subscribeSse } from '../support/sse.js';
import { syntheticTalk, TALK_SENTENCES } from '../support/talk.js';

const run = promisify(execFile);
const REDIS_URL = process.env.TEST_REDIS_URL;

/**
 * Two API servers and two workers as separate machines would run them: each
 * with a DATA_DIR of its own, sharing only PostgreSQL, Redis and an
 * S3-compatible store (a local s3rver). Nothing one instance leaves on its own
 * disk may be needed by another.
 */
describe.skipIf(!serverUrl() || !REDIS_URL)('servers and workers on separate disks, sharing PostgreSQL, Redis and an S3-compatible store', () => {
  let database: TestDatabase;
  let s3: LocalS3;
  let fx: Fixtures;
  let a: Child & { url: string };
  let b: Child & { url: string };
  let files: FileServer;
  const workers: Child[] = [];
  /** starts the two workers once; the first test starts them after its subscription is heard */
  let startWorkers: () => Promise<void>;
  const dataDirs: string[] = [];
  let key: string;
  /** what every instance is given */
  let shared: Record<string, string>;
  /** the project the first test makes, exported again by the last */
  let projectId: string;
  const prefix = 'clips/';
  const projectCount = async () =>
    (await gql<{ projects: { edges: unknown[] } }>(a, key, '{ projects(first: 100) { edges { node { id } } } }')).body.data!.projects.edges.length;

  /** what the instances' work dirs (DATA_DIR/tmp) still hold */
  const scratchLeft = async () => (await Promise.all(dataDirs.map((d) => entries(path.join(d, 'tmp'))))).flat();

  const dataDir = async (role: string) => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), `node-${role}-`));
    dataDirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    [database, s3, fx] = await Promise.all([createTestDatabase(), startLocalS3('media'), mediaFixtures()]);
    files = await serveFolder(fx.dir);
    shared = {
      DATABASE_URL: database.url,
      REDIS_URL: REDIS_URL!,
      STORAGE_URL: `s3://${s3.bucket}/${prefix}`,
      S3_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: '1',
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
      URL_SIGNING_SECRET: crypto.randomBytes(32).toString('base64url'),
      ALLOW_PRIVATE_NETWORK: '1',
      LOG_LEVEL: 'warn',
      JOB_POLL_MS: '500',
      // one key follows a project from hundreds of sockets
      WS_MAX_SOCKETS_PER_KEY: '1000',
    };
    const [dirA, dirB, dir1, dir2] = await Promise.all(['server-a', 'server-b', 'worker-1', 'worker-2'].map(dataDir));
    [a, b] = await Promise.all([
      spawnServer({ ...shared, DATA_DIR: dirA, INSTANCE_NAME: 'server-a' }),
      spawnServer({ ...shared, DATA_DIR: dirB, INSTANCE_NAME: 'server-b' }),
    ]);
    const worker = (dir: string, name: string) =>
      spawnReady('test/fixtures/worker-process.ts', { ...shared, DATA_DIR: dir, INSTANCE_NAME: name, RENDER_PRESET: 'ultrafast' });
    let started: Promise<void> | undefined;
    startWorkers = () =>
      (started ??= Promise.all([worker(dir1, 'worker-1'), worker(dir2, 'worker-2')]).then((w) => {
        workers.push(...w);
      }));
    // a user made by the operator CLI, as an operator would
    key = (await admin(shared, ['user', 'create', '--email', `multi-${Date.now()}@test.local`, '--api-credits', '20'])).apiKey;
  }, 120_000);

  afterAll(async () => {
    await Promise.all([...workers, a, b].filter(Boolean).map((c) => c.stop()));
    await database?.drop();
    await s3?.close();
    await files?.close();
    await Promise.all(dataDirs.map((d) => fs.rm(d, { recursive: true, force: true })));
  });

  it('a video uploaded through A is transcribed and rendered by a worker, followed and downloaded through B', async () => {
    const form = new FormData();
    form.append('title', 'Across machines');
    form.append('language', 'en');
    form.append('file', new Blob([new Uint8Array(await fs.readFile(fx.talk))], { type: 'video/mp4' }), 'talk.mp4');
    const created = await request(a, 'POST', '/v1/projects/upload', { key, body: form });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    projectId = id;

    // B hears every step a worker takes through Redis, from its first answer to completed: the workers start once it has heard the first
    const signal = AbortSignal.timeout(120_000);
    const res = await subscribeSse(b.url, key, 'subscription($id: ID!) { projectUpdates(projectId: $id) { status stage } }', { id }, signal);
    expect(res.status).toBe(200);
    let working: Promise<void> | undefined;
    const events = await readSse(
      res,
      (d) => {
        working ??= startWorkers();
        return d.projectUpdates as { status: string; stage: string | null };
      },
      (e) => e.status === 'completed' || e.status === 'failed',
      { signal, aborted: (seen) => new Error(`no final update within 120 s; received ${JSON.stringify(seen)}`) },
    );
    await working;
    expect(events[0]).toEqual({ status: 'processing', stage: 'queued' });
    expect(events.at(-1)).toEqual({ status: 'completed', stage: 'done' });
    expect(events.map((e) => e.status)).toEqual(expect.arrayContaining(['transcribing', 'exporting']));

    // the rendered video is in the bucket, under the prefix, and on no instance's disk
    const done = await waitProject(b, key, id, (p) => p.status === 'completed' && p.downloadUrl);
    const objects = await s3.objectKeys();
    expect(objects).toEqual(
      expect.arrayContaining([`${prefix}projects/${id}/source.mp4`, expect.stringMatching(new RegExp(`^${prefix}projects/${id}/exports/[0-9a-f-]+\\.mp4$`))]),
    );
    for (const dir of dataDirs) expect(await entries(path.join(dir, 'media')), dir).toEqual([]);

    // B's links, served by B from the bucket, whole and by range
    expect(done.downloadUrl.startsWith(`${b.url}/`)).toBe(true);
    const download = await fetch(done.downloadUrl);
    expect(download.status).toBe(200);
    const file = path.join(await dataDir('download'), 'export.mp4');
    await fs.writeFile(file, Buffer.from(await download.arrayBuffer()));
    const rendered = await probe(file);
    expect(rendered.video).toBeTruthy();
    expect(rendered.audio).toBeTruthy();
    expect(rendered.duration).toBeGreaterThan(5);
    const ranged = await fetch(done.downloadUrl, { headers: { range: 'bytes=0-99' } });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual((await fs.readFile(file)).subarray(0, 100));
    // A serves the same link's object too: a link signed by one instance is good on every other
    expect((await fetch(done.downloadUrl.replace(b.url, a.url), { method: 'HEAD' })).status).toBe(200);

    // each job's scratch files went with the job
    await expect.poll(scratchLeft, { timeout: 10_000 }).toEqual([]);
  }, 180_000);

  it('a project from a URL with a library image over the speaker and library music renders from the bucket alone', async () => {
    await startWorkers();
    // library entries fetched and checked by a worker: their bytes go to the bucket, their probe reads a copy
    const entry = async (file: string) => {
      const r = await request(a, 'POST', '/v1/user-media', { key, json: { url: files.url(file) } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return (await waitEntry(b, key, r.body.userMediaId, (m) => m.status !== 'pending', 60_000)) as {
        id: string;
        status: string;
        type: string;
        failureReason: string | null;
      };
    };
    await run('ffmpeg', [...FF, '-f', 'lavfi', '-i', 'color=c=red:s=160x120', '-frames:v', '1', path.join(fx.dir, 'red.png')]);
    const [image, music] = await Promise.all([entry('red.png'), entry('tone.mp3')]);
    expect(image).toMatchObject({ status: 'ready', type: 'IMAGE', failureReason: null });
    expect(music).toMatchObject({ status: 'ready', type: 'AUDIO', failureReason: null });

    const created = await request(b, 'POST', '/v1/projects', {
      key,
      json: {
        title: 'From a link',
        language: 'en',
        videoUrl: files.url('talk.mp4'),
        items: [{ type: 'user-media', userMediaId: image.id, startTime: 1, endTime: 3, layout: 'cover' }],
        music: { userMediaId: music.id, volume: 50, fade: false },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const done = await waitProject(
      a,
      key,
      created.body.id,
      (p) => p.status !== 'processing' && p.status !== 'transcribing' && p.status !== 'exporting',
      120_000,
    );
    expect(done).toMatchObject({ status: 'completed', downloadUrl: expect.stringMatching(new RegExp(`^${a.url}/`)) });
    expect(done.failureReason ?? null).toBeNull();
    expect(await s3.objectKeys()).toEqual(expect.arrayContaining([`${prefix}projects/${created.body.id}/source.mp4`]));

    const file = path.join(await dataDir('download'), 'from-link.mp4');
    await fs.writeFile(file, Buffer.from(await (await fetch(done.downloadUrl)).arrayBuffer()));
    const rendered = await probe(file);
    expect(rendered.video).toBeTruthy();
    expect(rendered.audio).toBeTruthy();
    expect(rendered.duration).toBeGreaterThan(5);
    // the red image covers the picture from 1 s to 3 s, and only then
    const [during, after] = await Promise.all([frameAt(file, 2), frameAt(file, 4.5)]);
    expect(isRed(pixel(during, during.w / 2, during.h / 2))).toBe(true);
    expect(isRed(pixel(after, after.w / 2, after.h / 2))).toBe(false);
    for (const dir of dataDirs) expect(await entries(path.join(dir, 'media')), dir).toEqual([]);
    await expect.poll(scratchLeft, { timeout: 10_000 }).toEqual([]);
  }, 180_000);

  it('magic clips uploaded through A: each clip is cut by a worker from its window of the source in the bucket, read in ranges, not copied whole', async () => {
    await startWorkers();
    const user = await admin(shared, ['user', 'create', '--email', `clips-${Date.now()}@test.local`, '--clip-credits', '1', '--clips-subscription']);
    const talk = await syntheticTalk({ sentences: TALK_SENTENCES.slice(0, 5) });
    const form = new FormData();
    for (const [k, v] of Object.entries({ title: 'Clips across machines', language: 'en', minClipLength: '15', maxClipLength: '20' })) form.append(k, v);
    form.append('file', new Blob([new Uint8Array(await fs.readFile(talk.path))], { type: 'video/mp4' }), 'talk.mp4');
    const mark = s3.requests.length;
    const rangedMark = s3.rangedGets.length;
    const created = await request(a, 'POST', '/v1/projects/magic-clips/upload', { key: user.apiKey, body: form });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const id = created.body.id as string;

    const done = await waitProject(b, user.apiKey, id, (p) => p.status !== 'processing', 180_000);
    expect(done.failureReason ?? null).toBeNull();
    expect(done.status).toBe('completed');
    const clips = (done.magicClips as Array<{ status: string; duration: number; downloadUrl: string }>).filter((c) => c.status === 'completed');
    expect(clips.length).toBeGreaterThanOrEqual(1);
    for (const [i, c] of clips.entries()) {
      expect(c.downloadUrl.startsWith(`${b.url}/`)).toBe(true);
      const file = path.join(await dataDir('download'), `clip-${i}.mp4`);
      await fs.writeFile(file, Buffer.from(await (await fetch(c.downloadUrl)).arrayBuffer()));
      const clip = await probe(file);
      expect(clip.video).toMatchObject({ width: 1080, height: 1920 });
      expect(Math.abs(clip.duration! - c.duration)).toBeLessThan(0.15);
    }

    // the source is never fetched whole by the SDK: the upload's check, the transcription's sound, and each clip's face
    // analysis and render open the store's presigned URL (ffmpeg: no SDK query) and read it in ranges
    const source = `/${s3.bucket}/${prefix}projects/${id}/source.mp4`;
    const reads = s3.requests.slice(mark).filter((r) => r.startsWith(`GET ${source} `));
    const whole = reads.filter((r) => r.endsWith('?x-id'));
    const presigned = reads.filter((r) => r.endsWith(' ?'));
    expect(whole, JSON.stringify(reads)).toEqual([]);
    expect(presigned.length, JSON.stringify(reads)).toBeGreaterThanOrEqual(2 + 2 * clips.length);
    const ranged = s3.rangedGets.slice(rangedMark).filter((r) => r.startsWith(`${source} `));
    expect(ranged.length, JSON.stringify(ranged)).toBeGreaterThanOrEqual(presigned.length);
    for (const dir of dataDirs) expect(await entries(path.join(dir, 'media')), dir).toEqual([]);
    await expect.poll(scratchLeft, { timeout: 10_000 }).toEqual([]);
  }, 240_000);

  it('uploads cut off mid-way leave no object, no incomplete multipart upload, no scratch file and no record', async () => {
    const before = await s3.objectKeys();
    const projects = await projectCount();
    const media = async () => (await request(a, 'GET', '/v1/user-media?limit=100', { key })).body.items.length as number;
    const entries0 = await media();
    // past three 5 MiB parts: the store holds parts of a file streamed to it when the client goes away
    const bytes = crypto.randomBytes(20 * 1024 * 1024);
    const boundary = 'x-cut-off-x';
    const part = { name: 'file', value: bytes, filename: 'big.mp4', type: 'video/mp4' };

    // a library upload streams to the store as it arrives: a multipart upload is under way, and aborted
    const mark = s3.requests.length;
    await sendPart(a, key, '/v1/user-media/upload', boundary, multipartBody(boundary, [part]), 16 * 1024 * 1024);
    await expect
      .poll(() => s3.requests.slice(mark), { timeout: 15_000 })
      .toEqual(
        expect.arrayContaining([expect.stringMatching(/^POST \/media\/clips\/user-media\/.+ \?uploads$/), expect.stringMatching(/^DELETE .*\?uploadId/)]),
      );
    await expect.poll(() => s3.pendingUploads(), { timeout: 5_000 }).toEqual([]);

    // a project's file is held on the server until its fields are known: that copy goes
    const form = multipartBody(boundary, [{ name: 'title', value: 'Never finished' }, { name: 'language', value: 'en' }, part]);
    await sendPart(a, key, '/v1/projects/upload', boundary, form, 16 * 1024 * 1024);
    await expect.poll(scratchLeft, { timeout: 10_000 }).toEqual([]);

    expect(await s3.objectKeys()).toEqual(before);
    expect(await s3.pendingUploads()).toEqual([]);
    expect(await projectCount()).toBe(projects);
    expect(await media()).toBe(entries0);
  }, 60_000);

  it('600 graphql-ws subscribers of a project, half on A and half on B, all hear its export move it, each instance listening once', async () => {
    await waitProject(b, key, projectId, (p) => p.status === 'completed' && p.downloadUrl);
    const crowd = await subscribeCrowd(
      [a.url, b.url],
      key,
      'subscription($id: ID!) { projectUpdates(projectId: $id, follow: true) { status } }',
      { id: projectId },
      600,
    );
    const redis = new Redis(REDIS_URL!);
    try {
      // 600 subscribers, two listeners: one channel subscription per instance
      expect(await redis.pubsub('NUMSUB', `projectUpdated:${projectId}`)).toEqual([`projectUpdated:${projectId}`, 2]);
      const since = performance.now();
      const exported = await request(a, 'POST', `/v1/projects/${projectId}/export`, { key, json: { width: 180, height: 320 } });
      expect(exported.status, JSON.stringify(exported.body)).toBe(200);
      // every subscriber hears the move to exporting, then the export's end, whichever instance it is on
      expect(await crowd.heard((d) => d.projectUpdates.status === 'exporting', since)).toHaveLength(600);
      expect(await crowd.heard((d) => d.projectUpdates.status === 'completed', since, 120_000)).toHaveLength(600);
    } finally {
      crowd.close();
      redis.disconnect();
    }
  }, 180_000);

  it('a render that fails storing its preview removes the video it had stored; the project keeps its previous output', async () => {
    const project = { id: projectId };
    const first = await waitProject(b, key, project.id, (p) => p.status === 'completed' && p.downloadUrl);
    const before = await s3.objectKeys();
    const mark = s3.requests.length;
    s3.refuseWrites(/\.preview\.mp4$/);
    try {
      const exported = await request(b, 'POST', `/v1/projects/${project.id}/export`, { key, json: { width: 180, height: 320 } });
      expect(exported.status, JSON.stringify(exported.body)).toBe(200);
      const after = await waitProject(b, key, project.id, (p) => p.status === 'completed' && p.failureReason, 120_000);
      expect(after.failureReason).toMatch(/^Export failed/);
      expect(new URL(after.downloadUrl).pathname).toBe(new URL(first.downloadUrl).pathname);
    } finally {
      s3.refuseWrites(null);
    }
    // the new export's video was stored before its preview failed: it is gone again, and nothing is left half-written
    const video = s3.requests.slice(mark).find((r) => /^PUT \/media\/clips\/projects\/[0-9a-f-]+\/exports\/[0-9a-f-]+\.mp4 /.test(r));
    expect(video).toBeDefined();
    // the removal follows the failure's report: on a busy machine it may land a moment after the project reads failed
    await expect.poll(() => s3.requests.slice(mark), { timeout: 10_000 }).toContain(video!.replace(/^PUT/, 'DELETE'));
    expect(await s3.objectKeys()).toEqual(before);
    expect(await s3.pendingUploads()).toEqual([]);
    await expect.poll(scratchLeft, { timeout: 10_000 }).toEqual([]);
  }, 150_000);
});

/** The names in a folder; none when it does not exist. */
async function entries(dir: string): Promise<string[]> {
  return fs.readdir(dir).catch(() => []);
}

/** `npm run admin -- …` with the given environment: its one JSON object. */
async function admin(env: Record<string, string>, args: string[]): Promise<Record<string, string>> {
  const r = await runEntry(['src/cli/main.ts', ...args], { ...process.env, ...env });
  if (r.code !== 0) throw new Error(`admin ${args.join(' ')}: ${r.code}\n${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** Sends the head of an upload of `body` and its first `sent` bytes, then goes away, as a client whose connection drops. */
function sendPart(app: Reachable, key: string, route: string, boundary: string, body: Buffer, sent: number): Promise<void> {
  const { hostname, port } = new URL(app.url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(
        `POST ${route} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nx-api-key: ${key}\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      socket.write(body.subarray(0, sent), () => {
        // the bytes reached the server, which is streaming them to the store: now the client is gone
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 1500);
      });
    });
    socket.on('error', () => resolve());
  });
}
