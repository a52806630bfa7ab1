import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExportPlan } from '../../src/exports/plan.js';
import { probe } from '../../src/media/ffprobe.js';
import { inputOptions } from '../../src/media/input.js';
import { buildRenderGraph } from '../../src/media/render/graph.js';
import { itemsColumn } from '../../src/projects/references.js';
import { transcriptColumn, videoMetaColumn, type VideoMeta } from '../../src/projects/service.js';
import { createUser, request, startTestApp, waitProject, type TestApp, type TestUser } from '../support/app.js';
import { startLocalS3, type LocalS3 } from '../support/s3.js';
import { syntheticTalk, TALK_SENTENCES } from '../support/talk.js';

// An export on a remote store reads what it uses, by range through the store's
// URL: the window of a long source (a magic clip's project), and the first
// seconds of a long library video shown as an item. The store's server counts
// the bytes it sent of each object. An upload's probe, its transcription's
// sound and its render read the source where it is stored too, never a copy.

const run = promisify(execFile);
const PREFIX = 'remote-reads';
let s3: LocalS3;
let app: TestApp;
let user: TestUser;
let tmp: string;

/** `seconds` of 320x180 25 fps picture (a keyframe each second) and a tone, moov first */
async function video(name: string, seconds: number): Promise<{ file: string; size: number }> {
  const file = path.join(tmp, name);
  await run('ffmpeg', [
    ...['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=s=320x180:r=25:d=${seconds}`, '-f', 'lavfi', '-i', `sine=f=300:d=${seconds}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '64k', '-movflags', '+faststart', file],
  ]);
  return { file, size: fs.statSync(file).size };
}

const store = (key: string, file: string) => app.runtime.app.storage.put(key, fs.createReadStream(file), { contentType: 'video/mp4' });

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'remote-reads-'));
  s3 = await startLocalS3('media');
  // the store's client finds its credentials where the SDK looks for them
  process.env.AWS_ACCESS_KEY_ID = s3.credentials.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = s3.credentials.secretAccessKey;
  app = await startTestApp({
    role: 'all',
    env: {
      STORAGE_URL: `s3://${s3.bucket}/${PREFIX}`,
      S3_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: '1',
      AWS_REGION: 'us-east-1',
      URL_SIGNING_SECRET: 'remote-reads-test-secret-of-32-characters',
    },
  });
  user = await createUser(app, { apiCredits: 100 });
});
afterAll(async () => {
  await app?.stop();
  await s3?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('an export on a remote store', () => {
  it('reads the 4 s window of a 120 s source and the first 2 s of a 60 s library video, not the files whole', async () => {
    const db = app.runtime.app.db;
    const source = await video('long.mp4', 120);
    const sourceKey = `sources/${user.id}/long.mp4`;
    await store(sourceKey, source.file);
    const broll = await video('broll.mp4', 60);
    const brollKey = `user-media/${user.id}/broll.mp4`;
    await store(brollKey, broll.file);
    const media = await db.userMedia.create({
      data: { userId: user.id, type: 'VIDEO', status: 'ready', fileName: 'broll.mp4', storageKey: brollKey, contentType: 'video/mp4' },
    });

    // a magic clip's project: 4 s of the source from 100 s, its words on the window's timeline
    const probed = await probe(source.file);
    const meta: VideoMeta = {
      width: 320,
      height: 180,
      fps: 25,
      rotation: 0,
      hasAudio: true,
      size: source.size,
      formatName: probed.formatName,
      duration: 4,
      window: { start: 100 },
    };
    const words = ['Only', 'this', 'window', 'counts'].map((text, i) => ({ id: `w${i}`, text, type: 'word' as const, startTime: i, endTime: i + 0.8 }));
    const project = await db.project.create({
      data: {
        userId: user.id,
        kind: 'edit',
        title: 'A window of a long talk',
        language: 'en',
        status: 'completed',
        transcriptionStatus: 'COMPLETED',
        templateName: 'classic',
        sourceKey,
        videoMeta: videoMetaColumn.write(meta),
        transcript: transcriptColumn.write(words),
        items: itemsColumn.write([{ type: 'user-media', userMediaId: media.id, mediaType: 'VIDEO', startTime: 1, endTime: 3, layout: 'cover' }]),
      },
    });

    const r = await request(app, 'POST', `/v1/projects/${project.id}/export`, { key: user.key, json: { width: 320, height: 180, fps: 25 } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const done = await waitProject(app, user.key, project.id, (p) => p.status === 'completed' || p.status === 'failed', 120_000);
    expect(done.status, JSON.stringify(done)).toBe('completed');
    const out = path.join(tmp, 'out.mp4');
    fs.writeFileSync(out, Buffer.from(await (await fetch(done.downloadUrl)).arrayBuffer()));
    const rendered = await probe(out);
    expect(rendered.duration).toBeCloseTo(4, 0);
    expect(rendered.video).toMatchObject({ width: 320, height: 180 });

    // every read of either file was a ranged GET, never a copy of the whole; the source's second starts at the window, not before it
    const gets = (key: string) => s3.rangedGets.filter((g) => g.startsWith(`/${s3.bucket}/${PREFIX}/${key} `));
    expect(s3.requests.filter((q) => q.startsWith('GET ') && (q.includes(sourceKey) || q.includes(brollKey)))).toHaveLength(
      gets(sourceKey).length + gets(brollKey).length,
    );
    const offsets = gets(sourceKey).map((g) => Number(/bytes=(\d+)-/.exec(g)?.[1]));
    expect(Math.max(...offsets) / source.size).toBeGreaterThan(0.75);

    // what the render reads, as ffmpeg counts it for each input: the export's own plan and graph, read once more with statistics
    const dir = fs.mkdtempSync(path.join(tmp, 'plan-'));
    const stored = await db.project.findUniqueOrThrow({ where: { id: project.id } });
    const { plan } = await buildExportPlan(app.runtime.app, stored, { width: 320, height: 180, fps: 25 }, dir);
    const graph = buildRenderGraph(plan);
    const script = path.join(dir, 'graph.txt');
    fs.writeFileSync(script, graph.filterScript);
    const { stderr } = await run('ffmpeg', [
      ...['-y', '-nostats', '-loglevel', 'verbose'],
      ...graph.inputs.flatMap((i) => [...inputOptions(i.path), ...i.args, '-i', i.path]),
      ...['-filter_complex_script', script, ...graph.outputArgs, path.join(dir, 'again.mp4')],
    ]);
    // each input's I/O context says what it read as it closes, in the inputs' order, after the outputs (files the filters open close before)
    const closing = stderr.slice(stderr.lastIndexOf('bytes written'));
    const read = [...closing.matchAll(/Statistics: (\d+) bytes read/g)].map((m) => Number(m[1]));
    expect(read).toHaveLength(graph.inputs.length);
    const at = (key: string) => graph.inputs.findIndex((i) => i.path.includes(key));
    expect(graph.inputs[at(sourceKey)].path).toMatch(/^http:/);
    expect(graph.inputs[at(brollKey)].path).toMatch(/^http:/);
    expect(read[at(sourceKey)] / source.size).toBeLessThan(0.1);
    expect(read[at(brollKey)] / broll.size).toBeLessThan(0.15);
  });
});

describe('an upload on a remote store', () => {
  it('is probed, transcribed and rendered from the store by ffmpeg reading its URL: the source is never copied whole', async () => {
    const talk = await syntheticTalk({ sentences: TALK_SENTENCES.slice(0, 2) });
    const form = new FormData();
    form.append('title', 'Read where it is stored');
    form.append('language', 'en');
    form.append('file', new Blob([new Uint8Array(fs.readFileSync(talk.path))], { type: 'video/mp4' }), 'talk.mp4');
    const mark = s3.requests.length;
    const rangedMark = s3.rangedGets.length;
    const created = await request(app, 'POST', '/v1/projects/upload', { key: user.key, body: form });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    // the upload's request probed it before answering
    const stored = await app.runtime.app.db.project.findUniqueOrThrow({ where: { id } });
    expect(videoMetaColumn.read(stored.videoMeta)?.duration).toBeCloseTo(talk.duration, 0);

    const done = await waitProject(app, user.key, id, (p) => (p.status === 'completed' && !!p.downloadUrl) || p.status === 'failed', 120_000);
    expect(done.status, JSON.stringify(done)).toBe('completed');
    expect((done.words as Array<{ type: string }>).filter((w) => w.type === 'word').length).toBeGreaterThan(3);
    const out = path.join(tmp, 'upload-out.mp4');
    fs.writeFileSync(out, Buffer.from(await (await fetch(done.downloadUrl)).arrayBuffer()));
    expect((await probe(out)).duration).toBeGreaterThan(talk.duration * 0.5);

    // the probe (on the upload's request), the sound for the transcription and the render: each a presigned GET (no
    // SDK query) asking for a range; no copy by the SDK (`?x-id=GetObject`)
    const source = `/${s3.bucket}/${PREFIX}/projects/${id}/source.mp4`;
    const reads = s3.requests.slice(mark).filter((r) => r.startsWith(`GET ${source} `));
    expect(
      reads.filter((r) => r.endsWith('?x-id')),
      JSON.stringify(reads),
    ).toEqual([]);
    expect(reads.length, JSON.stringify(reads)).toBeGreaterThanOrEqual(3);
    expect(s3.rangedGets.slice(rangedMark).filter((r) => r.startsWith(`${source} `))).toHaveLength(reads.length);
  });
});
