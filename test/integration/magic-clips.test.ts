// Magic clips end to end on a synthetic talk: the source fetched from a URL, transcribed, cut into scored
// clips on sentence boundaries, each rendered to a 1080x1920 file with its preview; the webhook, the
// subscription, magicClips[] and the clip credit; projects that fail give their credit back.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runClip } from '../../src/magic-clips/clips.js';
import { probe } from '../../src/media/ffprobe.js';
import { createUser, gql, request, startTestApp, waitProject, type TestApp, type TestUser } from '../support/app.js';
import { type FileServer, type Fixtures, H264_AAC, mediaFixtures, serveFolder } from '../support/media.js';
import { readSse, subscribeSse } from '../support/sse.js';
import { holdSecondPut } from '../support/overlap.js';
import { syntheticTalk, type Talk } from '../support/talk.js';
import { webhookInbox, type WebhookInbox } from '../support/webhooks.js';

const run = promisify(execFile);
let app: TestApp;
let files: FileServer;
let hooks: WebhookInbox;
let fx: Fixtures;
let talk: Talk;
let user: TestUser;
/** the talk's project, once made into clips */
let habits: string | undefined;

const db = () => app.runtime.app.db;
const clipCredits = async (id: string) => (await db().user.findUniqueOrThrow({ where: { id } })).clipCredits;
/** the project's webhook goes to the local inbox (creation takes HTTPS URLs only) */
const hookTo = (projectId: string) => db().project.update({ where: { id: projectId }, data: { webhookUrl: hooks.url } });

beforeAll(async () => {
  [fx, talk] = await Promise.all([mediaFixtures(), syntheticTalk()]);
  files = await serveFolder(path.dirname(talk.path));
  [app, hooks] = await Promise.all([startTestApp({ env: { VIDEO_PLATFORM_HOSTS: '127.0.0.1', RENDER_PRESET: 'ultrafast' } }), webhookInbox()]);
  user = await createUser(app, { clipCredits: 10, clipsSubscription: true });
}, 120_000);
afterAll(async () => {
  await Promise.all([files?.close(), hooks?.close()]);
  await app?.stop();
});

/** A file behind a signed URL of the service, saved to disk for ffprobe. */
async function saved(url: string, name: string): Promise<string> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  const file = path.join(path.dirname(talk.path), name);
  await fs.writeFile(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

describe('a talk from a URL', () => {
  it('becomes scored clips of whole sentences, rendered 1080x1920 with previews, told by webhook and subscription', async () => {
    const created = await request(app, 'POST', '/v1/projects/magic-clips', {
      key: user.key,
      json: {
        title: 'Habits talk',
        language: 'en',
        videoshareUrl: files.url('talk.mp4'),
        minClipLength: 15,
        maxClipLength: 30,
        faceTracking: false,
        clipCount: 2,
      },
    });
    expect(created.status).toBe(202);
    const id = created.body.id;
    habits = id;
    await hookTo(id);
    const controller = new AbortController();
    const res = await subscribeSse(
      app.url,
      user.key,
      'subscription($id: ID!) { projectUpdates(projectId: $id) { status stage clipsDone clipsTotal } }',
      { id },
      controller.signal,
    );
    const events = readSse(
      res,
      (d) => d.projectUpdates,
      (e: any) => e.status === 'completed' || e.status === 'failed',
    );

    const p = await waitProject(app, user.key, id, (x) => x.status !== 'processing', 240_000);
    expect(p.failureReason).toBeUndefined();
    expect(p.status).toBe('completed');
    // as many as asked: the talk has room for two
    expect(p.magicClips).toHaveLength(2);

    const clips = [...p.magicClips].sort((a: any, b: any) => a.startTime - b.startTime);
    for (const [i, c] of clips.entries()) {
      expect(c).toMatchObject({ status: 'completed', id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      expect(c.title.length).toBeGreaterThanOrEqual(1);
      expect(c.title.length).toBeLessThanOrEqual(100);
      // lengths inside the range (a clip may breathe 0.35 s beyond its words)
      expect(c.duration).toBeGreaterThanOrEqual(15 - 0.05);
      expect(c.duration).toBeLessThanOrEqual(30 + 0.4);
      expect(c.endTime - c.startTime).toBeCloseTo(c.duration, 2);
      // never inside a sentence: each end falls in a pause of the talk (0.25 s of slack for the engine's timings)
      const inside = (t: number) => talk.sentences.find((s) => t > s.start + 0.25 && t < s.end - 0.25);
      expect(inside(c.startTime), `clip ${i} starts inside a sentence`).toBeUndefined();
      expect(inside(c.endTime), `clip ${i} ends inside a sentence`).toBeUndefined();
      if (i > 0) expect(c.startTime).toBeGreaterThanOrEqual(clips[i - 1].endTime);
      // why it scored so, in two to four sentences of its own; its words; its place in the ranking
      expect(c.viralityReasons.length).toBeGreaterThanOrEqual(2);
      expect(c.viralityReasons.length).toBeLessThanOrEqual(4);
      expect(c.transcript.split(' ').length).toBeGreaterThan(10);
      expect(c.rank).toBe(1 + clips.filter((o: any) => o.viralityScores.total > c.viralityScores.total).length);
      for (const k of ['total', 'shareability', 'hook_strength', 'story_quality', 'emotional_impact']) {
        expect(Number.isInteger(c.viralityScores[k]), k).toBe(true);
        expect(c.viralityScores[k]).toBeGreaterThanOrEqual(0);
        expect(c.viralityScores[k]).toBeLessThanOrEqual(100);
      }
      const video = await probe(await saved(c.downloadUrl, `clip-${i}.mp4`));
      expect(video.video).toMatchObject({ width: 1080, height: 1920 });
      expect(video.video!.fps).toBeCloseTo(25, 0);
      expect(Math.abs(video.duration! - c.duration)).toBeLessThan(0.12);
      expect(video.audio).not.toBeNull();
      const preview = await probe(await saved(c.previewUrl, `preview-${i}.mp4`));
      expect(preview.video).toMatchObject({ width: 360, height: 640 });
      expect((await fetch(c.directUrl)).status).toBe(200);
    }

    const hook = await hooks.next((h) => h.projectId === id);
    expect(hook.payload).toMatchObject({
      event: 'magic_clips.completed',
      projectId: id,
      status: 'completed',
      title: 'Habits talk',
      completedAt: expect.any(String),
    });
    expect(hook.payload.duration).toBeCloseTo(talk.duration, 0);
    expect(hook.payload.magicClips.map((c: any) => c.id).sort()).toEqual(clips.map((c: any) => c.id).sort());
    expect(hook.payload.magicClips[0]).toEqual({
      id: expect.any(String),
      title: expect.any(String),
      duration: expect.any(Number),
      viralityScores: expect.objectContaining({ total: expect.any(Number) }),
      projectId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      viralityReasons: expect.arrayContaining([expect.any(String), expect.any(String)]),
      rank: expect.any(Number),
      startTime: expect.any(Number),
      endTime: expect.any(Number),
      hookTitle: null,
      status: 'completed',
      previewUrl: expect.stringMatching(/^http/),
      downloadUrl: expect.stringMatching(/^http/),
      directUrl: expect.stringMatching(/^http/),
    });
    expect(hooks.received.filter((h) => h.payload.projectId === id)).toHaveLength(1);

    const seen = await events;
    expect(seen.some((e: any) => e.stage === 'transcribe')).toBe(true);
    expect(seen.some((e: any) => e.stage === 'clips' && e.clipsTotal === clips.length)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ status: 'completed', clipsDone: clips.length, clipsTotal: clips.length });
    controller.abort();

    // the credit stays spent
    expect(await clipCredits(user.id)).toBe(9);
    const net = await db().creditLedger.aggregate({ where: { subjectId: id, kind: 'clip' }, _sum: { delta: true } });
    expect(net._sum.delta).toBe(-1);
  }, 300_000);
});

/** RGB24 of the frame of `file` at `t` s, scaled to w x h. */
async function rgbAt(file: string, t: number, w: number, h: number): Promise<Buffer> {
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-ss', String(t), '-i', file, '-frames:v', '1', '-vf', `scale=${w}:${h}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    {
      encoding: 'buffer',
      maxBuffer: 1 << 26,
    },
  );
  return stdout;
}
const meanDiff = (a: Buffer, b: Buffer) => a.reduce((s, v, i) => s + Math.abs(v - b[i]), 0) / a.length;

describe('every clip an edit project', () => {
  it('GET, a still, PUT, captions and an export of another shape work on a clip’s project; the parent and the other clip stay as they were', async () => {
    expect(habits, 'made by the test above').toBeDefined();
    const parent = (await request(app, 'GET', `/v1/projects/${habits}`, { key: user.key })).body;
    const [c0, c1] = [...parent.magicClips].sort((a: any, b: any) => a.startTime - b.startTime);
    const parentWords = (await db().project.findUniqueOrThrow({ where: { id: habits } })).transcript;

    // the clip's project: transcribed, its words on the clip's timeline, its first export the clip itself
    const got = await request(app, 'GET', `/v1/projects/${c0.projectId}`, { key: user.key });
    expect(got.status).toBe(200);
    const p = got.body;
    expect(p).toMatchObject({ title: c0.title, status: 'completed', transcriptionStatus: 'COMPLETED', language: 'en' });
    expect(p.videoMetaData.duration).toBeCloseTo(c0.duration, 2);
    const spoken = p.words.filter((w: any) => w.type !== 'silence');
    expect(spoken.every((w: any) => w.startTime >= 0 && w.endTime <= c0.duration + 1e-6)).toBe(true);
    expect(spoken.map((w: any) => w.text).join(' ')).toBe(c0.transcript);
    expect(new URL(p.downloadUrl).pathname).toBe(new URL(c0.downloadUrl).pathname);
    const listed = await gql(app, user.key, 'query($id: ID!) { project(id: $id) { exports { status width height } } }', { id: c0.projectId });
    expect(listed.body.data.project.exports).toEqual([{ status: 'completed', width: 1080, height: 1920 }]);

    // a still of its window: the clip's own frame at that second
    const clipFile = await saved(c0.downloadUrl, 'clip0.mp4');
    const still = await fetch(new URL(`/v1/projects/${c0.projectId}/preview`, app.url), {
      method: 'POST',
      headers: { 'x-api-key': user.key, 'content-type': 'application/json' },
      body: JSON.stringify({ time: 4, width: 540, height: 960 }),
    });
    expect(still.status).toBe(200);
    const stillFile = path.join(path.dirname(talk.path), 'still.png');
    await fs.writeFile(stillFile, Buffer.from(await still.arrayBuffer()));
    const [a, b] = await Promise.all([rgbAt(stillFile, 0, 270, 480), rgbAt(clipFile, 4, 270, 480)]);
    // the picture's band (the blurred fill around it is drawn from a smaller copy in a still)
    const band = (rgb: Buffer) => rgb.subarray(170 * 270 * 3, 310 * 270 * 3);
    expect(meanDiff(band(a), band(b))).toBeLessThan(4);
    // and not the same second of the whole source: the window starts at the clip's start
    const unshifted = await rgbAt(clipFile, 0, 270, 480);
    expect(meanDiff(band(a), band(unshifted))).toBeGreaterThan(meanDiff(band(a), band(b)) + 2);

    // its words edited: the captions and a new export of another shape say so
    const first = spoken[0];
    const words = p.words.map((w: any) => ({ id: w.id, text: w.id === first.id ? 'Zebra' : w.text, type: w.type, startTime: w.startTime, endTime: w.endTime }));
    const put = await request(app, 'PUT', `/v1/projects/${c0.projectId}`, { key: user.key, json: { words } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const vtt = await fetch(new URL(`/v1/projects/${c0.projectId}/captions?format=vtt`, app.url), { headers: { 'x-api-key': user.key } });
    expect(await vtt.text()).toContain('Zebra');
    const exp = await request(app, 'POST', `/v1/projects/${c0.projectId}/export`, { key: user.key, json: { width: 1080, height: 1080, fps: 25 } });
    expect(exp.status, JSON.stringify(exp.body)).toBe(200);
    const done = await waitProject(app, user.key, c0.projectId, (x) => x.status === 'completed', 120_000);
    const square = await probe(await saved(done.downloadUrl, 'clip0-square.mp4'));
    expect(square.video).toMatchObject({ width: 1080, height: 1080 });
    expect(Math.abs(square.duration! - c0.duration)).toBeLessThan(0.15);

    // the parent and the other clip are as they were
    expect((await db().project.findUniqueOrThrow({ where: { id: habits } })).transcript).toEqual(parentWords);
    const again = (await request(app, 'GET', `/v1/projects/${habits}`, { key: user.key })).body;
    expect(again.magicClips.find((c: any) => c.id === c0.id).transcript).toBe(c0.transcript);
    const other = (await request(app, 'GET', `/v1/projects/${c1.projectId}`, { key: user.key })).body;
    expect(other.words.map((w: any) => w.text)).not.toContain('Zebra');

    // deleting a clip's project leaves the clip, its file and the parent
    expect((await request(app, 'DELETE', `/v1/projects/${c1.projectId}`, { key: user.key })).status).toBe(200);
    const after = (await request(app, 'GET', `/v1/projects/${habits}`, { key: user.key })).body;
    expect(after.status).toBe('completed');
    expect(after.magicClips.find((c: any) => c.id === c1.id)).toMatchObject({ projectId: null, status: 'completed' });
    expect((await fetch(c1.directUrl)).status).toBe(200);
  }, 300_000);
});

describe('a creator’s controls', () => {
  it('range, clipCount and topic: only that part heard, clips inside it, as many as asked, the topic’s first', async () => {
    // sentences 3 to 13 of the talk: its middle, about 40 s
    const from = talk.sentences[3].start - 0.4;
    const to = talk.sentences[13].end + 0.4;
    const created = await request(app, 'POST', '/v1/projects/magic-clips', {
      key: user.key,
      json: {
        title: 'Middle of the talk',
        language: 'en',
        videoshareUrl: files.url('talk.mp4'),
        minClipLength: 15,
        maxClipLength: 20,
        faceTracking: false,
        clipCount: 2,
        topic: 'breakfast',
        range: { startTime: from, endTime: to },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const id = created.body.id;
    const p = await waitProject(app, user.key, id, (x) => x.status !== 'processing', 240_000);
    expect(p.status, p.failureReason).toBe('completed');
    expect(p).toMatchObject({ clipCount: 2, topic: 'breakfast', range: { startTime: from, endTime: to } });
    expect(p.clipsNote).toBeUndefined();

    // only the range was heard: no word of the stored transcript lies outside it, though the talk speaks before and after
    const stored = await db().project.findUniqueOrThrow({ where: { id } });
    const words = (stored.transcript as Array<{ type: string; startTime: number; endTime: number }>).filter((w) => w.type === 'word');
    expect(words.length).toBeGreaterThan(20);
    expect(Math.min(...words.map((w) => w.startTime))).toBeGreaterThanOrEqual(from);
    expect(Math.max(...words.map((w) => w.endTime))).toBeLessThanOrEqual(to);

    expect(p.magicClips).toHaveLength(2);
    for (const c of p.magicClips) {
      expect(c.startTime).toBeGreaterThanOrEqual(from);
      expect(c.endTime).toBeLessThanOrEqual(to);
      expect(c.status).toBe('completed');
    }
    // "Write down one tiny action and do it right after breakfast": the clip that holds it ranks first, and says why
    const first = p.magicClips.find((c: any) => c.rank === 1);
    expect(first.transcript.toLowerCase()).toContain('breakfast');
    expect(first.viralityReasons[0]).toMatch(/^About “breakfast”: says “breakfast”/);

    // GraphQL reads the same
    const g = await gql(
      app,
      user.key,
      'query($id: ID!) { project(id: $id) { clipCount topic range { startTime endTime } magicClips { id rank topicMatch viralityReasons transcript } } }',
      { id },
    );
    expect(g.body.errors).toBeUndefined();
    const byId = new Map(g.body.data.project.magicClips.map((c: any) => [c.id, c]));
    for (const c of p.magicClips) expect(byId.get(c.id)).toMatchObject({ rank: c.rank, viralityReasons: c.viralityReasons, transcript: c.transcript });
    expect((byId.get(first.id) as any).topicMatch).toBeGreaterThan(0.3);
  }, 300_000);

  it('a range past the end of the video fails the project with the reason; the credit stays spent, the range being the caller’s', async () => {
    const before = await clipCredits(user.id);
    const created = await request(app, 'POST', '/v1/projects/magic-clips', {
      key: user.key,
      json: { title: 'Past the end', language: 'en', videoshareUrl: files.url('talk.mp4'), faceTracking: false, range: { startTime: 4000, endTime: 4100 } },
    });
    expect(created.status).toBe(202);
    const p = await waitProject(app, user.key, created.body.id, (x) => x.status !== 'processing', 120_000);
    expect(p.status).toBe('failed');
    expect(p.failureReason).toMatch(/^range starts at 4000 s, but the video lasts \d+\.\d s$/);
    expect(await clipCredits(user.id)).toBe(before - 1);
  }, 120_000);
});

describe('two runs of one clip that overlap (a lock that lapsed on a busy machine)', () => {
  it("the first outcome stands: the other run, failing after it, removes none of the clip's files", async () => {
    expect(habits, 'made by the test above').toBeDefined();
    const core = app.runtime.app;
    const [clip] = await db().magicClip.findMany({ where: { projectId: habits }, orderBy: { startTime: 'asc' }, take: 1 });
    // the clip again to render (3 s of it), its project processing: as a run finds it before the first run ends
    await db().project.update({ where: { id: habits }, data: { status: 'processing' } });
    await db().magicClip.update({ where: { id: clip.id }, data: { status: 'processing', endTime: clip.startTime + 3 } });
    const ctx = { log: core.log, touch: async () => {}, attempt: 3, maxAttempts: 3 };

    // the second run to store the clip is held until the first has ended it, then fails
    const { release, restore } = holdSecondPut(core.storage, clip.outputKey!);
    try {
      const runs = [runClip(core, clip.id, ctx), runClip(core, clip.id, ctx)];
      await Promise.race(runs);
      expect(await db().magicClip.findUniqueOrThrow({ where: { id: clip.id } })).toMatchObject({ status: 'completed', outputKey: clip.outputKey });
      release();
      await Promise.all(runs);
    } finally {
      restore();
    }
    expect(await db().magicClip.findUniqueOrThrow({ where: { id: clip.id } })).toMatchObject({
      status: 'completed',
      failureReason: null,
      outputKey: clip.outputKey,
      previewKey: clip.previewKey,
    });
    expect(await db().project.findUniqueOrThrow({ where: { id: habits } })).toMatchObject({ status: 'completed' });
    const video = await probe(core.storage.localPath(clip.outputKey!)!);
    expect(video.video).toMatchObject({ width: 1080, height: 1920 });
    expect(video.duration).toBeCloseTo(3, 0);
    expect(await core.storage.stat(clip.previewKey!)).not.toBeNull();
  }, 120_000);
});

describe('projects that cannot be made into clips', () => {
  const upload = async (file: string, fields: Record<string, string>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.append(k, v);
    f.append('file', new Blob([new Uint8Array(await fs.readFile(file))], { type: 'video/mp4' }), path.basename(file));
    const r = await request(app, 'POST', '/v1/projects/magic-clips/upload', { key: user.key, body: f });
    expect(r.status).toBe(202);
    await hookTo(r.body.id);
    return r.body.id as string;
  };

  it('speech shorter than minClipLength, or no speech at all: failed with the reason, the credit back, the failed webhook', async () => {
    const before = await clipCredits(user.id);
    const short = await upload(fx.talk, { title: 'Short', language: 'en', minClipLength: '15' });
    // a test pattern over silence: a sound track without a word
    const quiet = path.join(path.dirname(talk.path), 'quiet.mp4');
    await run('ffmpeg', [
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=320x240:r=25:d=20',
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=44100:cl=stereo',
      '-t',
      '20',
      ...H264_AAC,
      quiet,
    ]);
    const silent = await upload(quiet, { title: 'Quiet', language: 'en' });
    const [a, b] = await Promise.all([
      waitProject(app, user.key, short, (x) => x.status !== 'processing', 120_000),
      waitProject(app, user.key, silent, (x) => x.status !== 'processing', 120_000),
    ]);
    expect(a).toMatchObject({ status: 'failed', failureReason: expect.stringMatching(/shorter than minClipLength \(15 s\)/), magicClips: [] });
    expect(b).toMatchObject({ status: 'failed', failureReason: expect.stringMatching(/no speech/), magicClips: [] });
    for (const id of [short, silent]) {
      const hook = await hooks.next((h) => h.projectId === id);
      expect(hook.payload).toMatchObject({ event: 'magic_clips.failed', status: 'failed', magicClips: [], failureReason: expect.any(String) });
    }
    expect(await clipCredits(user.id)).toBe(before);
  }, 180_000);
});

describe('deleting a magic-clips project', () => {
  it('takes the edit projects of its clips with it: they are windows of its source', async () => {
    expect(habits, 'made by the test above').toBeDefined();
    const clips = await db().magicClip.findMany({ where: { projectId: habits, editProjectId: { not: null } } });
    expect(clips.length).toBeGreaterThan(0);
    expect((await request(app, 'DELETE', `/v1/projects/${habits}`, { key: user.key })).status).toBe(200);
    for (const c of clips) expect((await request(app, 'GET', `/v1/projects/${c.editProjectId}`, { key: user.key })).status).toBe(404);
    expect(await db().project.count({ where: { id: { in: clips.map((c) => c.editProjectId!) } } })).toBe(0);
  });
});
