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
  /** a URL under PUBLIC_URL that serves the object until it expires */
  url(key: string, opts?: { expiresInSeconds?: number; download?: string }): string;
  /** a local file path of the object, for tools that need one (ffmpeg); null when the store is remote */
  localPath(key: string): string | null;
  /**
   * A local file holding the object, for tools that read a path (ffmpeg,
   * ffprobe): on local disk, the stored file itself; on a remote store, a
   * copy streamed into `scratchDir` (the caller's job folder, removed with
   * it). Rejects with a NotFound error when the object is absent.
   */
  readableFile(key: string, scratchDir: string): Promise<string>;
  /** removes what writes cut off (a killed process) left behind, untouched since `before`; resolves to how many */
  sweepPartials(before: Date): Promise<number>;
}
