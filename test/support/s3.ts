import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

/**
 * A local S3-compatible server: s3rver (in-process, a temporary folder, a
 * random port). It knows the access key S3RVER but does not check SigV4
 * signatures (its own code: "Signature version 4 calculation is unimplemented").
 * s3rver 3.7.1 does not implement
 * ListMultipartUploads (GET /bucket?uploads) nor AbortMultipartUpload
 * (DELETE /bucket/key?uploadId=); those two are answered here from s3rver's
 * own folder of pending uploads, in S3's XML shapes, without signature checks.
 */
export interface LocalS3 {
  endpoint: string;
  bucket: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** `METHOD /path ?query-names` of every request, to see which operations a call used */
  requests: string[];
  /** `/path bytes=…` of every GET that asked for a range, as a reader that seeks does */
  rangedGets: string[];
  /** upload ids pending in the bucket (what S3 would bill as incomplete multipart uploads) */
  pendingUploads(): Promise<string[]>;
  /** every object key stored in the bucket */
  objectKeys(): Promise<string[]>;
  /** writes (PUT) of keys that match are answered 500 InternalError, as a failing store would; null lets them through again */
  refuseWrites(keys: RegExp | null): void;
  /** false: ListMultipartUploads goes to s3rver itself, which does not implement it (as some stores do not) */
  listUploads(on: boolean): void;
  close(): Promise<void>;
}

interface S3rverInstance {
  callback(): http.RequestListener;
  store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string; rootDirectory: string };
  configureBuckets(): Promise<void>;
}

const require = createRequire(import.meta.url);

export async function startLocalS3(bucket = 'media-test'): Promise<LocalS3> {
  const S3rver = require('s3rver') as new (opts: Record<string, unknown>) => S3rverInstance;
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 's3rver-'));
  const s3rver = new S3rver({ directory, silent: true, configureBuckets: [{ name: bucket }], vhostBuckets: false });
  await s3rver.configureBuckets();
  const uploadsDir = () => s3rver.store.getResourcePath(bucket, undefined, 'uploads');
  const handle = s3rver.callback();

  const requests: string[] = [];
  const rangedGets: string[] = [];
  let refused: RegExp | null = null;
  let listing = true;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    requests.push(`${req.method} ${url.pathname} ?${[...url.searchParams.keys()].filter((k) => !k.startsWith('X-Amz-')).join('&')}`);
    if (req.method === 'GET' && req.headers.range) rangedGets.push(`${url.pathname} ${req.headers.range}`);
    const [, b, ...rest] = url.pathname.split('/');
    // https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html (InternalError, 500: the SDK retries, then gives up)
    if (refused && req.method === 'PUT' && b === bucket && refused.test(decodeURIComponent(rest.join('/')))) {
      req.resume();
      res.writeHead(500, { 'content-type': 'application/xml' }).end(s3Error('InternalError', 'We encountered an internal error. Please try again.'));
      return;
    }
    if (listing && req.method === 'GET' && b === bucket && rest.every((r) => r === '') && url.searchParams.has('uploads')) {
      void listUploads(url.searchParams.get('prefix') ?? '').then((xml) => res.writeHead(200, { 'content-type': 'application/xml' }).end(xml));
      return;
    }
    if (req.method === 'DELETE' && b === bucket && url.searchParams.has('uploadId')) {
      void abortUpload(url.searchParams.get('uploadId') ?? '').then((found) => {
        if (found) res.writeHead(204).end();
        else res.writeHead(404, { 'content-type': 'application/xml' }).end(s3Error('NoSuchUpload', 'The specified upload does not exist.'));
      });
      return;
    }
    handle(req, res);
  });

  // https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListMultipartUploads.html (one page: tests keep few uploads)
  async function listUploads(prefix: string): Promise<string> {
    const ids = await fs.readdir(uploadsDir()).catch(() => [] as string[]);
    const rows: string[] = [];
    for (const id of ids) {
      const dir = path.join(uploadsDir(), id);
      const key = await fs.readFile(path.join(dir, 'key'), 'utf8').catch(() => null);
      if (key === null || !key.startsWith(prefix)) continue;
      // s3rver keeps no initiation time: the folder's birth stands in for it
      const st = await fs.stat(path.join(dir, 'key'));
      rows.push(
        `<Upload><Key>${xml(key)}</Key><UploadId>${id}</UploadId><Initiated>${st.mtime.toISOString()}</Initiated><StorageClass>STANDARD</StorageClass></Upload>`,
      );
    }
    return `<?xml version="1.0" encoding="UTF-8"?><ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${bucket}</Bucket><Prefix>${xml(prefix)}</Prefix><MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>${rows.join('')}</ListMultipartUploadsResult>`;
  }

  // https://docs.aws.amazon.com/AmazonS3/latest/API/API_AbortMultipartUpload.html
  async function abortUpload(id: string): Promise<boolean> {
    if (!/^[0-9a-f]+$/.test(id)) return false;
    const dir = path.join(uploadsDir(), id);
    const exists = await fs.stat(dir).then(
      () => true,
      () => false,
    );
    await fs.rm(dir, { recursive: true, force: true });
    return exists;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requests,
    rangedGets,
    pendingUploads: async () => (await fs.readdir(uploadsDir()).catch(() => [] as string[])).sort(),
    async objectKeys() {
      const root = path.join(directory, bucket);
      const files = (await fs.readdir(root, { recursive: true }).catch(() => [] as string[])).map(String);
      // s3rver keeps an object `a/b.mp4` as a/b.mp4._S3rver_object
      return files
        .filter((f) => f.endsWith('._S3rver_object'))
        .map((f) => f.slice(0, -'._S3rver_object'.length).split(path.sep).join('/'))
        .sort();
    },
    refuseWrites(keys) {
      refused = keys;
    },
    listUploads(on) {
      listing = on;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const s3Error = (code: string, message: string) => `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;
