import fs from 'node:fs/promises';
import path from 'node:path';
import http from 'node:http';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import pg from 'pg';
import WebSocket from 'ws';
import { hashApiKey } from '../../src/auth/keys.js';
import { createUser, gql, request, startTestApp, type TestApp, type TestUser, waitProject as waitProjectOf } from '../support/app.js';
import { FF, type FileServer, type Fixtures, mediaFixtures, serveFolder } from '../support/media.js';
import { readSse, subscribeSse } from '../support/sse.js';

const execFileAsync = promisify(execFile);

let app: TestApp;
let files: FileServer;
let fx: Fixtures;
let user: TestUser;
let audioId: string;
let videoId: string;
let imageId: string;
let presetId: string;
let themeId: string;

const body = (extra: Record<string, unknown> = {}) => ({ title: 'A talk', language: 'en', videoUrl: files.url('talk.mp4'), ...extra });
const projectCount = () => app.runtime.app.db.project.count();

const waitProject = (key: string, id: string, until: (p: any) => boolean, timeoutMs = 90_000) => waitProjectOf(app, key, id, until, timeoutMs);

beforeAll(async () => {
  fx = await mediaFixtures();
  [app, files] = await Promise.all([startTestApp({ env: { MAX_PROJECT_BYTES: String(2 * 1024 * 1024) } }), serveFolder(fx.dir)]);
  user = await createUser(app, { aiCredits: null });
  const db = app.runtime.app.db;
  const ready = (type: 'AUDIO' | 'VIDEO' | 'IMAGE', fileName: string) =>
    db.userMedia.create({ data: { userId: user.id, type, status: 'ready', fileName, storageKey: `user-media/x/${fileName}`, metadata: { fileSize: 1 } } });
  [audioId, videoId, imageId] = (await Promise.all([ready('AUDIO', 'a.mp3'), ready('VIDEO', 'v.mp4'), ready('IMAGE', 'i.png')])).map((m) => m.id);
  presetId = (await db.preset.create({ data: { userId: user.id, name: 'P', magicZooms: true, cleanAudio: true } })).id;
  themeId = (await db.userTheme.create({ data: { userId: user.id, name: 'T' } })).id;
});
afterAll(async () => {
  await files?.close();
  await app?.stop();
});

describe('POST /v1/projects', () => {
  it('answers 201 with the project record, echoing only what applies', async () => {
    const r = await request(app, 'POST', '/v1/projects', { key: user.key, json: body({ webhookUrl: 'https://hooks.example.com/x', autoRender: false }) });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: 'A talk',
      language: 'en',
      status: 'processing',
      webhookUrl: 'https://hooks.example.com/x',
      templateName: 'classic',
      magicZooms: false,
      magicBrolls: false,
      removeBadTakes: false,
      cleanAudio: false,
      autoRender: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('echoes every optional field given', async () => {
    const extra = {
      autoRender: false,
      captionPositionY: 25,
      captionPositionX: 60,
      magicZooms: true,
      magicBrolls: true,
      magicBrollsPercentage: 30,
      removeSilencePace: 'fast',
      removeBadTakes: true,
      cleanAudio: true,
      disableCaptions: true,
      dictionary: ['Quokka', 'Acme'],
      hookTitle: { text: 'Watch this', template: 'banner', top: 20, size: 40 },
      music: { userMediaId: audioId, volume: 40 },
      items: [
        { type: 'user-media', userMediaId: videoId, startTime: 0.5, endTime: 2.5, layout: 'split-50-50' },
        { type: 'user-media', userMediaId: imageId, startTime: 3, endTime: 4.5, layout: 'cover' },
        { type: 'ai-broll', startTime: 5, endTime: 8, prompt: 'a city at night' },
      ],
    };
    const r = await request(app, 'POST', '/v1/projects', { key: user.key, json: body(extra) });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      ...extra,
      music: { userMediaId: audioId, volume: 40, startFromTime: 0, fade: true },
    });
  });

  it('applies a preset and a user theme, echoing their ids', async () => {
    const p = await request(app, 'POST', '/v1/projects', { key: user.key, json: body({ presetId, autoRender: false }) });
    expect(p.status).toBe(201);
    expect(p.body).toMatchObject({ presetId, magicZooms: true, cleanAudio: true });
    const t = await request(app, 'POST', '/v1/projects', { key: user.key, json: body({ userThemeId: themeId, autoRender: false }) });
    expect(t.status).toBe(201);
    expect(t.body.userThemeId).toBe(themeId);
  });

  it('reads its body once: the preset, theme and library look-ups of one request are the ones the service alone makes through GraphQL', async () => {
    const db = app.runtime.app.db;
    const counted = ['preset', 'userTheme', 'userMedia', 'musicTrack'];
    const calls: string[] = [];
    // every read of the models a creation body refers to, counted as the domain makes it
    const model = (name: string, delegate: object) =>
      new Proxy(delegate, {
        get: (t, m) => {
          const v = Reflect.get(t, m);
          return typeof v === 'function' && typeof m === 'string' && /^find/.test(m) ? (...a: unknown[]) => (calls.push(`${name}.${m}`), v.apply(t, a)) : v;
        },
      });
    const lookups = async (send: () => Promise<{ status: number }>) => {
      calls.length = 0;
      const r = await send();
      return { status: r.status, body: (r as { body?: unknown }).body, calls: [...calls].sort() };
    };
    app.runtime.app.db = new Proxy(db, {
      get: (t, p) => {
        const v = Reflect.get(t, p);
        if (typeof p === 'string' && counted.includes(p)) return model(p, v as object);
        return typeof v === 'function' ? v.bind(t) : v;
      },
    });
    try {
      for (const extra of [
        { presetId },
        {
          userThemeId: themeId,
          music: { userMediaId: audioId, volume: 40 },
          items: [{ type: 'user-media', userMediaId: videoId, startTime: 0, endTime: 1, layout: 'cover' }],
        },
      ]) {
        // a source that fails at once in the pipeline: these projects leave no work behind for the tests after this one
        const json = body({ ...extra, autoRender: false, videoUrl: files.url('noise.bin') });
        const rest = await lookups(() => request(app, 'POST', '/v1/projects', { key: user.key, json }));
        const graphql = await lookups(() =>
          gql(app, user.key, 'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }', { input: json }),
        );
        expect(rest.status, JSON.stringify(rest)).toBe(201);
        expect(graphql.status).toBe(200);
        expect(rest.calls.length).toBeGreaterThan(0);
        expect(rest.calls).toEqual(graphql.calls);
        if ('presetId' in extra) expect(rest.calls.filter((c) => c.startsWith('preset.'))).toEqual(['preset.findFirst']);
      }
      // an upload's fields, sent before its file, are read once too
      const form = new FormData();
      for (const [k, v] of Object.entries({ title: 'Once', language: 'en', presetId })) form.append(k, v);
      form.append('file', new Blob([new Uint8Array(await fs.readFile(fx.talk))], { type: 'video/mp4' }), 'talk.mp4');
      const upload = await lookups(() => request(app, 'POST', '/v1/projects/upload', { key: user.key, body: form }));
      expect(upload.status).toBe(201);
      expect(upload.calls.filter((c) => c.startsWith('preset.'))).toEqual(['preset.findFirst']);
    } finally {
      app.runtime.app.db = db;
    }
  });

  it('an AI edit template applies its bundle', async () => {
    const r = await request(app, 'POST', '/v1/projects', { key: user.key, json: body({ aiEditTemplate: 'ai_template_c', dictionary: ['Acme'] }) });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ aiEditTemplate: 'ai_template_c', templateName: 'spotlight', magicZooms: true, removeSilencePace: 'extra-fast' });
  });

  const invalid: Array<[string, Record<string, unknown>, string | string[]]> = [
    ['missing title', { title: undefined }, 'title'],
    ['a title over 100 characters', { title: 'x'.repeat(101) }, 'title'],
    ['missing language', { language: undefined }, 'language'],
    ['an unknown language', { language: 'xx' }, 'language'],
    ['a language the engine cannot transcribe', { language: 'es' }, 'language'],
    ['missing videoUrl', { videoUrl: undefined }, 'videoUrl'],
    ['an invalid videoUrl', { videoUrl: 'not a url' }, 'videoUrl'],
    ['a videoUrl serving a web page', { videoUrl: 'PAGE' }, 'videoUrl'],
    ['an http webhookUrl', { webhookUrl: 'http://127.0.0.1:9/hook' }, 'webhookUrl'],
    ['captionPositionY over 80', { captionPositionY: 81 }, 'captionPositionY'],
    ['captionPositionX over 100', { captionPositionX: 101 }, 'captionPositionX'],
    ['an unknown removeSilencePace', { removeSilencePace: 'slow' }, 'removeSilencePace'],
    ['an unknown aiEditTemplate', { aiEditTemplate: 'ai_template_d' }, 'aiEditTemplate'],
    ['an unknown templateName', { templateName: 'nope' }, 'templateName'],
    ['templateName with userThemeId', { templateName: 'classic', userThemeId: 'THEME' }, ['templateName', 'userThemeId']],
    ['presetId with templateName', { presetId: 'PRESET', templateName: 'classic' }, 'templateName'],
    ['presetId with items', { presetId: 'PRESET', items: [] }, 'items'],
    ['aiEditTemplate with magicZooms', { aiEditTemplate: 'ai_template_a', magicZooms: true }, 'magicZooms'],
    ['a foreign or unknown presetId', { presetId: '00000000-0000-4000-8000-000000000000' }, 'presetId'],
    ['an unknown userThemeId', { userThemeId: '00000000-0000-4000-8000-000000000000' }, 'userThemeId'],
    ['a non-boolean flag', { magicZooms: 'yes' }, 'magicZooms'],
    ['magicBrollsPercentage over 100', { magicBrollsPercentage: 101 }, 'magicBrollsPercentage'],
    ['an unknown field', { colour: 'red' }, 'colour'],
    ['101 dictionary words', { dictionary: Array.from({ length: 101 }, (_, i) => `w${i}`) }, 'dictionary'],
    ['a dictionary word over 50 characters', { dictionary: ['x'.repeat(51)] }, 'dictionary[0]'],
    ['an invalid hook template', { hookTitle: { template: 'nope' } }, 'hookTitle.template'],
    ['a hook text over 100 characters', { hookTitle: { text: 'x'.repeat(101) } }, 'hookTitle.text'],
    ['hook top over 80', { hookTitle: { top: 81 } }, 'hookTitle.top'],
    ['a hookTitle string', { hookTitle: 'yes' }, 'hookTitle'],
    ['music without volume', { music: { userMediaId: 'AUDIO' } }, 'music.volume'],
    ['music volume 0', { music: { userMediaId: 'AUDIO', volume: 0 } }, 'music.volume'],
    ['music that is a video', { music: { userMediaId: 'VIDEO', volume: 40 } }, 'music.userMediaId'],
    ['music with a random id', { music: { userMediaId: '00000000-0000-4000-8000-000000000000', volume: 40 } }, 'music.userMediaId'],
    ['an item without type', { items: [{ startTime: 0, endTime: 1, prompt: 'x' }] }, 'items[0].type'],
    ['an item of unknown type', { items: [{ type: 'stock', startTime: 0, endTime: 1 }] }, 'items[0].type'],
    ['an item ending at its start', { items: [{ type: 'ai-broll', startTime: 3, endTime: 3, prompt: 'lake' }] }, 'items[0].endTime'],
    ['an item ending before its start', { items: [{ type: 'ai-broll', startTime: 4, endTime: 2, prompt: 'lake' }] }, 'items[0].endTime'],
    ['an AI B-roll over 12 seconds', { items: [{ type: 'ai-broll', startTime: 0, endTime: 12.5, prompt: 'lake' }] }, 'items[0].endTime'],
    ['an empty prompt', { items: [{ type: 'ai-broll', startTime: 0, endTime: 2, prompt: '' }] }, 'items[0].prompt'],
    ['a prompt over 2500 characters', { items: [{ type: 'ai-broll', startTime: 0, endTime: 2, prompt: 'x'.repeat(2501) }] }, 'items[0].prompt'],
    ['an invalid userMediaId', { items: [{ type: 'user-media', startTime: 0, endTime: 2, userMediaId: 'abc' }] }, 'items[0].userMediaId'],
    [
      'an image with a video-only layout',
      { items: [{ type: 'user-media', startTime: 0, endTime: 2, userMediaId: 'IMAGE', layout: 'pip-top-right' }] },
      'items[0].layout',
    ],
    ['an audio file as an item', { items: [{ type: 'user-media', startTime: 0, endTime: 2, userMediaId: 'AUDIO' }] }, 'items[0].userMediaId'],
    [
      'overlapping items',
      {
        items: [
          { type: 'ai-broll', startTime: 0, endTime: 3, prompt: 'a' },
          { type: 'ai-broll', startTime: 2, endTime: 4, prompt: 'b' },
        ],
      },
      'items[1].startTime',
    ],
  ];
  for (const [what, extra, field] of invalid) {
    it(`refuses ${what}: 400 VALIDATION_ERROR naming ${field}, nothing stored`, async () => {
      const resolve = (v: unknown): unknown =>
        v === 'PAGE'
          ? files.url('page.html')
          : v === 'THEME'
            ? themeId
            : v === 'PRESET'
              ? presetId
              : v === 'AUDIO'
                ? audioId
                : v === 'VIDEO'
                  ? videoId
                  : v === 'IMAGE'
                    ? imageId
                    : v;
      const json = JSON.parse(JSON.stringify(body(extra), (_k, v) => resolve(v)));
      const before = await projectCount();
      const r = await request(app, 'POST', '/v1/projects', { key: user.key, json });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('VALIDATION_ERROR');
      const fields = r.body.details.map((d: { field: string }) => d.field);
      for (const f of ([] as string[]).concat(field)) expect(fields).toContain(f);
      for (const d of r.body.details) expect(d.message).toEqual(expect.any(String));
      expect(await projectCount()).toBe(before);
    });
  }

  it('reports every violated field at once', async () => {
    const r = await request(app, 'POST', '/v1/projects', { key: user.key, json: { language: 'en', videoUrl: 'nope', captionPositionY: 90, magicZooms: 1 } });
    expect(r.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['captionPositionY', 'magicZooms', 'title', 'videoUrl']);
  });

  it('refuses a library entry that is not ready', async () => {
    const pending = await app.runtime.app.db.userMedia.create({ data: { userId: user.id, type: 'AUDIO', status: 'pending', fileName: 'p.mp3' } });
    const r = await request(app, 'POST', '/v1/projects', { key: user.key, json: body({ music: { userMediaId: pending.id, volume: 30 } }) });
    expect(r.status).toBe(400);
    expect(r.body.details[0]).toMatchObject({ field: 'music.userMediaId', message: expect.stringMatching(/not ready/) });
  });

  it('refuses the library of another user', async () => {
    const other = await createUser(app);
    const r = await request(app, 'POST', '/v1/projects', { key: other.key, json: body({ music: { userMediaId: audioId, volume: 30 }, userThemeId: themeId }) });
    expect(r.status).toBe(400);
    expect(r.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['music.userMediaId', 'userThemeId']);
  });

  it('AI B-roll items cost 3 AI credits each, debited with the project; too few credits refuse it whole', async () => {
    const poor = await createUser(app, { aiCredits: 4 });
    const item = (s: number) => ({ type: 'ai-broll', startTime: s, endTime: s + 2, prompt: 'waves' });
    const ok = await request(app, 'POST', '/v1/projects', { key: poor.key, json: body({ items: [item(0)], autoRender: false }) });
    expect(ok.status).toBe(201);
    const db = app.runtime.app.db;
    expect((await db.user.findUniqueOrThrow({ where: { id: poor.id } })).aiCredits).toBe(1);
    expect(await db.creditLedger.findMany({ where: { userId: poor.id }, select: { kind: true, delta: true, subjectId: true } })).toEqual([
      { kind: 'ai', delta: -3, subjectId: ok.body.id },
    ]);
    const before = await projectCount();
    const refused = await request(app, 'POST', '/v1/projects', { key: poor.key, json: body({ items: [item(0)] }) });
    expect(refused.status).toBe(400);
    expect(refused.body.details[0]).toMatchObject({ field: 'items', message: expect.stringMatching(/3 AI credits; you have 1/) });
    expect(await projectCount()).toBe(before);
    expect((await db.user.findUniqueOrThrow({ where: { id: poor.id } })).aiCredits).toBe(1);
  });

  it('the GraphQL mutation applies the same rules and gives the same record', async () => {
    const bad = await gql(app, user.key, 'mutation($i: CreateProjectInput!) { createProject(input: $i) { id } }', {
      i: { title: '', language: 'en', videoUrl: files.url('talk.mp4') },
    });
    expect(bad.body.errors![0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'title' }] });
    const ok = await gql(app, user.key, 'mutation($i: CreateProjectInput!) { createProject(input: $i) { id title status templateName } }', {
      i: body({ autoRender: false }),
    });
    expect(ok.body.data.createProject).toMatchObject({ title: 'A talk', status: 'processing', templateName: 'classic' });
  });
});

describe('the pipeline', () => {
  it('transcribes and completes: words with ids, silences, video metadata, webhook-free', async () => {
    const r = await request(app, 'POST', '/v1/projects', { key: user.key, json: body({ autoRender: false, dictionary: ['captions'] }) });
    const p = await waitProject(user.key, r.body.id, (x) => x.status === 'completed');
    expect(p).toMatchObject({ transcriptionStatus: 'COMPLETED', videoMetaData: { width: 320, height: 240, fps: 30 } });
    expect(p.videoMetaData.duration).toBeGreaterThan(7);
    expect(p.failureReason).toBeUndefined();
    expect(p.downloadUrl).toBeUndefined();
    const words = p.words as Array<{ id: string; text: string; type: string; startTime: number; endTime: number }>;
    expect(new Set(words.map((w) => w.id)).size).toBe(words.length);
    const spoken = words.filter((w) => w.type === 'word');
    expect(spoken.length).toBeGreaterThan(8);
    for (let i = 1; i < words.length; i++) expect(words[i].startTime).toBeGreaterThanOrEqual(words[i - 1].startTime);
    for (const w of words) expect(w.endTime).toBeGreaterThanOrEqual(w.startTime);
    const pause = words.find((w) => w.type === 'silence' && w.endTime - w.startTime > 1);
    expect(pause, 'the 1.5 s pause is a silence').toBeDefined();
    expect(pause!.text).toBe('');
    // the extraction also measured the sound, for clean audio and silence removal
    const row = await app.runtime.app.db.project.findUniqueOrThrow({ where: { id: r.body.id } });
    const levels = (row.videoMeta as { audioLevels: { loudness: number; peak: number; quiet: Array<{ start: number; end: number }> } }).audioLevels;
    expect(levels.loudness).toBeGreaterThan(-40);
    expect(levels.loudness).toBeLessThan(-5);
    expect(levels.peak).toBeLessThanOrEqual(0.5);
    // the 1.5 s of digital silence between the sentences is quiet, within the transcript's pause
    const quiet = levels.quiet.find((q) => q.end - q.start > 1.2);
    expect(quiet).toBeDefined();
    expect(quiet!.start).toBeGreaterThanOrEqual(pause!.startTime - 0.3);
    expect(quiet!.end).toBeLessThanOrEqual(pause!.endTime + 0.3);
  });

  it('a file that is not a video ends failed with a reason', async () => {
    const r = await request(app, 'POST', '/v1/projects', { key: user.key, json: body({ videoUrl: files.url('noise.bin') }) });
    expect(r.status).toBe(201);
    const p = await waitProject(user.key, r.body.id, (x) => x.status !== 'processing');
    expect(p).toMatchObject({ status: 'failed', transcriptionStatus: 'FAILED', failureReason: expect.stringMatching(/not an mp4 or mov video/) });
  });

  it('a project that fails gives back the AI credits of the B-roll clips it never made', async () => {
    const poor = await createUser(app, { aiCredits: 3 });
    const items = [{ type: 'ai-broll', startTime: 0, endTime: 2, prompt: 'waves' }];
    const r = await request(app, 'POST', '/v1/projects', { key: poor.key, json: body({ videoUrl: files.url('noise.bin'), items }) });
    expect(r.status).toBe(201);
    const db = app.runtime.app.db;
    expect((await db.user.findUniqueOrThrow({ where: { id: poor.id } })).aiCredits).toBe(0);
    await waitProject(poor.key, r.body.id, (x) => x.status === 'failed');
    expect((await db.user.findUniqueOrThrow({ where: { id: poor.id } })).aiCredits).toBe(3);
    const ledger = await db.creditLedger.findMany({
      where: { userId: poor.id },
      orderBy: { createdAt: 'asc' },
      select: { kind: true, delta: true, subjectId: true },
    });
    expect(ledger).toEqual([
      { kind: 'ai', delta: -3, subjectId: r.body.id },
      { kind: 'ai', delta: 3, subjectId: r.body.id },
    ]);
  });

  it('an audio file is not a video: failed', async () => {
    const r = await request(app, 'POST', '/v1/projects', { key: user.key, json: body({ videoUrl: files.url('tone.mp3') }) });
    const p = await waitProject(user.key, r.body.id, (x) => x.status !== 'processing');
    expect(p.status).toBe('failed');
  });
});

describe('GET /v1/projects/{id}', () => {
  it('is 404 NOT_FOUND for unknown, malformed and foreign ids', async () => {
    const created = await request(app, 'POST', '/v1/projects', { key: user.key, json: body({ autoRender: false }) });
    const other = await createUser(app);
    for (const [key, id] of [
      [user.key, '00000000-0000-4000-8000-000000000000'],
      [user.key, 'not-a-uuid'],
      [other.key, created.body.id],
    ]) {
      const r = await request(app, 'GET', `/v1/projects/${id}`, { key });
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ error: 'NOT_FOUND', message: 'Project not found' });
    }
    const g = await gql(app, other.key, 'query($id: ID!) { project(id: $id) { id } }', { id: created.body.id });
    expect(g.body.errors![0].extensions!.code).toBe('NOT_FOUND');
  });

  /**
   * Records the text of every SQL statement this process sends (through pg, as Prisma's adapter does) that `keep`
   * takes, by its text and parameters, until `restore`.
   */
  function recordStatements(keep: (text: string, values: unknown[]) => boolean) {
    const sent: string[] = [];
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const config = args[0] as string | { text?: string; values?: unknown[] };
      const text = typeof config === 'string' ? config : (config.text ?? '');
      const values = (typeof config === 'object' && config?.values) || (Array.isArray(args[1]) ? (args[1] as unknown[]) : []);
      if (keep(text, values)) sent.push(text);
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    return { sent, restore: () => void (pg.Client.prototype.query = query) };
  }

  /** A transcribed and rendered edit project of `user`, written straight to its table; its words are its title's. */
  async function finishedProject(title: string, owner: { id: string } = user): Promise<string> {
    const words = title.split(' ').map((text, i) => ({ id: `w${i}`, text, type: 'word', startTime: i, endTime: i + 0.8 }));
    const meta = { width: 1080, height: 1920, duration: 2, fps: 30, rotation: 0, hasAudio: true, size: 1, formatName: 'mov,mp4,m4a,3gp,3g2,mj2' };
    const { id } = await app.runtime.app.db.project.create({
      data: {
        userId: owner.id,
        kind: 'edit',
        title,
        language: 'en',
        templateName: 'classic',
        status: 'completed',
        transcriptionStatus: 'COMPLETED',
        sourceKey: 'tests/none.mp4',
        videoMeta: meta,
        transcript: words,
      },
    });
    return id;
  }

  it("reads the project's row once, with the clips and relations its answer shows in the same read", async () => {
    const inner = app.runtime.app;
    const plain = inner.db;
    // a finished project no job touches: every read of its row meanwhile is the request's
    const id = await finishedProject('Read once');
    const reads: string[] = [];
    inner.db = plain.$extends({
      query: {
        project: {
          async $allOperations({ operation, args, query }) {
            if ((args as { where?: { id?: unknown } }).where?.id === id) reads.push(operation);
            return query(args);
          },
        },
      },
    }) as unknown as typeof plain;
    try {
      const r = await request(app, 'GET', `/v1/projects/${id}`, { key: user.key });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id, title: 'Read once', status: 'completed' });
      expect(r.body.words.map((w: { text: string }) => w.text)).toEqual(['Read', 'once']);
      const g = await gql(app, user.key, 'query($id: ID!) { project(id: $id) { id title magicClips { id } } }', { id });
      expect(g.body.data.project).toEqual({ id, title: 'Read once', magicClips: [] });
    } finally {
      inner.db = plain;
    }
    expect(reads).toEqual(['findFirst', 'findFirst']);
  });

  it("a project's read is two SQL statements: the key with its user, then the row (an edit project has no clips to read)", async () => {
    // a user of its own: the statements naming it are this test's alone (the file's other users have pipelines
    // whose last writes, such as the words kept for reuse, can land while this one counts)
    const user = await createUser(app);
    const id = await finishedProject('Two statements', user);
    // a first call moves the key's lastUsedAt on (a write at most once a minute), so the counted ones make none
    expect((await request(app, 'GET', `/v1/projects/${id}`, { key: user.key })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    // every statement this process sends whose parameters name this project, its owner or the key: the requests'
    const mine = new Set([id, user.id, hashApiKey(user.key)]);
    const { sent, restore } = recordStatements((_text, values) => values.some((v) => mine.has(v as string)));
    try {
      const r = await request(app, 'GET', `/v1/projects/${id}`, { key: user.key });
      expect(r.status).toBe(200);
      expect(sent.map((q) => /FROM "(?:public"\.")?(\w+)"/.exec(q)?.[1])).toEqual(['ApiKey', 'Project']);
      sent.length = 0;
      const g = await gql(app, user.key, 'query($id: ID!) { project(id: $id) { id magicClips { id } } }', { id });
      expect(g.body.data.project).toEqual({ id, magicClips: [] });
      expect(sent).toHaveLength(2);
    } finally {
      restore();
    }
  });

  it("a page of projects reads its magic-clips projects' clips in one statement, an edit project's in none", async () => {
    const u = await createUser(app);
    const db = app.runtime.app.db;
    const parents: string[] = [];
    for (let p = 0; p < 3; p++) {
      const { id } = await db.project.create({
        data: { userId: u.id, kind: 'magic_clips', title: `Long talk ${p}`, language: 'en', templateName: 'classic', status: 'completed' },
      });
      parents.push(id);
      for (const i of [1, 0]) {
        await db.magicClip.create({
          data: {
            projectId: id,
            title: `Clip ${p}.${i}`,
            startTime: i * 30,
            endTime: i * 30 + 20,
            duration: 20,
            viralityScores: {},
            rank: i + 1,
            status: 'completed',
          },
        });
      }
    }
    await db.project.create({ data: { userId: u.id, title: 'An edit', language: 'en', templateName: 'classic', status: 'completed' } });
    const mine = new Set(parents);
    const { sent: clipReads, restore } = recordStatements(
      (text, values) => /FROM "(?:public"\.")?MagicClip"/.test(text) && values.some((v) => mine.has(v as string)),
    );
    try {
      const g = await gql(app, u.key, '{ projects(first: 10) { edges { node { title kind magicClips { title } } } } }');
      const nodes = g.body.data.projects.edges.map((e: { node: unknown }) => e.node);
      expect(nodes).toEqual([
        { title: 'An edit', kind: 'edit', magicClips: [] },
        ...[2, 1, 0].map((p) => ({ title: `Long talk ${p}`, kind: 'magic_clips', magicClips: [{ title: `Clip ${p}.0` }, { title: `Clip ${p}.1` }] })),
      ]);
    } finally {
      restore();
    }
    expect(clipReads).toHaveLength(1);
  });

  it('GraphQL lists your projects as a connection, newest first', async () => {
    const u = await createUser(app);
    const ids = [];
    for (let i = 0; i < 3; i++)
      ids.push((await request(app, 'POST', '/v1/projects', { key: u.key, json: body({ title: `P${i}`, autoRender: false }) })).body.id);
    const g = await gql(app, u.key, '{ projects(first: 2) { edges { node { id title } } pageInfo { hasNextPage endCursor } } }');
    expect(g.body.data.projects.edges.map((e: any) => e.node.id)).toEqual([ids[2], ids[1]]);
    expect(g.body.data.projects.pageInfo).toEqual({ hasNextPage: true, endCursor: ids[1] });
  });
});

describe('POST /v1/projects/upload', () => {
  const form = (fields: Record<string, string>, file?: { path: string; name: string; type: string } | { bytes: Buffer; name: string; type: string }) =>
    (async () => {
      const f = new FormData();
      for (const [k, v] of Object.entries(fields)) f.append(k, v);
      if (file) {
        const bytes = 'path' in file ? await fs.readFile(file.path) : file.bytes;
        f.append('file', new Blob([new Uint8Array(bytes)], { type: file.type }), file.name);
      }
      return f;
    })();

  it('creates a project from an mp4 with text fields, and from a mov', async () => {
    const fields = { title: 'Uploaded', language: 'en', magicZooms: 'true', captionPositionY: '30', dictionary: '["Acme"]', hookTitle: 'true' };
    const r = await request(app, 'POST', '/v1/projects/upload', {
      key: user.key,
      body: await form(fields, { path: fx.talk, name: 'talk.mp4', type: 'video/mp4' }),
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      title: 'Uploaded',
      status: 'processing',
      magicZooms: true,
      captionPositionY: 30,
      dictionary: ['Acme'],
      hookTitle: { template: 'headline', top: 50, size: 30 },
    });
    const mov = await request(app, 'POST', '/v1/projects/upload', {
      key: user.key,
      body: await form({ title: 'Mov', language: 'en' }, { path: fx.talkMov, name: 'talk.mov', type: 'video/quicktime' }),
    });
    expect(mov.status).toBe(201);
    const p = await waitProject(user.key, mov.body.id, (x) => x.status === 'completed');
    expect(p.words.length).toBeGreaterThan(5);
  });

  it('a JSON body is 400 VALIDATION_ERROR about the Content-Type', async () => {
    const r = await request(app, 'POST', '/v1/projects/upload', { key: user.key, json: body() });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ field: 'Content-Type' }] });
  });

  it('a text file named .mp4 is 415 UNSUPPORTED_MEDIA_TYPE; an mp3 too; nothing stays', async () => {
    const before = await projectCount();
    const txt = await request(app, 'POST', '/v1/projects/upload', {
      key: user.key,
      body: await form({ title: 'T', language: 'en' }, { bytes: Buffer.from('not a video'), name: 'x.mp4', type: 'video/mp4' }),
    });
    expect(txt.status).toBe(415);
    expect(txt.body.error).toBe('UNSUPPORTED_MEDIA_TYPE');
    const mp3 = await request(app, 'POST', '/v1/projects/upload', {
      key: user.key,
      body: await form({ title: 'T', language: 'en' }, { path: fx.audio, name: 'x.mp4', type: 'video/mp4' }),
    });
    expect(mp3.status).toBe(415);
    expect(await projectCount()).toBe(before);
    expect(
      await fs
        .readdir(path.join(app.dataDir, 'media', 'projects'))
        .then((d) => d.length)
        .catch(() => 0),
    ).toBe(await app.runtime.app.db.project.count({ where: { sourceKey: { startsWith: 'projects/' } } }));
  });

  it('checks the fields before the file: a missing title or a bad hook template is 400', async () => {
    const r = await request(app, 'POST', '/v1/projects/upload', {
      key: user.key,
      body: await form({ language: 'en' }, { path: fx.talk, name: 't.mp4', type: 'video/mp4' }),
    });
    expect(r.status).toBe(400);
    expect(r.body.details[0].field).toBe('title');
    const hook = await request(app, 'POST', '/v1/projects/upload', {
      key: user.key,
      body: await form(
        { title: 'x', language: 'en', hookTitle: '{"template":"nope"}', autoRender: 'false' },
        { path: fx.talk, name: 't.mp4', type: 'video/mp4' },
      ),
    });
    expect(hook.status).toBe(400);
    expect(hook.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['autoRender', 'hookTitle.template']);
    const nofile = await request(app, 'POST', '/v1/projects/upload', { key: user.key, body: await form({ title: 'x', language: 'en' }) });
    expect(nofile.body.details[0].field).toBe('file');
  });

  it('a video longer than 2 hours is 400 VALIDATION_ERROR on file, and nothing stays', async () => {
    const long = path.join(fx.dir, 'two-hours.mp4');
    // a 16x16 picture at 1 frame per second: 2 h 30 s in under 100 KB
    await execFileAsync('ffmpeg', [
      ...FF,
      '-f',
      'lavfi',
      '-i',
      'color=c=black:s=16x16:r=1',
      '-t',
      '7230',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-g',
      '600',
      long,
    ]);
    const before = await projectCount();
    const r = await request(app, 'POST', '/v1/projects/upload', {
      key: user.key,
      body: await form({ title: 'Long', language: 'en' }, { path: long, name: 'long.mp4', type: 'video/mp4' }),
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ field: 'file', message: expect.stringMatching(/120 minutes/) }] });
    expect(await projectCount()).toBe(before);
  });

  it('over the size limit: 413 as soon as it is crossed, and nothing stays', async () => {
    const before = await projectCount();
    // 3 MB against the 2 MB limit of this test service, sent slowly: the answer comes before the end
    const boundary = 'xBOUNDARYx';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nBig\r\n--${boundary}\r\nContent-Disposition: form-data; name="language"\r\n\r\nen\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
    );
    const url = new URL('/v1/projects/upload', app.url);
    const result = await new Promise<{ status: number; body: string; sentBytes: number }>((resolve, reject) => {
      let sent = 0;
      const req = http.request(
        url,
        { method: 'POST', headers: { 'x-api-key': user.key, 'content-type': `multipart/form-data; boundary=${boundary}` } },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, body: text, sentBytes: sent }));
        },
      );
      req.on('error', (e) => (sent > 0 ? undefined : reject(e)));
      req.write(head);
      const chunk = Buffer.alloc(64 * 1024, 7);
      const pump = () => {
        if (sent >= 3 * 1024 * 1024 || req.destroyed) return req.end();
        sent += chunk.length;
        if (req.write(chunk)) setImmediate(pump);
        else req.once('drain', pump);
      };
      pump();
    });
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toMatchObject({ error: 'PAYLOAD_TOO_LARGE' });
    expect(await projectCount()).toBe(before);
  });

  it('an upload aborted by the client leaves no project and no file', async () => {
    const before = await projectCount();
    const url = new URL('/v1/projects/upload', app.url);
    const boundary = 'yBOUNDARYy';
    await new Promise<void>((resolve) => {
      const req = http.request(url, { method: 'POST', headers: { 'x-api-key': user.key, 'content-type': `multipart/form-data; boundary=${boundary}` } });
      req.on('error', () => resolve());
      req.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nGone\r\n--${boundary}\r\nContent-Disposition: form-data; name="language"\r\n\r\nen\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
      );
      req.write(Buffer.alloc(256 * 1024, 1), () =>
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 200),
      );
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(await projectCount()).toBe(before);
    const tmp = await fs.readdir(path.join(app.dataDir, 'media', 'projects')).catch(() => [] as string[]);
    const rows = await app.runtime.app.db.project.findMany({ select: { id: true } });
    expect(tmp.filter((d) => !rows.some((r) => r.id === d))).toEqual([]);
  });
});

describe('projectUpdates subscription', () => {
  it('gives the current state first, then every move until completed, over SSE and WebSocket', async () => {
    const created = await request(app, 'POST', '/v1/projects', { key: user.key, json: body({ autoRender: false }) });
    const id = created.body.id;
    const query = 'subscription($id: ID!) { projectUpdates(projectId: $id) { projectId status stage percent } }';
    const sse = subscribeSse(app.url, user.key, query, { id }).then((res) =>
      readSse(
        res,
        (d) => d.projectUpdates,
        (e: any) => e.status === 'completed',
      ),
    );
    const ws = new Promise<any[]>((resolve, reject) => {
      const client = createClient({
        url: `${app.url.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { 'x-api-key': user.key },
        retryAttempts: 0,
      });
      const events: any[] = [];
      const stop = client.subscribe<{ projectUpdates: any }>(
        { query, variables: { id } },
        {
          next: (r) => {
            if (r.errors) return reject(new Error(JSON.stringify(r.errors)));
            events.push(r.data!.projectUpdates);
            if (r.data!.projectUpdates.status === 'completed') {
              stop();
              void client.dispose();
              resolve(events);
            }
          },
          error: reject,
          complete: () => resolve(events),
        },
      );
    });
    for (const events of await Promise.all([sse, ws])) {
      expect(events[0].projectId).toBe(id);
      expect(['processing', 'transcribing', 'completed']).toContain(events[0].status);
      expect(events.at(-1)).toMatchObject({ status: 'completed', stage: 'done', percent: 100 });
      const order = ['processing', 'transcribing', 'completed'];
      const seen = events.map((e) => order.indexOf(e.status));
      expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    }
  });

  it('a late subscriber gets the current state at once; another user gets NOT_FOUND', async () => {
    const created = await request(app, 'POST', '/v1/projects', { key: user.key, json: body({ autoRender: false }) });
    await waitProject(user.key, created.body.id, (x) => x.status === 'completed');
    const client = createClient({
      url: `${app.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { 'x-api-key': user.key },
      retryAttempts: 0,
    });
    const first = await new Promise<any>((resolve, reject) =>
      client.subscribe(
        { query: 'subscription($id: ID!) { projectUpdates(projectId: $id) { status percent } }', variables: { id: created.body.id } },
        { next: resolve, error: reject, complete: () => {} },
      ),
    );
    await client.dispose();
    expect(first.data.projectUpdates).toEqual({ status: 'completed', percent: 100 });
    const other = await createUser(app);
    const g = await gql(app, other.key, 'subscription($id: ID!) { projectUpdates(projectId: $id) { status } }', { id: created.body.id });
    expect(g.body.errors![0].extensions!.code).toBe('NOT_FOUND');
  });
});
