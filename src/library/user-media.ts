import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { App } from '../app.js';
import { AppError, notFound } from '../errors.js';
import type { UserMedia } from '../generated/prisma/client.ts';
import { isUuid } from '../ids.js';
import { NotMediaError, probe, type ProbeResult } from '../media/ffprobe.js';
import { isFetchError, isTransientFetchError } from '../net/guarded-fetch.js';
import { keysetPage, modelSource, type Page, type PageRequest } from '../pagination.js';
import { inWorkDir } from '../jobs/work-dir.js';
import { assertDecodes } from './decodes.js';
import { assetKindOf, MAX_ASSET_BYTES, readCube, readFont } from './assets.js';
import { checkMediaUrl, downloadMedia, guessKind, MAX_MEDIA_BYTES, safeFileName, type MediaKind } from './fetch-media.js';
import { JOB_NAMES } from '../jobs/names.js';

/** a download that failed for a passing reason is tried this many times in all */
const IMPORT_ATTEMPTS = 3;

/**
 * audio: duration, fileSize; video: width, height, duration, fileSize; image:
 * width, height, fileSize; font: family, style, glyphs, fileSize; LUT: lutSize
 * (points per axis), title, fileSize
 */
export type MediaMetadata = {
  duration?: number;
  width?: number;
  height?: number;
  family?: string;
  style?: string;
  glyphs?: number;
  lutSize?: number;
  title?: string;
  fileSize: number;
};

export function metadataOf(kind: MediaKind, p: ProbeResult, fileSize: number): MediaMetadata {
  const duration = p.duration === null ? undefined : Math.round(p.duration * 1000) / 1000;
  if (kind === 'AUDIO') return { duration, fileSize };
  if (kind === 'IMAGE') return { width: p.video?.width, height: p.video?.height, fileSize };
  return { width: p.video?.width, height: p.video?.height, duration, fileSize };
}

const storageKey = (id: string, fileName: string) => {
  const ext = path
    .extname(fileName)
    .toLowerCase()
    .replace(/[^.a-z0-9]/g, '')
    .slice(0, 6);
  return `user-media/${id}/source${ext || ''}`;
};

/** POST /v1/user-media: the URL is checked now, the bytes arrive in a job. */
export async function createUserMedia(app: App, userId: string, rawUrl: unknown): Promise<UserMedia> {
  const checked = await checkMediaUrl(app, rawUrl);
  const entry = await app.db.userMedia.create({
    data: { userId, type: checked.kind, status: 'pending', fileName: checked.fileName, sourceUrl: checked.url },
  });
  await app.jobs.enqueue(JOB_NAMES.importUserMedia, { userMediaId: entry.id, userId });
  return entry;
}

/**
 * The job: download through the guarded client straight into storage, probe,
 * and mark the entry ready with its type and metadata, or failed with a reason.
 * Running it again after a crash starts the download over and ends the same way.
 */
export async function importUserMedia(app: App, userMediaId: string, attempt = 1): Promise<void> {
  const entry = await app.db.userMedia.findUnique({ where: { id: userMediaId } });
  if (entry?.status !== 'pending' || !entry.sourceUrl) return;
  const key = storageKey(entry.id, entry.fileName);
  try {
    const res = await downloadMedia(app, entry.sourceUrl);
    const contentType = String(res.headers['content-type'] ?? 'application/octet-stream').split(';')[0];
    const stored = await app.storage.put(key, res.body, { contentType, maxBytes: MAX_MEDIA_BYTES });
    await finishEntry(app, entry.id, key, stored.size, contentType, entry.fileName);
  } catch (e) {
    const passing = isTransientFetchError(e);
    if (passing && attempt < IMPORT_ATTEMPTS) throw e; // the job's backoff tries again
    await app.storage.delete(key).catch(() => {});
    const reason =
      e instanceof NotMediaError ? e.message : isFetchError(e) ? `Download failed: ${e.message}` : e instanceof AppError ? e.message : 'Download failed';
    await app.db.userMedia.updateMany({ where: { id: entry.id, status: 'pending' }, data: { status: 'failed', failureReason: reason } });
    if (!(e instanceof NotMediaError) && !isFetchError(e) && !(e instanceof AppError)) throw e;
  }
}

/**
 * Judges stored bytes and records what they are: a font or a LUT is parsed
 * (assets.ts), anything else probed and its first frames decoded; bytes that
 * are none of these, or do not read, are deleted.
 */
async function finishEntry(app: Pick<App, 'db' | 'storage' | 'config'>, id: string, key: string, size: number, contentType: string, fileName: string) {
  let judged: { kind: MediaKind; metadata: MediaMetadata };
  try {
    judged = await inWorkDir(app.config.dataDir, `user-media-${id}`, async (dir) => {
      const file = await app.storage.readableFile(key, dir);
      const asset = await readAsset(file, fileName, size);
      if (asset) return asset;
      const probed = await probe(file);
      await assertDecodes(file, probed);
      return { kind: probed.kind, metadata: metadataOf(probed.kind, probed, size) };
    });
  } catch (e) {
    await app.storage.delete(key).catch(() => {});
    throw e;
  }
  const { kind, metadata } = judged;
  await app.db.userMedia.updateMany({
    where: { id, status: 'pending' },
    data: {
      status: 'ready',
      type: kind,
      storageKey: key,
      contentType: contentType === 'application/octet-stream' || kind === 'FONT' || kind === 'LUT' ? guessContentType(kind, fileName) : contentType,
      metadata,
      failureReason: null,
    },
  });
}

/** A font or a LUT read whole and parsed; null for anything else (ffprobe's to judge). */
async function readAsset(file: string, fileName: string, size: number): Promise<{ kind: MediaKind; metadata: MediaMetadata } | null> {
  const handle = await fs.open(file);
  const first = Buffer.alloc(Math.min(size, 64 * 1024));
  try {
    await handle.read(first, 0, first.length, 0);
  } finally {
    await handle.close();
  }
  const kind = assetKindOf(first, fileName);
  if (!kind) return null;
  if (size > MAX_ASSET_BYTES) throw new NotMediaError(`The ${kind === 'FONT' ? 'font' : 'LUT'} is ${size} bytes; at most ${MAX_ASSET_BYTES} are taken`);
  const bytes = await fs.readFile(file);
  if (kind === 'FONT') {
    const font = readFont(bytes);
    return { kind, metadata: { family: font.family, style: font.style, glyphs: font.glyphs, fileSize: size } };
  }
  const lut = readCube(bytes.toString('latin1'));
  return { kind, metadata: { lutSize: lut.size, ...(lut.title ? { title: lut.title } : {}), fileSize: size } };
}

function guessContentType(kind: MediaKind, fileName: string): string {
  const ext = path.extname(fileName).slice(1).toLowerCase();
  const byExt: Record<string, string> = {
    mp4: 'video/mp4',
    mov: 'video/quicktime',
    webm: 'video/webm',
    mp3: 'audio/mpeg',
    m4a: 'audio/mp4',
    wav: 'audio/wav',
    png: 'image/png',
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    gif: 'image/gif',
    webp: 'image/webp',
    ttf: 'font/ttf',
    otf: 'font/otf',
    cube: 'text/plain',
  };
  const byKind: Record<MediaKind, string> = { AUDIO: 'audio/mpeg', IMAGE: 'image/png', VIDEO: 'video/mp4', FONT: 'font/ttf', LUT: 'text/plain' };
  return byExt[ext] ?? byKind[kind];
}

/** POST /v1/user-media/upload: streamed to storage as it arrives, judged by its bytes, ready at once. */
export async function uploadUserMedia(
  app: Pick<App, 'db' | 'storage' | 'config'>,
  userId: string,
  file: { filename: string; mimetype: string; stream: Readable },
): Promise<UserMedia> {
  const fileName = safeFileName(file.filename || 'upload');
  const entry = await app.db.userMedia.create({
    data: { userId, type: guessKind(file.mimetype, fileName), status: 'pending', fileName },
  });
  const key = storageKey(entry.id, fileName);
  try {
    const stored = await app.storage.put(key, file.stream, { contentType: file.mimetype || 'application/octet-stream', maxBytes: MAX_MEDIA_BYTES });
    await finishEntry(app, entry.id, key, stored.size, file.mimetype, fileName);
  } catch (e) {
    // nothing of a refused upload stays behind
    file.stream.resume();
    await app.db.userMedia.delete({ where: { id: entry.id } }).catch(() => {});
    await app.storage.delete(key).catch(() => {});
    if (e instanceof NotMediaError) throw new AppError('UNSUPPORTED_MEDIA_TYPE', e.message);
    throw e;
  }
  return app.db.userMedia.findUniqueOrThrow({ where: { id: entry.id } });
}

/**
 * Entries of uploads that never ended (the process died under the request):
 * pending, without a source URL, created before `before`; they go with any
 * bytes they stored. An entry added by URL stays: its job is due or retried.
 */
export async function sweepDeadUploads(app: Pick<App, 'db' | 'storage'>, before: Date): Promise<number> {
  const dead = await app.db.userMedia.findMany({
    where: { status: 'pending', sourceUrl: null, createdAt: { lt: before } },
    select: { id: true, fileName: true },
    take: 1000,
  });
  let removed = 0;
  for (const entry of dead) {
    await app.storage.delete(storageKey(entry.id, entry.fileName));
    removed += (await app.db.userMedia.deleteMany({ where: { id: entry.id, status: 'pending' } })).count;
  }
  return removed;
}

/** GET /v1/user-media: newest first, keyset pages, optional type filter. */
export function listUserMedia(app: App, userId: string, page: PageRequest, type?: MediaKind | null): Promise<Page<UserMedia>> {
  return keysetPage(modelSource<UserMedia>(app.db.userMedia as never, { scope: { userId }, where: { userId, ...(type ? { type } : {}) } }), page);
}

export async function getUserMedia(app: App, userId: string, id: string): Promise<UserMedia> {
  const entry = isUuid(id) ? await app.db.userMedia.findFirst({ where: { id, userId } }) : null;
  if (!entry) throw notFound('User media');
  return entry;
}

/** The URL of an entry: the stored file once ready, the source link before. */
export function mediaUrl(app: App, entry: Pick<UserMedia, 'storageKey' | 'sourceUrl' | 'fileName'>): string {
  return entry.storageKey ? app.storage.url(entry.storageKey) : (entry.sourceUrl ?? '');
}
