/**
 * POST /v1/projects/{id}/preview and GraphQL's previewFrame: one frame of a
 * real project (transcribed, captioned) as its export draws it, measured
 * against the exported video's frame at the same second; unsaved changes (a
 * template, a corrected word) change the frame and nothing stored; every
 * refused field at once in the spec's shape.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, gql, request, startTestApp, waitProject, type TestApp, type TestUser } from '../support/app.js';
import { frameAt, frameDiff, mediaFixtures, serveFolder, type FileServer, type Frame } from '../support/media.js';

let app: TestApp;
let files: FileServer;
let user: TestUser;
let other: TestUser;
let dir: string;
let projectId: string;
let exported: string;

const W = 540;
const H = 960;
/** inside the first sentence's captions */
const AT = 1.2;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'preview-'));
  const fx = await mediaFixtures();
  [app, files] = await Promise.all([startTestApp({ role: 'all' }), serveFolder(fx.dir)]);
  [user, other] = await Promise.all([createUser(app), createUser(app)]);
  const created = await request(app, 'POST', '/v1/projects', {
    key: user.key,
    json: { title: 'Preview', language: 'en', videoUrl: files.url('talk.mp4'), autoRender: false, templateName: 'classic' },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  projectId = created.body.id;
  await waitProject(app, user.key, projectId, (p) => p.status === 'completed', 120_000);
  const exp = await request(app, 'POST', `/v1/projects/${projectId}/export`, { key: user.key, json: { width: W, height: H, fps: 25 } });
  expect(exp.status, JSON.stringify(exp.body)).toBe(200);
  const done = await waitProject(app, user.key, projectId, (p) => p.status === 'completed' && p.downloadUrl, 120_000);
  exported = path.join(dir, 'export.mp4');
  await fs.writeFile(exported, Buffer.from(await (await fetch(done.downloadUrl)).arrayBuffer()));
}, 300_000);
afterAll(async () => {
  await files?.close();
  await app?.stop();
  await fs.rm(dir, { recursive: true, force: true });
});

/** the preview's PNG, read as a frame */
async function preview(body: Record<string, unknown>, key = user.key): Promise<Frame> {
  const r = await fetch(new URL(`/v1/projects/${projectId}/preview`, app.url), {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(r.status, r.status === 200 ? '' : await r.clone().text()).toBe(200);
  expect(r.headers.get('content-type')).toBe('image/png');
  const file = path.join(dir, `${crypto.randomUUID()}.png`);
  await fs.writeFile(file, Buffer.from(await r.arrayBuffer()));
  return frameAt(file, 0);
}

/** the lower half of the frame, where the captions are */
const captionBox = { x: 0, y: H / 2, w: W, h: H / 2 };

describe('POST /v1/projects/{id}/preview', () => {
  it('draws the frame the export draws at that second, captions included', async () => {
    const still = await preview({ time: AT, width: W, height: H });
    expect([still.w, still.h]).toEqual([W, H]);
    const frame = await frameAt(exported, AT);
    // the same picture: only the video codec's loss between them
    expect(frameDiff(still, frame)).toBeLessThan(4);
    expect(frameDiff(still, frame, captionBox)).toBeLessThan(6);
    // and not any frame: a second later the captions have moved on
    const later = await frameAt(exported, AT + 2.5);
    expect(frameDiff(still, later, captionBox)).toBeGreaterThan(frameDiff(still, frame, captionBox) + 1);
  });

  it('lays unsaved changes over the project (a template, a corrected word) and saves nothing', async () => {
    const before = await request(app, 'GET', `/v1/projects/${projectId}`, { key: user.key });
    const plain = await preview({ time: AT, width: W, height: H });
    const neon = await preview({ time: AT, width: W, height: H, templateName: 'neon' });
    expect(frameDiff(plain, neon, captionBox)).toBeGreaterThan(2);
    const words = before.body.words as Array<{ id: string; text: string; type: string; startTime: number; endTime: number }>;
    const first = words.find((w) => w.type === 'word')!;
    const corrected = await preview({
      time: first.startTime + 0.05,
      width: W,
      height: H,
      words: words.map((w) => (w === first ? { ...w, text: 'WONDERFUL' } : w)),
    });
    const uncorrected = await preview({ time: first.startTime + 0.05, width: W, height: H });
    expect(frameDiff(corrected, uncorrected, captionBox)).toBeGreaterThan(0.5);
    const after = await request(app, 'GET', `/v1/projects/${projectId}`, { key: user.key });
    expect(after.body.templateName).toBe('classic');
    expect(after.body.words.find((w: { id: string }) => w.id === first.id).text).toBe(first.text);
  });

  it('draws the source size when no size is given, and the last frame for a time past the end', async () => {
    const still = await preview({ time: 3600 });
    expect([still.w, still.h]).toEqual([320, 240]);
  });

  it('refuses every wrong field at once, an unknown project and a project not transcribed', async () => {
    const r = await request(app, 'POST', `/v1/projects/${projectId}/preview`, {
      key: user.key,
      json: { width: 50, templateName: 'nope', color: 'red' },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('VALIDATION_ERROR');
    expect(r.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['color', 'templateName', 'time', 'width']);
    expect((await request(app, 'POST', `/v1/projects/${projectId}/preview`, { key: other.key, json: { time: 1 } })).status).toBe(404);
    const waiting = await app.runtime.app.db.project.create({
      data: { userId: user.id, title: 'Soon', language: 'en', templateName: 'classic', status: 'processing' },
    });
    const early = await request(app, 'POST', `/v1/projects/${waiting.id}/preview`, { key: user.key, json: { time: 1 } });
    expect(early.status).toBe(400);
    expect(early.body).toMatchObject({ error: 'BAD_REQUEST', message: expect.stringContaining('no transcript yet') });
  });

  it('refuses a body that is not an object at once, however long', async () => {
    for (const json of ['é'.repeat(1_000_000), [1, 2, 3], 7]) {
      const r = await request(app, 'POST', `/v1/projects/${projectId}/preview`, { key: user.key, json });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('VALIDATION_ERROR');
      // read as an empty body besides: the second to draw is missing too
      expect(r.body.details.map((d: { field: string }) => d.field)).toEqual(['body', 'time']);
    }
  });
});

describe('previewFrame (GraphQL)', () => {
  it('answers the frame as a PNG data URL with its size and second', async () => {
    const r = await gql(
      app,
      user.key,
      'query($id: ID!, $input: UpdateProjectInput) { previewFrame(projectId: $id, time: 1.2, width: 540, height: 960, input: $input) { dataUrl width height time } }',
      { id: projectId, input: { style: { font: { size: 90 } } } },
    );
    expect(r.body.errors).toBeUndefined();
    const f = r.body.data.previewFrame;
    expect(f).toMatchObject({ width: 540, height: 960, time: 1.2 });
    expect(f.dataUrl.startsWith('data:image/png;base64,iVBOR')).toBe(true);
  });
});
