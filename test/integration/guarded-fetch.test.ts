import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressProblem, createGuardedFetch, FetchFailed, FetchRefused, guardedFetch, type ResolvedAddress } from '../../src/net/guarded-fetch.js';
import { sniffMedia } from '../../src/media/sniff.js';
import { selfSignedCert } from '../support/tls.js';
import { fileSharingProblem, socialMediaPlatform, socialMediaProblem } from '../../src/net/url-rules.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

let tmp: string;
let cert: Buffer;
let httpServer: http.Server;
let httpsServer: https.Server;
let httpBase: string;
let httpsBase: string;
let httpPort: number;

/** One handler for both servers: small routes that misbehave on purpose. */
function handler(req: http.IncomingMessage, res: http.ServerResponse) {
  const u = new URL(req.url ?? '/', 'http://x');
  const p = u.pathname;
  if (p === '/ok') return res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
  if (p === '/echo') {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, headers: req.headers, body })));
    return;
  }
  if (p === '/status/404') return res.writeHead(404).end('nope');
  if (p === '/redirect') return res.writeHead(Number(u.searchParams.get('status') ?? 302), { location: u.searchParams.get('to')! }).end();
  const chain = /^\/chain\/(\d+)$/.exec(p);
  if (chain) {
    const n = Number(chain[1]);
    return n === 0 ? res.writeHead(200).end('end of chain') : res.writeHead(302, { location: `/chain/${n - 1}` }).end();
  }
  if (p === '/big') return res.writeHead(200, { 'content-length': 1_000_000 }).end(Buffer.alloc(1_000_000));
  if (p === '/big-chunked') {
    // no Content-Length: only counting the bytes can stop it
    res.writeHead(200, { 'content-type': 'video/mp4' });
    let sent = 0;
    const pump = () => {
      while (sent < 50_000_000 && !res.destroyed) {
        sent += 16_384;
        if (!res.write(Buffer.alloc(16_384))) return void res.once('drain', pump);
      }
      res.end();
    };
    return pump();
  }
  if (p === '/hang') return; // never answers
  if (p === '/stall') return void res.writeHead(200).write('a first chunk, then silence');
  if (p === '/drip') {
    // a byte every 50 ms, forever: idle limits never fire, only the overall one
    res.writeHead(200);
    const t = setInterval(() => res.write('x'), 50);
    res.on('close', () => clearInterval(t));
    return;
  }
  res.writeHead(404).end();
}

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'guarded-fetch-'));
  const tls = await selfSignedCert(tmp, 'localhost', 'DNS:localhost,DNS:media.example,IP:127.0.0.1');
  cert = tls.cert;
  httpServer = http.createServer(handler);
  httpsServer = https.createServer({ cert, key: tls.key }, handler);
  await new Promise<void>((r) => httpServer.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => httpsServer.listen(0, '127.0.0.1', r));
  httpPort = (httpServer.address() as AddressInfo).port;
  httpBase = `http://127.0.0.1:${httpPort}`;
  httpsBase = `https://127.0.0.1:${(httpsServer.address() as AddressInfo).port}`;
});
afterAll(async () => {
  httpServer?.closeAllConnections();
  httpsServer?.closeAllConnections();
  await new Promise((r) => httpServer?.close(r));
  await new Promise((r) => httpsServer?.close(r));
  await fs.rm(tmp, { recursive: true, force: true });
});

const text = async (body: Readable) => {
  let s = '';
  for await (const c of body) s += c;
  return s;
};
const PRIVATE_OK = { allowPrivateNetwork: true };
const STRICT = { allowPrivateNetwork: false };

/** `fn` rejects with `type` and `reason`; returns the error. */
async function failsWith(p: Promise<unknown>, type: typeof FetchRefused | typeof FetchFailed, reason: string) {
  const err = await p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(type);
  expect(err).toMatchObject({ reason });
  return err as FetchRefused | FetchFailed;
}

/**
 * A network where `media.example` has a public address (the guard's check runs as
 * in production) that the dialer maps to the local test server; `internal.example`
 * resolves to a private address.
 */
const PUBLIC = '93.184.215.14';
function fakeNetwork(extra: Record<string, ResolvedAddress[]> = {}) {
  const calls: string[] = [];
  const table: Record<string, ResolvedAddress[]> = {
    'media.example': [{ address: PUBLIC, family: 4 }],
    'internal.example': [{ address: '10.0.0.7', family: 4 }],
    'metadata.example': [{ address: '169.254.169.254', family: 4 }],
    'mixed.example': [
      { address: PUBLIC, family: 4 },
      { address: '192.168.1.10', family: 4 },
    ],
    ...extra,
  };
  const fetcher = createGuardedFetch({
    resolve: async (host) => {
      calls.push(host);
      const found = table[host];
      if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return found;
    },
    dialAddress: (a) => (a.address === PUBLIC ? { address: '127.0.0.1', family: 4 } : a),
    ca: cert,
  });
  return { fetch: fetcher, calls };
}

describe('guardedFetch: addresses', () => {
  it('refuses loopback without allowPrivateNetwork, by IP and by name', async () => {
    const e = await failsWith(guardedFetch(`${httpBase}/ok`, STRICT), FetchRefused, 'private_address');
    expect(e.message).toMatch(/loopback/);
    await failsWith(guardedFetch(`http://localhost:${httpPort}/ok`, STRICT), FetchRefused, 'private_address');
  });

  it('fetches loopback with allowPrivateNetwork', async () => {
    const res = await guardedFetch(`${httpBase}/ok`, PRIVATE_OK);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain');
    expect(res.url).toBe(`${httpBase}/ok`);
    expect(res.address).toBe('127.0.0.1');
    expect(await text(res.body)).toBe('hello');
  });

  it('refuses literal private, metadata and IPv4-mapped IPv6 addresses before connecting', async () => {
    const literals = [
      'http://127.0.0.1/',
      'http://127.8.9.10/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:7f00:1]/',
      'http://[::ffff:169.254.169.254]/',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.1.2.3/',
      'http://172.16.0.1/',
      'http://192.168.0.1/',
      'http://100.64.0.1/',
      'http://0.0.0.0/',
      'http://[::]/',
      'http://224.0.0.1/',
      'http://255.255.255.255/',
      'http://[fd00::1]/',
      'http://[fe80::1]/',
      'http://[ff02::1]/',
      'http://[::127.0.0.1]/',
      'http://2130706433/', // 127.0.0.1 in decimal
      'http://0x7f.1/', // 127.0.0.1, hex and short form
      'http://017700000001/', // 127.0.0.1 in octal
    ];
    for (const url of literals) {
      await failsWith(guardedFetch(url, { ...STRICT, connectTimeoutMs: 500 }), FetchRefused, 'private_address');
    }
  });

  it('classifies addresses with ipaddr.js ranges', () => {
    expect(addressProblem('93.184.215.14')).toBeNull();
    expect(addressProblem('2606:4700:4700::1111')).toBeNull();
    expect(addressProblem('::ffff:93.184.215.14')).toBeNull();
    expect(addressProblem('169.254.169.254')).toMatch(/link-local/);
    expect(addressProblem('100.100.100.200')).toMatch(/carrier-grade NAT/);
    expect(addressProblem('::ffff:10.0.0.1')).toMatch(/private/);
    expect(addressProblem('fc00::1')).toMatch(/unique-local/);
    expect(addressProblem('192.0.2.1')).toMatch(/reserved/);
  });

  it('a redirect to a private address is refused even when the first hop is allowed', async () => {
    const net = fakeNetwork();
    const port = httpPort;
    // the first hop alone is fine: a public address, checked as in production
    const ok = await net.fetch(`http://media.example:${port}/ok`, STRICT);
    expect(await text(ok.body)).toBe('hello');
    expect(ok.address).toBe(PUBLIC);
    const to = (target: string) => `http://media.example:${port}/redirect?to=${encodeURIComponent(target)}`;
    for (const target of [
      `http://internal.example:${port}/ok`,
      `http://metadata.example/latest/meta-data/`,
      `http://127.0.0.1:${port}/ok`,
      `http://[::ffff:127.0.0.1]:${port}/ok`,
      `http://169.254.169.254/latest/meta-data/`,
    ]) {
      const e = await failsWith(net.fetch(to(target), STRICT), FetchRefused, 'private_address');
      expect(e.url).toBe(new URL(target).href);
    }
  });

  it('refuses a name with any private address among its answers', async () => {
    const net = fakeNetwork();
    await failsWith(net.fetch(`http://mixed.example:${httpPort}/ok`, STRICT), FetchRefused, 'private_address');
  });

  it('resolves once per hop and connects to the checked address (no rebinding window)', async () => {
    let n = 0;
    const fetcher = createGuardedFetch({
      // a rebinding resolver: public at first, private afterwards
      resolve: async () => [{ address: n++ === 0 ? PUBLIC : '127.0.0.1', family: 4 }],
      dialAddress: (a) => (a.address === PUBLIC ? { address: '127.0.0.1', family: 4 } : a),
    });
    const res = await fetcher(`http://rebind.example:${httpPort}/ok`, STRICT);
    expect(await text(res.body)).toBe('hello');
    expect(n).toBe(1);
  });

  it('an unknown host is a dns failure', async () => {
    const net = fakeNetwork();
    await failsWith(net.fetch('http://nowhere.example/x', STRICT), FetchFailed, 'dns');
  });
});

describe('guardedFetch: URLs, schemes and redirects', () => {
  it('refuses invalid URLs and schemes other than http(s)', async () => {
    await failsWith(guardedFetch('not a url', PRIVATE_OK), FetchRefused, 'invalid_url');
    for (const url of ['ftp://example.com/a.mp4', 'file:///etc/passwd', 'data:text/plain,hi', 'gopher://example.com/']) {
      await failsWith(guardedFetch(url, PRIVATE_OK), FetchRefused, 'scheme');
    }
  });

  it('follows redirects, re-checking each hop, up to maxRedirects', async () => {
    const res = await guardedFetch(`${httpBase}/chain/5`, PRIVATE_OK);
    expect(res.status).toBe(200);
    expect(await text(res.body)).toBe('end of chain');
    expect(res.chain).toHaveLength(6);
    expect(res.url).toBe(`${httpBase}/chain/0`);
    const e = await failsWith(guardedFetch(`${httpBase}/chain/6`, PRIVATE_OK), FetchRefused, 'too_many_redirects');
    expect(e.message).toMatch(/more than 5/);
    await failsWith(guardedFetch(`${httpBase}/chain/3`, { ...PRIVATE_OK, maxRedirects: 2 }), FetchRefused, 'too_many_redirects');
  });

  it('a redirect to another scheme is refused', async () => {
    await failsWith(guardedFetch(`${httpBase}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`, PRIVATE_OK), FetchRefused, 'scheme');
  });

  it('303 turns a POST into a GET; 307 keeps it; credentials do not cross origins', async () => {
    const post = (status: number, to: string) =>
      guardedFetch(`${httpBase}/redirect?status=${status}&to=${encodeURIComponent(to)}`, {
        ...PRIVATE_OK,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer secret' },
        body: '{"a":1}',
      });
    const seeOther = JSON.parse(await text((await post(303, '/echo')).body));
    expect(seeOther).toMatchObject({ method: 'GET', body: '' });
    const temporary = JSON.parse(await text((await post(307, '/echo')).body));
    expect(temporary).toMatchObject({ method: 'POST', body: '{"a":1}' });
    expect(temporary.headers.authorization).toBe('Bearer secret');
    const crossOrigin = JSON.parse(await text((await post(307, `http://localhost:${httpPort}/echo`)).body));
    expect(crossOrigin.method).toBe('POST');
    expect(crossOrigin.headers.authorization).toBeUndefined();
  });

  it('expectOk turns a non-2xx answer into http_status', async () => {
    const e = await failsWith(guardedFetch(`${httpBase}/status/404`, { ...PRIVATE_OK, expectOk: true }), FetchFailed, 'http_status');
    expect(e.status).toBe(404);
    const res = await guardedFetch(`${httpBase}/status/404`, PRIVATE_OK);
    expect(res.status).toBe(404);
    res.body.destroy();
  });
});

describe('guardedFetch: limits', () => {
  it('times out when no answer comes (connect/first-byte limit)', async () => {
    const t0 = Date.now();
    const e = await failsWith(guardedFetch(`${httpBase}/hang`, { ...PRIVATE_OK, connectTimeoutMs: 300 }), FetchFailed, 'timeout');
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(e.message).toMatch(/did not answer/);
  });

  it('a body that stalls ends with timeout (idle limit)', async () => {
    const res = await guardedFetch(`${httpBase}/stall`, { ...PRIVATE_OK, connectTimeoutMs: 300 });
    const e = await failsWith(text(res.body), FetchFailed, 'timeout');
    expect(e.message).toMatch(/stopped sending data/);
  });

  it('an error on a body nobody reads yet waits for its reader', async () => {
    const res = await guardedFetch(`${httpBase}/stall`, { ...PRIVATE_OK, connectTimeoutMs: 200 });
    await new Promise((r) => setTimeout(r, 500)); // the idle limit fires with no listener attached
    await failsWith(text(res.body), FetchFailed, 'timeout');
  });

  it('the overall limit ends a body that never stops trickling', async () => {
    const t0 = Date.now();
    const res = await guardedFetch(`${httpBase}/drip`, { ...PRIVATE_OK, timeoutMs: 600, connectTimeoutMs: 300 });
    await failsWith(text(res.body), FetchFailed, 'timeout');
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it('refuses a declared Content-Length over maxBytes before reading', async () => {
    const e = await failsWith(guardedFetch(`${httpBase}/big`, { ...PRIVATE_OK, maxBytes: 1000 }), FetchFailed, 'too_large');
    expect(e.message).toMatch(/larger than the limit of 1000 bytes/);
  });

  it('errors the body stream once a chunked body passes maxBytes', async () => {
    const res = await guardedFetch(`${httpBase}/big-chunked`, { ...PRIVATE_OK, maxBytes: 100_000 });
    let received = 0;
    const err = await (async () => {
      for await (const c of res.body) received += (c as Buffer).length;
    })().catch((e) => e);
    expect(err).toBeInstanceOf(FetchFailed);
    expect(err.reason).toBe('too_large');
    expect(received).toBeLessThanOrEqual(100_000);
  });

  it('a caller abort ends the request', async () => {
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(new Error('stop')), 100);
    await expect(guardedFetch(`${httpBase}/hang`, { ...PRIVATE_OK, signal: ctl.signal })).rejects.toThrow('stop');
  });
});

describe('guardedFetch: https', () => {
  it('fetches over https with a trusted CA', async () => {
    const net = fakeNetwork();
    const res = await net.fetch(`${httpsBase}/ok`, PRIVATE_OK);
    expect(res.status).toBe(200);
    expect(await text(res.body)).toBe('hello');
    // by name: the pinned address is dialled, the certificate is checked against the name
    const port = new URL(httpsBase).port;
    const byName = await net.fetch(`https://media.example:${port}/ok`, STRICT);
    expect(await text(byName.body)).toBe('hello');
  });

  it('an untrusted certificate is a connection failure', async () => {
    const e = await failsWith(guardedFetch(`${httpsBase}/ok`, PRIVATE_OK), FetchFailed, 'connection');
    expect(e.message).toMatch(/not trusted/);
  });

  it('refuses an https to http downgrade', async () => {
    const net = fakeNetwork();
    const e = await failsWith(net.fetch(`${httpsBase}/redirect?to=${encodeURIComponent(`${httpBase}/ok`)}`, PRIVATE_OK), FetchRefused, 'scheme');
    expect(e.message).toMatch(/https to plain http/);
  });

  it('honours NODE_EXTRA_CA_CERTS, as the service does', async () => {
    const script = path.join(tmp, 'probe.mts');
    await fs.writeFile(
      script,
      `import { guardedFetch } from ${JSON.stringify(path.join(ROOT, 'src/net/guarded-fetch.ts'))};
try {
  const res = await guardedFetch(process.argv[2], { allowPrivateNetwork: true });
  let body = ''; for await (const c of res.body) body += c;
  console.log(JSON.stringify({ status: res.status, body }));
} catch (e) { console.log(JSON.stringify({ reason: e.reason, message: e.message })); }
`,
    );
    const run = (extraCa: string) =>
      new Promise<any>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', script, `${httpsBase}/ok`], {
          cwd: ROOT,
          env: { ...process.env, NODE_EXTRA_CA_CERTS: extraCa },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        let errOut = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (errOut += d));
        child.on('error', reject);
        child.on('exit', () => {
          try {
            resolve(JSON.parse(out.trim().split('\n').pop()!));
          } catch {
            reject(new Error(`no answer from the child: ${out}${errOut}`));
          }
        });
      });
    const [trusted, untrusted] = await Promise.all([run(path.join(tmp, 'cert.pem')), run('')]);
    expect(trusted).toEqual({ status: 200, body: 'hello' });
    expect(untrusted).toMatchObject({ reason: 'connection' });
  });
});

describe('sniffMedia', () => {
  const b = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
  const pad = (buf: Buffer) => Buffer.concat([buf, Buffer.alloc(64, 0)]);
  const table: Array<[string, Buffer, string | undefined, string]> = [
    ['MP4', pad(b([0, 0, 0, 0x18], 'ftypisom')), 'video/mp4', 'media'],
    ['MOV (ftyp qt)', pad(b([0, 0, 0, 0x14], 'ftypqt  ')), undefined, 'media'],
    ['MOV (moov first)', pad(b([0, 0, 0, 0x6c], 'moov')), undefined, 'media'],
    ['M4A', pad(b([0, 0, 0, 0x20], 'ftypM4A ')), 'audio/mp4', 'media'],
    ['WebM/Matroska', pad(b([0x1a, 0x45, 0xdf, 0xa3])), undefined, 'media'],
    ['MP3 with ID3', pad(b('ID3', [4, 0, 0])), undefined, 'media'],
    ['MP3 frame sync', pad(b([0xff, 0xfb, 0x90, 0x64])), undefined, 'media'],
    ['AAC ADTS', pad(b([0xff, 0xf1, 0x50, 0x80])), undefined, 'media'],
    ['WAV', pad(b('RIFF', [0x24, 0, 0, 0], 'WAVEfmt ')), undefined, 'media'],
    ['OGG', pad(b('OggS', [0])), undefined, 'media'],
    ['FLAC', pad(b('fLaC', [0, 0, 0, 0x22])), undefined, 'media'],
    ['PNG', pad(b([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a])), undefined, 'media'],
    ['JPEG', pad(b([0xff, 0xd8, 0xff, 0xe0])), undefined, 'media'],
    ['GIF', pad(b('GIF89a')), undefined, 'media'],
    ['WebP', pad(b('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 ')), undefined, 'media'],
    ['HTML doctype', b('<!DOCTYPE html>\n<html><head><title>x</title></head></html>'), 'text/html', 'html'],
    ['HTML, lower case, leading blanks', b('\n\n  <html lang="en"><body>hi</body></html>'), undefined, 'html'],
    ['HTML with a BOM', b([0xef, 0xbb, 0xbf], '<!doctype html><p>x'), undefined, 'html'],
    ['HTML served as video', b('<head><meta charset="utf-8"><title>Login</title>'), 'video/mp4', 'html'],
    ['HTML without markers but typed so', b('Sign in to continue'), 'text/html; charset=utf-8', 'html'],
    ['XML', b('<?xml version="1.0"?><rss><channel/></rss>'), 'application/xml', 'text'],
    ['JSON', b('{"error":"not found"}'), 'application/json', 'text'],
    ['plain text (a .mp4 that is text)', b('this is not a video\n'), 'video/mp4', 'text'],
    ['UTF-8 text', b('caf\u00c3\u00a9 cr\u00c3\u00a8me'), undefined, 'text'],
    ['random binary', b([0x00, 0x13, 0x37, 0x00, 0x99, 0x01, 0x02, 0x03]), 'application/octet-stream', 'unknown'],
    ['UTF-16 text is not MP3', b([0xff, 0xfe, 0x3c, 0x00, 0x68, 0x00]), undefined, 'unknown'],
    ['empty, typed html', Buffer.alloc(0), 'text/html', 'html'],
    ['empty, typed json', Buffer.alloc(0), 'application/json', 'text'],
    ['empty, no type', Buffer.alloc(0), undefined, 'unknown'],
  ];
  it.each(table)('%s', (_name, bytes, type, want) => {
    expect(sniffMedia(bytes, type)).toBe(want);
  });
});

describe('url rules', () => {
  const social: Array<[string, boolean]> = [
    ['https://www.youtube.com/watch?v=abc', true],
    ['https://m.youtube.com/watch?v=abc', true],
    ['https://youtube.com./shorts/abc', true],
    ['https://youtu.be/abc', true],
    ['https://vimeo.com/12345', true],
    ['https://player.vimeo.com/video/12345', true],
    ['https://www.dailymotion.com/video/x7', true],
    ['https://www.tiktok.com/@user/video/1', true],
    ['https://vm.tiktok.com/ZMabc/', true],
    ['https://www.instagram.com/reel/abc/', true],
    ['https://twitter.com/user/status/1', true],
    ['https://x.com/user/status/1', true],
    ['https://mobile.x.com/user/status/1', true],
    ['https://www.threads.net/@user/post/abc', true],
    ['https://www.facebook.com/watch/?v=1', true],
    ['https://m.facebook.com/story.php', true],
    ['https://fb.watch/abc/', true],
    ['https://www.linkedin.com/posts/someone_activity', true],
    ['https://notyoutube.com/watch?v=abc', false],
    ['https://youtube.com.evil.example/watch', false],
    ['https://example.com/youtube.com/video.mp4', false],
    ['https://box.com/x', false],
    ['https://cdn.example.com/clip.mp4', false],
    ['not a url', false],
  ];
  it.each(social)('a page of a social platform: %s = %s', (url, want) => {
    expect(socialMediaPlatform(url) !== null).toBe(want);
    expect(socialMediaProblem(url) !== null).toBe(want);
  });

  it('the social-media message says what to send instead', () => {
    expect(socialMediaProblem('https://www.tiktok.com/@u/video/1')).toMatch(/short-video platform \(tiktok\.com\).*direct link to the file/);
  });

  // [url, null when accepted, else a pattern of the message]
  const drives: Array<[string, RegExp | null]> = [
    ['https://drive.google.com/drive/folders/1AbC', /Google Drive folder.*uc\?export=download/],
    ['https://drive.google.com/drive/u/0/folders/1AbC', /folder/],
    ['https://drive.google.com/file/d/1FiLeId/view?usp=sharing', /viewer page.*uc\?export=download&id=1FiLeId/],
    ['https://drive.google.com/open?id=1FiLeId', /viewer page.*id=1FiLeId/],
    ['https://drive.google.com/uc?export=download&id=1FiLeId', null],
    ['https://drive.google.com/drive/my-drive', /not a single file/],
    ['https://docs.google.com/document/d/1x/edit', /not media files/],
    ['https://docs.google.com/spreadsheets/d/1x/edit', /not media files/],
    ['https://www.dropbox.com/sh/abc/def?dl=0', /Dropbox folder.*dl=1/],
    ['https://www.dropbox.com/scl/fo/abc/def?rlkey=x&dl=0', /Dropbox folder/],
    ['https://www.dropbox.com/s/abc/clip.mp4?dl=0', /preview page.*dl=1.*clip\.mp4\?dl=1/],
    ['https://www.dropbox.com/scl/fi/abc/clip.mp4?rlkey=x&dl=0', /preview page.*rlkey=x&dl=1/],
    ['https://www.dropbox.com/scl/fi/abc/clip.mp4?rlkey=x', /preview page/],
    ['https://www.dropbox.com/s/abc/clip.mp4?dl=1', null],
    ['https://www.dropbox.com/scl/fi/abc/clip.mp4?rlkey=x&raw=1', null],
    ['https://dl.dropboxusercontent.com/s/abc/clip.mp4', null],
    ['https://1drv.ms/v/s!AbCdEf', /OneDrive.*viewer page.*download=1/],
    ['https://1drv.ms/v/s!AbCdEf?download=1', null],
    ['https://1drv.ms/f/s!AbCdEf', /OneDrive folder/],
    ['https://onedrive.live.com/?cid=ABC&id=ABC%21123', /viewer page/],
    ['https://onedrive.live.com/redir?resid=ABC', /viewer page/],
    ['https://onedrive.live.com/download?cid=ABC&resid=ABC%21123', null],
    ['https://onedrive.live.com/?cid=ABC&id=ABC%21123&download=1', null],
    ['https://contoso.sharepoint.com/:v:/g/personal/u/EabC', /SharePoint.*download=1/],
    ['https://contoso.sharepoint.com/:v:/g/personal/u/EabC?download=1', null],
    ['https://contoso.sharepoint.com/:f:/g/personal/u/EabC', /SharePoint folder/],
    ['https://app.box.com/s/abc123', /Box.*shared page.*shared\/static/],
    ['https://app.box.com/folder/123', /Box folder/],
    ['https://app.box.com/shared/static/abc123.mp4', null],
    ['https://wetransfer.com/downloads/abc/def', /WeTransfer.*upload/],
    ['https://we.tl/t-abc', /WeTransfer/],
    ['https://mega.nz/file/abc#key', /Mega.*encrypted.*upload/],
    ['https://mega.nz/folder/abc#key', /Mega/],
    ['https://cdn.example.com/clip.mp4', null],
    ['https://storage.googleapis.com/bucket/clip.mp4', null],
    ['not a url', null],
  ];
  it.each(drives)('fileSharingProblem(%s)', (url, want) => {
    const got = fileSharingProblem(url);
    if (want === null) expect(got).toBeNull();
    else expect(got).toMatch(want);
  });
});
