import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from '../../src/storage/local.js';
import { DEFAULT_URL_LIFETIME_SECONDS, signedPath, verify } from '../../src/storage/signing.js';
import { parseRange, registerFileRoutes } from '../../src/http/files.js';
import { ROOT } from '../support/process.js';

const SECRET = 'test-secret-0123456789';

let root: string;
let server: FastifyInstance;
let base: string;
let storage: ReturnType<typeof createLocalStorage>;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'storage-test-'));
  server = Fastify();
  // the public URL is known once the server listens: the store reads it at each call
  storage = createLocalStorage({ root: path.join(root, 'media'), publicUrl: () => base, secret: SECRET });
  registerFileRoutes(server, storage, SECRET);
  base = await server.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await server?.close();
  await fs.rm(root, { recursive: true, force: true });
});

const bytes = (n: number, seed = 7) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) % 251));
const read = async (r: Readable) => {
  const chunks: Buffer[] = [];
  for await (const c of r) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};
/** every file under the store, hidden ones included */
const listAll = async () => (await fs.readdir(path.join(root, 'media'), { recursive: true }).catch(() => [] as string[])).map(String).sort();

describe('local storage', () => {
  it('put then get returns the bytes, size and content type', async () => {
    const data = bytes(5000);
    const put = await storage.put('media/a1/source.mp4', Readable.from([data]), { contentType: 'video/mp4' });
    expect(put).toEqual({ key: 'media/a1/source.mp4', size: 5000, contentType: 'video/mp4' });
    const got = await storage.get('media/a1/source.mp4');
    expect(got.size).toBe(5000);
    expect(got.contentType).toBe('video/mp4');
    expect((await read(got.body)).equals(data)).toBe(true);
    const st = await storage.stat('media/a1/source.mp4');
    expect(st).toMatchObject({ key: 'media/a1/source.mp4', size: 5000, contentType: 'video/mp4' });
  });

  it('keeps the content type given to put, whatever the extension', async () => {
    await storage.put('media/a2/upload.bin', Readable.from([Buffer.from('abc')]), { contentType: 'audio/mpeg' });
    expect((await storage.stat('media/a2/upload.bin'))?.contentType).toBe('audio/mpeg');
  });

  it('derives the content type from the extension for a file written by another tool', async () => {
    const p = storage.localPath('media/a3/render.mov')!;
    expect(path.isAbsolute(p)).toBe(true);
    expect(p.startsWith(path.join(root, 'media') + path.sep)).toBe(true);
    await fs.mkdir(path.dirname(p), { recursive: true });
    await fs.writeFile(p, 'xyz');
    const got = await storage.get('media/a3/render.mov');
    got.body.destroy();
    expect(got.contentType).toBe('video/quicktime');
  });

  it('get with a range returns those bytes and the whole size', async () => {
    const data = bytes(1000, 3);
    await storage.put('media/r/x.mp4', Readable.from([data]), { contentType: 'video/mp4' });
    const got = await storage.get('media/r/x.mp4', { start: 10, end: 19 });
    expect(got.size).toBe(1000);
    expect((await read(got.body)).equals(data.subarray(10, 20))).toBe(true);
    const tail = await storage.get('media/r/x.mp4', { start: 990, end: 5000 });
    expect((await read(tail.body)).equals(data.subarray(990))).toBe(true);
    await expect(storage.get('media/r/x.mp4', { start: 1000, end: 1001 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('a put replaces the object', async () => {
    await storage.put('media/rep/f.mp4', Readable.from([Buffer.from('first version')]), { contentType: 'video/mp4' });
    await storage.put('media/rep/f.mp4', Readable.from([Buffer.from('second')]), { contentType: 'video/quicktime' });
    const got = await storage.get('media/rep/f.mp4');
    expect((await read(got.body)).toString()).toBe('second');
    expect(got.contentType).toBe('video/quicktime');
  });

  it('missing objects: stat is null, get rejects NOT_FOUND, delete is a no-op', async () => {
    expect(await storage.stat('media/none/x.mp4')).toBeNull();
    await expect(storage.get('media/none/x.mp4')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(storage.delete('media/none/x.mp4')).resolves.toBeUndefined();
  });

  it('delete removes the file, its content-type record and the folders it leaves empty', async () => {
    await storage.put('media/del/x.mp4', Readable.from([Buffer.from('bye')]), { contentType: 'video/mp4' });
    await storage.put('media/keep/y.mp4', Readable.from([Buffer.from('stay')]), { contentType: 'video/mp4' });
    await storage.delete('media/del/x.mp4');
    expect(await storage.stat('media/del/x.mp4')).toBeNull();
    const left = await fs.readdir(path.join(root, 'media', 'media'));
    expect(left).toContain('keep');
    expect(left).not.toContain('del');
    expect(await storage.stat('media/keep/y.mp4')).not.toBeNull();
  });

  it("deleteFolder removes a folder's objects, however deep, and says how many; the folder beside it stays", async () => {
    for (const key of ['projects/p1/source.mp4', 'projects/p1/exports/e.mp4', 'projects/p1/exports/e.preview.mp4', 'projects/p10/source.mp4'])
      await storage.put(key, Readable.from([Buffer.from(key)]), { contentType: 'video/mp4' });
    expect(await storage.deleteFolder('projects/p1')).toBe(3);
    expect(await storage.stat('projects/p1/exports/e.mp4')).toBeNull();
    expect(await fs.readdir(path.join(root, 'media', 'projects'))).toEqual(['p10']);
    expect(await storage.deleteFolder('projects/p1')).toBe(0);
    await storage.delete('projects/p10/source.mp4');
  });

  it('maxBytes: aborts as soon as the limit is crossed and leaves no file', async () => {
    let pulled = 0;
    const chunk = Buffer.alloc(64 * 1024, 1);
    // an endless source: only an abort ends this put
    const endless = new Readable({
      read() {
        pulled++;
        this.push(chunk);
      },
    });
    const before = await listAll();
    await expect(storage.put('media/big/x.mp4', endless, { contentType: 'video/mp4', maxBytes: 200_000 })).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      extensions: { status: 413 },
    });
    expect(pulled).toBeLessThan(12); // 4 chunks cross the limit; the rest is stream buffering
    expect(endless.destroyed).toBe(true);
    expect(await storage.stat('media/big/x.mp4')).toBeNull();
    expect((await listAll()).filter((f) => !before.includes(f) && !f.endsWith('big'))).toEqual([]);
    expect(await fs.readdir(path.join(root, 'media', 'media', 'big'))).toEqual([]);
  });

  it('a source that fails mid-way leaves no file, and the previous version stays', async () => {
    await storage.put('media/fail/x.mp4', Readable.from([Buffer.from('good')]), { contentType: 'video/mp4' });
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(10_000));
        setImmediate(() => this.destroy(new Error('upstream went away')));
      },
    });
    await expect(storage.put('media/fail/x.mp4', failing, { contentType: 'video/mp4' })).rejects.toThrow('upstream went away');
    expect((await read((await storage.get('media/fail/x.mp4')).body)).toString()).toBe('good');
    expect((await fs.readdir(path.join(root, 'media', 'media', 'fail'))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a file that is gone before the put reads it: the put rejects with why, nothing is thrown elsewhere, the previous version stays', async () => {
    await storage.put('media/gone/x.mp4', Readable.from([Buffer.from('good')]), { contentType: 'video/mp4' });
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => uncaught.push(e);
    process.on('uncaughtException', onUncaught);
    try {
      // the stream opens its file on the next tick: removed before then, as a work folder removed under a render
      const missing = path.join(root, 'no-such-dir', 'output.mp4');
      await expect(storage.put('media/gone/x.mp4', createReadStream(missing), { contentType: 'video/mp4' })).rejects.toThrow(/ENOENT/);
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
    expect((await read((await storage.get('media/gone/x.mp4')).body)).toString()).toBe('good');
  });

  it('a source that breaks as the write starts leaves no partial file behind, however the two meet', async () => {
    // the file being written may only come into being after the failed put has cleaned up: it must not stay
    for (let i = 0; i < 60; i++) {
      const key = `media/early-${i}/source`;
      const body = new PassThrough();
      body.on('error', () => {});
      if (i % 2) body.write(Buffer.alloc(70_000));
      const put = storage.put(key, body, { contentType: 'video/mp4' });
      setImmediate(() => body.destroy(new Error('upstream went away')));
      await expect(put).rejects.toThrow('upstream went away');
      await storage.delete(key);
    }
    await new Promise((r) => setTimeout(r, 200));
    const left = (await fs.readdir(path.join(root, 'media', 'media'))).filter((d) => d.startsWith('early-'));
    expect(left).toEqual([]);
  });

  it("a put removes the partial file of a writer killed in its folder, never a live writer's", async () => {
    const dir = path.join(root, 'media', 'media', 'crashed');
    const partials = async () => (await fs.readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.tmp')).sort();
    const until = async (what: string, ok: (files: string[]) => boolean) => {
      for (const t0 = Date.now(); !ok(await partials()); await new Promise((r) => setTimeout(r, 50))) {
        if (Date.now() - t0 > 20_000) throw new Error(`${what}: ${await partials()}`);
      }
      return partials();
    };
    // another process writes x.mp4 and is killed in the middle of it
    const writer = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `
        import { PassThrough, Readable } from 'node:stream';
        import { createLocalStorage } from './src/storage/local.ts';
        const store = createLocalStorage({ root: ${JSON.stringify(path.join(root, 'media'))}, publicUrl: 'http://x', secret: 'k' });
        const body = new Readable({ read() {} });
        body.push(Buffer.alloc(1000));
        store.put('media/crashed/x.mp4', body, { contentType: 'video/mp4' });
        setInterval(() => {}, 1000);`,
      ],
      { cwd: ROOT, stdio: 'ignore' },
    );
    const [dead] = await until('the killed writer never wrote', (f) => f.length === 1);
    writer.kill('SIGKILL');
    await once(writer, 'exit');
    expect(dead).toMatch(/^\.x\.mp4\..*\.tmp$/);

    // one of this process writes y.mp4 and goes on: its put removed the dead writer's file
    const live = new Readable({ read() {} });
    live.push(Buffer.from('half'));
    const writing = storage.put('media/crashed/y.mp4', live, { contentType: 'video/mp4' });
    const [alive] = await until('the live writer never wrote', (f) => f.some((n) => n.startsWith('.y.mp4.')));
    expect(await partials()).toEqual([alive]);

    // another put in the folder leaves the live writer's file alone
    await storage.put('media/crashed/x.mp4', Readable.from([Buffer.from('whole')]), { contentType: 'video/mp4' });
    expect(await partials()).toEqual([alive]);
    live.push(Buffer.from(' and done'));
    live.push(null);
    await writing;
    expect(await partials()).toEqual([]);
    expect((await read((await storage.get('media/crashed/x.mp4')).body)).toString()).toBe('whole');
    expect((await read((await storage.get('media/crashed/y.mp4')).body)).toString()).toBe('half and done');
  });

  it('refuses unsafe keys everywhere', async () => {
    const bad = [
      '../x.mp4',
      'media/../../etc/passwd',
      '/etc/passwd',
      'media\\x.mp4',
      'media//x.mp4',
      'media/./x.mp4',
      '',
      'media/.hidden',
      'C:/x',
      'media/x\u0000.mp4',
      'media/x/',
    ];
    for (const key of bad) {
      await expect(storage.put(key, Readable.from([Buffer.from('x')]), { contentType: 'video/mp4' }), key).rejects.toMatchObject({ code: 'BAD_REQUEST' });
      await expect(storage.get(key), key).rejects.toMatchObject({ code: 'BAD_REQUEST' });
      await expect(storage.stat(key), key).rejects.toMatchObject({ code: 'BAD_REQUEST' });
      await expect(storage.delete(key), key).rejects.toMatchObject({ code: 'BAD_REQUEST' });
      expect(() => storage.localPath(key), key).toThrow();
      expect(() => storage.url(key), key).toThrow();
    }
    expect(await fs.readdir(root)).toEqual(['media']);
  });

  it('a 20 MB put streams: memory stays flat', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0xab);
    const total = 20 * 1024 * 1024;
    let sent = 0;
    const source = new Readable({
      read() {
        if (sent >= total) return this.push(null);
        sent += chunk.length;
        this.push(chunk);
      },
    });
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
    const put = await storage.put('media/mem/big.mp4', source, { contentType: 'video/mp4' });
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(put.size).toBe(total);
    expect((await fs.stat(storage.localPath('media/mem/big.mp4')!)).size).toBe(total);
    expect(peak - rss0).toBeLessThan(8 * 1024 * 1024);
  });
});

describe('signed URLs', () => {
  it('url() is PUBLIC_URL/files/<key>?exp&sig, valid for 7 days by default', () => {
    const u = new URL(storage.url('media/a1/source.mp4'));
    expect(`${u.origin}${u.pathname}`).toBe(`${base}/files/media/a1/source.mp4`);
    const exp = Number(u.searchParams.get('exp'));
    expect(Math.abs(exp - (Date.now() / 1000 + DEFAULT_URL_LIFETIME_SECONDS))).toBeLessThan(5);
    expect(u.searchParams.get('sig')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(u.searchParams.has('dl')).toBe(false);
  });

  it('verify: the signature covers key, exp and dl', () => {
    const exp = Math.floor(Date.now() / 1000) + 60;
    const q = new URL(signedPath('k/a.mp4', exp, SECRET, 'a.mp4'), 'http://x').searchParams;
    const query = { exp: q.get('exp')!, sig: q.get('sig')!, dl: q.get('dl')! };
    expect(verify('k/a.mp4', query, SECRET)).toMatchObject({ ok: true, download: 'a.mp4' });
    expect(verify('k/b.mp4', query, SECRET)).toMatchObject({ ok: false, reason: 'invalid' });
    expect(verify('k/a.mp4', { ...query, exp: String(exp + 1) }, SECRET)).toMatchObject({ ok: false, reason: 'invalid' });
    expect(verify('k/a.mp4', { ...query, dl: 'b.mp4' }, SECRET)).toMatchObject({ ok: false, reason: 'invalid' });
    expect(verify('k/a.mp4', { exp: query.exp, sig: query.sig }, SECRET)).toMatchObject({ ok: false, reason: 'invalid' });
    expect(verify('k/a.mp4', query, 'other-secret')).toMatchObject({ ok: false, reason: 'invalid' });
    expect(verify('k/a.mp4', { exp: query.exp }, SECRET)).toMatchObject({ ok: false, reason: 'missing' });
    expect(verify('k/a.mp4', query, SECRET, (exp + 1) * 1000)).toMatchObject({ ok: false, reason: 'expired', message: 'Link expired' });
  });

  it('parseRange reads single ranges and ignores what it may ignore', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({ kind: 'range', range: { start: 0, end: 99 } });
    expect(parseRange('bytes=900-', 1000)).toEqual({ kind: 'range', range: { start: 900, end: 999 } });
    expect(parseRange('bytes=-100', 1000)).toEqual({ kind: 'range', range: { start: 900, end: 999 } });
    expect(parseRange('bytes=-5000', 1000)).toEqual({ kind: 'range', range: { start: 0, end: 999 } });
    expect(parseRange('bytes=500-99999', 1000)).toEqual({ kind: 'range', range: { start: 500, end: 999 } });
    expect(parseRange('bytes=1000-', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 1000)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-1', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=5-1', 1000)).toEqual({ kind: 'none' });
    expect(parseRange('bytes=0-1,5-6', 1000)).toEqual({ kind: 'none' });
    expect(parseRange('items=0-1', 1000)).toEqual({ kind: 'none' });
    expect(parseRange('bytes=abc', 1000)).toEqual({ kind: 'none' });
    expect(parseRange(undefined, 1000)).toEqual({ kind: 'none' });
  });
});

describe('GET/HEAD /files/* over HTTP', () => {
  const data = bytes(10_000, 11);
  const key = 'media/route/clip one.mp4';
  beforeAll(async () => {
    await storage.put(key, Readable.from([data]), { contentType: 'video/mp4' });
  });

  it('200 with the type, length, validators and a private cache lifetime; no API key needed', async () => {
    const res = await fetch(storage.url(key));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('content-length')).toBe('10000');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(new Date(res.headers.get('last-modified')!).getTime()).toBeGreaterThan(0);
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(res.headers.get('cache-control')!)?.[1]);
    expect(Math.abs(maxAge - DEFAULT_URL_LIFETIME_SECONDS)).toBeLessThan(5);
    expect(res.headers.get('content-disposition')).toBeNull();
    expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true);
  });

  it('206 for a range, an open range and a suffix range', async () => {
    const url = storage.url(key);
    const cases: Array<[string, number, number]> = [
      ['bytes=0-99', 0, 99],
      ['bytes=9990-', 9990, 9999],
      ['bytes=-10', 9990, 9999],
      ['bytes=100-200000', 100, 9999],
    ];
    for (const [range, start, end] of cases) {
      const res = await fetch(url, { headers: { range } });
      expect(res.status, range).toBe(206);
      expect(res.headers.get('content-range'), range).toBe(`bytes ${start}-${end}/10000`);
      expect(res.headers.get('content-length'), range).toBe(String(end - start + 1));
      expect(res.headers.get('content-type')).toBe('video/mp4');
      expect(Buffer.from(await res.arrayBuffer()).equals(data.subarray(start, end + 1)), range).toBe(true);
    }
  });

  it('416 with Content-Range: bytes */size when the range is unsatisfiable', async () => {
    for (const range of ['bytes=10000-', 'bytes=20000-20010', 'bytes=-0']) {
      const res = await fetch(storage.url(key), { headers: { range } });
      expect(res.status, range).toBe(416);
      expect(res.headers.get('content-range')).toBe('bytes */10000');
      expect((await res.json()).message).toMatch(/Range not satisfiable/);
    }
  });

  it('several ranges, or a failed If-Range, get the whole body', async () => {
    const multi = await fetch(storage.url(key), { headers: { range: 'bytes=0-1,5-6' } });
    expect(multi.status).toBe(200);
    expect((await multi.arrayBuffer()).byteLength).toBe(10_000);
    const stale = await fetch(storage.url(key), { headers: { range: 'bytes=0-1', 'if-range': '"stale"' } });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();
    const etag = (await fetch(storage.url(key), { method: 'HEAD' })).headers.get('etag')!;
    const fresh = await fetch(storage.url(key), { headers: { range: 'bytes=0-1', 'if-range': etag } });
    expect(fresh.status).toBe(206);
    await fresh.arrayBuffer();
  });

  it('If-None-Match answers 304', async () => {
    const etag = (await fetch(storage.url(key), { method: 'HEAD' })).headers.get('etag')!;
    const res = await fetch(storage.url(key), { headers: { 'if-none-match': etag } });
    expect(res.status).toBe(304);
  });

  it('HEAD answers the headers of GET without a body', async () => {
    const res = await fetch(storage.url(key), { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('10000');
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
    const ranged = await fetch(storage.url(key), { method: 'HEAD', headers: { range: 'bytes=0-9' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-length')).toBe('10');
  });

  it('403 FORBIDDEN for a tampered, missing or foreign signature', async () => {
    const good = new URL(storage.url(key));
    const tamper = (f: (u: URL) => void) => {
      const u = new URL(good);
      f(u);
      return u;
    };
    const variants = [
      tamper((u) =>
        u.searchParams.set(
          'sig',
          u.searchParams.get('sig')!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
        ),
      ),
      tamper((u) => u.searchParams.set('exp', String(Number(u.searchParams.get('exp')) + 3600))),
      tamper((u) => u.searchParams.delete('sig')),
      tamper((u) => u.searchParams.set('dl', 'other.mp4')),
      tamper((u) => (u.pathname = u.pathname.replace('clip%20one', 'other'))),
    ];
    for (const u of variants) {
      for (const method of ['GET', 'HEAD']) {
        const res = await fetch(u, { method });
        expect(res.status, `${method} ${u.href}`).toBe(403);
        if (method === 'GET') expect(await res.json()).toMatchObject({ error: 'FORBIDDEN', message: expect.stringMatching(/signature/) });
      }
    }
  });

  it('403 "Link expired" for an expired link', async () => {
    const url = base + signedPath(key, Math.floor(Date.now() / 1000) - 1, SECRET);
    const res = await fetch(url);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: 'FORBIDDEN', message: 'Link expired' });
  });

  it('404 NOT_FOUND for a deleted object', async () => {
    await storage.put('media/route/gone.mp4', Readable.from([Buffer.from('x')]), { contentType: 'video/mp4' });
    const url = storage.url('media/route/gone.mp4');
    expect((await fetch(url)).status).toBe(200);
    await storage.delete('media/route/gone.mp4');
    const res = await fetch(url);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'NOT_FOUND', message: 'File not found' });
  });

  it('a download link names the file in Content-Disposition: attachment', async () => {
    const res = await fetch(storage.url(key, { download: 'My clip – final.mp4' }));
    expect(res.status).toBe(200);
    const cd = res.headers.get('content-disposition')!;
    expect(cd).toMatch(/^attachment; filename="My clip _ final\.mp4"; filename\*=UTF-8''My%20clip%20%E2%80%93%20final\.mp4$/);
    await res.arrayBuffer();
  });

  it('serves non-media types sandboxed', async () => {
    await storage.put('media/route/page.html', Readable.from([Buffer.from('<script>alert(1)</script>')]), { contentType: 'text/html' });
    const res = await fetch(storage.url('media/route/page.html'));
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const video = await fetch(storage.url(key), { method: 'HEAD' });
    expect(video.headers.get('content-security-policy')).toBeNull();
  });
});
