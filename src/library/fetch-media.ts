import path from 'node:path';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { App } from '../app.js';
import { FieldErrors, validationError } from '../errors.js';
import { sniffMedia } from '../media/sniff.js';
import { isCubeText } from './assets.js';
import { guardedFetch, isFetchError, type GuardedResponse } from '../net/guarded-fetch.js';
import { fileSharingProblem, socialMediaProblem } from '../net/url-rules.js';

/** Largest media file the library takes (SPEC.md: project files up to 2 GB). */
export const MAX_MEDIA_BYTES = 2 * 1024 ** 3;
/** A download of that size over a slow link still has to end. */
const DOWNLOAD_TIMEOUT_MS = 30 * 60_000;
const CHECK_TIMEOUT_MS = 15_000;
const SNIFF_BYTES = 64 * 1024;

/** What a library file is: sound and pictures (ffprobe judges them), fonts and colour LUTs (assets.ts parses them). */
export type MediaKind = 'VIDEO' | 'AUDIO' | 'IMAGE' | 'FONT' | 'LUT';

export interface CheckedMediaUrl {
  url: string;
  fileName: string;
  /** a first guess from the Content-Type and name; ffprobe decides once the bytes are in */
  kind: MediaKind;
}

/** The URL field's problems, in words the caller can act on, as VALIDATION_ERROR on `field`. */
const refuse = (field: string, message: string, value: unknown) => {
  const errors = new FieldErrors();
  errors.add(field, message, value);
  return validationError(errors.list, `Invalid ${field}: ${message}`);
};

const URL_REQUIRED = 'is required: a public URL of a video, audio, image, font (TTF, OTF) or .cube LUT file';

/** POST /v1/user-media: the URL of a public media file (other fields are ignored). */
export const userMediaBody = z.object({ url: z.string({ error: URL_REQUIRED }).refine((u) => u.trim() !== '', URL_REQUIRED) });

/** The body of POST /v1/user-media, or VALIDATION_ERROR on url. */
export function readUserMediaBody(body: unknown) {
  const read = userMediaBody.safeParse(body);
  if (!read.success) throw refuse('url', URL_REQUIRED, (body as { url?: unknown } | null)?.url);
  return read.data;
}

/**
 * Checks a user-given media URL at once, before anything is stored: a valid
 * http(s) URL, not a social-media page nor a folder or viewer link of a file
 * sharing drive, reachable through the guarded client, and answering with media
 * bytes rather than a web page (the first 64 KiB are sniffed).
 */
export async function checkMediaUrl(app: Pick<App, 'config'>, raw: unknown, field = 'url'): Promise<CheckedMediaUrl> {
  if (!userMediaBody.shape.url.safeParse(raw).success) throw refuse(field, URL_REQUIRED, raw);
  let url: URL;
  try {
    url = new URL((raw as string).trim());
  } catch {
    throw refuse(field, 'is not a valid URL', raw);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse(field, 'must be an http or https URL', raw);
  const social = socialMediaProblem(url);
  if (social) throw refuse(field, social, raw);
  const drive = fileSharingProblem(url);
  if (drive) throw refuse(field, drive, raw);

  let res: GuardedResponse;
  try {
    res = await guardedFetch(url.toString(), {
      allowPrivateNetwork: app.config.allowPrivateNetwork,
      headers: { range: `bytes=0-${SNIFF_BYTES - 1}`, accept: 'video/*, audio/*, image/*, */*;q=0.1' },
      timeoutMs: CHECK_TIMEOUT_MS,
      expectOk: true,
    });
  } catch (e) {
    if (isFetchError(e)) throw refuse(field, `cannot be fetched: ${e.message}`, raw);
    throw e;
  }
  const first = await readFirstBytes(res.body, SNIFF_BYTES).catch((e) => {
    if (isFetchError(e)) throw refuse(field, `cannot be fetched: ${e.message}`, raw);
    throw e;
  });
  const contentType = String(res.headers['content-type'] ?? '');
  const sniffed = sniffMedia(first, contentType);
  if (sniffed === 'html') throw refuse(field, 'serves a web page, not a media file: give the direct link to the file', raw);
  const fileName = fileNameOf(res, url);
  const lut = sniffed === 'text' && (isCubeText(first) || /\.cube$/i.test(fileName));
  if (sniffed === 'text' && !lut) throw refuse(field, 'serves text, not a video, audio, image, font or .cube LUT file', raw);
  return { url: res.url, fileName, kind: lut ? 'LUT' : guessKind(contentType, url.pathname) };
}

export interface DownloadOptions {
  /** stops the download (the body errors with the signal's reason) */
  signal?: AbortSignal;
  /** the guarded client to go through; tests give one over their own DNS */
  fetch?: typeof guardedFetch;
}

/** Streams the whole file (the job's side of a URL entry). */
export function downloadMedia(app: Pick<App, 'config'>, url: string, maxBytes = MAX_MEDIA_BYTES, opts: DownloadOptions = {}) {
  return (opts.fetch ?? guardedFetch)(url, {
    allowPrivateNetwork: app.config.allowPrivateNetwork,
    timeoutMs: DOWNLOAD_TIMEOUT_MS,
    connectTimeoutMs: CHECK_TIMEOUT_MS,
    maxBytes,
    expectOk: true,
    signal: opts.signal,
  });
}

async function readFirstBytes(body: Readable, n: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= n) break;
    }
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, n);
}

function fileNameOf(res: GuardedResponse, url: URL): string {
  const disposition = String(res.headers['content-disposition'] ?? '');
  const m = /filename\*=UTF-8''([^;]+)|filename="?([^";]+)"?/i.exec(disposition);
  const fromHeader = m ? decodeURIComponent(m[1] ?? m[2]) : '';
  const fromPath = decodeURIComponent(path.posix.basename(new URL(res.url).pathname || url.pathname));
  return safeFileName(fromHeader || fromPath || 'media');
}

/** A display name: no directories, no control characters, at most 200 characters. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (clean || 'media').slice(0, 200);
}

const EXT_KIND: Record<string, MediaKind> = {
  mp4: 'VIDEO',
  mov: 'VIDEO',
  m4v: 'VIDEO',
  webm: 'VIDEO',
  mkv: 'VIDEO',
  avi: 'VIDEO',
  mp3: 'AUDIO',
  m4a: 'AUDIO',
  aac: 'AUDIO',
  wav: 'AUDIO',
  ogg: 'AUDIO',
  oga: 'AUDIO',
  flac: 'AUDIO',
  opus: 'AUDIO',
  png: 'IMAGE',
  jpg: 'IMAGE',
  jpeg: 'IMAGE',
  gif: 'IMAGE',
  webp: 'IMAGE',
  ttf: 'FONT',
  otf: 'FONT',
  cube: 'LUT',
};

export function guessKind(contentType: string, name: string): MediaKind {
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (type.startsWith('audio/')) return 'AUDIO';
  if (type.startsWith('image/')) return 'IMAGE';
  if (type.startsWith('video/')) return 'VIDEO';
  if (type.startsWith('font/') || type === 'application/font-sfnt' || type === 'application/x-font-ttf') return 'FONT';
  return EXT_KIND[path.extname(name).slice(1).toLowerCase()] ?? 'VIDEO';
}
