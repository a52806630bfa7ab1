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

/**
 * JSON with the keys of every object sorted (as `Object.keys(o).sort()`, then
 * in the order JavaScript gives an object's keys, so integer keys come first):
 * one text per value. Written with a stack of its own rather than recursion, so
 * a body nested thousands deep (which JSON.parse reads) is fingerprinted too;
 * the text is JSON.stringify's, character for character, so fingerprints kept
 * before stay valid.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  // what is left to write, last first: a value (its toJSON applied already), or literal text
  const todo: Array<{ value: unknown } | string> = [{ value: toJsonValue(value ?? null, '') }];
  while (todo.length) {
    const next = todo.pop()!;
    if (typeof next === 'string') {
      out.push(next);
      continue;
    }
    const v = next.value;
    if (Array.isArray(v)) {
      out.push('[');
      todo.push(']');
      for (let i = v.length - 1; i >= 0; i--) {
        const item = toJsonValue(v[i], String(i));
        // what JSON has no value for is null in an array
        todo.push(skipped(item) ? 'null' : { value: item });
        if (i > 0) todo.push(',');
      }
      continue;
    }
    if (isPlainObject(v)) {
      const order = Object.keys(
        Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, true]),
        ),
      );
      // ...and is left out of an object
      const fields = order.map((k) => [k, toJsonValue(v[k], k)] as const).filter(([, x]) => !skipped(x));
      out.push('{');
      todo.push('}');
      for (let i = fields.length - 1; i >= 0; i--) {
        todo.push({ value: fields[i][1] });
        todo.push(`${JSON.stringify(fields[i][0])}:`);
        if (i > 0) todo.push(',');
      }
      continue;
    }
    out.push(skipped(v) ? 'null' : JSON.stringify(v));
  }
  return out.join('');
}

/** A value as JSON.stringify sees it: after its toJSON (a Date's string). */
function toJsonValue(v: unknown, key: string): unknown {
  const toJSON = v !== null && (typeof v === 'object' || typeof v === 'bigint') ? (v as { toJSON?: unknown }).toJSON : undefined;
  return typeof toJSON === 'function' ? toJSON.call(v, key) : v;
}

const skipped = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

export const fingerprintOf = (value: unknown) => crypto.createHash('sha256').update(canonicalJson(value)).digest('hex');

/** A file as a fingerprint reads it. */
export interface UploadDigest {
  filename: string;
  sha256: string;
}

/** The uploads a value (GraphQL variables) carries, wherever they sit (however deep: no recursion). */
export function findUploads(value: unknown, found: Upload[] = []): Upload[] {
  const todo = [value];
  while (todo.length) {
    const v = todo.pop();
    if (v instanceof Upload) found.push(v);
    else if (Array.isArray(v) || isPlainObject(v)) todo.push(...Object.values(v).reverse());
  }
  return found;
}

/** The value with each upload replaced by its digest (a copy, made without recursion). */
export function withDigests(value: unknown, digests: ReadonlyMap<Upload, UploadDigest>): unknown {
  const root: Record<string, unknown> = { value };
  const todo: Array<[Record<string, unknown> | unknown[], string | number]> = [[root, 'value']];
  while (todo.length) {
    const [holder, key] = todo.pop()!;
    const v = (holder as Record<string, unknown>)[key];
    let copy: unknown;
    if (v instanceof Upload) copy = { upload: digests.get(v) ?? null };
    else if (Array.isArray(v)) copy = v.slice();
    else if (isPlainObject(v)) copy = Object.fromEntries(Object.entries(v));
    else continue;
    // a key such as __proto__ stays a key of the copy
    Object.defineProperty(holder, key, { value: copy, writable: true, enumerable: true, configurable: true });
    if (Array.isArray(copy)) for (let i = 0; i < copy.length; i++) todo.push([copy, i]);
    else if (!(v instanceof Upload)) for (const k of Object.keys(copy as object)) todo.push([copy as Record<string, unknown>, k]);
  }
  return root.value;
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
