// Creating magic-clips projects through both doors: every rule, the subscription, the clip credit, uploads.
// The server runs without workers: what is asserted is what creation answers and stores.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, gql, request, startTestApp, type TestApp, type TestUser } from '../support/app.js';
import { mediaFixtures, type Fixtures } from '../support/media.js';

let app: TestApp;
let fx: Fixtures;
let user: TestUser;
let themeId: string;

const URL_OK = 'https://www.youtube.com/watch?v=abc123';
const body = (extra: Record<string, unknown> = {}) => ({ title: 'Clips of a talk', language: 'en', videoshareUrl: URL_OK, ...extra });
const db = () => app.runtime.app.db;
const clipCredits = async (id: string) => (await db().user.findUniqueOrThrow({ where: { id } })).clipCredits;
const projectsOf = (userId: string) => db().project.count({ where: { userId } });

beforeAll(async () => {
  fx = await mediaFixtures();
  app = await startTestApp({ role: 'server', env: { MAX_CLIPS_SOURCE_BYTES: String(1024 * 1024) } });
  user = await createUser(app, { clipCredits: 50, clipsSubscription: true });
  themeId = (await db().userTheme.create({ data: { userId: user.id, name: 'T' } })).id;
});
afterAll(async () => {
  await app?.stop();
});

const post = (json: unknown, key = user.key) => request(app, 'POST', '/v1/projects/magic-clips', { key, json });
const fieldsOf = (r: { body: any }) => (r.body.details ?? []).map((d: { field: string }) => d.field).sort();

describe('POST /v1/projects/magic-clips', () => {
  it('answers 202 with the Magic-clips project, debits one clip credit and stores the settings with their defaults', async () => {
    const before = await clipCredits(user.id);
    const r = await post(body({ webhookUrl: 'https://hooks.example.com/clips' }));
    expect(r.status).toBe(202);
    expect(r.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: 'Clips of a talk',
      language: 'en',
      status: 'processing',
      webhookUrl: 'https://hooks.example.com/clips',
      templateName: 'classic',
      userThemeId: null,
      minClipLength: 15,
      maxClipLength: 60,
      faceTracking: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await clipCredits(user.id)).toBe(before - 1);
    const ledger = await db().creditLedger.findMany({ where: { userId: user.id, subjectId: r.body.id } });
    expect(ledger).toMatchObject([{ kind: 'clip', delta: -1 }]);
    const stored = await db().project.findUniqueOrThrow({ where: { id: r.body.id } });
    expect(stored).toMatchObject({ kind: 'magic_clips', sourceUrl: URL_OK, minClipLength: 15, maxClipLength: 60, faceTracking: true });
  });

  it('keeps the lengths, theme and faceTracking given; without webhookUrl the record has none', async () => {
    const r = await post(body({ minClipLength: 20, maxClipLength: 45.5, faceTracking: false, userThemeId: themeId }));
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ minClipLength: 20, maxClipLength: 46, faceTracking: false, userThemeId: themeId });
    expect(r.body).not.toHaveProperty('webhookUrl');
    // a shortest clip above the default longest raises the longest to it
    const high = await post(body({ minClipLength: 90 }));
    expect(high.body).toMatchObject({ minClipLength: 90, maxClipLength: 90 });
  });

  it('reads the project back with GET /v1/projects/{id}: the record and an empty magicClips[] while processing', async () => {
    const r = await post(body());
    const g = await request(app, 'GET', `/v1/projects/${r.body.id}`, { key: user.key });
    expect(g.status).toBe(200);
    expect(g.body).toMatchObject({ id: r.body.id, status: 'processing', minClipLength: 15, maxClipLength: 60, faceTracking: true, magicClips: [] });
    expect(g.body).not.toHaveProperty('magicZooms');
  });

  it('without a clips subscription: 403 FORBIDDEN before the body is judged, nothing debited', async () => {
    const u = await createUser(app, { clipCredits: 5 });
    for (const b of [body(), { title: '' }]) {
      const r = await post(b, u.key);
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ error: 'FORBIDDEN', message: expect.stringMatching(/clips subscription/) });
    }
    expect(await clipCredits(u.id)).toBe(5);
    expect(await projectsOf(u.id)).toBe(0);
  });

  it('without a clip credit: 402 PAYMENT_REQUIRED, whatever the body, nothing debited or stored', async () => {
    const u = await createUser(app, { clipCredits: 0, clipsSubscription: true });
    const r = await post(body(), u.key);
    expect(r.status).toBe(402);
    expect(r.body).toEqual({ error: 'PAYMENT_REQUIRED', message: 'A magic-clips project costs 1 clip credit; you have 0' });
    expect(await projectsOf(u.id)).toBe(0);
    expect(await db().creditLedger.count({ where: { userId: u.id } })).toBe(0);
    expect((await post(body({ title: '' }), u.key)).status).toBe(402);
  });

  it('the last credit goes to one of two concurrent requests', async () => {
    const u = await createUser(app, { clipCredits: 1, clipsSubscription: true });
    const answers = await Promise.all([post(body(), u.key), post(body(), u.key)]);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 402]);
    expect(await clipCredits(u.id)).toBe(0);
    expect(await projectsOf(u.id)).toBe(1);
  });

  it('reports every violated field at once and stores nothing', async () => {
    const before = [await clipCredits(user.id), await projectsOf(user.id)];
    const r = await post({
      title: 'x'.repeat(101),
      language: 'xx',
      videoshareUrl: 'https://example.com/watch?v=1',
      webhookUrl: 'http://hooks.example.com/x',
      templateName: 'nope',
      minClipLength: 10,
      maxClipLength: 301,
      faceTracking: 'yes',
      extra: 1,
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('VALIDATION_ERROR');
    expect(fieldsOf(r)).toEqual([
      'extra',
      'faceTracking',
      'language',
      'maxClipLength',
      'minClipLength',
      'templateName',
      'title',
      'videoshareUrl',
      'webhookUrl',
    ]);
    expect([await clipCredits(user.id), await projectsOf(user.id)]).toEqual(before);
  });

  it.each([
    ['title missing', { title: undefined }, 'title'],
    ['empty title', { title: '' }, 'title'],
    ['language missing', { language: undefined }, 'language'],
    ['a language the engine cannot transcribe', { language: 'ja' }, 'language'],
    ['videoshareUrl missing', { videoshareUrl: undefined }, 'videoshareUrl'],
    ['videoshareUrl not a URL', { videoshareUrl: 'not a url' }, 'videoshareUrl'],
    ['videoshareUrl off the video platforms', { videoshareUrl: 'https://example.com/watch?v=abc123' }, 'videoshareUrl'],
    ['webhookUrl not HTTPS', { webhookUrl: 'http://hooks.example.com/x' }, 'webhookUrl'],
    ['minClipLength under 15', { minClipLength: 14 }, 'minClipLength'],
    ['maxClipLength over 300', { maxClipLength: 301 }, 'maxClipLength'],
    ['min above max', { minClipLength: 40, maxClipLength: 30 }, 'minClipLength'],
    ['templateName over 50 characters', { templateName: 'x'.repeat(51) }, 'templateName'],
    ['a userThemeId of nobody', { userThemeId: '00000000-0000-4000-8000-000000000000' }, 'userThemeId'],
    ['faceTracking not a boolean', { faceTracking: 'true' }, 'faceTracking'],
  ])('%s: 400 VALIDATION_ERROR on %s', async (_name, extra, field) => {
    const r = await post(body(extra));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'VALIDATION_ERROR', details: [expect.objectContaining({ field })] });
  });

  it.each([
    ['clipCount 0', { clipCount: 0 }, 'clipCount', 'must be an integer from 1 to 20'],
    ['clipCount 21', { clipCount: 21 }, 'clipCount', 'must be an integer from 1 to 20'],
    ['clipCount not whole', { clipCount: 2.5 }, 'clipCount', 'must be an integer from 1 to 20'],
    ['an empty topic', { topic: '' }, 'topic', undefined],
    ['a topic over 200 characters', { topic: 'x'.repeat(201) }, 'topic', undefined],
    ['a topic that is no text', { topic: 7 }, 'topic', undefined],
    ['range not an object', { range: [0, 60] }, 'range', 'must be an object {startTime, endTime}'],
    ['range without endTime', { range: { startTime: 0 } }, 'range.endTime', 'is required'],
    ['range starting below 0', { range: { startTime: -1, endTime: 60 } }, 'range.startTime', undefined],
    ['range ending before it starts', { range: { startTime: 60, endTime: 30 } }, 'range.endTime', 'must be greater than range.startTime (60)'],
    ['range shorter than the shortest clip', { range: { startTime: 10, endTime: 20 } }, 'range', 'must last at least minClipLength (15 s); it lasts 10 s'],
    ['range with an unknown field', { range: { startTime: 0, endTime: 60, step: 1 } }, 'range.step', 'is not a known field'],
    ['an aspectRatio not offered', { aspectRatio: '3:2' }, 'aspectRatio', 'must be one of: 9:16, 1:1, 4:5, 16:9'],
    ['a style field out of range', { style: { font: { size: 1000 } } }, 'style.font.size', undefined],
    ['a style font not installed', { style: { font: { family: 'No Such Face' } } }, 'style.font.family', undefined],
    ['hookTitle with its own text', { hookTitle: { text: 'One for all' } }, 'hookTitle.text', "is written for each clip from the clip's words; leave it out"],
    ['hookTitle not a boolean or object', { hookTitle: 'yes' }, 'hookTitle', undefined],
  ])('%s: 400 VALIDATION_ERROR on %s', async (_name, extra, field, message) => {
    const before = [await clipCredits(user.id), await projectsOf(user.id)];
    const r = await post(body(extra));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'VALIDATION_ERROR', details: [expect.objectContaining({ field, ...(message ? { message } : {}) })] });
    expect([await clipCredits(user.id), await projectsOf(user.id)]).toEqual(before);
  });

  it('the controls beyond SPEC.md, all wrong at once: every one named, nothing stored', async () => {
    const before = [await clipCredits(user.id), await projectsOf(user.id)];
    const r = await post(body({ clipCount: 99, topic: '', range: { startTime: 50, endTime: 40 }, aspectRatio: 'square', hookTitle: { text: 'x' } }));
    expect(r.status).toBe(400);
    expect(fieldsOf(r)).toEqual(['aspectRatio', 'clipCount', 'hookTitle.text', 'range.endTime', 'topic']);
    expect([await clipCredits(user.id), await projectsOf(user.id)]).toEqual(before);
  });

  it('keeps the controls given: count, topic, range, shape, caption style and a hook per clip', async () => {
    const r = await post(
      body({
        clipCount: 5,
        topic: '  sleep and recovery ',
        range: { startTime: 30, endTime: 330.5 },
        aspectRatio: '4:5',
        templateName: 'classic',
        style: { activeWord: { color: '#FFEE00' } },
        hookTitle: { template: 'banner', size: 40 },
      }),
    );
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({
      clipCount: 5,
      topic: 'sleep and recovery',
      range: { startTime: 30, endTime: 330.5 },
      aspectRatio: '4:5',
      style: { activeWord: { color: '#FFEE00' } },
      hookTitle: { template: 'banner', size: 40 },
    });
    const got = await request(app, 'GET', `/v1/projects/${r.body.id}`, { key: user.key });
    expect(got.body).toMatchObject({ clipCount: 5, topic: 'sleep and recovery', range: { startTime: 30, endTime: 330.5 }, aspectRatio: '4:5' });
    const stored = await db().project.findUniqueOrThrow({ where: { id: r.body.id } });
    expect(stored).toMatchObject({ clipCount: 5, clipTopic: 'sleep and recovery', clipRange: { start: 30, end: 330.5 }, aspectRatio: '4:5' });
    expect(stored.hookTitle).toMatchObject({ template: 'banner', size: 40, autoTop: true });
    // hookTitle true: the default look
    const plain = await post(body({ hookTitle: true }));
    expect(plain.body.hookTitle).toMatchObject({ template: expect.any(String), top: expect.any(Number), size: expect.any(Number) });
    // left out, none of them shows, as SPEC.md's record has them not
    const bare = await post(body());
    for (const k of ['clipCount', 'topic', 'range', 'aspectRatio', 'style', 'hookTitle', 'clipsNote']) expect(bare.body).not.toHaveProperty(k);
  });

  it('templateName and userThemeId together: both named', async () => {
    const r = await post(body({ templateName: 'classic', userThemeId: themeId }));
    expect(r.status).toBe(400);
    expect(fieldsOf(r)).toEqual(['templateName', 'userThemeId']);
  });

  it('a host is a video platform only as VIDEO_PLATFORM_HOSTS lists it', async () => {
    expect((await post(body({ videoshareUrl: 'https://m.youtube.com/watch?v=abc' }))).status).toBe(202);
    expect((await post(body({ videoshareUrl: 'https://music.youtube.com/watch?v=abc' }))).status).toBe(400);
    expect((await post(body({ videoshareUrl: 'https://vimeo.com.example.com/1' }))).status).toBe(400);
  });

  it('without a key: 401', async () => {
    const r = await request(app, 'POST', '/v1/projects/magic-clips', { json: body() });
    expect(r.status).toBe(401);
    expect(r.body.error).toBe('UNAUTHORIZED');
  });
});

describe('POST /v1/projects/magic-clips/upload', () => {
  const form = async (fields: Record<string, string>, file?: { path?: string; bytes?: Buffer; name: string; type: string }) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.append(k, v);
    if (file) f.append('file', new Blob([new Uint8Array(file.bytes ?? (await fs.readFile(file.path!)))], { type: file.type }), file.name);
    return f;
  };
  const upload = async (fields: Record<string, string>, file?: Parameters<typeof form>[1], key = user.key) =>
    request(app, 'POST', '/v1/projects/magic-clips/upload', { key, body: await form(fields, file) });
  const talk = () => ({ path: fx.talk, name: 'talk.mp4', type: 'video/mp4' });
  const sources = async () => (await fs.readdir(path.join(app.dataDir, 'media', 'projects')).catch(() => [])).length;

  it('answers 202 with the project, its text fields read with their types; the source is stored and probed', async () => {
    const before = await clipCredits(user.id);
    const r = await upload({ title: 'Uploaded', language: 'en', minClipLength: '20', maxClipLength: '40', faceTracking: 'false' }, talk());
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({
      title: 'Uploaded',
      status: 'processing',
      minClipLength: 20,
      maxClipLength: 40,
      faceTracking: false,
      templateName: 'classic',
    });
    const stored = await db().project.findUniqueOrThrow({ where: { id: r.body.id } });
    expect(stored.sourceKey).toMatch(/source\.mp4$/);
    expect(stored.videoMeta).toMatchObject({ width: expect.any(Number), duration: expect.any(Number) });
    expect(await clipCredits(user.id)).toBe(before - 1);
  });

  it('takes a mov, and the file before the fields', async () => {
    const f = new FormData();
    f.append('file', new Blob([new Uint8Array(await fs.readFile(fx.talkMov))], { type: 'video/quicktime' }), 'talk.mov');
    f.append('title', 'Mov first');
    f.append('language', 'en');
    const r = await request(app, 'POST', '/v1/projects/magic-clips/upload', { key: user.key, body: f });
    expect(r.status).toBe(202);
    expect((await db().project.findUniqueOrThrow({ where: { id: r.body.id } })).sourceKey).toMatch(/source\.mov$/);
  });

  it('refuses without storing or debiting: no subscription 403, no credit 402, bad fields 400, no file 400, not a video 415, too large 413', async () => {
    const noSub = await createUser(app, { clipCredits: 3 });
    const broke = await createUser(app, { clipsSubscription: true });
    const before = [await clipCredits(user.id), await projectsOf(user.id), await sources()];
    const cases: Array<[Promise<{ status: number; body: any }>, number, string]> = [
      [upload({ title: 'T', language: 'en' }, talk(), noSub.key), 403, 'FORBIDDEN'],
      [upload({ title: 'T', language: 'en' }, talk(), broke.key), 402, 'PAYMENT_REQUIRED'],
      [upload({ title: 'T', language: 'en', minClipLength: '9' }, talk()), 400, 'VALIDATION_ERROR'],
      [upload({ title: 'T', language: 'en', faceTracking: 'maybe' }, talk()), 400, 'VALIDATION_ERROR'],
      [upload({ title: 'T', language: 'en', videoshareUrl: URL_OK }, talk()), 400, 'VALIDATION_ERROR'],
      [upload({ title: 'T', language: 'en' }), 400, 'VALIDATION_ERROR'],
      [upload({ title: 'T', language: 'en' }, { bytes: Buffer.from('not a video at all'), name: 'a.mp4', type: 'video/mp4' }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
      [upload({ title: 'T', language: 'en' }, { bytes: Buffer.alloc(1024 * 1024 + 1), name: 'big.mp4', type: 'video/mp4' }), 413, 'PAYLOAD_TOO_LARGE'],
    ];
    for (const [answer, status, error] of cases) {
      const r = await answer;
      expect({ status: r.status, error: r.body.error }).toEqual({ status, error });
    }
    expect([await clipCredits(user.id), await projectsOf(user.id), await sources()]).toEqual(before);
    expect(await projectsOf(noSub.id)).toBe(0);
    expect(await projectsOf(broke.id)).toBe(0);
  });

  it('takes the controls beyond SPEC.md and refuses them with the same words as REST', async () => {
    const WITH =
      'mutation($input: CreateMagicClipsInput!) { createMagicClips(input: $input) { id clipCount topic range { startTime endTime } aspectRatio hookTitle } }';
    const r = await gql(app, user.key, WITH, {
      input: body({ clipCount: 3, topic: 'habits', range: { startTime: 0, endTime: 90 }, aspectRatio: '1:1', hookTitle: true }),
    });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.createMagicClips).toMatchObject({ clipCount: 3, topic: 'habits', range: { startTime: 0, endTime: 90 }, aspectRatio: '1:1' });
    const bad = await gql(app, user.key, WITH, { input: body({ clipCount: 0, range: { startTime: 0, endTime: 5 }, aspectRatio: '2:1' }) });
    const details = bad.body.errors![0].extensions!.details as Array<{ field: string; message: string }>;
    const rest = await post(body({ clipCount: 0, range: { startTime: 0, endTime: 5 }, aspectRatio: '2:1' }));
    expect(details.map((d) => [d.field, d.message]).sort()).toEqual(
      rest.body.details.map((d: { field: string; message: string }) => [d.field, d.message]).sort(),
    );
    expect(details.map((d) => d.field).sort()).toEqual(['aspectRatio', 'clipCount', 'range']);
  });
});

describe('GraphQL createMagicClips and uploadMagicClips', () => {
  const CREATE =
    'mutation($input: CreateMagicClipsInput!) { createMagicClips(input: $input) { id kind status minClipLength maxClipLength faceTracking magicClips { id } } }';

  it('creates the same project as the REST route', async () => {
    const r = await gql(app, user.key, CREATE, { input: body({ maxClipLength: 30 }) });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.createMagicClips).toMatchObject({
      kind: 'magic_clips',
      status: 'processing',
      minClipLength: 15,
      maxClipLength: 30,
      faceTracking: true,
      magicClips: [],
    });
  });

  it('refuses with the same codes: FORBIDDEN, PAYMENT_REQUIRED, VALIDATION_ERROR naming the fields', async () => {
    const noSub = await createUser(app, { clipCredits: 3 });
    const broke = await createUser(app, { clipsSubscription: true });
    const code = (r: { body: any }) => r.body.errors?.[0]?.extensions?.code;
    expect(code(await gql(app, noSub.key, CREATE, { input: body() }))).toBe('FORBIDDEN');
    expect(code(await gql(app, broke.key, CREATE, { input: body() }))).toBe('PAYMENT_REQUIRED');
    const bad = await gql(app, user.key, CREATE, { input: body({ videoshareUrl: 'https://example.com/v', minClipLength: 50, maxClipLength: 20 }) });
    expect(code(bad)).toBe('VALIDATION_ERROR');
    expect(bad.body.errors![0].extensions!.details.map((d: { field: string }) => d.field).sort()).toEqual(['minClipLength', 'videoshareUrl']);
    expect(await projectsOf(noSub.id)).toBe(0);
    expect(await projectsOf(broke.id)).toBe(0);
  });

  it('uploads through a GraphQL multipart request', async () => {
    const f = new FormData();
    f.append(
      'operations',
      JSON.stringify({
        query: 'mutation($input: UploadMagicClipsInput!, $file: Upload!) { uploadMagicClips(input: $input, file: $file) { id kind title } }',
        variables: { input: { title: 'G', language: 'en' }, file: null },
      }),
    );
    f.append('map', JSON.stringify({ 0: ['variables.file'] }));
    f.append('0', new Blob([new Uint8Array(await fs.readFile(fx.talk))], { type: 'video/mp4' }), 'talk.mp4');
    const r = await request(app, 'POST', '/graphql', { key: user.key, body: f, headers: { 'graphql-preflight': '1' } });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.uploadMagicClips).toMatchObject({ kind: 'magic_clips', title: 'G' });
  });
});
