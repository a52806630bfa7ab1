import type { Readable } from 'node:stream';

/** A byte range, both ends inclusive (as in HTTP Range). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredObject {
  key: string;
  size: number;
  contentType: string;
}

/**
 * Where media bytes live. Domain code names objects by key and never learns
 * where they are; URLs for clients come from `url`, signed and expiring.
 */
export interface Storage {
  /** streams `body` to `key` (replacing it); resolves once every byte is durable */
  put(key: string, body: Readable, opts: { contentType: string; maxBytes?: number }): Promise<StoredObject>;
  /** the object's bytes, or a range of them; rejects with a NotFound error when absent */
  get(key: string, range?: ByteRange): Promise<{ body: Readable; size: number; contentType: string }>;
  stat(key: string): Promise<StoredObject | null>;
  delete(key: string): Promise<void>;
  /** removes every object whose key starts with `folder/` (a project's files); resolves to how many; absent is fine */
  deleteFolder(folder: string): Promise<number>;
  /** a URL under PUBLIC_URL that serves the object until it expires */
  url(key: string, opts?: { expiresInSeconds?: number; download?: string }): string;
  /**
   * The stored file's own path on local disk, null on a remote store. For
   * operators and tests only: domain code reads through `readableFile`, so no
   * job depends on a file another machine cannot see.
   */
  localPath(key: string): string | null;
  /**
   * A local file holding the object, for tools that read a path (ffmpeg,
   * ffprobe): on local disk, the stored file itself; on a remote store, a
   * copy streamed into `scratchDir` (the caller's job folder, removed with
   * it). Rejects with a NotFound error when the object is absent.
   */
  readableFile(key: string, scratchDir: string): Promise<string>;
  /**
   * What ffmpeg reads a window of a media object from, seeking to it rather
   * than reading all before it: on local disk, the stored file itself; on a
   * remote store, a presigned GET URL of the store, valid for `seconds`, which
   * ffmpeg reads in ranges (src/media/input.ts). Rejects with a NotFound error
   * when the object is absent.
   */
  mediaSource(key: string, seconds: number): Promise<string>;
  /** removes what writes cut off (a killed process) left behind, untouched since `before`; resolves to how many */
  sweepPartials(before: Date): Promise<number>;
}

/**
 * What one job's tools (ffmpeg, ffprobe) open a stored object as: a local file holding it
 * (`localFiles`), or where it is stored, read by range (`Storage.mediaSource`).
 */
export type LocalFiles = (key: string) => Promise<string>;

/**
 * The local files of one job's stored inputs, each fetched at most once into
 * `scratchDir` (on local disk, the stored files themselves): a render that
 * uses one library image twice copies it once.
 */
export function localFiles(storage: Pick<Storage, 'readableFile'>, scratchDir: string): LocalFiles {
  const files = new Map<string, Promise<string>>();
  return (key) => {
    let file = files.get(key);
    if (!file) {
      file = storage.readableFile(key, scratchDir);
      // a failed copy may be asked for again
      file.catch(() => files.delete(key));
      files.set(key, file);
    }
    return file;
  };
}
