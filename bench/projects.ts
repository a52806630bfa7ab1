import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { mediaFixtures, serveFolder } from '../test/support/media.js';
import { readSse, subscribeSse } from '../test/support/sse.js';
import type { Row } from './row.js';
import { admin, startService, withPgDatabase, type Service } from './support.js';

const run = promisify(execFile);
const SECTION = 'projects';
const UPLOAD_BYTES = 1024 ** 3;

/** Times of the first update of each stage, read from the projectUpdates subscription over SSE. */
async function followProject(svc: Service, key: string, id: string): Promise<Record<string, number>> {
  const res = await subscribeSse(svc.url, key, 'subscription($id: ID!) { projectUpdates(projectId: $id) { status stage } }', { id });
  const first: Record<string, number> = {};
  await readSse(
    res,
    (d) => d.projectUpdates as { status: string; stage: string },
    (e) => {
      first[e.stage] ??= performance.now();
      if (e.status === 'failed') throw new Error(`project ${id} failed`);
      return e.status === 'completed';
    },
  );
  return first;
}

async function timeProject(svc: Service, key: string, videoUrl: string, label: string, duration: number): Promise<Row[]> {
  const t0 = performance.now();
  const res = await fetch(`${svc.url}/v1/projects`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ title: label, language: 'en', videoUrl, autoRender: false }),
  });
  const created = (await res.json()) as { id: string };
  if (res.status !== 201) throw new Error(`create: ${res.status} ${JSON.stringify(created)}`);
  const tCreated = performance.now();
  const at = await followProject(svc, key, created.id);
  const ms = (a: string, b: string) => (at[b] ?? tCreated) - (at[a] ?? tCreated);
  const transcription = ms('extract', 'done');
  return [
    { section: SECTION, metric: `${label}: POST to completed`, value: (at.done - t0) / 1000, unit: 's', note: `source ${duration.toFixed(1)} s` },
    { section: SECTION, metric: `${label}: POST answered (URL checked)`, value: tCreated - t0, unit: 'ms' },
    { section: SECTION, metric: `${label}: queue wait`, value: (at.fetch ?? tCreated) - tCreated, unit: 'ms' },
    { section: SECTION, metric: `${label}: fetch`, value: ms('fetch', 'probe'), unit: 'ms' },
    { section: SECTION, metric: `${label}: probe`, value: ms('probe', 'extract'), unit: 'ms' },
    { section: SECTION, metric: `${label}: audio extraction`, value: ms('extract', 'transcribe'), unit: 'ms' },
    { section: SECTION, metric: `${label}: transcription`, value: ms('transcribe', 'done') / 1000, unit: 's' },
    {
      section: SECTION,
      metric: `${label}: transcription / real time`,
      value: transcription / 1000 / duration,
      unit: 'ratio',
      note: 'extraction + recognition',
    },
  ];
}

async function rssOf(svc: Service): Promise<number> {
  const text = await (await fetch(`${svc.url}/metrics`)).text();
  return Number(/^process_resident_memory_bytes (\d+)/m.exec(text)?.[1] ?? NaN);
}

/**
 * 1 GB uploaded over loopback: a valid mp4 (moov first) followed by a 1 GB
 * `free` box, which players and ffprobe skip. The server's RSS is sampled
 * through /metrics while the bytes stream in.
 */
async function uploadBig(svc: Service, key: string, talk: string): Promise<Row[]> {
  const head = await fs.readFile(talk);
  const boundary = 'benchBOUNDARY';
  const pre = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nOne gigabyte\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="language"\r\n\r\nen\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const post = Buffer.from(`\r\n--${boundary}--\r\n`);
  const freeSize = UPLOAD_BYTES - head.length;
  const box = Buffer.alloc(8);
  box.writeUInt32BE(freeSize, 0);
  box.write('free', 4, 'latin1');
  const chunk = Buffer.alloc(1024 * 1024);
  async function* body() {
    yield pre;
    yield head;
    yield box;
    let left = freeSize - 8;
    while (left > 0) {
      const n = Math.min(left, chunk.length);
      yield n === chunk.length ? chunk : chunk.subarray(0, n);
      left -= n;
    }
    yield post;
  }
  const idle = await rssOf(svc);
  let peak = idle;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await rssOf(svc));
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const t0 = performance.now();
  const res = await fetch(`${svc.url}/v1/projects/upload`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: ReadableStreamFrom(body()),
    duplex: 'half',
  } as RequestInit);
  const text = await res.text();
  const seconds = (performance.now() - t0) / 1000;
  sampling = false;
  await sampler;
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${text}`);
  const MB = 1024 * 1024;
  return [
    { section: SECTION, metric: '1 GB upload: throughput over loopback', value: UPLOAD_BYTES / MB / seconds, unit: 'MB/s', note: `${seconds.toFixed(1)} s` },
    { section: SECTION, metric: '1 GB upload: server RSS idle', value: idle / MB, unit: 'MB' },
    { section: SECTION, metric: '1 GB upload: server RSS peak above idle', value: (peak - idle) / MB, unit: 'MB', note: 'target < 150' },
  ];
}

function ReadableStreamFrom(it: AsyncGenerator<Buffer>): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async pull(controller) {
      const { done, value } = await it.next();
      if (done) controller.close();
      else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
    },
  });
}

/** POST to completed for an 8-second and a 10-minute clip, stage by stage; then a 1 GB upload. */
export async function projects(): Promise<Row[]> {
  const fx = await mediaFixtures();
  const tenMinutes = path.join(fx.dir, 'ten-minutes.mp4');
  // the 8-second talk, 75 times over
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-stream_loop', '74', '-i', fx.talk, '-c', 'copy', '-movflags', '+faststart', tenMinutes]);
  const files = await serveFolder(fx.dir);
  try {
    return await withPgDatabase(async (url) => {
      const svc = await startService({ DATABASE_URL: url, ALLOW_PRIVATE_NETWORK: '1' });
      try {
        const { apiKey } = await admin(svc.env, 'user', 'create', '--email', `bench-proj-${Date.now()}@bench.local`);
        const probeDuration = async (f: string) =>
          Number((await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', f])).stdout);
        const rows: Row[] = [];
        rows.push(...(await timeProject(svc, apiKey, files.url('talk.mp4'), '8 s clip', await probeDuration(fx.talk))));
        rows.push(...(await timeProject(svc, apiKey, files.url('ten-minutes.mp4'), '10 min clip', await probeDuration(tenMinutes))));
        rows.push(...(await uploadBig(svc, apiKey, fx.talk)));
        return rows;
      } finally {
        await svc.stop();
      }
    });
  } finally {
    await files.close();
    await fs.rm(tenMinutes, { force: true });
  }
}
