/**
 * Hooks that read like hooks: the derived line is a claim, never a string of
 * digits; its default place keeps off the speaker's face and the captions
 * (measured on an export: the title's card against the face the detector
 * finds in the same frame); a top the user sets is kept.
 */
import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StrongestLineHook } from '../../src/ai/hook.js';
import { hookTop, outputBox } from '../../src/media/render/hook-placement.js';
import { createFaceDetector } from '../../src/media/vision/face-detector.js';
import { createUser, request, startTestApp, waitProject, type TestApp, type TestUser } from '../support/app.js';
import { makeMovingFaceVideo } from '../support/faces.js';
import { frameAt, type Frame } from '../support/media.js';

const run = promisify(execFile);
let app: TestApp;
let user: TestUser;
let dir: string;
let source: string;
const W = 270;
const H = 480;

/** what is said: a phone number read out, then a claim */
const SAID = 'My number is nine three four five six. Most people think saving money is hard, but it is simple.';
const words = () => {
  const out: Array<Record<string, unknown>> = [];
  let t = 0.2;
  SAID.split(' ').forEach((token, i) => {
    const [, text, mark] = /^(.*?)([.,]?)$/.exec(token)!;
    out.push({ id: `w${i}`, text, type: 'word', startTime: t, endTime: t + 0.25, confidence: 0.97 });
    if (mark) out.push({ id: `p${i}`, text: mark, type: 'punctuation', startTime: t + 0.25, endTime: t + 0.25 });
    t += 0.3;
  });
  return out;
};

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hook-placement-'));
  // the portrait in the middle of a vertical frame: its face where a title at 50 % would sit
  source = path.join(dir, 'face.mp4');
  const size = 250;
  const x = (W - size) / 2;
  const y = (H - size) / 2 + 20;
  await makeMovingFaceVideo(source, { width: W, height: H, fps: 25, duration: 9, size, at: () => ({ x, y }), xExpr: String(x), yExpr: String(y) });
  app = await startTestApp({ role: 'all' });
  user = await createUser(app);
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('the derived hook', () => {
  it('is the claim, not the string of digits before it', async () => {
    const hook = await new StrongestLineHook().write(words() as never);
    expect(hook).toBe('Most people think saving money is hard');
    // a talk of numbers only has no hook rather than a list of them
    const digits = 'Nine three four. One two three four five.'.split(' ').map((text, i) => ({ text, type: 'word' as const, startTime: i, endTime: i + 0.5 }));
    expect(await new StrongestLineHook().write(digits)).toBe('');
  });
});

describe('where the hook goes', () => {
  it('at 50 % when nothing is there; else the nearest clear band of the safe area; a face mapped through the crop', () => {
    expect(hookTop({ width: 1080, height: 1920, titleHeight: 200, avoid: [] })).toBe(50);
    const face = { x: 300, y: 800, w: 480, h: 500 };
    const top = hookTop({ width: 1080, height: 1920, titleHeight: 200, avoid: [face] });
    const [y0, y1] = [(top / 100) * 1920, (top / 100) * 1920 + 200];
    expect(y1 <= face.y || y0 >= face.y + face.h).toBe(true);
    expect(top).toBeGreaterThanOrEqual(14);
    // a square source cropped into 9:16: the middle third of its width, scaled up
    expect(outputBox({ x: 700, y: 500, w: 200, h: 200 }, { width: 1920, height: 1080 }, { width: 1080, height: 1920 }, 'crop')).toEqual({
      x: expect.closeTo((700 - (1920 - 607.5) / 2) * (1080 / 607.5), 3),
      y: expect.closeTo(500 * (1080 / 607.5), 3),
      w: expect.closeTo(200 * (1080 / 607.5), 3),
      h: expect.closeTo(200 * (1080 / 607.5), 3),
    });
    // a wide source fitted between blurred bands: scaled to the width, centred
    expect(outputBox({ x: 960, y: 540, w: 100, h: 100 }, { width: 1920, height: 1080 }, { width: 1080, height: 1920 }, 'blur')).toEqual({
      x: 540,
      y: (1920 - 607.5) / 2 + 303.75,
      w: 56.25,
      h: 56.25,
    });
  });

  it('an export of `hookTitle: true` shows the claim, stored and read back, its card clear of the face and the captions', async () => {
    const db = app.runtime.app.db;
    const key = `projects/hook-${Date.now()}/source.mp4`;
    await app.runtime.app.storage.put(key, createReadStream(source), { contentType: 'video/mp4' });
    const project = await db.project.create({
      data: {
        userId: user.id,
        title: 'Hooked',
        language: 'en',
        templateName: 'classic',
        status: 'completed',
        transcriptionStatus: 'COMPLETED',
        transcript: words() as never,
        sourceKey: key,
        videoMeta: { width: W, height: H, duration: 9, fps: 25, rotation: 0, hasAudio: false, size: 1, formatName: 'mov,mp4' },
        hookTitle: { template: 'headline', top: 50, size: 30, autoTop: true },
      },
    });
    const r = await request(app, 'POST', `/v1/projects/${project.id}/export`, { key: user.key, json: { width: W, height: H, fps: 25 } });
    expect(r.status).toBe(200);
    const done = await waitProject(app, user.key, project.id, (p) => p.status === 'completed' && p.downloadUrl, 90_000);
    expect(done.hookTitle.text).toBe('Most people think saving money is hard');
    // the place found is stored and read back; the face box stays inside
    expect(done.hookTitle.top).not.toBe(50);
    expect(Object.keys(done.hookTitle).sort()).toEqual(['size', 'template', 'text', 'top']);

    const file = path.join(dir, 'export.mp4');
    await fs.writeFile(file, Buffer.from(await (await fetch(done.downloadUrl)).arrayBuffer()));
    const frame = await frameAt(file, 1.5);
    // kept for a person to look at (gitignored)
    await fs.mkdir('test-artifacts/frames', { recursive: true });
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-ss', '1.5', '-i', file, '-frames:v', '1', 'test-artifacts/frames/hook-placement.png']);
    const card = whiteBand(frame);
    expect(card, 'the headline card is drawn').not.toBeNull();
    const detector = await createFaceDetector();
    const [face] = await detector.detect(frame.rgb, frame.w, frame.h);
    await detector.close();
    expect(face).toBeDefined();
    // no row of the card crosses the face
    expect(card!.y1 < face.y || card!.y0 > face.y + face.h, JSON.stringify({ card, face })).toBe(true);
  });
});

/** rows where a wide run of near-white pixels is drawn (the headline template's white card): its first and last row */
function whiteBand(f: Frame): { y0: number; y1: number } | null {
  let y0 = -1;
  let y1 = -1;
  for (let y = 0; y < f.h; y++) {
    let run = 0;
    let best = 0;
    for (let x = 0; x < f.w; x++) {
      const i = (y * f.w + x) * 3;
      run = f.rgb[i] > 235 && f.rgb[i + 1] > 235 && f.rgb[i + 2] > 235 ? run + 1 : 0;
      best = Math.max(best, run);
    }
    if (best > f.w * 0.3) {
      if (y0 < 0) y0 = y;
      y1 = y;
    }
  }
  return y0 < 0 ? null : { y0, y1 };
}
