// Multipart uploads over the REST door: who may send a body, the order of the parts, a client that goes away.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, eventually, request, startTestApp, type TestApp, type TestUser } from '../support/app.js';
import { mediaFixtures, type Fixtures } from '../support/media.js';
import { freePort } from '../support/ports.js';
import { ROOT } from '../support/process.js';
import { exchange, jsonOf, multipartBody, rawRequest } from '../support/raw.js';

const B = 'xB0UNDARYx';
let app: TestApp;
let fx: Fixtures;
let user: TestUser;
let talk: Buffer;
/** where the service holds an upload's file back */
let tmp: string;

beforeAll(async () => {
  fx = await mediaFixtures();
  talk = await fs.readFile(fx.talk);
  app = await startTestApp({ role: 'server', env: { MAX_PROJECT_BYTES: String(2 * 1024 * 1024) } });
  user = await createUser(app);
  tmp = path.join(app.dataDir, 'tmp');
});
afterAll(async () => {
  await app?.stop();
});

const head = (route: string, { key, length, close }: { key?: string; length: number; close?: boolean }) =>
  `POST ${route} HTTP/1.1\r\nHost: test\r\n${key ? `x-api-key: ${key}\r\n` : ''}${close ? 'Connection: close\r\n' : ''}` +
  `Content-Type: multipart/form-data; boundary=${B}\r\nContent-Length: ${length}\r\n\r\n`;
/** the head of a file part whose bytes follow */
const fileHead = (name = 'a.mp4') =>
  Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: video/mp4\r\n\r\n`);
const text = (name: string, value: string) => ({ name, value });
const file = (value: Buffer | string, filename = 'talk.mp4') => ({ name: 'file', value, filename, type: 'video/mp4' });

async function upload(route: string, parts: Parameters<typeof multipartBody>[1], key = user.key) {
  const body = multipartBody(B, parts);
  const a = await rawRequest(app.url, head(route, { key, length: body.length, close: true }), body);
  return { status: a.status, body: jsonOf(a) };
}

/** every file under `dir` */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** files this process holds open under `dir` */
async function openFilesUnder(dir: string): Promise<string[]> {
  const fds = await fs.readdir('/proc/self/fd');
  const targets = await Promise.all(fds.map((fd) => fs.readlink(`/proc/self/fd/${fd}`).catch(() => '')));
  return targets.filter((t) => t.startsWith(dir));
}

describe('who may send an upload', () => {
  it('a text part after the file, sent without a key, is 401 and the API process lives on', async () => {
    const { createTestDatabase } = await import('../support/db.js');
    const database = await createTestDatabase();
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'uploads-test-data-'));
    const port = await freePort();
    const proc: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'server'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: database.url, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout!.on('data', (d) => (out += d));
    proc.stderr!.on('data', (d) => (out += d));
    const base = `http://127.0.0.1:${port}`;
    const healthy = () =>
      fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
    try {
      for (let i = 0; !(await healthy()); i++) {
        if (i > 400) throw new Error(`server not healthy:\n${out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const body = multipartBody(B, [file('junk', 'a.mp4'), text('title', 't')]);
      for (const route of ['/v1/user-media/upload', '/v1/projects/upload']) {
        const a = await rawRequest(base, head(route, { length: body.length, close: true }), body);
        expect(a.status).toBe(401);
        expect(jsonOf(a)).toMatchObject({ error: 'UNAUTHORIZED' });
        await new Promise((r) => setTimeout(r, 300));
        expect(proc.exitCode, out).toBeNull();
      }
      expect(await healthy()).toBe(true);
    } finally {
      proc.kill('SIGKILL');
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  it('a refused upload is answered at once, while the client still sends, and its connection closed', async () => {
    const limited = await createUser(app);
    const subscriber = await createUser(app, { clipsSubscription: true });
    await app.runtime.app.limits.spend(limited.id, new Map([['uploadUserMedia', 500]]));
    const early = multipartBody(B, [text('title', ''), text('language', 'en'), text('hookTitle', '{"template":"nope"}')], { close: false });
    const cases = [
      { why: 'no key', route: '/v1/projects/upload', key: undefined, status: 401, error: 'UNAUTHORIZED' },
      { why: 'a bad key', route: '/v1/user-media/upload', key: 'sk-not-a-key', status: 401, error: 'UNAUTHORIZED' },
      { why: 'an unknown route without a key', route: '/v1/projects/nowhere/upload', key: undefined, status: 401, error: 'UNAUTHORIZED' },
      { why: 'an unknown route', route: '/v1/projects/nowhere/upload', key: user.key, status: 404, error: 'NOT_FOUND' },
      { why: 'no clips subscription', route: '/v1/projects/magic-clips/upload', key: user.key, status: 403, error: 'FORBIDDEN' },
      { why: 'no clip credit', route: '/v1/projects/magic-clips/upload', key: subscriber.key, status: 402, error: 'PAYMENT_REQUIRED' },
      { why: 'over the rate limit', route: '/v1/user-media/upload', key: limited.key, status: 429, error: 'RATE_LIMIT_EXCEEDED' },
      {
        why: 'wrong fields before the file',
        route: '/v1/projects/upload',
        key: user.key,
        status: 400,
        error: 'VALIDATION_ERROR',
        fields: ['hookTitle.template', 'title'],
      },
    ];
    for (const c of cases) {
      // 100 MB announced; the client goes on sending until it hears back
      const start = Buffer.concat([c.fields ? early : Buffer.alloc(0), fileHead(), Buffer.alloc(64 * 1024, 1)]);
      const a = await rawRequest(app.url, head(c.route, { key: c.key, length: 100 * 1024 * 1024 }), start, { keepSending: true, waitMs: 5_000 });
      expect({ why: c.why, status: a.status, error: jsonOf(a)?.error }).toEqual({ why: c.why, status: c.status, error: c.error });
      expect(a.answeredMs, c.why).toBeLessThan(3_000);
      expect(a.headers.connection, c.why).toBe('close');
      expect(a.closed, c.why).toBe(true);
      if (c.fields)
        expect(
          jsonOf(a)
            .details.map((d: { field: string }) => d.field)
            .sort(),
        ).toEqual(c.fields);
    }
    // nothing was made by any of them
    const userId = { in: [user.id, limited.id, subscriber.id] };
    expect(await app.runtime.app.db.project.count({ where: { userId } })).toBe(0);
    expect(await app.runtime.app.db.userMedia.count({ where: { userId } })).toBe(0);
  });
});

describe('the order of the parts', () => {
  it('the file first and the fields after it: the project is made with every field', async () => {
    const r = await upload('/v1/projects/upload', [file(talk), text('title', 'File first'), text('language', 'en'), text('dictionary', '["Acme"]')]);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ title: 'File first', status: 'processing', dictionary: ['Acme'] });
    const mixed = await upload('/v1/projects/upload', [text('title', 'Around the file'), file(talk), text('language', 'en'), text('magicZooms', 'true')]);
    expect(mixed.status).toBe(201);
    expect(mixed.body).toMatchObject({ title: 'Around the file', magicZooms: true });
    // with no text fields, one after the file is not read
    const media = await upload('/v1/user-media/upload', [file(talk, 'talk.mp4'), text('title', 't')]);
    expect(media.status).toBe(201);
  });

  it('wrong fields after the file are all named once the form is read, and nothing stays', async () => {
    const before = await app.runtime.app.db.project.count();
    const r = await upload('/v1/projects/upload', [file(talk), text('title', ''), text('language', 'xx'), text('magicZooms', 'maybe')]);
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('VALIDATION_ERROR');
    expect(r.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['language', 'magicZooms', 'title']);
    const nofile = await upload('/v1/projects/upload', [text('language', 'en')]);
    expect(nofile.body.details.map((d: { field: string }) => d.field)).toEqual(['title', 'file']);
    expect(await app.runtime.app.db.project.count()).toBe(before);
    await eventually(async () => expect(await filesUnder(tmp)).toEqual([]));
  });

  it('a text part past 1 MB just before the file is 400 naming it, and nothing stays: the file part after it is not held back', async () => {
    const before = await app.runtime.app.db.project.count();
    // the file's head comes in the same chunk as the end of the long part
    const body = multipartBody(B, [text('title', 'Long field'), text('language', 'en'), text('dictionary', '\u00e9'.repeat(600 * 1024)), file(talk)]);
    const a = await rawRequest(app.url, head('/v1/projects/upload', { key: user.key, length: body.length, close: true }), body, { waitMs: 10_000 });
    expect(a.status, a.body).toBe(400);
    expect(jsonOf(a)).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ field: 'dictionary', message: expect.stringMatching(/longer than/) }] });
    expect(await app.runtime.app.db.project.count()).toBe(before);
    await eventually(async () => {
      expect(await filesUnder(tmp)).toEqual([]);
      expect(await openFilesUnder(app.dataDir)).toEqual([]);
    });
  });

  it('a text part named after a property every object has (constructor, __proto__, toString) is an unknown field, 400 naming it', async () => {
    const before = await app.runtime.app.db.project.count();
    for (const name of ['constructor', '__proto__', 'toString']) {
      for (const parts of [
        [file(talk), text('title', 'T'), text('language', 'en'), text(name, 'null')],
        [text(name, '{}'), text('title', 'T'), text('language', 'en'), file(talk)],
      ]) {
        const r = await upload('/v1/projects/upload', parts);
        expect(r.status, `${name}: ${JSON.stringify(r.body)}`).toBe(400);
        expect(r.body).toMatchObject({ error: 'VALIDATION_ERROR', details: [expect.objectContaining({ field: name })] });
      }
    }
    expect(await app.runtime.app.db.project.count()).toBe(before);
  });

  it('a form that breaks after its file (a malformed part) is 400 and stores nothing, with or without text fields', async () => {
    const u = await createUser(app);
    const stored = await filesUnder(path.join(app.dataDir, 'media'));
    const malformed = Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="x\u0000y"\r\n\r\nvalue\r\n--${B}--\r\n`, 'latin1');
    // a long part after the file: the file has ended, and its copy stored, well before the form breaks
    const after = text('dictionary', `["${'n'.repeat(40)}"]`.padEnd(256 * 1024, ' '));
    for (const [route, parts] of [
      ['/v1/user-media/upload', [file(talk), after]],
      ['/v1/projects/upload', [text('title', 'Broken after'), text('language', 'en'), file(talk), after]],
    ] as const) {
      const body = Buffer.concat([multipartBody(B, [...parts], { close: false }), malformed]);
      const a = await rawRequest(app.url, head(route, { key: u.key, length: body.length, close: true }), body, { waitMs: 10_000 });
      expect(a.status, `${route}: ${a.body}`).toBe(400);
      expect(jsonOf(a)).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ field: 'body' }] });
    }
    await eventually(async () => {
      expect(await app.runtime.app.db.userMedia.count({ where: { userId: u.id } })).toBe(0);
      expect(await app.runtime.app.db.project.count({ where: { userId: u.id } })).toBe(0);
      expect(await filesUnder(path.join(app.dataDir, 'media'))).toEqual(stored);
      expect(await filesUnder(tmp)).toEqual([]);
      expect(await openFilesUnder(app.dataDir)).toEqual([]);
    });
  });

  it('a file held back past the size limit is 413 at once', async () => {
    const a = await rawRequest(app.url, head('/v1/projects/upload', { key: user.key, length: 100 * 1024 * 1024 }), fileHead(), { keepSending: true });
    expect(a.status).toBe(413);
    expect(jsonOf(a)).toMatchObject({ error: 'PAYLOAD_TOO_LARGE' });
    expect(a.closed).toBe(true);
    await eventually(async () => expect(await filesUnder(tmp)).toEqual([]));
  });
});

describe('a form that ends before its closing boundary', () => {
  for (const route of ['/v1/user-media/upload', '/v1/projects/upload']) {
    it(`${route}, with a key: 400 naming the body, the process lives on, nothing stays`, async () => {
      const u = await createUser(app);
      const stored = await filesUnder(path.join(app.dataDir, 'media'));
      const body = Buffer.concat([fileHead(), Buffer.from('junk')]);
      const a = await rawRequest(app.url, head(route, { key: u.key, length: body.length, close: true }), body);
      expect(a.status).toBe(400);
      expect(jsonOf(a)).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ field: 'body' }] });
      expect((await request(app, 'GET', '/healthz')).status).toBe(200);
      await eventually(async () => {
        expect((await request(app, 'GET', '/v1/user-media', { key: u.key })).body.items).toEqual([]);
        expect(await app.runtime.app.db.project.count({ where: { userId: u.id } })).toBe(0);
        expect(await filesUnder(path.join(app.dataDir, 'media'))).toEqual(stored);
        expect(await filesUnder(tmp)).toEqual([]);
        expect(await openFilesUnder(app.dataDir)).toEqual([]);
      });
    });
  }
});

describe('a Content-Length shorter than the data sent', () => {
  // the body ends where the length says (its form cut off); the bytes after it are a broken next request
  const graphqlForm = multipartBody(
    B,
    [
      text('operations', JSON.stringify({ query: 'mutation($file: Upload!) { uploadUserMedia(file: $file) { userMediaId } }', variables: { file: null } })),
      text('map', JSON.stringify({ file: ['variables.file'] })),
    ],
    { close: false },
  );
  for (const route of ['/v1/user-media/upload', '/v1/projects/upload', '/graphql']) {
    it(`${route}: 400, no row, no partial file, no open file`, async () => {
      const u = await createUser(app);
      const stored = await filesUnder(path.join(app.dataDir, 'media'));
      const body = Buffer.concat([route === '/graphql' ? graphqlForm : Buffer.alloc(0), fileHead(), Buffer.alloc(256 * 1024, 1)]);
      const a = await rawRequest(app.url, head(route, { key: u.key, length: 64 * 1024, close: true }), body);
      expect(a.status).toBe(400);
      await eventually(async () => {
        expect((await request(app, 'GET', '/v1/user-media', { key: u.key })).body.items).toEqual([]);
        expect(await app.runtime.app.db.userMedia.count({ where: { userId: u.id } })).toBe(0);
        expect(await app.runtime.app.db.project.count({ where: { userId: u.id } })).toBe(0);
        expect(await filesUnder(path.join(app.dataDir, 'media'))).toEqual(stored);
        expect(await filesUnder(tmp)).toEqual([]);
        expect(await openFilesUnder(app.dataDir)).toEqual([]);
      });
    });
  }
});

describe('a form received whole on a request that does not end', () => {
  // the file part and the closing boundary arrived, but the request itself did not end: the
  // client closes before the length it announced, or its chunked framing breaks after the form
  const forms: Record<string, Buffer> = {};
  beforeAll(() => {
    forms['/v1/user-media/upload'] = multipartBody(B, [file(talk)]);
    forms['/v1/projects/upload'] = multipartBody(B, [text('title', 'Never ended'), text('language', 'en'), file(talk)]);
    forms['/graphql'] = multipartBody(B, [
      text('operations', JSON.stringify({ query: 'mutation($file: Upload!) { uploadUserMedia(file: $file) { userMediaId } }', variables: { file: null } })),
      text('map', JSON.stringify({ 0: ['variables.file'] })),
      { name: '0', value: talk, filename: 'talk.mp4', type: 'video/mp4' },
    ]);
  });
  const nothingStays = async (u: TestUser, stored: string[]) => {
    // time for an upload that went on to be stored
    await new Promise((r) => setTimeout(r, 1_000));
    await eventually(async () => {
      expect(await app.runtime.app.db.userMedia.count({ where: { userId: u.id } })).toBe(0);
      expect(await app.runtime.app.db.project.count({ where: { userId: u.id } })).toBe(0);
      expect(await filesUnder(path.join(app.dataDir, 'media'))).toEqual(stored);
      expect(await filesUnder(tmp)).toEqual([]);
      expect(await openFilesUnder(app.dataDir)).toEqual([]);
    });
  };
  for (const route of ['/v1/user-media/upload', '/v1/projects/upload', '/graphql']) {
    it(`${route}: a client that closes before the announced length gets no success, and nothing is stored`, async () => {
      const u = await createUser(app);
      const stored = await filesUnder(path.join(app.dataDir, 'media'));
      const form = forms[route];
      const ex = await exchange(app.url, Buffer.concat([Buffer.from(head(route, { key: u.key, length: form.length + 100 })), form]), {
        halfClose: true,
        waitMs: 5_000,
      });
      expect(ex.answers.map((a) => a.status).filter((s) => s < 400)).toEqual([]);
      await nothingStays(u, stored);
    });

    it(`${route}: chunked framing that breaks after the form is 400, and nothing is stored`, async () => {
      const u = await createUser(app);
      const stored = await filesUnder(path.join(app.dataDir, 'media'));
      const form = forms[route];
      const h = head(route, { key: u.key, length: 0, close: true }).replace('Content-Length: 0\r\n', 'Transfer-Encoding: chunked\r\n');
      const body = Buffer.concat([Buffer.from(`${form.length.toString(16)}\r\n`), form, Buffer.from('\r\nzz\r\n')]);
      const ex = await exchange(app.url, Buffer.concat([Buffer.from(h), body]), { waitMs: 5_000 });
      expect(ex.answers.map((a) => a.status)).toEqual([400]);
      await nothingStays(u, stored);
    });

    it(`${route}: a chunk longer than it announced, the client closing its side, is 400 and nothing stays while the refused connection lingers`, async () => {
      const u = await createUser(app);
      const stored = await filesUnder(path.join(app.dataDir, 'media'));
      const form = forms[route];
      const h = head(route, { key: u.key, length: 0, close: true }).replace('Content-Length: 0\r\n', 'Transfer-Encoding: chunked\r\n');
      // the chunk announces a byte more than the form: it takes the CR of the framing that follows, and the
      // parser refuses the LF where it wants a CR; the client has closed its side after its last byte
      const body = Buffer.concat([Buffer.from(`${(form.length + 1).toString(16)}\r\n`), form, Buffer.from('\r\n0\r\n\r\n')]);
      const ex = await exchange(app.url, Buffer.concat([Buffer.from(h), body]), { halfClose: true, waitMs: 5_000 });
      expect(ex.answers.map((a) => a.status)).toEqual([400]);
      // the request ended refused when the parser gave up on it, not when its connection goes (up to 5 s later)
      const t0 = Date.now();
      await eventually(async () => {
        expect(await app.runtime.app.db.userMedia.count({ where: { userId: u.id } })).toBe(0);
        expect(await app.runtime.app.db.project.count({ where: { userId: u.id } })).toBe(0);
        expect(await filesUnder(path.join(app.dataDir, 'media'))).toEqual(stored);
        expect(await filesUnder(tmp)).toEqual([]);
      });
      await new Promise((r) => setTimeout(r, 500));
      expect(await app.runtime.app.db.userMedia.count({ where: { userId: u.id } })).toBe(0);
      expect(await filesUnder(tmp)).toEqual([]);
      expect(Date.now() - t0).toBeLessThan(2_000);
    });
  }
});

describe('a client that goes away mid-upload', () => {
  const graphqlForm = multipartBody(
    B,
    [
      text('operations', JSON.stringify({ query: 'mutation($file: Upload!) { uploadUserMedia(file: $file) { userMediaId } }', variables: { file: null } })),
      text('map', JSON.stringify({ file: ['variables.file'] })),
    ],
    { close: false },
  );
  for (const route of ['/v1/user-media/upload', '/v1/projects/upload', '/graphql']) {
    it(`${route}: no row, no partial file, no open file`, async () => {
      const u = await createUser(app);
      const stored = await filesUnder(path.join(app.dataDir, 'media'));
      const start = Buffer.concat([route === '/graphql' ? graphqlForm : Buffer.alloc(0), fileHead(), Buffer.alloc(512 * 1024, 1)]);
      await rawRequest(app.url, head(route, { key: u.key, length: 50 * 1024 * 1024 }), start, { waitMs: 500 });
      await eventually(async () => {
        const list = await request(app, 'GET', '/v1/user-media', { key: u.key });
        expect(list.body.items).toEqual([]);
        expect(await app.runtime.app.db.project.count({ where: { userId: u.id } })).toBe(0);
        expect(await filesUnder(path.join(app.dataDir, 'media'))).toEqual(stored);
        expect(await filesUnder(tmp)).toEqual([]);
        expect(await openFilesUnder(app.dataDir)).toEqual([]);
      });
    });
  }
});

describe('GraphQL multipart requests', () => {
  const operations = (query: string, variables: Record<string, unknown>) => text('operations', JSON.stringify({ query, variables }));
  const media = operations('mutation($file: Upload!) { uploadUserMedia(file: $file) { userMediaId } }', { file: null });
  const project = operations('mutation($file: Upload!, $input: UploadProjectInput!) { uploadProject(file: $file, input: $input) { id } }', {
    file: null,
    input: { title: 'T', language: 'en' },
  });
  const map = text('map', JSON.stringify({ 0: ['variables.file'] }));
  const post = async (body: Buffer, length = body.length) => {
    const a = await rawRequest(app.url, head('/graphql', { key: user.key, length, close: true }), body);
    return { status: a.status, body: jsonOf(a) };
  };

  it('a missing file part is 400 BAD_REQUEST, for either upload', async () => {
    for (const ops of [media, project]) {
      const r = await post(multipartBody(B, [ops, map]));
      expect(r.status).toBe(400);
      expect(r.body.errors[0].extensions.code).toBe('BAD_REQUEST');
      expect(r.body.errors[0].message).toMatch(/file/i);
    }
  });

  it('a form cut off before its end is 400 BAD_REQUEST, wherever the cut falls, and nothing stays', async () => {
    const u = await createUser(app);
    const whole = multipartBody(B, [media, map, { name: '0', value: talk, filename: 'talk.mp4', type: 'video/mp4' }]);
    // inside the file, then inside the map
    for (const cut of [whole.length - 1000, whole.indexOf('"map"') + 10]) {
      const a = await rawRequest(app.url, head('/graphql', { key: u.key, length: cut, close: true }), whole.subarray(0, cut));
      expect(a.status, `cut at ${cut}`).toBe(400);
      expect(jsonOf(a).errors[0].extensions.code, `cut at ${cut}`).toBe('BAD_REQUEST');
    }
    expect(await app.runtime.app.db.userMedia.count({ where: { userId: u.id } })).toBe(0);
  });
});

describe('autoRender, which an upload does not take', () => {
  const ALWAYS_RENDERS =
    'is not taken by an upload, which always renders automatically once transcribed; for an editable project, create it from a URL (POST /v1/projects, or createProject) with videoUrl and autoRender false';
  const mutation = 'mutation($file: Upload!, $input: UploadProjectInput!) { uploadProject(file: $file, input: $input) { id } }';

  it('is refused on either door, saying that uploads always render and how to get an editable project; nothing is made', async () => {
    const u = await createUser(app);
    const rest = await upload('/v1/projects/upload', [text('title', 'T'), text('language', 'en'), text('autoRender', 'false'), file(talk)], u.key);
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ error: 'VALIDATION_ERROR', details: [{ field: 'autoRender', message: ALWAYS_RENDERS }] });
    // a field no creation knows is still just unknown
    const unknown = await upload(
      '/v1/projects/upload',
      [text('title', 'T'), text('language', 'en'), text('autoRender', 'true'), text('colour', 'red'), file(talk)],
      u.key,
    );
    expect(unknown.body.details).toEqual([
      { field: 'autoRender', message: ALWAYS_RENDERS, value: 'true' },
      { field: 'colour', message: 'is not a known field', value: 'red' },
    ]);

    const operations = JSON.stringify({ query: mutation, variables: { file: null, input: { title: 'T', language: 'en', autoRender: false } } });
    const form = multipartBody(B, [
      text('operations', operations),
      text('map', JSON.stringify({ 0: ['variables.file'] })),
      { name: '0', value: talk, filename: 'talk.mp4', type: 'video/mp4' },
    ]);
    const a = await rawRequest(app.url, head('/graphql', { key: u.key, length: form.length, close: true }), form);
    const g = jsonOf(a);
    expect(g.errors[0].extensions).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'autoRender', message: ALWAYS_RENDERS }] });
    // written in the document, it is refused as GraphQL refuses a field its input type has not (BAD_REQUEST, the same status), in the same words
    const literal = async (field: string) => {
      const inline = JSON.stringify({
        query: `mutation($file: Upload!) { uploadProject(file: $file, input: { title: "T", language: "en", ${field}: false }) { id } }`,
        variables: { file: null },
      });
      const form = multipartBody(B, [
        text('operations', inline),
        text('map', JSON.stringify({ 0: ['variables.file'] })),
        { name: '0', value: talk, filename: 'talk.mp4', type: 'video/mp4' },
      ]);
      const answer = await rawRequest(app.url, head('/graphql', { key: u.key, length: form.length, close: true }), form);
      return { status: answer.status, errors: jsonOf(answer).errors };
    };
    const [refused, other] = [await literal('autoRender'), await literal('colour')];
    expect(refused.errors).toEqual([
      expect.objectContaining({ message: `Field "autoRender" of UploadProjectInput ${ALWAYS_RENDERS}`, extensions: { code: 'BAD_REQUEST' } }),
    ]);
    expect(other.errors).toEqual([
      expect.objectContaining({ message: 'Field "colour" is not defined by type "UploadProjectInput".', extensions: { code: 'BAD_REQUEST' } }),
    ]);
    expect(refused.status).toBe(other.status);
    expect(await app.runtime.app.db.project.count({ where: { userId: u.id } })).toBe(0);
  });
});
