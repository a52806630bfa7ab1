// Two people on screen: a 16:9 interview (two face pictures side by side, the left on a red half, the
// right on a blue half) whose voices come from the left, the right or both channels, sentence by
// sentence. Exported to 9:16 with reframe: face, the picture follows the one speaking (the crop's
// background says whose side it is) and stacks both faces where both speak; speakerLayout follow and
// split override it, seen in one-frame previews of the kept track.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probe } from '../../src/media/ffprobe.js';
import { createFaceDetector, type FaceDetector } from '../../src/media/vision/face-detector.js';
import { createUser, request, startTestApp, waitProject, type TestApp, type TestUser } from '../support/app.js';
import { FACE_PICTURE } from '../support/faces.js';
import { FF, type FileServer, serveFolder } from '../support/media.js';
import { syntheticTalk, TALK_SENTENCES, type Talk, type VoiceSide } from '../support/talk.js';

const run = promisify(execFile);
const W = 1920;
const H = 1080;
const FACE = 440;
/** the output checked: 9:16 at a quarter of full HD's pixels */
const OW = 540;
const OH = 960;
const SIDES: VoiceSide[] = ['left', 'right', 'both', 'right', 'left'];

let dir: string;
let app: TestApp;
let files: FileServer;
let user: TestUser;
let talk: Talk;
let detector: FaceDetector;
let projectId: string;
let exported: string;

/** The frame of `file` at `t` s, RGB24 at w x h (the output checked, by default). */
async function frameAt(file: string, t: number, w = OW, h = OH): Promise<Buffer> {
  const { stdout } = await run(
    'ffmpeg',
    [...FF, '-ss', String(t), '-i', file, '-frames:v', '1', '-vf', `scale=${w}:${h}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    {
      encoding: 'buffer',
      maxBuffer: 1 << 26,
    },
  );
  expect(stdout.length).toBe(w * h * 3);
  return stdout;
}

/** Which half of the source a stretch of rows shows, by its background: the mean red against blue of its left and right edges. */
function sideOf(rgb: Buffer, y0: number, y1: number): 'red' | 'blue' | 'mixed' {
  let red = 0;
  let blue = 0;
  for (let y = y0; y < y1; y++) {
    for (const x of [4, 5, 6, OW - 7, OW - 6, OW - 5]) {
      const i = (y * OW + x) * 3;
      if (rgb[i] > rgb[i + 2] + 40) red++;
      else if (rgb[i + 2] > rgb[i] + 40) blue++;
    }
  }
  const n = (y1 - y0) * 6;
  return red > 0.8 * n ? 'red' : blue > 0.8 * n ? 'blue' : 'mixed';
}

/** The middle of sentence i, in seconds of the talk. */
const middle = (i: number) => (talk.sentences[i].start + talk.sentences[i].end) / 2;

async function previewAt(t: number): Promise<Buffer> {
  const r = await fetch(new URL(`/v1/projects/${projectId}/preview`, app.url), {
    method: 'POST',
    headers: { 'x-api-key': user.key, 'content-type': 'application/json' },
    body: JSON.stringify({ time: t, width: OW, height: OH }),
  });
  expect(r.status, r.status === 200 ? '' : await r.clone().text()).toBe(200);
  const png = path.join(dir, `${crypto.randomUUID()}.png`);
  await fs.writeFile(png, Buffer.from(await r.arrayBuffer()));
  return frameAt(png, 0);
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'two-speakers-'));
  const picture = path.join(dir, 'two.mp4');
  const y = Math.round((H - FACE) / 2);
  await run('ffmpeg', [
    ...FF,
    ...['-f', 'lavfi', '-i', `color=c=0xa03c3c:s=${W}x${H}:r=25:d=30`, '-loop', '1', '-framerate', '25', '-i', FACE_PICTURE],
    '-filter_complex',
    [
      `[0:v]drawbox=x=${W / 2}:y=0:w=${W / 2}:h=${H}:color=0x3c3ca0:t=fill[bg]`,
      `[1:v]scale=${FACE}:${FACE},setsar=1,split[a][b]`,
      '[b]hflip[bf]',
      `[bg][a]overlay=x=${W / 4 - FACE / 2}:y=${y}:shortest=1[one]`,
      `[one][bf]overlay=x=${(3 * W) / 4 - FACE / 2}:y=${y}:shortest=1,format=yuv420p[v]`,
    ].join(';'),
    ...['-map', '[v]', '-t', '30', '-c:v', 'libx264', '-preset', 'ultrafast', picture],
  ]);
  talk = await syntheticTalk({
    sentences: TALK_SENTENCES.slice(0, SIDES.length),
    sides: SIDES,
    fps: 25,
    picture: { args: ['-i', picture] },
    name: 'interview.mp4',
  });
  files = await serveFolder(path.dirname(talk.path));
  detector = await createFaceDetector();
  app = await startTestApp({ env: { VIDEO_PLATFORM_HOSTS: '127.0.0.1', RENDER_PRESET: 'ultrafast' } });
  user = await createUser(app, { clipCredits: 1, clipsSubscription: true });

  const created = await request(app, 'POST', '/v1/projects', {
    key: user.key,
    json: { title: 'Interview', language: 'en', videoUrl: files.url('interview.mp4'), reframe: 'face', autoRender: false, disableCaptions: true },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  // auto: left out of the record, as every setting not given
  expect(created.body).not.toHaveProperty('speakerLayout');
  projectId = created.body.id;
  await waitProject(app, user.key, projectId, (p) => p.status === 'completed', 120_000);
  const exp = await request(app, 'POST', `/v1/projects/${projectId}/export`, { key: user.key, json: { width: OW, height: OH, fps: 25 } });
  expect(exp.status, JSON.stringify(exp.body)).toBe(200);
  const done = await waitProject(app, user.key, projectId, (p) => p.status === 'completed' && p.downloadUrl, 120_000);
  exported = path.join(dir, 'interview-9x16.mp4');
  await fs.writeFile(exported, Buffer.from(await (await fetch(done.downloadUrl)).arrayBuffer()));
}, 300_000);
afterAll(async () => {
  await detector?.close();
  await files?.close();
  await app?.stop();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
  if (talk) await fs.rm(path.dirname(talk.path), { recursive: true, force: true });
});

describe('two speakers reframed to 9:16', () => {
  it('follows the voice: the left seat while the left speaks, the right while the right does, both stacked while both do', async () => {
    const probed = await probe(exported);
    expect(probed.video).toMatchObject({ width: OW, height: OH });
    // every frame drawn once: the pieces joined end to end last as long as the talk
    expect(Math.abs(probed.duration! - talk.duration)).toBeLessThan(0.1);
    for (const [i, side] of SIDES.entries()) {
      const rgb = await frameAt(exported, middle(i));
      const faces = await detector.detect(rgb, OW, OH);
      if (side === 'both') {
        // a split: the left seat (red) above, the right (blue) below, a face in each half
        expect(sideOf(rgb, 0, OH / 2 - 8), `sentence ${i}`).toBe('red');
        expect(sideOf(rgb, OH / 2 + 8, OH), `sentence ${i}`).toBe('blue');
        expect(faces.filter((f) => f.y + f.h / 2 < OH / 2).length, `sentence ${i}: a face on top`).toBe(1);
        expect(faces.filter((f) => f.y + f.h / 2 > OH / 2).length, `sentence ${i}: a face below`).toBe(1);
      } else {
        expect(sideOf(rgb, 0, OH), `sentence ${i}`).toBe(side === 'left' ? 'red' : 'blue');
        expect(faces.length, `sentence ${i}`).toBeGreaterThanOrEqual(1);
        const cx = faces[0].x + faces[0].w / 2;
        expect(Math.abs(cx - OW / 2), `sentence ${i}: the face in the middle`).toBeLessThan(0.2 * OW);
      }
    }
  });

  it('changes only between sentences, never inside one', async () => {
    // three instants inside each sentence show the same layout
    for (const [i, side] of SIDES.entries()) {
      const s = talk.sentences[i];
      const want = side === 'both' ? 'mixed' : side === 'left' ? 'red' : 'blue';
      for (const t of [s.start + 0.3, middle(i), s.end - 0.3]) {
        expect(sideOf(await frameAt(exported, t), 0, OH), `sentence ${i} at ${t.toFixed(2)} s`).toBe(want);
      }
    }
  });

  it('speakerLayout follow keeps to one face where both speak; split stacks both throughout; through PUT and the project read', async () => {
    const follow = await request(app, 'PUT', `/v1/projects/${projectId}`, { key: user.key, json: { speakerLayout: 'follow' } });
    expect(follow.status, JSON.stringify(follow.body)).toBe(200);
    expect((await request(app, 'GET', `/v1/projects/${projectId}`, { key: user.key })).body.speakerLayout).toBe('follow');
    // the both-sides sentence holds the speaker before it (the right)
    expect(sideOf(await previewAt(middle(2)), 0, OH)).toBe('blue');
    expect(sideOf(await previewAt(middle(0)), 0, OH)).toBe('red');

    const split = await request(app, 'PUT', `/v1/projects/${projectId}`, { key: user.key, json: { speakerLayout: 'split' } });
    expect(split.status).toBe(200);
    const stacked = await previewAt(middle(0));
    expect(sideOf(stacked, 0, OH / 2 - 8)).toBe('red');
    expect(sideOf(stacked, OH / 2 + 8, OH)).toBe('blue');

    const bad = await request(app, 'PUT', `/v1/projects/${projectId}`, { key: user.key, json: { speakerLayout: 'grid' } });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([expect.objectContaining({ field: 'speakerLayout' })]);
    const reset = await request(app, 'PUT', `/v1/projects/${projectId}`, { key: user.key, json: { speakerLayout: null } });
    expect(reset.status).toBe(200);
    expect((await request(app, 'GET', `/v1/projects/${projectId}`, { key: user.key })).body).not.toHaveProperty('speakerLayout');
  });

  it('a magic clip of the interview follows the voice and stacks both the same way', async () => {
    const created = await request(app, 'POST', '/v1/projects/magic-clips', {
      key: user.key,
      json: {
        title: 'Interview clips',
        language: 'en',
        videoshareUrl: files.url('interview.mp4'),
        minClipLength: 15,
        maxClipLength: 25,
        speakerLayout: 'auto',
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    expect(created.body.speakerLayout).toBe('auto');
    const p = await waitProject(app, user.key, created.body.id, (x) => x.status !== 'processing', 180_000);
    expect(p.status, p.failureReason).toBe('completed');
    const [clip] = p.magicClips;
    const file = path.join(dir, 'clip.mp4');
    await fs.writeFile(file, Buffer.from(await (await fetch(clip.downloadUrl)).arrayBuffer()));
    // every sentence wholly inside the clip, at its middle on the clip's timeline
    const inside = SIDES.map((side, i) => ({ side, i })).filter(({ i }) => talk.sentences[i].start >= clip.startTime && talk.sentences[i].end <= clip.endTime);
    expect(inside.map((s) => s.side)).toContain('both');
    for (const { side, i } of inside) {
      const rgb = await frameAt(file, middle(i) - clip.startTime);
      if (side === 'both') {
        expect(sideOf(rgb, 0, OH / 2 - 8), `sentence ${i}`).toBe('red');
        expect(sideOf(rgb, OH / 2 + 8, OH), `sentence ${i}`).toBe('blue');
      } else expect(sideOf(rgb, 0, OH), `sentence ${i}`).toBe(side === 'left' ? 'red' : 'blue');
    }
  }, 240_000);
});
