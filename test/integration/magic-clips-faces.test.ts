// Magic clips follow the speaker's face: a talk whose speaker (a face picture) walks across a 1920x1080
// frame, made into a clip through the API with face tracking on (the default). The face detector run on
// frames of the rendered clip finds the face whole and near the middle in every frame, where a centred
// crop of the same source would have lost it.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cropSize } from '../../src/media/vision/crop-path.js';
import type { CropPath } from '../../src/magic-clips/types.js';
import { probe } from '../../src/media/ffprobe.js';
import { createFaceDetector, type Face, type FaceDetector } from '../../src/media/vision/face-detector.js';
import { createUser, request, startTestApp, waitProject, type TestApp, type TestUser } from '../support/app.js';
import { acrossTheFrame, FACE_PICTURE, FACE_PICTURE_SIZE, makeMovingFaceVideo, type MovingFace } from '../support/faces.js';
import { FF, type FileServer, serveFolder } from '../support/media.js';
import { syntheticTalk, TALK_SENTENCES, type Talk } from '../support/talk.js';

const run = promisify(execFile);
const W = 1920;
const H = 1080;
const FPS = 30;
/** the picture's motion lasts a little longer than the talk, which ends before it reaches the right edge */
const MOTION_SECONDS = 26;
/** frames a second sampled from the rendered clip */
const CHECK_FPS = 2;
/** the sampled frames are scaled to this before detection (the clip's aspect, a quarter of the pixels) */
const CHECK_W = 540;
const CHECK_H = 960;

let dir: string;
let app: TestApp;
let files: FileServer;
let user: TestUser;
let talk: Talk;
let moving: MovingFace;
let detector: FaceDetector;
/** the face's box inside the 512 px picture, as the detector sees it on the picture alone */
let faceInPicture: Face;
let writer: { url: string; asked: string[]; close(): Promise<void> };

/** An OpenAI-compatible chat-completions server whose answer is the first five words of the user's message it can read. */
async function hookWriter(): Promise<typeof writer> {
  const asked: string[] = [];
  const server = http.createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const user = (JSON.parse(body).messages as Array<{ role: string; content: string }>).find((m) => m.role === 'user')!.content;
    asked.push(user);
    // words the engine was unsure of come masked as [?]: left out, as a model is told to
    const title = user
      .split(/\s+/)
      .filter((w) => !w.includes('[?]'))
      .slice(0, 5)
      .join(' ');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: title } }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, asked, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** RGB24 frames of `file` at `fps` (frame k shows time k/fps), scaled to w x h. */
async function framesOf(file: string, fps: number, w: number, h: number): Promise<Buffer[]> {
  const { stdout } = await run('ffmpeg', [...FF, '-i', file, '-vf', `fps=${fps}:round=up,scale=${w}:${h}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], {
    encoding: 'buffer',
    maxBuffer: 1 << 29,
  });
  const size = w * h * 3;
  expect(stdout.length % size).toBe(0);
  return Array.from({ length: stdout.length / size }, (_, k) => stdout.subarray(k * size, (k + 1) * size));
}

/** Where the face's box is in the source at time t (source pixels). */
function faceInSource(t: number) {
  const p = moving.at(t);
  const k = moving.size / FACE_PICTURE_SIZE;
  return { x: p.x + faceInPicture.x * k, y: p.y + faceInPicture.y * k, w: faceInPicture.w * k, h: faceInPicture.h * k };
}

/** The crop's left edge in force at clip time t (a key holds until the next). */
function cropXAt(crop: CropPath, t: number): number {
  let x = crop.keys[0].x;
  for (const k of crop.keys) if (k.t <= t + 1e-9) x = k.x;
  return x;
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-faces-'));
  moving = acrossTheFrame(W, H, MOTION_SECONDS, FPS);
  const picture = path.join(dir, 'walk.mp4');
  detector = await createFaceDetector();
  const [, pictureRgb] = await Promise.all([
    makeMovingFaceVideo(picture, moving),
    run('ffmpeg', [...FF, '-i', FACE_PICTURE, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { encoding: 'buffer', maxBuffer: 1 << 24 }),
  ]);
  const alone = await detector.detect(pictureRgb.stdout, FACE_PICTURE_SIZE, FACE_PICTURE_SIZE);
  expect(alone).toHaveLength(1);
  faceInPicture = alone[0];
  // five sentences (about 22 s) spoken over the walk
  talk = await syntheticTalk({ sentences: TALK_SENTENCES.slice(0, 5), fps: FPS, picture: { args: ['-i', picture] }, name: 'walking-talk.mp4' });
  expect(talk.duration).toBeGreaterThan(18);
  expect(talk.duration).toBeLessThan(MOTION_SECONDS);
  files = await serveFolder(path.dirname(talk.path));
  // hooks are written by a chat model (the offline writer takes only words the engine was sure of, few in a synthetic talk):
  // a local stand-in that answers with the first words of the transcript it is sent
  writer = await hookWriter();
  app = await startTestApp({
    env: { VIDEO_PLATFORM_HOSTS: '127.0.0.1', RENDER_PRESET: 'ultrafast', HOOK_WRITER: 'openai', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: writer.url },
  });
  user = await createUser(app, { clipCredits: 4, clipsSubscription: true });
}, 60_000);
afterAll(async () => {
  await detector?.close();
  await files?.close();
  await writer?.close();
  await app?.stop();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
  if (talk) await fs.rm(path.dirname(talk.path), { recursive: true, force: true });
});

describe('a speaker who walks across the frame', () => {
  it('stays whole and near the middle of every sampled frame of the clip, where a centred crop loses them', async () => {
    const created = await request(app, 'POST', '/v1/projects/magic-clips', {
      key: user.key,
      json: { title: 'Walking talk', language: 'en', videoshareUrl: files.url('walking-talk.mp4'), minClipLength: 15, maxClipLength: 25 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    expect(created.body.faceTracking).toBe(true);
    const id = created.body.id;

    const p = await waitProject(app, user.key, id, (x) => x.status !== 'processing', 120_000);
    expect(p.failureReason).toBeUndefined();
    expect(p.status).toBe('completed');
    expect(p.magicClips).toHaveLength(1);
    const [clip] = p.magicClips;
    expect(clip.status).toBe('completed');

    // the stored crop path follows the face: it moves, and by more than the centred crop's slack
    const row = await app.runtime.app.db.magicClip.findUniqueOrThrow({ where: { id: clip.id } });
    const crop = row.cropPath as unknown as CropPath;
    expect(crop).toMatchObject(cropSize(W, H, 9 / 16));
    expect(crop.keys.length).toBeGreaterThan(1);
    const xs = crop.keys.map((k) => k.x);
    expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan(200);

    const res = await fetch(clip.downloadUrl);
    expect(res.status).toBe(200);
    const file = path.join(dir, 'clip.mp4');
    await fs.writeFile(file, Buffer.from(await res.arrayBuffer()));
    const info = await probe(file);
    expect(info.video).toMatchObject({ width: 1080, height: 1920 });
    expect(info.video!.fps).toBeCloseTo(FPS, 1);
    expect(Math.abs(info.duration! - clip.duration)).toBeLessThan(0.12);
    expect(clip.duration).toBeGreaterThanOrEqual(15 - 0.05);
    expect(clip.duration).toBeLessThanOrEqual(25 + 0.4);

    const frames = await framesOf(file, CHECK_FPS, CHECK_W, CHECK_H);
    expect(frames.length).toBeGreaterThanOrEqual(Math.floor(clip.duration * CHECK_FPS));
    const centred = cropSize(W, H, 9 / 16);
    const centredX = Math.round((W - centred.width) / 2);
    let lostByCentredCrop = 0;
    for (const [k, rgb] of frames.entries()) {
      const t = k / CHECK_FPS;
      const faces = await detector.detect(rgb, CHECK_W, CHECK_H);
      expect(faces.length, `no face in the clip at ${t} s`).toBeGreaterThanOrEqual(1);
      const f = faces[0];
      // whole: the box inside the frame; near the middle: its centre in the middle 60 % of the width
      expect(f.x, `t=${t}`).toBeGreaterThanOrEqual(0);
      expect(f.y, `t=${t}`).toBeGreaterThanOrEqual(0);
      expect(f.x + f.w, `t=${t}`).toBeLessThanOrEqual(CHECK_W);
      expect(f.y + f.h, `t=${t}`).toBeLessThanOrEqual(CHECK_H);
      const cx = f.x + f.w / 2;
      expect(cx, `t=${t}`).toBeGreaterThanOrEqual(0.2 * CHECK_W);
      expect(cx, `t=${t}`).toBeLessThanOrEqual(0.8 * CHECK_W);

      // it is the speaker of this moment of the source: mapped back through the crop, where the picture was drawn
      const want = faceInSource(clip.startTime + t);
      const sourceCx = cropXAt(crop, t) + (cx * crop.width) / CHECK_W;
      expect(Math.abs(sourceCx - (want.x + want.w / 2)), `t=${t}`).toBeLessThan(0.04 * W);

      // the control: a centred crop of the same source at the same moment
      if (want.x < centredX || want.x + want.w > centredX + centred.width) lostByCentredCrop++;
    }
    expect(lostByCentredCrop, 'a centred crop would have kept the face in every frame').toBeGreaterThan(frames.length / 4);

    // the clip's edit project follows the face too, with the track the clip was framed by, in another shape
    const own = await app.runtime.app.db.project.findUniqueOrThrow({ where: { id: clip.projectId } });
    expect(own).toMatchObject({ reframe: 'face', faceTrackKey: `projects/${clip.projectId}/faces.json` });
    const exp = await request(app, 'POST', `/v1/projects/${clip.projectId}/export`, { key: user.key, json: { width: 1080, height: 1350, fps: 25 } });
    expect(exp.status, JSON.stringify(exp.body)).toBe(200);
    const done = await waitProject(app, user.key, clip.projectId, (x) => x.status === 'completed', 120_000);
    const portrait = path.join(dir, 'clip-project-4x5.mp4');
    await fs.writeFile(portrait, Buffer.from(await (await fetch(done.downloadUrl)).arrayBuffer()));
    expect((await probe(portrait)).video).toMatchObject({ width: 1080, height: 1350 });
    for (const [t, rgb] of (await framesOf(portrait, 1, 540, 676)).entries()) {
      const [f] = await detector.detect(rgb, 540, 676);
      expect(f, `no face at ${t} s`).toBeDefined();
      expect(f.x + f.w / 2, `t=${t}`).toBeGreaterThanOrEqual(0.2 * 540);
      expect(f.x + f.w / 2, `t=${t}`).toBeLessThanOrEqual(0.8 * 540);
    }
  }, 180_000);

  it.each([
    ['1:1', 1080, 1080],
    ['4:5', 1080, 1350],
    ['16:9', 1920, 1080],
  ] as const)(
    'in %s: the frame of that shape, the face whole and near the middle, its own hook off the face',
    async (aspectRatio, width, height) => {
      const created = await request(app, 'POST', '/v1/projects/magic-clips', {
        key: user.key,
        json: {
          title: `Walking talk ${aspectRatio}`,
          language: 'en',
          videoshareUrl: files.url('walking-talk.mp4'),
          minClipLength: 15,
          maxClipLength: 25,
          aspectRatio,
          hookTitle: true,
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(202);
      const p = await waitProject(app, user.key, created.body.id, (x) => x.status !== 'processing', 120_000);
      expect(p.status, p.failureReason).toBe('completed');
      expect(p.aspectRatio).toBe(aspectRatio);
      const [clip] = p.magicClips;
      // the hook is the clip's own: written from the clip's words (the unsure ones masked), not the whole source's
      const tokens = (t: string) => t.split(/\s+/);
      const asked = writer.asked.find(
        (a) => tokens(a).length === tokens(clip.transcript).length && tokens(a).every((w, i) => w.includes('[?]') || w === tokens(clip.transcript)[i]),
      );
      expect(asked, `${clip.transcript}\n${writer.asked.join('\n')}`).toBeDefined();
      expect(clip.hookTitle).toBe(
        tokens(asked!)
          .filter((w) => !w.includes('[?]'))
          .slice(0, 5)
          .join(' ')
          .replace(/[,.]$/, ''),
      );

      const file = path.join(dir, `clip-${aspectRatio.replace(':', 'x')}.mp4`);
      await fs.writeFile(file, Buffer.from(await (await fetch(clip.downloadUrl)).arrayBuffer()));
      const info = await probe(file);
      expect(info.video).toMatchObject({ width, height });
      expect(Math.abs(info.duration! - clip.duration)).toBeLessThan(0.12);
      // a quarter of the pixels, one frame a second: the hook is on screen over the first ones, and leaves the face whole
      const [w, h] = [width / 2, height / 2];
      const frames = await framesOf(file, 1, w, h);
      for (const [t, rgb] of frames.entries()) {
        const faces = await detector.detect(rgb, w, h);
        expect(faces.length, `no face in the ${aspectRatio} clip at ${t} s`).toBeGreaterThanOrEqual(1);
        const f = faces[0];
        expect(f.x >= 0 && f.y >= 0 && f.x + f.w <= w && f.y + f.h <= h, `t=${t}`).toBe(true);
        const cx = f.x + f.w / 2;
        // 16:9 shows the whole source: the face is where the speaker walks, anywhere across it
        if (aspectRatio !== '16:9') {
          expect(cx, `t=${t}`).toBeGreaterThanOrEqual(0.2 * w);
          expect(cx, `t=${t}`).toBeLessThanOrEqual(0.8 * w);
        }
      }
    },
    120_000,
  );

  it('reframe: face on an edit project: a 16:9 talk exported to 9:16 follows the speaker, where center keeps the middle', async () => {
    const created = await request(app, 'POST', '/v1/projects', {
      key: user.key,
      json: { title: 'Walking edit', language: 'en', videoUrl: files.url('walking-talk.mp4'), reframe: 'face', autoRender: false },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.reframe).toBe('face');
    const id = created.body.id;
    await waitProject(app, user.key, id, (x) => x.status === 'completed', 120_000);
    const exp = await request(app, 'POST', `/v1/projects/${id}/export`, { key: user.key, json: { width: 1080, height: 1920, fps: 25 } });
    expect(exp.status, JSON.stringify(exp.body)).toBe(200);
    const done = await waitProject(app, user.key, id, (x) => x.status === 'completed' && x.downloadUrl, 120_000);
    const file = path.join(dir, 'edit-face.mp4');
    await fs.writeFile(file, Buffer.from(await (await fetch(done.downloadUrl)).arrayBuffer()));
    expect((await probe(file)).video).toMatchObject({ width: 1080, height: 1920 });
    // the face track is looked for once and kept for every later export
    const row = await app.runtime.app.db.project.findUniqueOrThrow({ where: { id } });
    expect(row.faceTrackKey).toBe(`projects/${id}/faces.json`);
    const frames = await framesOf(file, 1, CHECK_W, CHECK_H);
    let offCentre = 0;
    for (const [t, rgb] of frames.entries()) {
      const faces = await detector.detect(rgb, CHECK_W, CHECK_H);
      expect(faces.length, `no face at ${t} s`).toBeGreaterThanOrEqual(1);
      const cx = faces[0].x + faces[0].w / 2;
      expect(cx, `t=${t}`).toBeGreaterThanOrEqual(0.2 * CHECK_W);
      expect(cx, `t=${t}`).toBeLessThanOrEqual(0.8 * CHECK_W);
      // where the face is in the source: off the centred crop for much of the walk
      const want = faceInSource(t);
      const centred = cropSize(W, H, 9 / 16);
      const centredX = Math.round((W - centred.width) / 2);
      if (want.x < centredX || want.x + want.w > centredX + centred.width) offCentre++;
    }
    expect(offCentre).toBeGreaterThan(frames.length / 4);

    // center: the middle of the picture, whatever the face does (the face leaves it)
    const put = await request(app, 'PUT', `/v1/projects/${id}`, { key: user.key, json: { reframe: 'center' } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const still = await fetch(new URL(`/v1/projects/${id}/preview`, app.url), {
      method: 'POST',
      headers: { 'x-api-key': user.key, 'content-type': 'application/json' },
      body: JSON.stringify({ time: 18, width: CHECK_W, height: CHECK_H }),
    });
    expect(still.status).toBe(200);
    const png = path.join(dir, 'center.png');
    await fs.writeFile(png, Buffer.from(await still.arrayBuffer()));
    const [centreFrame] = await framesOf(png, 1, CHECK_W, CHECK_H);
    const seen = await detector.detect(centreFrame, CHECK_W, CHECK_H);
    const whole = seen.filter((f) => f.x >= 0 && f.x + f.w <= CHECK_W);
    // at 18 s the speaker has walked out of the middle: a centred crop shows no whole face there
    expect(faceInSource(18).x + faceInSource(18).w).toBeGreaterThan((W + cropSize(W, H, 9 / 16).width) / 2);
    expect(whole.filter((f) => f.x + f.w / 2 > 0.2 * CHECK_W && f.x + f.w / 2 < 0.8 * CHECK_W)).toHaveLength(0);
  }, 240_000);
});
