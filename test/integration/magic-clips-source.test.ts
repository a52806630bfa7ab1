// The source of a magic-clips project: a media file served at the URL, or a
// video page whose media URL yt-dlp finds and the service then downloads
// through the guarded client. The real yt-dlp reads local pages; scripts stand
// in for it only where the test is about our side of the process boundary.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { fetchClipSource, ytdlpArgs, type ClipSourceInput, type ClipSourceOptions } from '../../src/magic-clips/source.js';
import { createGuardedFetch, FetchRefused } from '../../src/net/guarded-fetch.js';
import { failureReason, isPassingFailure, ProjectFailure, type IngestStage } from '../../src/projects/ingest.js';
import { createLocalStorage } from '../../src/storage/local.js';
import { mediaFixtures, type Fixtures } from '../support/media.js';

const page = (body: string) => `<!doctype html><html><head><title>A talk</title></head><body>${body}</body></html>\n`;
const PAGES: Record<string, string> = {
  '/watch.html': page('<h1>A talk</h1><video controls><source src="/files/clip.mp4" type="video/mp4"></video>'),
  '/watch-src.html': page('<video controls src="/files/clip.mp4"></video>'),
  '/empty.html': page('<p>Nothing to watch here.</p>'),
  '/webm.html': page('<video controls src="/files/clip.webm"></video>'),
};

interface Hit {
  path: string;
  agent: string;
}

let dir: string;
let fx: Fixtures;
let server: http.Server;
let port: number;
let hits: Hit[] = [];
const local = (p: string) => `http://127.0.0.1:${port}${p}`;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'clip-source-'));
  fx = await mediaFixtures();
  const files: Record<string, { file: string; type: string }> = {
    '/files/clip.mp4': { file: fx.video, type: 'video/mp4' },
    '/files/clip.webm': { file: fx.video, type: 'video/webm' },
    '/files/notes.txt': { file: fx.text, type: 'text/plain' },
  };
  server = http.createServer(async (req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    hits.push({ path: p, agent: req.headers['user-agent'] ?? '' });
    if (PAGES[p]) return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGES[p]);
    const f = files[p];
    if (!f) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const body = await fs.readFile(f.file);
    res.writeHead(200, { 'content-type': f.type, 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await fs.rm(dir, { recursive: true, force: true });
});

/** The service's side: its settings from the environment given, local storage under a folder of its own. */
function service(env: Record<string, string>) {
  const dataDir = path.join(dir, crypto.randomUUID());
  return {
    dataDir,
    config: loadConfig({ DATA_DIR: dataDir, PATH: process.env.PATH ?? '', ...env }),
    storage: createLocalStorage({ root: path.join(dataDir, 'media'), publicUrl: 'http://127.0.0.1', secret: 's' }),
  };
}

/** A stand-in for yt-dlp: records its arguments (one a line) and its process id, then runs `body`. */
async function fakeYtDlp(body: string) {
  const file = path.join(dir, `yt-dlp-${crypto.randomUUID()}`);
  await fs.writeFile(file, `#!/bin/sh\nprintf '%s\\n' "$@" > "$0.args"\n${body}\n`, { mode: 0o755 });
  return {
    file,
    /** the arguments of its one run, or null when it never ran */
    args: async () => (await fs.readFile(`${file}.args`, 'utf8').catch(() => null))?.split('\n').slice(0, -1) ?? null,
  };
}

function input(url: string, more: Partial<ClipSourceInput> = {}) {
  const seen: Array<[IngestStage, number]> = [];
  return {
    seen,
    input: {
      projectId: crypto.randomUUID(),
      url,
      maxBytes: 50 * 1024 ** 2,
      maxSeconds: 120 * 60,
      report: async (stage: IngestStage, percent: number) => void seen.push([stage, Math.round(percent)]),
      ...more,
    },
  };
}

async function fails(app: ReturnType<typeof service>, url: string, options?: ClipSourceOptions, more?: Partial<ClipSourceInput>) {
  const e = await fetchClipSource(app, input(url, more).input, options).then(
    () => null,
    (err: unknown) => err,
  );
  expect(e, 'the fetch should have failed').not.toBeNull();
  return e;
}

const mediaHits = () => hits.filter((h) => h.path.startsWith('/files/'));

describe('magic-clips source', () => {
  it('a media file at the URL is stored as served, without asking yt-dlp', async () => {
    const ytdlp = await fakeYtDlp('exit 1');
    const app = service({ ALLOW_PRIVATE_NETWORK: '1', VIDEO_PLATFORM_HOSTS: '127.0.0.1', YTDLP_PATH: ytdlp.file });
    const { input: given, seen } = input(local('/files/clip.mp4'));
    const key = await fetchClipSource(app, given);
    expect(key).toBe(`projects/${given.projectId}/source.mp4`);
    expect(await fs.readFile(app.storage.localPath(key)!)).toEqual(await fs.readFile(fx.video));
    expect(seen[0]).toEqual(['fetch', 0]);
    expect(seen.at(-1)).toEqual(['fetch', 100]);
    expect(await ytdlp.args()).toBeNull();
  });

  it('a video page: yt-dlp finds its media URL and the service downloads that file itself', async () => {
    const app = service({ ALLOW_PRIVATE_NETWORK: '1', VIDEO_PLATFORM_HOSTS: '127.0.0.1' });
    for (const p of ['/watch.html', '/watch-src.html']) {
      hits = [];
      const { input: given, seen } = input(local(p));
      const key = await fetchClipSource(app, given);
      expect(await fs.readFile(app.storage.localPath(key)!)).toEqual(await fs.readFile(fx.video));
      expect(seen.at(-1)).toEqual(['fetch', 100]);
      // the page: once by the guarded client's first look, once by yt-dlp
      const pageHits = hits.filter((h) => h.path === p);
      expect(pageHits.map((h) => h.agent.startsWith('clipcast-fetch/'))).toEqual([true, false]);
      // the media file: only by the guarded client, never by yt-dlp
      expect(mediaHits()).toEqual([{ path: '/files/clip.mp4', agent: 'clipcast-fetch/1' }]);
    }
    // yt-dlp's temporary folder is gone
    expect(await fs.readdir(path.join(app.dataDir, 'tmp'))).toEqual([]);
  });

  it('a page yt-dlp cannot read fails the project for good, with the reason in words', async () => {
    const app = service({ ALLOW_PRIVATE_NETWORK: '1', VIDEO_PLATFORM_HOSTS: '127.0.0.1' });
    const cases: Array<[string, string]> = [
      ['/empty.html', 'The video page could not be read: no video was found on it'],
      ['/webm.html', 'The video page could not be read: it offers no single mp4 or mov file of its video'],
    ];
    for (const [p, reason] of cases) {
      hits = [];
      const e = await fails(app, local(p));
      expect(e).toBeInstanceOf(ProjectFailure);
      expect(isPassingFailure(e)).toBe(false);
      expect(failureReason(e)).toBe(reason);
      expect(mediaHits()).toEqual([]);
    }
    // text is neither a video nor a page
    const text = await fails(app, local('/files/notes.txt'));
    expect(failureReason(text)).toBe('The URL serves text, not a video or a video page');
  });

  it('a page on a host outside VIDEO_PLATFORM_HOSTS never reaches yt-dlp', async () => {
    const ytdlp = await fakeYtDlp(`echo '{}'; echo '${local('/files/clip.mp4')}'`);
    const app = service({ ALLOW_PRIVATE_NETWORK: '1', VIDEO_PLATFORM_HOSTS: 'videos.example,localhost', YTDLP_PATH: ytdlp.file });
    hits = [];
    const e = await fails(app, local('/watch.html'));
    expect(e).toBeInstanceOf(ProjectFailure);
    expect(failureReason(e)).toBe('The URL serves a web page, not a video, and 127.0.0.1 is not one of the video platforms whose pages are read');
    expect(await ytdlp.args()).toBeNull();
    expect(mediaHits()).toEqual([]);

    // the same script runs once the host is listed (it is not the script that keeps quiet)
    const listed = service({ ALLOW_PRIVATE_NETWORK: '1', VIDEO_PLATFORM_HOSTS: '127.0.0.1', YTDLP_PATH: ytdlp.file });
    await fetchClipSource(listed, input(local('/watch.html')).input);
    expect(await ytdlp.args()).toEqual(ytdlpArgs(local('/watch.html')));
  });

  it('yt-dlp that does not answer is killed at the time limit, with what it started', async () => {
    const ytdlp = await fakeYtDlp('echo $$ > "$0.pids"; sleep 30 & echo $! >> "$0.pids"; wait');
    const app = service({ ALLOW_PRIVATE_NETWORK: '1', VIDEO_PLATFORM_HOSTS: '127.0.0.1', YTDLP_PATH: ytdlp.file });
    const started = Date.now();
    const e = await fails(app, local('/watch.html'), { ytdlpTimeoutMs: 1500 });
    const took = Date.now() - started;
    expect(e).toBeInstanceOf(ProjectFailure);
    expect(failureReason(e)).toBe('The video page could not be read: yt-dlp did not answer within 1.5 s');
    expect(took).toBeGreaterThanOrEqual(1500);
    expect(took).toBeLessThan(5000);
    const pids = (await fs.readFile(`${ytdlp.file}.pids`, 'utf8')).trim().split('\n').map(Number);
    expect(pids).toHaveLength(2);
    // killed at once; a loaded machine may take a moment to take a killed process off its table
    for (const pid of pids) await waitFor(async () => !(await running(pid)), 3000).catch(() => expect.fail(`process ${pid} still runs`));

    // the caller's signal stops it the same way
    const stopping = await fakeYtDlp('echo $$ > "$0.pids"; exec sleep 30');
    const stoppable = service({ ALLOW_PRIVATE_NETWORK: '1', VIDEO_PLATFORM_HOSTS: '127.0.0.1', YTDLP_PATH: stopping.file });
    const controller = new AbortController();
    const aborted = fails(stoppable, local('/watch.html'), {}, { signal: controller.signal });
    await waitFor(() =>
      fs.readFile(`${stopping.file}.pids`, 'utf8').then(
        (s) => s.trim() !== '',
        () => false,
      ),
    );
    controller.abort(new Error('shutting down'));
    expect(((await aborted) as Error).message).toBe('shutting down');
    const stopped = Number(await fs.readFile(`${stopping.file}.pids`, 'utf8'));
    await waitFor(async () => !(await running(stopped)), 3000).catch(() => expect.fail(`process ${stopped} still runs`));
  });

  it('the media URL yt-dlp gives passes the guarded client: private addresses are refused', async () => {
    // videos.example has a public address, reached at the local server; private networks are not allowed
    const PUBLIC = '93.184.215.14';
    const fetch = createGuardedFetch({
      resolve: async (host) => {
        if (host === 'videos.example') return [{ address: PUBLIC, family: 4 }];
        if (host === 'internal.example') return [{ address: '10.0.0.7', family: 4 }];
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      },
      dialAddress: (a) => (a.address === PUBLIC ? { address: '127.0.0.1', family: 4 } : a),
    });
    const pageUrl = `http://videos.example:${port}/watch.html`;
    const cases: Array<[string, string]> = [
      [local('/files/clip.mp4'), 'a loopback address'],
      [`http://internal.example:${port}/files/clip.mp4`, 'a private network address'],
      ['http://169.254.169.254/latest/meta-data/', 'a link-local address (this includes cloud metadata services)'],
    ];
    for (const [mediaUrl, range] of cases) {
      const ytdlp = await fakeYtDlp(`echo '{"duration": 95.5, "is_live": false}'; echo '${mediaUrl}'`);
      const app = service({ VIDEO_PLATFORM_HOSTS: 'videos.example', YTDLP_PATH: ytdlp.file });
      hits = [];
      const e = await fails(app, pageUrl, { fetch });
      expect(e).toBeInstanceOf(FetchRefused);
      expect((e as FetchRefused).reason).toBe('private_address');
      expect(failureReason(e)).toBe(`The video could not be downloaded: The URL points to ${range}, which is not allowed: use a public URL`);
      // yt-dlp was asked about the page, and nothing was fetched from the address it gave
      expect(await ytdlp.args()).toEqual(ytdlpArgs(pageUrl));
      expect(mediaHits()).toEqual([]);
    }

    // the same media URL on the public name is downloaded
    const ytdlp = await fakeYtDlp(`echo '{}'; echo 'http://videos.example:${port}/files/clip.mp4'`);
    const app = service({ VIDEO_PLATFORM_HOSTS: 'videos.example', YTDLP_PATH: ytdlp.file });
    const key = await fetchClipSource(app, input(pageUrl).input, { fetch });
    expect(await fs.readFile(app.storage.localPath(key)!)).toEqual(await fs.readFile(fx.video));
  });

  it('a video longer than allowed, or a live stream, fails before any download', async () => {
    const cases: Array<[string, string]> = [
      ['{"duration": 7500, "is_live": false}', 'The video is 125 minutes long; at most 120 minutes are accepted'],
      ['{"duration": null, "is_live": true}', 'The video is a live stream: give the URL of a recorded video'],
    ];
    for (const [facts, reason] of cases) {
      const ytdlp = await fakeYtDlp(`echo '${facts}'; echo '${local('/files/clip.mp4')}'`);
      const app = service({ ALLOW_PRIVATE_NETWORK: '1', VIDEO_PLATFORM_HOSTS: '127.0.0.1', YTDLP_PATH: ytdlp.file });
      hits = [];
      const e = await fails(app, local('/watch.html'));
      expect(e).toBeInstanceOf(ProjectFailure);
      expect(failureReason(e)).toBe(reason);
      expect(mediaHits()).toEqual([]);
    }
  });

  it('without yt-dlp a video page fails with what to install or set', async () => {
    for (const YTDLP_PATH of [path.join(dir, 'nowhere', 'yt-dlp'), 'yt-dlp-that-is-not-installed']) {
      const app = service({ ALLOW_PRIVATE_NETWORK: '1', VIDEO_PLATFORM_HOSTS: '127.0.0.1', YTDLP_PATH });
      const e = await fails(app, local('/watch.html'));
      expect(e).toBeInstanceOf(ProjectFailure);
      expect(isPassingFailure(e)).toBe(false);
      expect(failureReason(e)).toBe(`yt-dlp is not installed (looked for "${YTDLP_PATH}"): install it, or set YTDLP_PATH to its path, to read video pages`);
    }
  });
});

/** Whether a process still runs (a zombie waiting for its parent does not). */
async function running(pid: number): Promise<boolean> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return stat !== null && stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
}

async function waitFor(check: () => Promise<boolean>, ms = 5000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}
