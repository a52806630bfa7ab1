/**
 * The fingerprint of a request under an idempotency key: the sha-256 of its
 * canonical form, so that a retry of the same request matches however its
 * client ordered the keys of its JSON, and another request under the same key
 * does not. A file of an upload counts by its name and the sha-256 of its
 * bytes, computed as the operation streams it (nothing more is held).
 */
import crypto from 'node:crypto';
import { pipeline, Transform, type Readable } from 'node:stream';
import { Upload, type FileUpload } from 'graphql-upload-ts';
import { AppError, isAppError } from '../errors.js';
import { isPlainObject } from '../validation.js';

/** JSON with the keys of every object in code-point order: one text per value. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, v: unknown) =>
    isPlainObject(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v,
  );
}

export const fingerprintOf = (value: unknown) => crypto.createHash('sha256').update(canonicalJson(value)).digest('hex');

/** A file as a fingerprint reads it. */
export interface UploadDigest {
  filename: string;
  sha256: string;
}

/** The uploads a value (GraphQL variables) carries, wherever they sit. */
export function findUploads(value: unknown, found: Upload[] = []): Upload[] {
  if (value instanceof Upload) found.push(value);
  else if (Array.isArray(value)) for (const v of value) findUploads(v, found);
  else if (isPlainObject(value)) for (const v of Object.values(value)) findUploads(v, found);
  return found;
}

/** The value with each upload replaced by its digest. */
export function withDigests(value: unknown, digests: ReadonlyMap<Upload, UploadDigest>): unknown {
  if (value instanceof Upload) return { upload: digests.get(value) ?? null };
  if (Array.isArray(value)) return value.map((v) => withDigests(v, digests));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withDigests(v, digests)]));
  return value;
}

/**
 * Hashes each upload's file while the operation reads it (the operation sees the
 * same bytes, errors and end). `digests()` is null until every file was read to
 * its end: an answer given before that has no fingerprint to keep.
 */
export function hashUploads(uploads: readonly Upload[]): { digests(): ReadonlyMap<Upload, UploadDigest> | null } {
  const digests = new Map<Upload, UploadDigest>();
  for (const upload of uploads) {
    const wrapped = upload.promise.then((file: FileUpload): FileUpload => {
      let stream: Readable | undefined;
      const record = (sha256: string) => digests.set(upload, { filename: file.filename, sha256 });
      // the operation reads a stream; the capacitor's extra methods are not used past here
      const createReadStream = (options?: Parameters<FileUpload['createReadStream']>[0]) => (stream ??= hashing(file.createReadStream(options), record));
      return { ...file, createReadStream: createReadStream as unknown as FileUpload['createReadStream'] };
    });
    wrapped.catch(() => {}); // read (and reported) by the operation
    // GraphQL's Upload scalar hands the operation this promise
    (upload as { promise: Promise<FileUpload> }).promise = wrapped;
  }
  return { digests: () => (digests.size === uploads.length ? digests : null) };
}

function hashing(source: Readable, onEnd: (sha256: string) => void): Readable {
  const hash = crypto.createHash('sha256');
  const through = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      callback(null, chunk);
    },
    flush(callback) {
      onEnd(hash.digest('hex'));
      callback();
    },
  });
  // an error of the source reaches the reader through `through`; a reader that stops destroys the source
  pipeline(source, through, () => {});
  return through;
}

/**
 * Reads each upload's file to its end for its digest only: the upload of a
 * retry, whose work is not done again.
 */
export async function drainUploads(uploads: readonly Upload[]): Promise<ReadonlyMap<Upload, UploadDigest>> {
  const digests = new Map<Upload, UploadDigest>();
  for (const upload of uploads) {
    try {
      const file = await upload.promise;
      const hash = crypto.createHash('sha256');
      for await (const chunk of file.createReadStream()) hash.update(chunk as Buffer);
      digests.set(upload, { filename: file.filename, sha256: hash.digest('hex') });
    } catch (e) {
      if (isAppError(e)) throw e;
      const message = (e as Error).message;
      throw new AppError('VALIDATION_ERROR', `Invalid multipart request: ${message}`, { details: [{ field: 'body', message }] });
    }
  }
  return digests;
}
