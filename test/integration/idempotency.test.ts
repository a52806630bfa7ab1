// Idempotency-Key on the POSTs of /v1 and on GraphQL mutations: a retry gets the first answer, the work is done once.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Upload } from 'graphql-upload-ts';
import { canonicalJson, findUploads, withDigests } from '../../src/idempotency/fingerprint.js';
import { claimKey, IDEMPOTENCY_KEY_TTL_MS } from '../../src/idempotency/keys.js';
import { JOB_NAMES } from '../../src/jobs/names.js';
import { JOBS_TABLE } from '../../workers/table.js';
import { createUser, request, startTestApp, type Answer, type TestApp, type TestUser } from '../support/app.js';
import { H264_AAC } from '../support/media.js';

const run = promisify(execFile);

let app: TestApp;
let user: TestUser;
let media: { url: (p: string) => string; hits: (p: string) => number; close: () => Promise<void> };
let png: Buffer;
let otherPng: Buffer;
let mp4: Buffer;
let n = 0;
/** a fresh key per test, so tests do not share records */
const newKey = () => `key-${Date.now()}-${++n}`;

/**
 * Media URLs for the creation checks, counting how often each path was fetched:
 * `/slow/...` answers after 1.5 s, so a first request is still running when its retry arrives.
 */
async function mediaServer() {
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(p, (hits.get(p) ?? 0) + 1);
    const answer = () => {
      if (p.endsWith('.html')) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><html><body>a page</body></html>');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 251)));
    };
    if (p.startsWith('/slow/')) setTimeout(answer, 1500);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (p: string) => `${base}${p}`,
    hits: (p: string) => hits.get(p) ?? 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

beforeAll(async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'idem-'));
  for (const [name, size] of [
    ['a.png', '64x48'],
    ['b.png', '48x64'],
  ]) {
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=s=${size}`, '-frames:v', '1', path.join(dir, name)]);
  }
  await run('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=s=160x120:r=25:d=1',
    '-f',
    'lavfi',
    '-i',
    'sine=f=330:d=1',
    ...H264_AAC,
    '-shortest',
    path.join(dir, 'talk.mp4'),
  ]);
  [png, otherPng, mp4] = await Promise.all(['a.png', 'b.png', 'talk.mp4'].map((f) => fs.readFile(path.join(dir, f))));
  await fs.rm(dir, { recursive: true, force: true });
  // API only: queued jobs stay queued, so they can be counted
  [app, media] = await Promise.all([startTestApp({ role: 'server' }), mediaServer()]);
  user = await createUser(app, { aiCredits: 100 });
});
afterAll(async () => {
  await media?.close();
  await app?.stop();
});

const db = () => app.runtime.app.db;
const post = (url: string, key: string, idempotencyKey: string | undefined, json: unknown) =>
  request(app, 'POST', url, { key, json, headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey } });
const upload = (key: string, idempotencyKey: string, file: Buffer, name = 'pic.png') => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)], { type: 'image/png' }), name);
  return request(app, 'POST', '/v1/user-media/upload', { key, body: form, headers: { 'idempotency-key': idempotencyKey } });
};
const gqlWithKey = (key: string, idempotencyKey: string, query: string, variables?: Record<string, unknown>) =>
  request(app, 'POST', '/graphql', { key, json: { query, variables }, headers: { 'idempotency-key': idempotencyKey } });
const replayed = (r: Answer) => r.headers.get('idempotent-replayed');
const mediaCount = (userId = user.id) => db().userMedia.count({ where: { userId } });
const CREATE_MEDIA = 'mutation($url: String!) { createUserMedia(url: $url) { userMediaId } }';

describe('Idempotency-Key on the POSTs of /v1', () => {
  it('POST /v1/projects: the same key and body answer the first answer again; one project, one debit, one job', async () => {
    const key = newKey();
    const video = `/talk-${key}.mp4`;
    const body = {
      title: 'Once',
      language: 'en',
      videoUrl: media.url(video),
      items: [{ type: 'ai-broll', startTime: 1, endTime: 3, prompt: 'a lake at dawn' }],
    };
    const first = await post('/v1/projects', user.key, key, body);
    expect(first.status).toBe(201);
    expect(replayed(first)).toBeNull();
    // the same body with its keys in another order is the same request
    const again = await post('/v1/projects', user.key, key, {
      items: [{ prompt: 'a lake at dawn', endTime: 3, startTime: 1, type: 'ai-broll' }],
      videoUrl: body.videoUrl,
      language: 'en',
      title: 'Once',
    });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(replayed(again)).toBe('true');

    const id = first.body.id as string;
    expect(await db().project.count({ where: { userId: user.id, title: 'Once' } })).toBe(1);
    expect(await db().creditLedger.count({ where: { userId: user.id, subjectId: id } })).toBe(1);
    const jobs = await db().$queryRawUnsafe<Array<{ n: bigint }>>(
      `SELECT count(*) AS n FROM ${JOBS_TABLE} WHERE name = $1 AND data->>'projectId' = $2`,
      JOB_NAMES.processProject,
      id,
    );
    expect(Number(jobs[0].n)).toBe(1);
    expect(media.hits(video)).toBe(1);
  });

  it('an answer kept as HTTP before one layer kept both doors is replayed as it was sent', async () => {
    const key = newKey();
    const body = { url: media.url(`/kept-${key}.png`) };
    const first = await post('/v1/user-media', user.key, key, body);
    expect(first.status).toBe(201);
    // the row as the REST door of an earlier version kept it: the status, the headers, the body's text
    const earlier = { status: 201, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ userMediaId: 'kept-then' }) };
    await db().idempotencyKey.updateMany({ where: { userId: user.id, key }, data: { response: earlier } });
    const count = await mediaCount();
    const again = await post('/v1/user-media', user.key, key, body);
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ userMediaId: 'kept-then' });
    expect(replayed(again)).toBe('true');
    expect(await mediaCount()).toBe(count);
  });

  it('the same key with another body is 400 VALIDATION_ERROR on Idempotency-Key, and nothing is done', async () => {
    const key = newKey();
    const first = await post('/v1/user-media', user.key, key, { url: media.url(`/a-${key}.bin`) });
    expect(first.status).toBe(201);
    const before = await mediaCount();
    const other = await post('/v1/user-media', user.key, key, { url: media.url(`/b-${key}.bin`) });
    expect(other.status).toBe(400);
    expect(other.body).toEqual({
      error: 'VALIDATION_ERROR',
      message: expect.stringMatching(/Idempotency-Key.*another request/),
      details: [{ field: 'Idempotency-Key', message: expect.stringMatching(/another request body.*new key/) }],
    });
    expect(await mediaCount()).toBe(before);
    expect(media.hits(`/b-${key}.bin`)).toBe(0);
  });

  it('a retry arriving while the first request runs waits for it and gets its answer, on another instance too', async () => {
    const second = await startTestApp({ role: 'server', database: app.database });
    try {
      const key = newKey();
      const slow = `/slow/${key}.bin`;
      const before = await mediaCount();
      const first = post('/v1/user-media', user.key, key, { url: media.url(slow) });
      while (media.hits(slow) === 0) await new Promise((r) => setTimeout(r, 20));
      // the first request is inside its URL check now; the retry goes to the other instance
      const t0 = Date.now();
      const retry = request(second, 'POST', '/v1/user-media', { key: user.key, json: { url: media.url(slow) }, headers: { 'idempotency-key': key } });
      const [a, b] = await Promise.all([first, retry]);
      expect(a.status).toBe(201);
      expect(b.status).toBe(201);
      expect(b.body).toEqual(a.body);
      expect(replayed(b)).toBe('true');
      expect(Date.now() - t0).toBeGreaterThan(1000);
      expect(media.hits(slow)).toBe(1);
      expect(await mediaCount()).toBe(before + 1);
    } finally {
      await second.stop();
    }
  });

  it('a 4xx answer is kept and replayed without checking again', async () => {
    const key = newKey();
    const page = `/page-${key}.html`;
    const first = await post('/v1/user-media', user.key, key, { url: media.url(page) });
    expect(first.status).toBe(400);
    expect(first.body).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ field: 'url', message: expect.stringMatching(/web page/) }] });
    const again = await post('/v1/user-media', user.key, key, { url: media.url(page) });
    expect(again.status).toBe(400);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(replayed(again)).toBe('true');
    expect(media.hits(page)).toBe(1);
  });

  it('a 4xx answer quoting a NUL character or an unpaired surrogate is kept and replayed like any other', async () => {
    for (const title of ['a\u0000b', 'x\ud800y']) {
      const key = newKey();
      const body = { title, language: 'en', videoUrl: media.url(`/v-${key}.bin`) };
      const first = await post('/v1/projects', user.key, key, body);
      expect(first.status).toBe(400);
      expect(first.body.details).toEqual([expect.objectContaining({ field: 'title', value: title })]);
      const again = await post('/v1/projects', user.key, key, body);
      expect(again.body).toEqual(first.body);
      expect(replayed(again)).toBe('true');
    }
    const key = newKey();
    const op = 'mutation($t: String!) { createProject(input: { title: $t, language: "en", videoUrl: "http://127.0.0.1:1/v.mp4" }) { id } }';
    const first = await gqlWithKey(user.key, key, op, { t: 'a\u0000b' });
    expect(first.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    const again = await gqlWithKey(user.key, key, op, { t: 'a\u0000b' });
    expect(again.body).toEqual(first.body);
    expect(replayed(again)).toBe('true');
  });

  it('a replay spends no rate-limit point and carries no rate-limit headers', async () => {
    const key = newKey();
    const body = { url: media.url(`/limit-${key}.bin`) };
    const first = await post('/v1/user-media', user.key, key, body);
    const left = Number(first.headers.get('x-ratelimit-remaining'));
    expect(left).toBeGreaterThan(0);
    const again = await post('/v1/user-media', user.key, key, body);
    expect(replayed(again)).toBe('true');
    expect(again.headers.get('x-ratelimit-remaining')).toBeNull();
    const next = await post('/v1/user-media', user.key, newKey(), body);
    expect(Number(next.headers.get('x-ratelimit-remaining'))).toBe(left - 1);
  });

  it('keys are per user: two users sending the same key and body each get their own answer', async () => {
    const other = await createUser(app);
    const key = newKey();
    const body = { url: media.url(`/shared-${key}.bin`) };
    const a = await post('/v1/user-media', user.key, key, body);
    const b = await post('/v1/user-media', other.key, key, body);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body.userMediaId).not.toBe(a.body.userMediaId);
    expect(replayed(b)).toBeNull();
    expect(await mediaCount(other.id)).toBe(1);
  });

  it('keys are per route: the same key on another POST route is another record', async () => {
    const key = newKey();
    const media1 = await post('/v1/user-media', user.key, key, { url: media.url(`/r-${key}.bin`) });
    const project = await post('/v1/projects', user.key, key, { title: 'Per route', language: 'en', videoUrl: media.url(`/r-${key}.mp4`) });
    expect([media1.status, project.status]).toEqual([201, 201]);
    expect(replayed(project)).toBeNull();
  });

  it('an upload: the same file again is the first answer, another file under the key is refused', async () => {
    const key = newKey();
    const before = await mediaCount();
    const first = await upload(user.key, key, png);
    expect(first.status).toBe(201);
    // another request: another multipart boundary, the same form and bytes
    const again = await upload(user.key, key, png);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(replayed(again)).toBe('true');
    expect(await mediaCount()).toBe(before + 1);

    const other = await upload(user.key, key, otherPng);
    expect(other.status).toBe(400);
    expect(other.body.details).toEqual([{ field: 'Idempotency-Key', message: expect.stringMatching(/another request body/) }]);
    const renamed = await upload(user.key, key, png, 'other-name.png');
    expect(renamed.status).toBe(400);
    expect(await mediaCount()).toBe(before + 1);
  });

  it('POST /v1/projects/upload: the same form again (parts in another order) is the first answer; another field is refused', async () => {
    const send = (key: string, title: string, fileFirst = false) => {
      const form = new FormData();
      const file = () => form.append('file', new Blob([new Uint8Array(mp4)], { type: 'video/mp4' }), 'talk.mp4');
      if (fileFirst) file();
      form.append('title', title);
      form.append('language', 'en');
      if (!fileFirst) file();
      return request(app, 'POST', '/v1/projects/upload', { key: user.key, body: form, headers: { 'idempotency-key': key } });
    };
    const key = newKey();
    const title = `Upload ${key}`;
    const first = await send(key, title);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await send(key, title, true);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(replayed(again)).toBe('true');
    const other = await send(key, `${title} (2)`);
    expect(other.status).toBe(400);
    expect(other.body.details).toEqual([{ field: 'Idempotency-Key', message: expect.stringMatching(/another request body/) }]);
    expect(await db().project.count({ where: { userId: user.id, title: { startsWith: title } } })).toBe(1);
    const jobs = await db().$queryRawUnsafe<Array<{ n: bigint }>>(
      `SELECT count(*) AS n FROM ${JOBS_TABLE} WHERE name = $1 AND data->>'projectId' = $2`,
      JOB_NAMES.processProject,
      first.body.id,
    );
    expect(Number(jobs[0].n)).toBe(1);
  });

  it('a refused upload is kept like any 4xx', async () => {
    const key = newKey();
    const junk = Buffer.from('not an image at all');
    const first = await upload(user.key, key, junk, 'junk.png');
    expect(first.status).toBe(415);
    const again = await upload(user.key, key, junk, 'junk.png');
    expect(again.status).toBe(415);
    expect(again.body).toEqual(first.body);
    expect(replayed(again)).toBe('true');
  });

  it('a request refused by authentication keeps nothing; a malformed key is 400 on Idempotency-Key', async () => {
    const key = newKey();
    const body = { url: media.url(`/auth-${key}.bin`) };
    const bad = await post('/v1/user-media', 'sk-not-a-key', key, body);
    expect(bad.status).toBe(401);
    expect(await db().idempotencyKey.count({ where: { key } })).toBe(0);
    // the same key then works for the real user
    expect((await post('/v1/user-media', user.key, key, body)).status).toBe(201);

    for (const value of ['', '   ', 'x'.repeat(256), 'caf\u00e9']) {
      const r = await request(app, 'POST', '/v1/user-media', { key: user.key, json: body, headers: { 'idempotency-key': value } });
      expect(r.status, JSON.stringify(value)).toBe(400);
      expect(r.body).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ field: 'Idempotency-Key' }] });
    }
    // the quoted form of the header field is the same key
    const quoted = await request(app, 'POST', '/v1/user-media', { key: user.key, json: body, headers: { 'idempotency-key': `"${key}"` } });
    expect(quoted.status).toBe(201);
    expect(replayed(quoted)).toBe('true');
  });

  it('a body nested thousands deep is refused as without the key, and its refusal kept, not a 500', async () => {
    const key = newKey();
    const deep = `{"title":"Deep","language":"en","videoUrl":${JSON.stringify(media.url(`/deep-${key}.bin`))},"dictionary":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    const send = (idempotencyKey?: string) =>
      request(app, 'POST', '/v1/projects', {
        key: user.key,
        body: deep,
        headers: { 'content-type': 'application/json', ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
      });
    const without = await send();
    expect(without.status).toBe(400);
    const first = await send(key);
    expect(first.status, JSON.stringify(first.body)).toBe(400);
    expect(first.body).toEqual(without.body);
    const again = await send(key);
    expect(again.status).toBe(400);
    expect(again.body).toEqual(first.body);
    expect(replayed(again)).toBe('true');
  });

  it('without the header, every POST runs', async () => {
    const body = { url: media.url(`/nokey-${newKey()}.bin`) };
    const a = await post('/v1/user-media', user.key, undefined, body);
    const b = await post('/v1/user-media', user.key, undefined, body);
    expect(b.body.userMediaId).not.toBe(a.body.userMediaId);
  });
});

describe('Idempotency-Key on GraphQL mutations', () => {
  it('the same mutation and variables answer the first result again, once', async () => {
    const key = newKey();
    const file = `/g-${key}.bin`;
    const before = await mediaCount();
    const first = await gqlWithKey(user.key, key, CREATE_MEDIA, { url: media.url(file) });
    expect(first.status).toBe(200);
    expect(first.body.data.createUserMedia.userMediaId).toMatch(/^[0-9a-f-]{36}$/);
    // the same document, written otherwise
    const again = await gqlWithKey(user.key, key, `mutation ($url: String!) {\n  createUserMedia(url: $url) {\n    userMediaId\n  }\n}`, {
      url: media.url(file),
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(replayed(again)).toBe('true');
    expect(await mediaCount()).toBe(before + 1);
    expect(media.hits(file)).toBe(1);
  });

  it('the same key with other variables is 400 VALIDATION_ERROR on Idempotency-Key', async () => {
    const key = newKey();
    expect((await gqlWithKey(user.key, key, CREATE_MEDIA, { url: media.url(`/g1-${key}.bin`) })).status).toBe(200);
    const before = await mediaCount();
    const other = await gqlWithKey(user.key, key, CREATE_MEDIA, { url: media.url(`/g2-${key}.bin`) });
    expect(other.status).toBe(400);
    expect(other.body.data).toBeUndefined();
    expect(other.body.errors).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/Idempotency-Key/),
        extensions: expect.objectContaining({
          code: 'VALIDATION_ERROR',
          details: [{ field: 'Idempotency-Key', message: expect.stringMatching(/another request body/) }],
        }),
      }),
    ]);
    expect(await mediaCount()).toBe(before);
  });

  it('variables nested thousands deep are refused as without the key, not with an internal error', async () => {
    const key = newKey();
    const query = 'mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }';
    const body = `{"query":${JSON.stringify(query)},"variables":{"input":{"title":"Deep","language":"en","videoUrl":${JSON.stringify(media.url(`/gdeep-${key}.bin`))},"hookTitle":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}}}`;
    const send = (idempotencyKey?: string) =>
      request(app, 'POST', '/graphql', {
        key: user.key,
        body,
        headers: { 'content-type': 'application/json', ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
      });
    const without = await send();
    expect(without.body.errors[0].extensions.code).toBe('VALIDATION_ERROR');
    const first = await send(key);
    expect(first.status).toBe(without.status);
    expect(first.body).toEqual(without.body);
  });

  it('a retry arriving while the first mutation runs waits for it and gets its result', async () => {
    const key = newKey();
    const slow = `/slow/g-${key}.bin`;
    const before = await mediaCount();
    const first = gqlWithKey(user.key, key, CREATE_MEDIA, { url: media.url(slow) });
    while (media.hits(slow) === 0) await new Promise((r) => setTimeout(r, 20));
    const [a, b] = await Promise.all([first, gqlWithKey(user.key, key, CREATE_MEDIA, { url: media.url(slow) })]);
    expect(a.body.data.createUserMedia.userMediaId).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.body).toEqual(a.body);
    expect(replayed(b)).toBe('true');
    expect(media.hits(slow)).toBe(1);
    expect(await mediaCount()).toBe(before + 1);
  });

  it('a replayed mutation spends no rate-limit point', async () => {
    const key = newKey();
    const vars = { url: media.url(`/glimit-${key}.bin`) };
    const first = await gqlWithKey(user.key, key, CREATE_MEDIA, vars);
    const left = Number(first.headers.get('x-ratelimit-remaining'));
    expect(left).toBeGreaterThan(0);
    expect(replayed(await gqlWithKey(user.key, key, CREATE_MEDIA, vars))).toBe('true');
    const next = await gqlWithKey(user.key, newKey(), CREATE_MEDIA, vars);
    expect(Number(next.headers.get('x-ratelimit-remaining'))).toBe(left - 1);
  });

  it('a refused mutation is kept and replayed, its error where it was', async () => {
    const key = newKey();
    const page = `/gpage-${key}.html`;
    const first = await gqlWithKey(user.key, key, CREATE_MEDIA, { url: media.url(page) });
    expect(first.body.errors[0]).toMatchObject({ path: ['createUserMedia'], extensions: { code: 'VALIDATION_ERROR' } });
    const again = await gqlWithKey(user.key, key, CREATE_MEDIA, { url: media.url(page) });
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    expect(replayed(again)).toBe('true');
    expect(media.hits(page)).toBe(1);
  });

  it('keys are per user, and a query ignores the header', async () => {
    const other = await createUser(app);
    const key = newKey();
    const vars = { url: media.url(`/gshared-${key}.bin`) };
    const a = await gqlWithKey(user.key, key, CREATE_MEDIA, vars);
    const b = await gqlWithKey(other.key, key, CREATE_MEDIA, vars);
    expect(b.body.data.createUserMedia.userMediaId).not.toBe(a.body.data.createUserMedia.userMediaId);
    expect(replayed(b)).toBeNull();

    const q = await gqlWithKey(user.key, newKey(), '{ captionTemplates { name } }');
    expect(q.status).toBe(200);
    expect(replayed(q)).toBeNull();
    expect(await db().idempotencyKey.count({ where: { userId: user.id, operation: { startsWith: 'query' } } })).toBe(0);
  });

  it('a multipart upload mutation: the same file is replayed, another file refused', async () => {
    const send = (idempotencyKey: string, file: Buffer) => {
      const form = new FormData();
      form.append(
        'operations',
        JSON.stringify({ query: 'mutation($file: Upload!) { uploadUserMedia(file: $file) { userMediaId } }', variables: { file: null } }),
      );
      form.append('map', JSON.stringify({ 0: ['variables.file'] }));
      form.append('0', new Blob([new Uint8Array(file)], { type: 'image/png' }), 'pic.png');
      return request(app, 'POST', '/graphql', { key: user.key, body: form, headers: { 'graphql-require-preflight': '1', 'idempotency-key': idempotencyKey } });
    };
    const key = newKey();
    const before = await mediaCount();
    const first = await send(key, png);
    expect(first.body.data.uploadUserMedia.userMediaId).toMatch(/^[0-9a-f-]{36}$/);
    const again = await send(key, png);
    expect(again.body).toEqual(first.body);
    expect(replayed(again)).toBe('true');
    const other = await send(key, otherPng);
    expect(other.status).toBe(400);
    expect(other.body.errors[0].extensions.details).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);
    expect(await mediaCount()).toBe(before + 1);
  });
});

describe('the fingerprint of a request', () => {
  /** the canonical form as it was first written: JSON.stringify with a replacer that sorts each object's keys */
  const former = (value: unknown) =>
    JSON.stringify(value ?? null, (_key, v: unknown) =>
      typeof v === 'object' && v !== null && !Array.isArray(v)
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, (v as Record<string, unknown>)[k]]),
          )
        : v,
    );

  it('is the text it always was, so keys kept before still match their retries', () => {
    const key = fc.oneof(fc.string({ maxLength: 4 }), fc.nat({ max: 20 }).map(String), fc.constantFrom('__proto__', '1e3', '-1', '01'));
    const value = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 0 }),
        fc.constantFrom(undefined, -0, 1e21, new Date(0)),
        fc.array(tie('v'), { maxLength: 4 }),
        fc.dictionary(key, tie('v'), { maxKeys: 5 }),
      ),
    })).v;
    fc.assert(
      fc.property(value, (v) => {
        expect(canonicalJson(v)).toBe(former(v));
      }),
      { seed: 7, numRuns: 2_000 },
    );
    expect(canonicalJson({ b: 1, a: [undefined, () => 1], 10: 'x', 2: 'y', c: undefined })).toBe('{"2":"y","10":"x","a":[null,null],"b":1}');
  });

  it('is taken of a value nested far deeper than a recursive writer could follow', () => {
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000));
    expect(canonicalJson({ b: deep, a: 1 })).toBe(`{"a":1,"b":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    // an upload at the bottom of such a value (GraphQL variables) is found and stands as its digest
    const upload = new Upload();
    let vars: unknown = { file: upload, __proto__x: 1 };
    for (let i = 0; i < 100_000; i++) vars = i % 2 ? [vars] : { v: vars };
    expect(findUploads(vars)).toEqual([upload]);
    const digested = canonicalJson(withDigests(vars, new Map([[upload, { filename: 'a.png', sha256: 'ab' }]])));
    expect(digested).toContain('{"__proto__x":1,"file":{"upload":{"filename":"a.png","sha256":"ab"}}}');
    expect(digested.length).toBeGreaterThan(300_000);
  });
});

describe('the key record', () => {
  const scope = (key: string) => ({ userId: user.id, operation: 'POST /test', key });

  it('one of many concurrent claims runs; the others wait and get its answer', async () => {
    const s = scope(newKey());
    const claims = Array.from({ length: 5 }, () => claimKey<{ n: number }>(db(), s, 'fp'));
    const first = await Promise.race(claims);
    expect(first.kind).toBe('owner');
    if (first.kind !== 'owner') return;
    await new Promise((r) => setTimeout(r, 200));
    await first.finish('fp', 201, { n: 1 });
    const all = await Promise.all(claims);
    expect(all.filter((c) => c.kind === 'owner')).toHaveLength(1);
    expect(all.filter((c) => c.kind === 'done')).toEqual(Array(4).fill({ kind: 'done', fingerprint: 'fp', answer: { n: 1 } }));
  });

  it('an answer given up (a 5xx, a 429) leaves the key free: the retry runs', async () => {
    const s = scope(newKey());
    const first = await claimKey(db(), s, 'fp');
    expect(first.kind).toBe('owner');
    if (first.kind === 'owner') await first.release();
    expect((await claimKey(db(), s, 'fp')).kind).toBe('owner');
  });

  it('an answer that cannot be kept leaves the key free at once: the retry runs without waiting out the lease', async () => {
    const s = scope(newKey());
    const first = await claimKey(db(), s, 'fp');
    expect(first.kind).toBe('owner');
    if (first.kind !== 'owner') return;
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(first.finish('fp', 201, circular)).rejects.toThrow();
    const t0 = Date.now();
    expect((await claimKey(db(), s, 'fp')).kind).toBe('owner');
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  it('a key whose request stopped renewing it is taken over; one older than a day is new again', async () => {
    const stale = scope(newKey());
    await db().idempotencyKey.create({ data: { ...stale, requestHash: 'fp', lockedUntil: new Date(Date.now() - 1000) } });
    expect((await claimKey(db(), stale, 'fp')).kind).toBe('owner');

    const old = scope(newKey());
    await db().idempotencyKey.create({
      data: { ...old, requestHash: 'other', statusCode: 201, response: {}, createdAt: new Date(Date.now() - IDEMPOTENCY_KEY_TTL_MS - 60_000) },
    });
    expect((await claimKey(db(), old, 'fp')).kind).toBe('owner');
  });
});
