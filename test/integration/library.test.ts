import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMusicTrack } from '../../src/library/music.js';
import { createUser, gql, request, startTestApp, type TestApp, type TestUser, waitEntry as waitEntryOf } from '../support/app.js';
import { FF, type FileServer, type Fixtures, mediaFixtures, serveFolder } from '../support/media.js';

const run = promisify(execFile);
let app: TestApp;
let files: FileServer;
let fx: Fixtures;
let user: TestUser;

beforeAll(async () => {
  fx = await mediaFixtures();
  [app, files] = await Promise.all([startTestApp(), serveFolder(fx.dir)]);
  user = await createUser(app);
});
afterAll(async () => {
  await files?.close();
  await app?.stop();
});

const count = () => app.runtime.app.db.userMedia.count({ where: { userId: user.id } });

const waitEntry = (key: string, id: string, until?: (m: any) => boolean, timeoutMs?: number) => waitEntryOf(app, key, id, until, timeoutMs);

function multipart(name: string, body: Buffer, type: string, extra: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(extra)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(body)], { type }), name);
  return form;
}

describe('POST /v1/user-media (by URL)', () => {
  it('accepts audio, video and image URLs at once; a job fetches, probes and describes them', async () => {
    const ids: Record<string, string> = {};
    for (const [kind, file] of [
      ['audio', 'tone.mp3'],
      ['video', 'clip.mp4'],
      ['image', 'image.png'],
    ] as const) {
      const r = await request(app, 'POST', '/v1/user-media', { key: user.key, json: { url: files.url(file) } });
      expect(r.status).toBe(201);
      expect(r.body).toEqual({ userMediaId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      ids[kind] = r.body.userMediaId;
    }
    const audio = await waitEntry(user.key, ids.audio);
    expect(audio).toMatchObject({ type: 'AUDIO', status: 'ready', fileName: 'tone.mp3', failureReason: null });
    expect(audio.metadata.duration).toBeCloseTo(3, 0);
    expect(audio.metadata.fileSize).toBe((await fs.stat(fx.audio)).size);
    const video = await waitEntry(user.key, ids.video);
    expect(video).toMatchObject({ type: 'VIDEO', status: 'ready', metadata: { width: 320, height: 240, fileSize: (await fs.stat(fx.video)).size } });
    expect(video.metadata.duration).toBeCloseTo(2, 0);
    const image = await waitEntry(user.key, ids.image);
    expect(image).toMatchObject({ type: 'IMAGE', status: 'ready', metadata: { width: 64, height: 48, fileSize: expect.any(Number) } });

    // the url of a ready entry serves the stored bytes
    const res = await fetch(video.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(Buffer.from(await res.arrayBuffer()).equals(await fs.readFile(fx.video))).toBe(true);
  });

  const refused: Array<[string, () => string, RegExp]> = [
    ['an invalid URL', () => 'not a url', /not a valid URL/],
    ['a non-http scheme', () => 'ftp://example.com/a.mp4', /http or https/],
    ['a social-media page', () => 'https://www.youtube.com/watch?v=abc', /social|page|youtube/i],
    ['a file-sharing folder link', () => 'https://drive.google.com/drive/folders/abc123', /folder/i],
    ['an unreachable URL', () => 'http://127.0.0.1:1/a.mp4', /cannot be fetched/],
    ['a missing file', () => files.url('nope.mp4'), /cannot be fetched/],
    ['a web page', () => files.url('page.html'), /web page/],
    ['a text file', () => files.url('notes.txt'), /text/],
  ];
  for (const [what, url, message] of refused) {
    it(`refuses ${what} with 400 VALIDATION_ERROR naming url, storing nothing`, async () => {
      const before = await count();
      const r = await request(app, 'POST', '/v1/user-media', { key: user.key, json: { url: url() } });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ field: 'url', message: expect.stringMatching(message) }] });
      expect(await count()).toBe(before);
    });
  }

  it('refuses a missing or non-string url naming url', async () => {
    for (const json of [{}, { url: 42 }]) {
      const r = await request(app, 'POST', '/v1/user-media', { key: user.key, json });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('VALIDATION_ERROR');
      expect(r.body.details[0].field).toBe('url');
    }
  });

  it('refuses private addresses unless ALLOW_PRIVATE_NETWORK is set', async () => {
    const strict = await startTestApp({ env: { ALLOW_PRIVATE_NETWORK: '' } });
    try {
      const u = await createUser(strict);
      const r = await request(strict, 'POST', '/v1/user-media', { key: u.key, json: { url: files.url('clip.mp4') } });
      expect(r.status).toBe(400);
      expect(r.body.details[0]).toMatchObject({ field: 'url', message: expect.stringMatching(/private|loopback|local/i) });
    } finally {
      await strict.stop();
    }
  });

  it('marks an entry failed, with a reason, when its bytes turn out not to be media', async () => {
    const r = await request(app, 'POST', '/v1/user-media', { key: user.key, json: { url: files.url('noise.bin') } });
    expect(r.status).toBe(201);
    const m = await waitEntry(user.key, r.body.userMediaId);
    expect(m.status).toBe('failed');
    expect(m.failureReason).toMatch(/not a readable video, audio or image/);
  });
});

describe('POST /v1/user-media/upload', () => {
  it('streams a multipart file to storage; the entry is ready at once', async () => {
    const body = await fs.readFile(fx.audio);
    const r = await request(app, 'POST', '/v1/user-media/upload', { key: user.key, body: multipart('my tone.mp3', body, 'audio/mpeg') });
    expect(r.status).toBe(201);
    const m = await waitEntry(user.key, r.body.userMediaId, () => true);
    expect(m).toMatchObject({ type: 'AUDIO', status: 'ready', fileName: 'my tone.mp3', metadata: { fileSize: body.length } });
    const stored = await fetch(m.url);
    expect(Buffer.from(await stored.arrayBuffer()).equals(body)).toBe(true);
  });

  it('judges the type by content: a text file named .mp4 is 415 and leaves nothing', async () => {
    const before = await count();
    const r = await request(app, 'POST', '/v1/user-media/upload', { key: user.key, body: multipart('fake.mp4', Buffer.from('hello'), 'video/mp4') });
    expect(r.status).toBe(415);
    expect(r.body.error).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(await count()).toBe(before);
    const left = await fs.readdir(path.join(app.dataDir, 'media', 'user-media')).catch(() => []);
    const rows = await app.runtime.app.db.userMedia.findMany({ select: { id: true } });
    expect(left.filter((d) => !rows.some((row) => row.id === d))).toEqual([]);
  });

  it('a JSON body is 400 VALIDATION_ERROR about the Content-Type; a form without file names file', async () => {
    const json = await request(app, 'POST', '/v1/user-media/upload', { key: user.key, json: { file: 'x' } });
    expect(json.status).toBe(400);
    expect(json.body).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ field: 'Content-Type' }] });
    const form = new FormData();
    form.append('other', 'x');
    const none = await request(app, 'POST', '/v1/user-media/upload', { key: user.key, body: form });
    expect(none.status).toBe(400);
    expect(none.body.details[0].field).toBe('file');
  });

  it('GraphQL uploadUserMedia takes a multipart request (GraphQL multipart request spec)', async () => {
    const form = new FormData();
    form.append(
      'operations',
      JSON.stringify({ query: 'mutation($file: Upload!) { uploadUserMedia(file: $file) { userMediaId } }', variables: { file: null } }),
    );
    form.append('map', JSON.stringify({ 0: ['variables.file'] }));
    form.append('0', new Blob([new Uint8Array(await fs.readFile(fx.image))], { type: 'image/png' }), 'pic.png');
    const r = await request(app, 'POST', '/graphql', { key: user.key, body: form, headers: { 'graphql-require-preflight': '1' } });
    expect(r.status).toBe(200);
    const id = r.body.data.uploadUserMedia.userMediaId;
    const m = await waitEntry(user.key, id, () => true);
    expect(m).toMatchObject({ type: 'IMAGE', status: 'ready', fileName: 'pic.png', metadata: { width: 64, height: 48 } });
  });
});

describe('a library file is ready only once its first frames decode', () => {
  /** damaged files beside the fixtures: what the first look and ffprobe's header reading both accept */
  let damaged: Record<'junkPng' | 'cutVideo' | 'tinyPng' | 'widePng', { name: string; bytes: Buffer; type: string; reason: RegExp }>;
  beforeAll(async () => {
    // a faststart mp4 cut 200 bytes into its media data: the header (and its duration) is whole, no frame is there
    const talk = await fs.readFile(fx.talk);
    const cut = talk.subarray(0, talk.indexOf('mdat') + 4 + 200);
    const png = async (size: string, name: string) => {
      await run('ffmpeg', [...FF, '-f', 'lavfi', '-i', `color=c=blue:s=${size}`, '-frames:v', '1', path.join(fx.dir, name)]);
      return fs.readFile(path.join(fx.dir, name));
    };
    damaged = {
      junkPng: { name: 'j.png', bytes: Buffer.from([0xde, 0xad, 0xbe, 0xef]), type: 'image/png', reason: /image cannot be decoded/ },
      cutVideo: { name: 'cut.mp4', bytes: cut, type: 'video/mp4', reason: /video's first frames cannot be decoded/ },
      tinyPng: { name: 'tiny.png', bytes: await png('8x8', 'tiny.png'), type: 'image/png', reason: /8x8 pixels; pictures must be 16 to 8192 pixels/ },
      widePng: { name: 'wide.png', bytes: await png('8200x16', 'wide.png'), type: 'image/png', reason: /8200x16 pixels; pictures must be 16 to 8192 pixels/ },
    };
    await Promise.all(Object.values(damaged).map((d) => fs.writeFile(path.join(fx.dir, d.name), d.bytes)));
  });

  for (const which of ['junkPng', 'cutVideo', 'tinyPng', 'widePng'] as const) {
    it(`${which}: an upload is 415 with the reason and leaves nothing; by URL the entry ends failed with the reason`, async () => {
      const d = damaged[which];
      const before = await count();
      const up = await request(app, 'POST', '/v1/user-media/upload', { key: user.key, body: multipart(d.name, d.bytes, d.type) });
      expect(up.status).toBe(415);
      expect(up.body).toMatchObject({ error: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringMatching(d.reason) });
      expect(await count()).toBe(before);

      const byUrl = await request(app, 'POST', '/v1/user-media', { key: user.key, json: { url: files.url(d.name) } });
      expect(byUrl.status).toBe(201);
      const m = await waitEntry(user.key, byUrl.body.userMediaId);
      expect(m).toMatchObject({ status: 'failed', failureReason: expect.stringMatching(d.reason) });
      const row = await app.runtime.app.db.userMedia.findUniqueOrThrow({ where: { id: m.id } });
      expect(row.storageKey).toBeNull();
      const stored = await fs.readdir(path.join(app.dataDir, 'media', 'user-media', m.id)).catch(() => []);
      expect(stored).toEqual([]);
    });
  }

  it('whole files of every kind, uploaded, are ready with their sizes', async () => {
    for (const [file, type, kind, meta] of [
      [fx.image, 'image/png', 'IMAGE', { width: 64, height: 48 }],
      [fx.video, 'video/mp4', 'VIDEO', { width: 320, height: 240 }],
      [fx.talk, 'video/mp4', 'VIDEO', { width: 320, height: 240 }],
      [fx.audio, 'audio/mpeg', 'AUDIO', {}],
    ] as const) {
      const r = await request(app, 'POST', '/v1/user-media/upload', { key: user.key, body: multipart(path.basename(file), await fs.readFile(file), type) });
      expect(r.status).toBe(201);
      const m = await waitEntry(user.key, r.body.userMediaId, () => true);
      expect(m).toMatchObject({ type: kind, status: 'ready', metadata: meta });
    }
  });
});

describe('GET /v1/user-media', () => {
  let walker: TestUser;
  beforeAll(async () => {
    walker = await createUser(app);
    const db = app.runtime.app.db;
    const base = Date.now() - 1_000_000;
    await db.userMedia.createMany({
      data: Array.from({ length: 130 }, (_, i) => ({
        userId: walker.id,
        type: (['VIDEO', 'AUDIO', 'IMAGE'] as const)[i % 3],
        status: 'ready' as const,
        fileName: `f${i}.bin`,
        sourceUrl: `https://example.com/${i}`,
        metadata: { fileSize: i },
        // every 10 share a timestamp: ties are broken by id
        createdAt: new Date(base + Math.floor(i / 10) * 1000),
      })),
    });
  });

  it('walks every entry exactly once, newest first, while new entries arrive', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (;;) {
      const r = await request(app, 'GET', `/v1/user-media?limit=50${cursor ? `&cursor=${cursor}` : ''}`, { key: walker.key });
      expect(r.status).toBe(200);
      pages++;
      seen.push(...r.body.items.map((m: { id: string }) => m.id));
      // a new entry lands between pages: it must not show up later in this walk
      await app.runtime.app.db.userMedia.create({
        data: { userId: walker.id, type: 'AUDIO', status: 'ready', fileName: `new${pages}.mp3`, metadata: { fileSize: 1 } },
      });
      if (!r.body.hasMore) {
        expect('nextCursor' in r.body).toBe(false);
        break;
      }
      expect(r.body.nextCursor).toBe(r.body.items.at(-1).id);
      cursor = r.body.nextCursor;
    }
    expect(pages).toBe(3);
    expect(seen).toHaveLength(130);
    expect(new Set(seen).size).toBe(130);
    const rows = await app.runtime.app.db.userMedia.findMany({ where: { id: { in: seen } }, select: { id: true, createdAt: true } });
    const at = new Map(rows.map((r) => [r.id, r.createdAt.getTime()]));
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [at.get(seen[i - 1])!, at.get(seen[i])!];
      expect(a > b || (a === b && seen[i - 1] > seen[i])).toBe(true);
    }
  });

  it('filters by type and gives the same pages through GraphQL', async () => {
    const r = await request(app, 'GET', '/v1/user-media?type=IMAGE&limit=100', { key: walker.key });
    expect(r.body.items.length).toBeGreaterThanOrEqual(43);
    expect(r.body.items.every((m: { type: string }) => m.type === 'IMAGE')).toBe(true);
    const g = await gql(app, walker.key, '{ userMedia(first: 100, type: IMAGE) { edges { node { id } } pageInfo { hasNextPage } } }');
    expect(g.body.data.userMedia.edges.map((e: any) => e.node.id)).toEqual(r.body.items.map((m: any) => m.id));
  });

  it('lists entries with the fields of the spec', async () => {
    const r = await request(app, 'GET', '/v1/user-media?limit=1', { key: walker.key });
    expect(r.body.items[0]).toEqual({
      id: expect.any(String),
      type: expect.stringMatching(/^(VIDEO|AUDIO|IMAGE)$/),
      status: 'ready',
      fileName: expect.any(String),
      url: expect.any(String),
      metadata: expect.any(Object),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['type=SOUND', 'type'],
    ['cursor=not-a-uuid', 'cursor'],
  ])('%s is 400 VALIDATION_ERROR naming %s', async (query, field) => {
    const r = await request(app, 'GET', `/v1/user-media?${query}`, { key: walker.key });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ field }] });
  });

  it("keeps users apart: another user's cursor is refused and their entries never listed", async () => {
    const mine = await request(app, 'GET', '/v1/user-media?limit=1', { key: walker.key });
    const other = await request(app, 'GET', `/v1/user-media?cursor=${mine.body.items[0].id}`, { key: user.key });
    expect(other.status).toBe(400);
    expect(other.body.details[0].field).toBe('cursor');
    const all = await request(app, 'GET', '/v1/user-media?limit=100', { key: user.key });
    expect(all.body.items.some((m: { fileName: string }) => /^f\d+\.bin$/.test(m.fileName))).toBe(false);
    const g = await gql(app, user.key, 'query($id: ID!) { userMediaEntry(id: $id) { id } }', { id: mine.body.items[0].id });
    expect(g.body.errors![0].extensions!.code).toBe('NOT_FOUND');
  });

  it('counts requests against the hourly limit and says so in headers', async () => {
    const r = await request(app, 'GET', '/v1/user-media?limit=1', { key: walker.key });
    expect(r.headers.get('x-ratelimit-limit')).toBe('500');
    expect(Number(r.headers.get('x-ratelimit-remaining'))).toBeLessThan(500);
  });

  it('answers 429 with Retry-After and retryAfter once the limit is used up, on both doors', async () => {
    const u = await createUser(app);
    await app.runtime.app.limits.spend(u.id, new Map([['userMedia', 500]]));
    const r = await request(app, 'GET', '/v1/user-media', { key: u.key });
    expect(r.status).toBe(429);
    expect(r.body).toMatchObject({ error: 'RATE_LIMIT_EXCEEDED', retryAfter: expect.any(Number) });
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    const g = await gql(app, u.key, '{ userMedia { edges { node { id } } } }');
    expect(g.status).toBe(429);
    expect(g.body.errors![0].extensions).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', retryAfter: expect.any(Number) });
    // another operation of the same user is not limited by it
    expect((await request(app, 'GET', '/v1/templates', { key: u.key })).status).toBe(200);
  });
});

describe('music catalogue', () => {
  it('a track added by the operator is listed by GET /v1/music and GraphQL', async () => {
    const track = await addMusicTrack(app.runtime.app, 'Test tone', files.url('tone.mp3'));
    expect(track.status).toBe('ready');
    const r = await request(app, 'GET', '/v1/music', { key: user.key });
    expect(r.status).toBe(200);
    expect(r.body.items).toContainEqual({ id: track.id, name: 'Test tone', duration: expect.closeTo(3, 0) });
    const g = await gql(app, user.key, '{ music { id name duration } }');
    expect(g.body.data.music.map((m: { id: string }) => m.id)).toContain(track.id);
  });

  it('a URL that is not audio leaves no track', async () => {
    await expect(addMusicTrack(app.runtime.app, 'Bad', files.url('page.html'))).rejects.toMatchObject({ extensions: { code: 'VALIDATION_ERROR' } });
    expect(await app.runtime.app.db.musicTrack.count({ where: { name: 'Bad' } })).toBe(0);
  });

  it('a file whose sound does not decode (cut after its header) leaves no track', async () => {
    const talk = await fs.readFile(fx.talk);
    await fs.writeFile(path.join(fx.dir, 'cut-music.mp4'), talk.subarray(0, talk.indexOf('mdat') + 4 + 200));
    await expect(addMusicTrack(app.runtime.app, 'Cut', files.url('cut-music.mp4'))).rejects.toMatchObject({
      extensions: { code: 'VALIDATION_ERROR' },
      message: expect.stringMatching(/audio cannot be decoded/),
    });
    expect(await app.runtime.app.db.musicTrack.count({ where: { name: 'Cut' } })).toBe(0);
  });
});
