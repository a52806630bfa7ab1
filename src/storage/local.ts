import crypto from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../errors.js';
import { deadWriter, WRITER_TAG, WRITER_TAG_PATTERN } from '../writer.js';
import { signedUrl } from './signing.js';
import type { ByteRange, Storage, StoredObject } from './storage.js';

/**
 * What the local store tells beyond StoredObject; the file route uses it for
 * ETag and Last-Modified when a store provides it.
 */
export interface ObjectVersion {
  etag?: string;
  lastModified?: Date;
}

/** Content types of the extensions this service stores, for files written without `put` (ffmpeg outputs). */
const TYPES_BY_EXTENSION: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/x-m4v',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  flac: 'audio/flac',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  json: 'application/json',
  txt: 'text/plain; charset=utf-8',
  srt: 'application/x-subrip',
  vtt: 'text/vtt',
  ass: 'text/x-ssa',
};

export function contentTypeFromExtension(key: string): string {
  const ext = path.posix.extname(key).slice(1).toLowerCase();
  return TYPES_BY_EXTENSION[ext] ?? 'application/octet-stream';
}

/**
 * Throws unless `key` is a relative path of plain segments (`media/<uuid>/source.mp4`):
 * no `..`, no absolute path, no backslash, no empty segment, no control character.
 * Segments may not start with a dot: names starting with one are the store's own
 * (content-type sidecars, temporary files).
 */
export function assertValidKey(key: string): void {
  const bad = (why: string) => new AppError('BAD_REQUEST', `Invalid storage key ${JSON.stringify(key)}: ${why}`);
  if (typeof key !== 'string' || key.length === 0) throw bad('empty');
  if (key.length > 1024) throw bad('too long');
  if (key.includes('\\')) throw bad('backslash');
  if (/[\u0000-\u001f\u007f]/.test(key)) throw bad('control character');
  if (key.startsWith('/') || /^[a-zA-Z]:/.test(key)) throw bad('absolute path');
  for (const segment of key.split('/')) {
    if (segment === '') throw bad('empty path segment');
    if (segment === '.' || segment === '..') throw bad('relative path segment');
    if (segment.startsWith('.')) throw bad('segment starts with a dot');
  }
}

/**
 * The temporary files `put` and the sidecar writes stream into before their
 * rename name their writer, this process on this host:
 * `.<name>.<writer tag>.<uuid>.tmp` (src/writer.ts; `PARTIAL` also matches the older `.<name>.<uuid>.tmp`).
 * A write removes the temporary files in its folder whose writer ran on this
 * host and runs no more (killed mid-write), so the next write of a killed
 * job's object cleans up after it; files of other hosts, or of a pid that runs
 * again, are left to `sweepPartials`.
 */
const PARTIAL = /^\..+\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmp$/;
const tmpPath = (target: string) => path.join(path.dirname(target), `.${path.basename(target)}.${WRITER_TAG}.${crypto.randomUUID()}.tmp`);
const LOCAL_TMP = new RegExp(String.raw`^\..+?\.(${WRITER_TAG_PATTERN})\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmp$`);

async function removeDeadWritersFiles(dir: string): Promise<void> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const m = LOCAL_TMP.exec(name);
      if (m && deadWriter(m[1])) await fs.rm(path.join(dir, name), { force: true });
    }),
  );
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

const notFound = () => new AppError('NOT_FOUND', 'File not found');

/**
 * Media on the local disk under `root` (DATA_DIR/media). A `put` streams into a
 * hidden temporary file in the target directory (same filesystem) and renames it
 * into place once every byte is synced, so readers see the old object or the
 * whole new one, never a part. The content type is kept in a hidden sidecar
 * (`.<name>.meta.json`) next to the file; files written by other tools fall back
 * to their extension.
 */
export function createLocalStorage(opts: {
  root: string;
  /** PUBLIC_URL, or a function that reads it at each call (a server that learns its port after listening) */
  publicUrl: string | (() => string);
  secret: string;
}): Storage & {
  stat(key: string): Promise<(StoredObject & ObjectVersion) | null>;
  get(key: string, range?: ByteRange): Promise<{ body: Readable; size: number; contentType: string } & ObjectVersion>;
} {
  const root = path.resolve(opts.root);

  function filePath(key: string): string {
    assertValidKey(key);
    const p = path.resolve(root, ...key.split('/'));
    if (!p.startsWith(root + path.sep)) throw new AppError('BAD_REQUEST', `Invalid storage key ${JSON.stringify(key)}: outside the store`);
    return p;
  }
  const sidecarPath = (file: string) => path.join(path.dirname(file), `.${path.basename(file)}.meta.json`);

  async function readContentType(key: string, file: string): Promise<string> {
    try {
      const meta = JSON.parse(await fs.readFile(sidecarPath(file), 'utf8')) as { contentType?: unknown };
      if (typeof meta.contentType === 'string' && meta.contentType) return meta.contentType;
    } catch {
      // no sidecar (a file some tool wrote) or an unreadable one: the extension decides
    }
    return contentTypeFromExtension(key);
  }

  const version = (st: { size: number; mtimeMs: number; mtime: Date }): Required<ObjectVersion> => ({
    etag: `"${Math.floor(st.mtimeMs).toString(16)}-${st.size.toString(16)}"`,
    lastModified: st.mtime,
  });

  /** writes `data` to `target` through a synced temporary file and a rename */
  async function writeAtomically(target: string, data: string): Promise<void> {
    const tmp = tmpPath(target);
    try {
      await fs.writeFile(tmp, data, { flag: 'wx', flush: true });
      await fs.rename(tmp, target);
    } catch (err) {
      await fs.rm(tmp, { force: true });
      throw err;
    }
  }

  async function syncDir(dir: string): Promise<void> {
    // makes the rename itself durable; not every platform can open a directory
    const handle = await fs.open(dir, 'r').catch(() => null);
    if (!handle) return;
    try {
      await handle.sync();
    } catch {
      // some filesystems refuse fsync on a directory
    } finally {
      await handle.close();
    }
  }

  /** The stored file of `key`; NotFound when absent. */
  async function storedFile(key: string): Promise<string> {
    const file = filePath(key);
    await fs.access(file).catch((err) => {
      throw isMissing(err) ? notFound() : err;
    });
    return file;
  }

  return {
    async put(key, body, { contentType, maxBytes }) {
      // an error of the body before it is piped (a file removed meanwhile) is this call's to report, never an uncaught one
      body.on('error', ignore);
      const file = filePath(key);
      if (typeof contentType !== 'string' || !/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/.test(contentType) || /[\r\n]/.test(contentType)) {
        body.destroy();
        throw new AppError('BAD_REQUEST', `Invalid content type ${JSON.stringify(contentType)}`);
      }
      const dir = path.dirname(file);
      await fs.mkdir(dir, { recursive: true });
      await removeDeadWritersFiles(dir);
      const tmp = tmpPath(file);
      let size = 0;
      const limit = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          size += chunk.length;
          if (maxBytes !== undefined && size > maxBytes) {
            cb(new AppError('PAYLOAD_TOO_LARGE', `File is larger than the limit of ${maxBytes} bytes`));
            return;
          }
          cb(null, chunk);
        },
      });
      // the temporary file exists before the first byte: a write stream opening it itself could create it
      // after a source that broke at once had failed the put and its cleanup had run, leaving it behind
      let handle: fs.FileHandle;
      try {
        handle = await fs.open(tmp, 'wx');
      } catch (err) {
        body.destroy();
        throw err;
      }
      try {
        // `flush` syncs the data before the stream closes; the rename then publishes whole bytes only
        await pipeline(body, limit, createWriteStream(tmp, { fd: handle, flush: true }));
        await writeAtomically(sidecarPath(file), JSON.stringify({ contentType }));
        await fs.rename(tmp, file);
      } catch (err) {
        await fs.rm(tmp, { force: true });
        throw err;
      }
      await syncDir(dir);
      return { key, size, contentType };
    },

    async get(key, range) {
      const file = filePath(key);
      let handle: fs.FileHandle;
      try {
        handle = await fs.open(file, 'r');
      } catch (err) {
        if (isMissing(err)) throw notFound();
        throw err;
      }
      try {
        // size and bytes come from the same open file, even if a put replaces it meanwhile
        const st = await handle.stat();
        if (!st.isFile()) throw notFound();
        let start = 0;
        let end = st.size - 1;
        if (range) {
          if (!Number.isSafeInteger(range.start) || !Number.isSafeInteger(range.end) || range.start < 0 || range.start > range.end || range.start >= st.size) {
            throw new AppError('BAD_REQUEST', `Range ${range.start}-${range.end} is outside the file (${st.size} bytes)`);
          }
          start = range.start;
          end = Math.min(range.end, st.size - 1);
        }
        const contentType = await readContentType(key, file);
        let body: Readable;
        if (st.size === 0) {
          await handle.close();
          body = Readable.from([]);
        } else {
          body = handle.createReadStream({ start, end });
        }
        return { body, size: st.size, contentType, ...version(st) };
      } catch (err) {
        await handle.close();
        throw err;
      }
    },

    async stat(key) {
      const file = filePath(key);
      try {
        const st = await fs.stat(file);
        if (!st.isFile()) return null;
        return { key, size: st.size, contentType: await readContentType(key, file), ...version(st) };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },

    async delete(key) {
      const file = filePath(key);
      await fs.rm(file, { force: true });
      await fs.rm(sidecarPath(file), { force: true });
      // folders emptied by the delete go too, so nothing of a removed object stays behind
      await removeEmptyFolders(path.dirname(file));
    },

    async deleteFolder(folder) {
      const dir = filePath(folder);
      const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch((err) => {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw err;
      });
      // objects, not their sidecars or a write's temporary file
      const objects = entries.filter((e) => e.isFile() && !e.name.startsWith('.')).length;
      await fs.rm(dir, { recursive: true, force: true });
      await removeEmptyFolders(path.dirname(dir));
      return objects;
    },

    url(key, urlOpts = {}) {
      assertValidKey(key);
      const publicUrl = typeof opts.publicUrl === 'function' ? opts.publicUrl() : opts.publicUrl;
      return signedUrl(publicUrl, key, opts.secret, urlOpts);
    },

    localPath(key) {
      return filePath(key);
    },

    // the stored file is already local: no copy
    // the stored file itself: nothing to copy, for a whole read or a window
    readableFile: (key) => storedFile(key),
    mediaSource: (key) => storedFile(key),

    async sweepPartials(before) {
      const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch((err) => {
        if (isMissing(err)) return [];
        throw err;
      });
      let removed = 0;
      for (const entry of entries) {
        if (!entry.isFile() || !PARTIAL.test(entry.name)) continue;
        const file = path.join(entry.parentPath, entry.name);
        const dir = path.dirname(file);
        const [st, dirSt] = await Promise.all([fs.stat(file).catch(() => null), fs.stat(dir).catch(() => null)]);
        if (!st || st.mtime >= before) continue; // gone meanwhile, or a write still going on
        await fs.rm(file, { force: true });
        removed++;
        // the folders a cut-off upload made go too, unless something else happened in them since
        if (dirSt && dirSt.mtime < before) await removeEmptyFolders(dir);
      }
      return removed;
    },
  };

  async function removeEmptyFolders(from: string): Promise<void> {
    for (let dir = from; dir.startsWith(root + path.sep); dir = path.dirname(dir)) {
      try {
        await fs.rmdir(dir);
      } catch {
        return; // not empty (or already gone)
      }
    }
  }
}

const ignore = () => {};
