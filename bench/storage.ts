import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createLocalStorage } from '../src/storage/local.js';
import { createS3Client, createS3Storage } from '../src/storage/s3.js';
import type { Storage } from '../src/storage/storage.js';
import { startLocalS3 } from '../test/support/s3.js';
import type { Row } from './row.js';

const SECTION = 'storage';
const TOTAL = 1024 ** 3; // 1 GiB
const CHUNK = 256 * 1024;

/** `TOTAL` bytes made as they are read: the source itself holds one chunk */
function generated(): Readable {
  const chunk = Buffer.alloc(CHUNK, 0x5a);
  return Readable.from(
    (function* () {
      for (let at = 0; at < TOTAL; at += CHUNK) yield chunk.subarray(0, Math.min(CHUNK, TOTAL - at));
    })(),
  );
}

/**
 * Throughput of one 1 GiB put, how far the process's RSS rose above where it
 * started, and on a remote store the throughput of a job's local copy of it.
 */
async function measure(name: string, storage: Storage): Promise<Row[]> {
  global.gc?.();
  const rss0 = process.memoryUsage.rss();
  let peak = rss0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  const t0 = performance.now();
  const put = await storage.put('bench/source.mp4', generated(), { contentType: 'video/mp4' });
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  if (put.size !== TOTAL) throw new Error(`${name}: stored ${put.size} bytes of ${TOTAL}`);
  const rows: Row[] = [
    { section: SECTION, metric: `${name} put 1 GiB`, value: TOTAL / 1024 ** 2 / seconds, unit: 'MiB/s' },
    { section: SECTION, metric: `${name} peak RSS growth`, value: (peak - rss0) / 1024 ** 2, unit: 'MiB', note: 'during the put' },
  ];
  if (!storage.localPath('bench/source.mp4')) {
    // what a job pays for its local copy of a remote object (readableFile into its folder)
    const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-scratch-'));
    try {
      const t1 = performance.now();
      const file = await storage.readableFile('bench/source.mp4', scratch);
      const copySeconds = (performance.now() - t1) / 1000;
      if ((await fs.stat(file)).size !== TOTAL) throw new Error(`${name}: copied fewer bytes than stored`);
      rows.push({ section: SECTION, metric: `${name} job copy of 1 GiB`, value: TOTAL / 1024 ** 2 / copySeconds, unit: 'MiB/s', note: 'readableFile' });
    } finally {
      await fs.rm(scratch, { recursive: true, force: true });
    }
  }
  await storage.delete('bench/source.mp4');
  return rows;
}

/**
 * `put` of a generated 1 GiB stream to local disk and to a local S3-compatible
 * server (s3rver in this process, writing to the same disk): the multipart
 * upload holds about partSize × queueSize in memory whatever the size.
 */
export async function storage(): Promise<Row[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-storage-'));
  const s3 = await startLocalS3('bench');
  try {
    const rows: Row[] = [];
    rows.push(...(await measure('local disk', createLocalStorage({ root: dir, publicUrl: 'http://127.0.0.1', secret: 'bench-secret' }))));
    const client = createS3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: s3.credentials });
    rows.push(
      ...(await measure(
        's3 (local s3rver)',
        createS3Storage({ client, bucket: s3.bucket, prefix: '', publicUrl: 'http://127.0.0.1', secret: 'bench-secret' }),
      )),
    );
    return rows;
  } finally {
    await s3.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
