/**
 * The source of a magic-clips project. The URL either serves a media file,
 * stored as projects store theirs, or a video platform's page: yt-dlp is asked
 * for the media URL of its video only, and that URL is downloaded by the
 * service itself. Either way every byte comes through the guarded client and
 * the projects' one download path (fetchSource).
 */
import { Readable } from 'node:stream';
import type { App } from '../app.js';
import type { Config } from '../config.js';
import { inWorkDir } from '../jobs/work-dir.js';
import { downloadMedia } from '../library/fetch-media.js';
import { sniffMedia, type SniffResult } from '../media/sniff.js';
import { findExecutable, ProgramError, runProgram, type ProgramResult } from '../media/program.js';
import type { GuardedResponse, guardedFetch } from '../net/guarded-fetch.js';
import { fetchSource, ProjectFailure, type IngestReport } from '../projects/ingest.js';

/** How long yt-dlp may take to read a page before it is killed. */
export const YTDLP_TIMEOUT_MS = 60_000;
/** yt-dlp's own limit for each of its network reads (seconds). */
const YTDLP_SOCKET_TIMEOUT_S = 20;
/** Its answer is two short lines; anything much longer is not an answer. */
const MAX_ANSWER_CHARS = 64 * 1024;
/** The first bytes of a response that tell a page from a media file. */
const LOOK_BYTES = 64 * 1024;

/**
 * A single mp4 (or mov) file over plain http(s): what the guarded client can
 * download and the ingest accepts (no HLS or DASH pieces, no separate sound).
 */
const FORMAT = ['mp4', 'mov'].map((ext) => `best[ext=${ext}][protocol^=http][protocol!*=dash]`).join('/');

/** What yt-dlp is run with for `url`: no shell, no config files, no cache, one video, its length and its URL printed. */
export function ytdlpArgs(url: string): string[] {
  return [
    '--ignore-config',
    '--no-cache-dir',
    '--no-playlist',
    '--playlist-items',
    '1',
    '--no-warnings',
    '--socket-timeout',
    String(YTDLP_SOCKET_TIMEOUT_S),
    '-f',
    FORMAT,
    '--print',
    '%(.{duration,is_live})j',
    '--print',
    'urls',
    '--',
    url,
  ];
}

export interface ClipSourceInput {
  projectId: string;
  /** the project's videoshareUrl */
  url: string;
  maxBytes: number;
  /** a page whose video is known to be longer fails before anything is downloaded */
  maxSeconds: number;
  report: IngestReport;
  /** stops the fetch (and yt-dlp) */
  signal?: AbortSignal;
}

export interface ClipSourceOptions {
  /** how long yt-dlp may take to read a page (default YTDLP_TIMEOUT_MS) */
  ytdlpTimeoutMs?: number;
  /** the guarded client; tests give one over their own DNS */
  fetch?: typeof guardedFetch;
}

/** Whether the URL's host is one of VIDEO_PLATFORM_HOSTS (exactly: the list names each host). */
export function onVideoPlatform(url: string, hosts: readonly string[]): boolean {
  let host: string;
  try {
    host = new URL(url).hostname
      .toLowerCase()
      .replace(/\.$/, '')
      .replace(/^\[(.*)\]$/, '$1');
  } catch {
    return false;
  }
  return hosts.includes(host);
}

/**
 * Stores the source of a magic-clips project and returns its storage key (the
 * key fetchSource gives). A video page the service cannot read, a host outside
 * VIDEO_PLATFORM_HOSTS serving a page, or a missing yt-dlp is a ProjectFailure.
 */
export function fetchClipSource(app: Pick<App, 'config' | 'storage'>, input: ClipSourceInput, options: ClipSourceOptions = {}): Promise<string> {
  return fetchSource(app, {
    projectId: input.projectId,
    url: input.url,
    maxBytes: input.maxBytes,
    report: input.report,
    open: async (stepSignal) => {
      const signal = input.signal ? AbortSignal.any([stepSignal, input.signal]) : stepSignal;
      const download = async (url: string) => firstLook(await downloadMedia(app, url, input.maxBytes, { signal, fetch: options.fetch }));

      const served = await download(input.url);
      if (isMedia(served.kind)) return served.response;
      served.discard();
      if (served.kind === 'text') throw new ProjectFailure('The URL serves text, not a video or a video page');
      if (!onVideoPlatform(input.url, app.config.videoPlatformHosts)) {
        throw new ProjectFailure(
          `The URL serves a web page, not a video, and ${new URL(input.url).hostname} is not one of the video platforms whose pages are read`,
        );
      }

      const page = await findPageMedia(app.config, input.url, { timeoutMs: options.ytdlpTimeoutMs ?? YTDLP_TIMEOUT_MS, signal });
      if (page.isLive) throw new ProjectFailure('The video is a live stream: give the URL of a recorded video');
      if (page.duration !== undefined && page.duration > input.maxSeconds) {
        throw new ProjectFailure(
          `The video is ${Math.round(page.duration / 60)} minutes long; at most ${Math.round(input.maxSeconds / 60)} minutes are accepted`,
        );
      }
      const media = await download(page.url);
      if (isMedia(media.kind)) return media.response;
      media.discard();
      throw new ProjectFailure(`${UNREADABLE}: the media URL it gave serves a web page or text, not a video`);
    },
  });
}

/** ffprobe judges what is neither a page nor text once it is stored. */
const isMedia = (kind: SniffResult) => kind === 'media' || kind === 'unknown';

interface FirstLook {
  kind: SniffResult;
  /** the response with its whole body, the bytes looked at included */
  response: Pick<GuardedResponse, 'headers' | 'body'>;
  /** stops the download (a page is not stored) */
  discard(): void;
}

/** Reads the first bytes of a download to tell a page from media, and hands the body on whole. */
async function firstLook(res: GuardedResponse): Promise<FirstLook> {
  const chunks = res.body[Symbol.asyncIterator]();
  const seen: Buffer[] = [];
  let size = 0;
  while (size < LOOK_BYTES) {
    const next = await chunks.next();
    if (next.done) break;
    seen.push(next.value as Buffer);
    size += (next.value as Buffer).length;
  }
  const head = Buffer.concat(seen);
  async function* whole() {
    try {
      if (head.length > 0) yield head;
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value as Buffer;
    } finally {
      await chunks.return?.();
    }
  }
  return {
    kind: sniffMedia(head, String(res.headers['content-type'] ?? '')),
    response: { headers: res.headers, body: Readable.from(whole(), { objectMode: false }) },
    discard: () => res.body.destroy(),
  };
}

// ---------------------------------------------------------------------------
// yt-dlp

const UNREADABLE = 'The video page could not be read';

/** What yt-dlp says of a page: its video's media URL, and its length when the page tells. */
export interface PageMedia {
  url: string;
  duration?: number;
  isLive: boolean;
}

/**
 * Runs yt-dlp on a page (no shell, a time limit, in a work folder of its own) for its video's
 * media URL; downloads nothing. The time limit, the caller's signal or an answer too long
 * kills it and all it started (runProgram).
 */
export async function findPageMedia(
  config: Pick<Config, 'ytdlpPath' | 'searchPath' | 'dataDir'>,
  url: string,
  opts: { timeoutMs: number; signal?: AbortSignal },
): Promise<PageMedia> {
  const program = findExecutable(config.ytdlpPath, config.searchPath);
  if (!program) throw notInstalled(config.ytdlpPath);
  return inWorkDir(config.dataDir, 'ytdlp', async (dir) => {
    const env = { PATH: config.searchPath, HOME: dir, XDG_CACHE_HOME: dir, LC_ALL: 'C.UTF-8', PYTHONIOENCODING: 'utf-8' };
    let ran: ProgramResult;
    try {
      ran = await runProgram(program, ytdlpArgs(url), { cwd: dir, env, timeoutMs: opts.timeoutMs, signal: opts.signal, maxStdout: MAX_ANSWER_CHARS });
    } catch (e) {
      if (!(e instanceof ProgramError)) throw e;
      if (e.failure === 'timeout') throw new ProjectFailure(`${UNREADABLE}: yt-dlp did not answer within ${opts.timeoutMs / 1000} s`);
      if (e.failure === 'output') throw new ProjectFailure(`${UNREADABLE}: yt-dlp answered with more than ${MAX_ANSWER_CHARS} characters`);
      if (e.failure === 'exit') throw new ProjectFailure(`${UNREADABLE}: ${ytdlpError(e.stderr, e.code)}`);
      if (e.failure === 'missing' || isMissingProgram(e.cause)) throw notInstalled(config.ytdlpPath);
      throw e;
    }
    const found = readAnswer(ran.stdout);
    if (!found) throw new ProjectFailure(`${UNREADABLE}: no video was found on it`);
    return found;
  });
}

const notInstalled = (name: string) =>
  new ProjectFailure(`yt-dlp is not installed (looked for "${name}"): install it, or set YTDLP_PATH to its path, to read video pages`);

const isMissingProgram = (e: unknown) => ['ENOENT', 'EACCES'].includes((e as NodeJS.ErrnoException)?.code ?? '');

/** The first line with a http(s) URL, after the line of the video's facts. */
function readAnswer(stdout: string): PageMedia | null {
  let facts: { duration?: unknown; is_live?: unknown } = {};
  for (const line of stdout.split(/\r?\n/).map((l) => l.trim())) {
    if (line.startsWith('{')) {
      try {
        facts = JSON.parse(line) as typeof facts;
      } catch {
        // not the facts line: the URL is what matters
      }
    } else if (/^https?:\/\//i.test(line)) {
      return { url: line, duration: typeof facts.duration === 'number' ? facts.duration : undefined, isLive: facts.is_live === true };
    }
  }
  return null;
}

/** yt-dlp's last error as one line for a person: without its prefixes, causes and pleas to report. */
function ytdlpError(stderr: string, code: number | null): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const line = lines.filter((l) => l.startsWith('ERROR:')).at(-1) ?? lines.at(-1);
  if (!line) return `yt-dlp exited with code ${code}`;
  const text = line
    .replace(/^ERROR:\s*/, '')
    .replace(/^\[[^\]\s]+\]\s+(?:[^\s:]+:\s+)?/, '')
    .replace(/\s*\(caused by .*$/, '')
    .replace(/;\s*please report this issue.*$/, '')
    .replace(/\.?\s*Use --list-formats.*$/, '')
    .replace(/\s*Confirm you are on the latest version.*$/, '');
  if (text.startsWith('Unsupported URL')) return 'no video was found on it';
  if (text.startsWith('Requested format is not available')) return 'it offers no single mp4 or mov file of its video';
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}
