import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatCompletionsTakeDetector, createAiProviders, VideosApiBroll, type BrollGenerator } from '../../src/ai/providers.js';
import { loadConfig } from '../../src/config.js';
import {
  AUTO_BROLL_HOOK_SECONDS,
  autoBrollKey,
  autoBrollOverlays,
  eligibleWindows,
  matchLibrary,
  pickWindows,
  windowPrompt,
} from '../../src/exports/auto-broll.js';
import { probe } from '../../src/media/ffprobe.js';
import type { RenderOverlay } from '../../src/media/render/graph.js';
import { badTakeCuts, keepSegments, repeatedPhraseDetector } from '../../src/media/render/timeline.js';
import type { Segment, TimedWord } from '../../src/media/transcript.js';
import { AppError } from '../../src/errors.js';
import type { VideoMeta } from '../../src/projects/service.js';
import { createLocalStorage } from '../../src/storage/local.js';
import { H264 } from '../support/media.js';

const run = promisify(execFile);

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'auto-broll-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** A transcript of `n` sentences of 4 words, each `len` seconds, `gap` seconds apart, ending with a full stop. */
function transcript(n: number, { len = 3, gap = 0.3, say = (i: number) => [`word${i}a`, `word${i}b`, `word${i}c`, `word${i}d`] } = {}): TimedWord[] {
  const words: TimedWord[] = [];
  let t = 0;
  for (let i = 0; i < n; i++) {
    const texts = say(i);
    const step = len / texts.length;
    texts.forEach((text, k) => words.push({ text, type: 'word', startTime: t + k * step, endTime: t + (k + 1) * step - 0.02 }));
    words.push({ text: '.', type: 'punctuation', startTime: t + len, endTime: t + len });
    if (i < n - 1) words.push({ text: '', type: 'silence', startTime: t + len, endTime: t + len + gap });
    t += len + gap;
  }
  return words;
}
const durationOf = (words: TimedWord[]) => Math.max(...words.map((w) => w.endTime)) + 0.5;
const overlaps = (a: Segment, b: Segment) => a.start < b.end && b.start < a.end;

describe('automatic B-roll windows', () => {
  const words = transcript(12);
  const keep = keepSegments(durationOf(words), [], 30);

  it('eligible windows are 2-4 s, after the hook, spaced, sentence-aligned', () => {
    const all = eligibleWindows(words, keep);
    expect(all.length).toBeGreaterThan(3);
    for (const [i, w] of all.entries()) {
      expect(w.start).toBeGreaterThanOrEqual(AUTO_BROLL_HOOK_SECONDS);
      expect(w.end - w.start).toBeGreaterThanOrEqual(2 - 1e-9);
      expect(w.end - w.start).toBeLessThanOrEqual(4 + 1e-9);
      if (i) expect(w.start - all[i - 1].end).toBeGreaterThanOrEqual(1 - 1e-9);
      expect(w.words.length).toBeGreaterThan(0);
    }
  });

  it('percentage 0 gives none, 100 every eligible window, 50 about half spread over the video', () => {
    const all = eligibleWindows(words, keep);
    expect(pickWindows(all, 0)).toEqual([]);
    expect(pickWindows(all, 100)).toEqual(all);
    const half = pickWindows(all, 50);
    expect(half.length).toBe(Math.round(all.length / 2));
    expect(new Set(half).size).toBe(half.length);
    expect(half[0]).not.toBe(half[half.length - 1]);
    expect(pickWindows(all, 1)).toHaveLength(1);
    expect(pickWindows([], 100)).toEqual([]);
  });

  it('never overlaps explicit items and keeps a gap to them', () => {
    const busy = [
      { start: 5, end: 9 },
      { start: 20, end: 22 },
    ];
    const all = eligibleWindows(words, keep, busy);
    expect(all.length).toBeGreaterThan(0);
    for (const w of all) for (const b of busy) expect(overlaps(w, { start: b.start - 1 + 1e-6, end: b.end + 1 - 1e-6 })).toBe(false);
  });

  it('works on the output timeline: windows follow the cuts', () => {
    // the second sentence is cut out entirely
    const cut = keepSegments(durationOf(words), [{ start: 3.3, end: 6.6 }], 30);
    const all = eligibleWindows(words, cut);
    const total = cut.reduce((s, k) => s + k.end - k.start, 0);
    for (const w of all) expect(w.end).toBeLessThanOrEqual(total + 1e-6);
    expect(all.some((w) => w.words.includes('word1a'))).toBe(false);
  });

  it('joins short sentences to reach 2 s and caps long ones at 4 s', () => {
    const short = transcript(10, { len: 0.9, gap: 0.1 });
    const ws = eligibleWindows(short, keepSegments(durationOf(short), [], 30));
    expect(ws.length).toBeGreaterThan(0);
    for (const w of ws) expect(w.words.length).toBeGreaterThan(4);
    const long = transcript(3, { len: 9 });
    for (const w of eligibleWindows(long, keepSegments(durationOf(long), [], 30))) expect(w.end - w.start).toBeCloseTo(4, 6);
  });
});

describe('automatic B-roll filling', () => {
  const say = (i: number) =>
    i === 4 ? ['the', 'ocean', 'waves', 'crash'] : i === 6 ? ['my', 'coffee', 'morning', 'routine'] : ['some', 'other', 'thing', `number${i}`];
  const words = transcript(10, { say });
  const keep = keepSegments(durationOf(words), [], 30);

  function fakeApp(library: Array<{ id: string; type: 'VIDEO' | 'IMAGE'; fileName: string; storageKey: string }>, broll?: BrollGenerator) {
    const storage = createLocalStorage({ root: path.join(dir, `media-${Math.random().toString(36).slice(2)}`), publicUrl: 'http://127.0.0.1', secret: 's' });
    const warnings: unknown[] = [];
    const app = {
      config: { dataDir: dir },
      storage,
      log: { warn: (o: unknown) => warnings.push(o) },
      db: { userMedia: { findMany: async () => library } },
      ai: { broll: broll ?? createAiProviders(loadConfig({ DATA_DIR: dir })).broll },
    };
    // the picks are what is checked: a library key stands for its file whether or not the file exists
    const read = async (key: string) => storage.localPath(key)!;
    const files = { video: read, image: read };
    return { app: app as never, storage, warnings, files };
  }
  const project = (percent: number) => ({
    id: '11111111-1111-4111-8111-111111111111',
    userId: 'u',
    magicBrollsPercentage: percent,
    // what the pipeline stores of a probed source (Project.videoMeta's codec reads it whole)
    videoMeta: {
      width: 320,
      height: 240,
      duration: 12,
      fps: 25,
      rotation: 0,
      hasAudio: true,
      size: 1_000_000,
      formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
    } satisfies VideoMeta,
  });

  it('matches library files to the spoken words by file name, round-robin otherwise', async () => {
    const library = [
      { id: 'a', type: 'VIDEO' as const, fileName: 'Ocean-Waves_4k.mp4', storageKey: 'user-media/u/a.mp4' },
      { id: 'b', type: 'IMAGE' as const, fileName: 'coffee cup.jpg', storageKey: 'user-media/u/b.jpg' },
      { id: 'c', type: 'VIDEO' as const, fileName: 'city.mov', storageKey: 'user-media/u/c.mov' },
    ];
    const { app, storage, files } = fakeApp(library);
    const out = await autoBrollOverlays(app, project(100), words, keep, [], files);
    expect(out.length).toBeGreaterThan(3);
    expect(out.every((o) => o.layout === 'cover')).toBe(true);
    const at = (word: string) => {
      const w = words.find((x) => x.text === word)!;
      return out.find((o) => o.start <= w.startTime + 1e-6 && o.end >= w.startTime);
    };
    expect(at('ocean')).toMatchObject({ path: storage.localPath('user-media/u/a.mp4'), kind: 'VIDEO' });
    expect(at('coffee')).toMatchObject({ path: storage.localPath('user-media/u/b.jpg'), kind: 'IMAGE' });
    // the windows without a match take the library in turn
    const others = out.filter((o) => o !== at('ocean') && o !== at('coffee'));
    expect(new Set(others.map((o) => o.path)).size).toBeGreaterThan(1);
    // percentage 0: nothing, and the library is not even read
    expect(await autoBrollOverlays(app, project(0), words, keep, [], files)).toEqual([]);
  });

  it('matchLibrary prefers an entry not used yet among equal matches', () => {
    const lib = [
      { id: 'x', fileName: 'dog park.mp4' },
      { id: 'y', fileName: 'dog.mp4' },
    ];
    const ws = [
      { start: 2, end: 4, words: ['my', 'dog'] },
      { start: 6, end: 8, words: ['the', 'dog'] },
    ];
    expect(matchLibrary(ws, lib).map((m) => m.id)).toEqual(['x', 'y']);
  });

  it('never covers explicit item overlays nor the hook', async () => {
    const { app, files } = fakeApp([{ id: 'a', type: 'VIDEO', fileName: 'x.mp4', storageKey: 'user-media/u/x.mp4' }]);
    const items: RenderOverlay[] = [{ path: '/i.mp4', kind: 'VIDEO', start: 6, end: 12, layout: 'split-50-50' }];
    const out = await autoBrollOverlays(app, project(100), words, keep, items, files);
    expect(out.length).toBeGreaterThan(0);
    for (const o of out) {
      expect(overlaps(o, items[0])).toBe(false);
      expect(o.start).toBeGreaterThanOrEqual(AUTO_BROLL_HOOK_SECONDS);
    }
  });

  it('without a library, generates clips from the key words and caches them in storage', async () => {
    const prompts: string[] = [];
    const generator: BrollGenerator = {
      async generate(prompt, opts) {
        prompts.push(prompt);
        expect(opts.durationSeconds).toBeGreaterThanOrEqual(2);
        expect(opts.durationSeconds).toBeLessThanOrEqual(4);
        const file = path.join(dir, `gen-${prompts.length}.mp4`);
        await fs.writeFile(file, `clip for ${prompt}`);
        return file;
      },
    };
    const { app, storage, files } = fakeApp([], generator);
    const p = project(50);
    const first = await autoBrollOverlays(app, p, words, keep, [], files);
    expect(first.length).toBeGreaterThan(0);
    expect(prompts).toHaveLength(first.length);
    expect(prompts.every((x) => x && !/\b(the|my|some)\b/.test(x))).toBe(true);
    first.forEach((o, n) => expect(o).toMatchObject({ path: storage.localPath(autoBrollKey(p.id, n)), kind: 'VIDEO', layout: 'cover' }));
    expect(await fs.readFile(first[0].path, 'utf8')).toMatch(/^clip for /);
    // the generator's temporary files are gone
    expect((await fs.readdir(dir)).filter((f) => f.startsWith('gen-'))).toEqual([]);

    // a re-export makes no new clip
    const again = await autoBrollOverlays(app, p, words, keep, [], files);
    expect(again).toEqual(first);
    expect(prompts).toHaveLength(first.length);

    // a changed window (other words) is made again, the others are kept
    const changed = words.map((w) => (w.text === 'ocean' ? { ...w, text: 'mountain' } : w));
    await autoBrollOverlays(app, p, changed, keep, [], files);
    expect(prompts.length - first.length).toBeLessThanOrEqual(1);
  });

  it('a generator failure leaves the window without B-roll instead of failing the export', async () => {
    const { app, warnings, files } = fakeApp([], { generate: async () => Promise.reject(new Error('no service')) });
    expect(await autoBrollOverlays(app, { ...project(100), id: '22222222-2222-4222-8222-222222222222' }, words, keep, [], files)).toEqual([]);
    expect(warnings.length).toBeGreaterThan(0);
  });

  it('a library file that cannot be read leaves its window without B-roll; the others keep theirs', async () => {
    const library = [
      { id: 'a', type: 'VIDEO' as const, fileName: 'Ocean-Waves_4k.mp4', storageKey: 'user-media/u/a.mp4' },
      { id: 'b', type: 'IMAGE' as const, fileName: 'coffee cup.jpg', storageKey: 'user-media/u/b.jpg' },
    ];
    const { app, storage, warnings, files } = fakeApp(library);
    const all = await autoBrollOverlays(app, project(100), words, keep, [], files);
    const lost = (key: string) => (k: string) => (k === key ? Promise.reject(new AppError('NOT_FOUND', 'File not found')) : files.video(k));
    const gone = (key: string) => ({ video: lost(key), image: lost(key) });
    const out = await autoBrollOverlays(app, project(100), words, keep, [], gone('user-media/u/a.mp4'));
    expect(out).toEqual(all.filter((o) => o.path !== storage.localPath('user-media/u/a.mp4')));
    expect(out.length).toBeGreaterThan(0);
    expect(out.length).toBeLessThan(all.length);
    expect(warnings.length).toBeGreaterThan(0);
  });

  it('the prompt is the key words of the window', () => {
    expect(windowPrompt({ start: 0, end: 2, words: ['So', 'the', 'Ocean', 'waves', 'crash', 'ocean'] })).toBe('ocean waves crash');
    expect(windowPrompt({ start: 0, end: 2, words: ['so', 'the'] })).toBe('so the');
  });
});

/** A local server; `handle` answers each request given its parsed JSON body. */
async function fakeServer(handle: (req: http.IncomingMessage, body: any, res: http.ServerResponse) => void) {
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => handle(req, raw ? JSON.parse(raw) : null, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

describe('ChatCompletionsTakeDetector', () => {
  const words: TimedWord[] = [
    { text: 'Hello', type: 'word', startTime: 0, endTime: 0.4 },
    { text: 'every', type: 'word', startTime: 0.5, endTime: 0.8 },
    { text: '', type: 'silence', startTime: 0.8, endTime: 1.2 },
    { text: 'Hello', type: 'word', startTime: 1.2, endTime: 1.6 },
    { text: 'everyone', type: 'word', startTime: 1.7, endTime: 2.2 },
    { text: 'welcome', type: 'word', startTime: 2.3, endTime: 2.8 },
    { text: 'back', type: 'word', startTime: 2.9, endTime: 3.2 },
    { text: 'welcome', type: 'word', startTime: 3.5, endTime: 3.9 },
    { text: 'back', type: 'word', startTime: 4.0, endTime: 4.3 },
    { text: 'to', type: 'word', startTime: 4.4, endTime: 4.5 },
  ];
  let answer: string;
  let status = 200;
  const seen: any[] = [];
  let server: Awaited<ReturnType<typeof fakeServer>>;
  beforeAll(async () => {
    server = await fakeServer((req, body, res) => {
      seen.push({ url: req.url, auth: req.headers.authorization, body });
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { content: answer } }] }));
    });
  });
  afterAll(() => server.close());

  it('sends the numbered words and turns the JSON ranges into cuts', async () => {
    answer = '```json\n{"remove":[{"start":0,"end":1,"reason":"false start"},{"start":4,"end":5}]}\n```';
    const d = new ChatCompletionsTakeDetector({ baseUrl: `${server.url}/v1`, apiKey: 'k', model: 'm' });
    const cuts = await d.detect(words);
    expect(seen[0]).toMatchObject({ url: '/v1/chat/completions', auth: 'Bearer k', body: { model: 'm', response_format: { type: 'json_object' } } });
    expect(seen[0].body.messages[1].content).toBe('0:Hello 1:every 2:Hello 3:everyone 4:welcome 5:back 6:welcome 7:back 8:to');
    expect(cuts).toEqual([
      { removeStart: 0, removeEnd: 1.2, reason: 'false start' },
      { removeStart: 2.3, removeEnd: 3.5, reason: 'bad take' },
    ]);
    expect(await badTakeCuts(words, d)).toEqual([
      { start: 0, end: 1.2 },
      { start: 2.3, end: 3.5 },
    ]);
  });

  it('an empty list is a valid answer: nothing is cut', async () => {
    answer = '{"remove":[]}';
    expect(await new ChatCompletionsTakeDetector({ baseUrl: server.url, apiKey: 'k', model: 'm' }).detect(words)).toEqual([]);
  });

  it.each([
    ['not json at all', 200],
    ['{"remove":[{"start":3,"end":99}]}', 200],
    ['{"remove":[{"start":"a","end":1}]}', 200],
    ['{"cuts":[]}', 200],
    ['{}', 500],
  ])('%s (HTTP %d) falls back to the offline detector', async (text, code) => {
    answer = text;
    status = code;
    try {
      const d = new ChatCompletionsTakeDetector({ baseUrl: server.url, apiKey: 'k', model: 'm' });
      expect(await d.detect(words)).toEqual(await repeatedPhraseDetector().detect(words));
    } finally {
      status = 200;
    }
  });

  it('an unreachable server falls back too', async () => {
    const d = new ChatCompletionsTakeDetector({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k', model: 'm' });
    expect(await d.detect(words)).toEqual(await repeatedPhraseDetector().detect(words));
  });

  it('long transcripts go in chunks with their own indexes', async () => {
    seen.length = 0;
    answer = '{"remove":[]}';
    const many: TimedWord[] = Array.from({ length: 120 }, (_, i) => ({ text: `w${i}`, type: 'word', startTime: i, endTime: i + 0.5 }));
    await new ChatCompletionsTakeDetector({ baseUrl: server.url, apiKey: 'k', model: 'm', chunkWords: 50 }).detect(many);
    expect(seen.map((s) => s.body.messages[1].content.split(' ')[0])).toEqual(['0:w0', '50:w50', '100:w100']);
  });

  it('is chosen by BAD_TAKES_PROVIDER=openai with a key', async () => {
    const takeDetectorFor = (env: Record<string, string>) => createAiProviders(loadConfig(env)).takes;
    expect(takeDetectorFor({ BAD_TAKES_PROVIDER: 'openai', OPENAI_API_KEY: 'k' })).toBeInstanceOf(ChatCompletionsTakeDetector);
    expect(takeDetectorFor({ BAD_TAKES_PROVIDER: 'openai' })).not.toBeInstanceOf(ChatCompletionsTakeDetector);
    expect(takeDetectorFor({})).not.toBeInstanceOf(ChatCompletionsTakeDetector);
    expect(await badTakeCuts(words, { detect: async () => [{ removeStart: 1, removeEnd: 2, reason: 'x' }] })).toEqual([{ start: 1, end: 2 }]);
  });
});

describe('VideosApiBroll (OpenAI videos API shape)', () => {
  let clip: Buffer;
  let server: Awaited<ReturnType<typeof fakeServer>>;
  const seen: Array<{ method: string; url: string; auth?: string; body: any }> = [];
  const videos = new Map<string, { polls: number; fail?: boolean }>();
  beforeAll(async () => {
    const file = path.join(dir, 'remote.mp4');
    await run('ffmpeg', ['-hide_banner', '-nostdin', '-y', '-f', 'lavfi', '-i', 'testsrc=s=128x224:r=24:d=4', ...H264, file]);
    clip = await fs.readFile(file);
    server = await fakeServer((req, body, res) => {
      seen.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, body });
      const json = (code: number, v: unknown) => res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(v));
      if (req.method === 'POST' && req.url === '/v1/videos') {
        const id = `video_${videos.size + 1}`;
        videos.set(id, { polls: 0, fail: body.prompt === 'fail' });
        return json(200, { id, object: 'video', status: 'queued', model: body.model, seconds: body.seconds, size: body.size });
      }
      const m = /^\/v1\/videos\/([^/]+)(\/content)?$/.exec(req.url!);
      const v = m && videos.get(m[1]);
      if (!v) return json(404, { error: { message: 'not found' } });
      if (m![2]) return void res.writeHead(200, { 'content-type': 'video/mp4' }).end(clip);
      v.polls++;
      if (v.fail) return json(200, { id: m![1], status: 'failed', error: { message: 'moderation' } });
      return json(200, { id: m![1], status: v.polls < 2 ? 'in_progress' : 'completed', progress: v.polls * 50 });
    });
  });
  afterAll(() => server.close());

  it('creates, polls until completed, downloads and cuts the clip to the asked length', async () => {
    const g = new VideosApiBroll({ baseUrl: server.url, apiKey: 'k', model: 'sora-2', workDir: path.join(dir, 'video-work'), pollMs: 10 });
    const file = await g.generate('ocean waves', { durationSeconds: 2.5, width: 360, height: 640 });
    expect(seen[0]).toEqual({
      method: 'POST',
      url: '/v1/videos',
      auth: 'Bearer k',
      body: { model: 'sora-2', prompt: 'ocean waves', seconds: '4', size: '720x1280' },
    });
    expect(seen.filter((s) => s.url === '/v1/videos/video_1')).toHaveLength(2);
    expect(seen[seen.length - 1].url).toBe('/v1/videos/video_1/content');
    const info = await probe(file);
    expect(info.kind).toBe('VIDEO');
    expect(info.duration).toBeGreaterThan(2.4);
    expect(info.duration).toBeLessThan(2.6);
    await fs.rm(file);
    expect(await fs.readdir(path.join(dir, 'video-work'))).toEqual([]);
  }, 30_000);

  it('a failed video is an error with the service reason', async () => {
    const g = new VideosApiBroll({ baseUrl: `${server.url}/v1`, apiKey: 'k', model: 'sora-2', workDir: dir, pollMs: 10 });
    await expect(g.generate('fail', { durationSeconds: 2, width: 640, height: 360 })).rejects.toThrow(/moderation/);
  });

  it('is chosen by BROLL_PROVIDER=openai (with a key)', async () => {
    const brollGeneratorFor = (env: Record<string, string>) => createAiProviders(loadConfig({ DATA_DIR: dir, ...env })).broll;
    expect(brollGeneratorFor({ BROLL_PROVIDER: 'openai', OPENAI_API_KEY: 'k' })).toBeInstanceOf(VideosApiBroll);
    await expect(brollGeneratorFor({ BROLL_PROVIDER: 'openai' }).generate('x', { durationSeconds: 1, width: 64, height: 64 })).rejects.toThrow(
      /OPENAI_API_KEY/,
    );
  });
});

describe('an export with magicBrolls through the API', () => {
  it('renders with generated B-roll and reuses the clips on a re-export', async () => {
    const { createUser, request, startTestApp } = await import('../support/app.js');
    const { mediaFixtures, serveFolder } = await import('../support/media.js');
    const fx = await mediaFixtures();
    const [app, files] = await Promise.all([startTestApp({ env: { RENDER_PRESET: 'ultrafast' } }), serveFolder(fx.dir)]);
    try {
      const user = await createUser(app);
      const wait = async (id: string, until: (p: any) => boolean) => {
        for (const t0 = Date.now(); ; ) {
          const r = await request(app, 'GET', `/v1/projects/${id}`, { key: user.key });
          if (r.status === 200 && until(r.body)) return r.body;
          if (Date.now() - t0 > 120_000) throw new Error(JSON.stringify(r.body).slice(0, 300));
          await new Promise((res) => setTimeout(res, 250));
        }
      };
      const created = await request(app, 'POST', '/v1/projects', {
        key: user.key,
        json: { title: 'B-roll', language: 'en', videoUrl: files.url('talk.mp4'), autoRender: false, magicBrolls: true, magicBrollsPercentage: 100 },
      });
      expect(created.status).toBe(201);
      await wait(created.body.id, (p) => p.status === 'completed');
      const storage = app.runtime.app.storage;
      const clip = autoBrollKey(created.body.id, 0);

      await request(app, 'POST', `/v1/projects/${created.body.id}/export`, { key: user.key, json: { width: 180, height: 320, fps: 15 } });
      const done = await wait(created.body.id, (x) => x.status === 'completed' && x.downloadUrl);
      expect(done.failureReason ?? null).toBeNull();
      const made = await storage.stat(clip);
      expect(made).not.toBeNull();
      expect((await probe(storage.localPath(clip)!)).kind).toBe('VIDEO');
      const out = path.join(dir, 'broll-export.mp4');
      await fs.writeFile(out, Buffer.from(await (await fetch(done.downloadUrl)).arrayBuffer()));
      expect((await probe(out)).video).toMatchObject({ width: 180, height: 320 });

      // a re-export keeps the clip as it is
      const before = (await fs.stat(storage.localPath(clip)!)).mtimeMs;
      await request(app, 'POST', `/v1/projects/${created.body.id}/export`, { key: user.key, json: { width: 180, height: 320, fps: 15 } });
      await wait(created.body.id, (x) => x.status === 'completed' && x.downloadUrl);
      expect((await fs.stat(storage.localPath(clip)!)).mtimeMs).toBe(before);
    } finally {
      await files.close();
      await app.stop();
    }
  }, 240_000);
});
