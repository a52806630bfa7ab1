import crypto from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
  type ListMultipartUploadsCommandOutput,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { AppError } from '../errors.js';
import { assertValidKey, type ObjectVersion } from './local.js';
import { presignGet, uriEncode, type PresignCredentials } from './presign.js';
import { DEFAULT_URL_LIFETIME_SECONDS, signedUrl } from './signing.js';
import type { ByteRange, Storage, StoredObject } from './storage.js';

export interface S3StorageOptions {
  client: S3Client;
  bucket: string;
  /** '' or ending with '/' */
  prefix: string;
  /** PUBLIC_URL, or a function that reads it at each call */
  publicUrl: string | (() => string);
  secret: string;
  /** hand out the store's presigned GET URLs instead of this service's /files/ links */
  presignedUrls?: boolean;
  /** multipart part size (S3's minimum, 5 MiB, by default); memory held per upload is about partSize × queueSize */
  partSize?: number;
  /** parts uploaded at once */
  queueSize?: number;
}

const MIN_PART_SIZE = 5 * 1024 * 1024;
const notFound = () => new AppError('NOT_FOUND', 'File not found');

function status(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}
const isMissing = (err: unknown) => status(err) === 404 || (err as Error).name === 'NoSuchKey' || (err as Error).name === 'NotFound';

/** The client of STORAGE_URL=s3://…: credentials come from the SDK's default chain (AWS_ACCESS_KEY_ID, profiles, roles). */
export function createS3Client(settings: {
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  /** fixed credentials instead of the chain (a local test server) */
  credentials?: PresignCredentials;
}): S3Client {
  return new S3Client({
    region: settings.region,
    credentials: settings.credentials,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    // a store that stops answering (2 minutes without a byte) fails the call instead of holding a job until its lock expires
    requestHandler: { connectionTimeout: 10_000, socketTimeout: 120_000 },
    // many S3-compatible servers reject or mis-store the SDK's default trailing checksums (aws-chunked bodies)
    ...(settings.endpoint ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' } : {}),
  });
}

/**
 * Media in an S3-compatible bucket under `prefix`, shared by every instance.
 * `put` streams through a multipart upload (parts of `partSize`, a few at a
 * time), so memory stays flat whatever the object's size; a write cut off by an
 * error is aborted, and one cut off by a killed process is left as an
 * incomplete multipart upload for `sweepPartials`. Readers never see a part:
 * S3 publishes the object only when the upload completes.
 */
export function createS3Storage(opts: S3StorageOptions): Storage & {
  stat(key: string): Promise<(StoredObject & ObjectVersion) | null>;
  get(key: string, range?: ByteRange): Promise<{ body: Readable; size: number; contentType: string } & ObjectVersion>;
  /** resolves once the credentials that presign URLs are loaded (url() needs them synchronously) */
  ready(): Promise<void>;
} {
  const { client, bucket, prefix } = opts;
  const partSize = Math.max(MIN_PART_SIZE, opts.partSize ?? MIN_PART_SIZE);
  const queueSize = opts.queueSize ?? 4;

  /** the store answered that it cannot list incomplete multipart uploads */
  let cannotList = false;

  function objectKey(key: string): string {
    assertValidKey(key);
    return prefix + key;
  }

  // presigning is synchronous (url() returns a string): keep the chain's credentials at hand,
  // refreshed in the background before temporary ones expire
  let credentials: (PresignCredentials & { expiration?: Date }) | undefined;
  let loading: Promise<void> | undefined;
  function loadCredentials(force = false): Promise<void> {
    loading ??= client.config
      .credentials(force ? { forceRefresh: true } : undefined)
      .then((c) => {
        credentials = c;
      })
      .finally(() => {
        loading = undefined;
      });
    return loading;
  }
  const ready = opts.presignedUrls ? loadCredentials().catch(() => undefined) : Promise.resolve();

  // the SDK resolves region and endpoint asynchronously; for the settings we pass they are plain values, read once
  let region = 'us-east-1';
  let endpoint: URL | undefined;
  const resolved = (async () => {
    region = await client.config.region();
    const ep = client.config.endpoint ? await client.config.endpoint() : undefined;
    if (ep) endpoint = new URL(`${ep.protocol}//${ep.hostname}${ep.port ? `:${ep.port}` : ''}${(ep.path ?? '').replace(/\/+$/, '')}`);
  })().catch(() => undefined); // a bad setting fails every S3 call loudly; this only feeds presigning

  /** the object's URL as the client addresses it: path-style, or the bucket as a host name */
  function objectUrl(key: string): URL {
    const encoded = objectKey(key).split('/').map(uriEncode).join('/');
    const base = endpoint ?? new URL(`https://s3.${region}.amazonaws.com`);
    if (client.config.forcePathStyle) return new URL(`${base.origin}${base.pathname.replace(/\/+$/, '')}/${bucket}/${encoded}`);
    return new URL(`${base.protocol}//${bucket}.${base.host}/${encoded}`);
  }

  return {
    ready: async () => {
      await Promise.all([ready, resolved]);
    },

    async put(key, body, { contentType, maxBytes }) {
      // an error of the body before it is sent (a file removed meanwhile) is this call's to report, never an uncaught one
      body.on('error', ignore);
      let target: string;
      try {
        target = objectKey(key);
        if (typeof contentType !== 'string' || !/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/.test(contentType) || /[\r\n]/.test(contentType)) {
          throw new AppError('BAD_REQUEST', `Invalid content type ${JSON.stringify(contentType)}`);
        }
      } catch (err) {
        body.destroy();
        throw err;
      }
      let size = 0;
      let tooLarge: AppError | undefined;
      const limit = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          size += chunk.length;
          if (maxBytes !== undefined && size > maxBytes) {
            tooLarge = new AppError('PAYLOAD_TOO_LARGE', `File is larger than the limit of ${maxBytes} bytes`);
            cb(tooLarge);
            return;
          }
          cb(null, chunk);
        },
      });
      // the source's errors reach the uploader through `limit`, which it reads
      const counted = pipelineTo(body, limit);
      const upload = new Upload({
        client,
        params: { Bucket: bucket, Key: target, Body: counted, ContentType: contentType },
        partSize,
        queueSize,
        // a failed upload is aborted here; only a killed process leaves parts behind
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (err) {
        body.destroy();
        throw tooLarge ?? err;
      }
      return { key, size, contentType };
    },

    async get(key, range) {
      if (range && (!Number.isSafeInteger(range.start) || !Number.isSafeInteger(range.end) || range.start < 0 || range.start > range.end)) {
        throw new AppError('BAD_REQUEST', `Range ${range.start}-${range.end} is invalid`);
      }
      let out;
      try {
        out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
      } catch (err) {
        if (isMissing(err)) throw notFound();
        if (status(err) === 416) throw new AppError('BAD_REQUEST', `Range ${range?.start}-${range?.end} is outside the file`);
        throw err;
      }
      // a ranged answer tells the whole size in Content-Range (`bytes a-b/size`)
      const total = /\/(\d+)$/.exec(out.ContentRange ?? '')?.[1];
      const size = total !== undefined ? Number(total) : (out.ContentLength ?? 0);
      const body = (out.Body as Readable | undefined) ?? Readable.from([]);
      return { body, size, contentType: out.ContentType || 'application/octet-stream', etag: out.ETag, lastModified: out.LastModified };
    },

    async stat(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
        return {
          key,
          size: head.ContentLength ?? 0,
          contentType: head.ContentType || 'application/octet-stream',
          etag: head.ETag,
          lastModified: head.LastModified,
        };
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },

    async delete(key) {
      // S3 answers 204 for an absent key too: deleting twice is fine
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }));
    },

    async deleteFolder(folder) {
      const Prefix = `${objectKey(folder)}/`;
      let removed = 0;
      // a listing page holds at most 1,000 keys, as many as one DeleteObjects takes
      for (let token: string | undefined; ; ) {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix, ContinuationToken: token }));
        const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
        if (keys.length) {
          const done = await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }));
          if (done.Errors?.length) throw new Error(`S3 kept ${done.Errors.length} object(s) of ${Prefix}: ${done.Errors[0].Code} ${done.Errors[0].Message}`);
          removed += keys.length;
        }
        if (!page.IsTruncated) return removed;
        token = page.NextContinuationToken;
      }
    },

    url(key, urlOpts = {}) {
      assertValidKey(key);
      if (!opts.presignedUrls) {
        const publicUrl = typeof opts.publicUrl === 'function' ? opts.publicUrl() : opts.publicUrl;
        return signedUrl(publicUrl, key, opts.secret, urlOpts);
      }
      if (!credentials) {
        void loadCredentials().catch(() => undefined);
        throw new AppError('INTERNAL_SERVER_ERROR', 'Storage credentials are not loaded yet');
      }
      // temporary credentials (roles): fetch the next ones well before these expire
      if (credentials.expiration && credentials.expiration.getTime() - Date.now() < 15 * 60_000) void loadCredentials().catch(() => undefined);
      return presignGet({
        objectUrl: objectUrl(key),
        region,
        credentials,
        expiresInSeconds: urlOpts.expiresInSeconds ?? DEFAULT_URL_LIFETIME_SECONDS,
        query: urlOpts.download ? { 'response-content-disposition': attachment(urlOpts.download) } : undefined,
      });
    },

    // the bytes are in the bucket, not on this machine
    localPath() {
      return null;
    },

    async readableFile(key, scratchDir) {
      await fs.mkdir(scratchDir, { recursive: true });
      const { body } = await this.get(key);
      // named after the whole key: two objects of one job may share a base name (`source.mp4`)
      const file = path.join(scratchDir, `${crypto.createHash('sha256').update(key).digest('hex').slice(0, 16)}-${path.posix.basename(key)}`);
      try {
        await pipeline(body, createWriteStream(file));
      } catch (err) {
        await fs.rm(file, { force: true });
        throw err;
      }
      return file;
    },

    async mediaSource(key, seconds) {
      if (!(await this.stat(key))) throw notFound();
      // temporary credentials (roles) end the URL's life with theirs: fetch new ones when these end sooner
      if (!credentials) await loadCredentials();
      else if (credentials.expiration && credentials.expiration.getTime() - Date.now() < seconds * 1000) await loadCredentials(true);
      return presignGet({ objectUrl: objectUrl(key), region, credentials: credentials!, expiresInSeconds: seconds });
    },

    async sweepPartials(before) {
      if (cannotList) return 0;
      let aborted = 0;
      let keyMarker: string | undefined;
      let uploadIdMarker: string | undefined;
      for (;;) {
        let page: ListMultipartUploadsCommandOutput;
        try {
          page = await client.send(
            new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prefix || undefined, KeyMarker: keyMarker, UploadIdMarker: uploadIdMarker }),
          );
        } catch (err) {
          if (status(err) !== 501 && (err as Error).name !== 'NotImplemented') throw err;
          // said once; this process asks no more
          cannotList = true;
          throw new Error(
            'The store does not list incomplete multipart uploads (ListMultipartUploads): those a killed process leaves stay until a lifecycle rule of the bucket aborts them (AbortIncompleteMultipartUpload)',
            { cause: err },
          );
        }
        for (const u of page.Uploads ?? []) {
          // a younger one may be a write still going on
          if (!u.Key || !u.UploadId || !u.Initiated || u.Initiated >= before) continue;
          try {
            await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: u.Key, UploadId: u.UploadId }));
            aborted++;
          } catch (err) {
            if (status(err) !== 404) throw err; // completed or aborted meanwhile
          }
        }
        if (!page.IsTruncated) return aborted;
        keyMarker = page.NextKeyMarker;
        uploadIdMarker = page.NextUploadIdMarker;
      }
    },
  };
}

/** `body` piped into `through`, whose errors (and the source's) end the read of `through`. */
function pipelineTo(body: Readable, through: Transform): Readable {
  body.on('error', (err) => through.destroy(err));
  return body.pipe(through);
}

/** `attachment; filename=…` for the store to send back (response-content-disposition) */
function attachment(filename: string): string {
  const clean = filename.replace(/[\u0000-\u001f\u007f"\\/]/g, '_').slice(0, 200) || 'download';
  const fallback = clean.replace(/[^\x20-\x7e]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(clean)}`;
}

const ignore = () => {};
