/**
 * `npm run bench -- render` (case `service`): the export of the 60 s clip
 * through the running service, as users get it. `npm run server` and
 * `npm run worker` run as separate processes on a fresh PostgreSQL database;
 * the project is created from a URL with every effect (silence removal,
 * zooms, clean audio, hook title, library music, a library B-roll), then
 * transcribed; the export is timed from its POST to `completed` (read from the
 * project's subscription over SSE), while the worker's process tree is sampled for the
 * peak RSS of its Node process and of the ffmpeg it runs.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { serveFolder } from '../test/support/media.js';
import { readSse, subscribeSse } from '../test/support/sse.js';
import { request, waitEntry, waitProject } from '../test/support/http.js';
import { admin, descendants, rssKiB, startService, startWorker, stopProcess, withPgDatabase } from './support.js';

const run = promisify(execFile);

export interface ServiceRender {
  /** POST export to completed */
  seconds: number;
  /** duration of the exported file */
  outputSeconds: number;
  workerNodeMiB: number;
  workerNodeIdleMiB: number;
  ffmpegMiB: number;
  /** one 1080x1920 frame through POST /v1/projects/{id}/preview with an unsaved template: median and slowest of the runs, seconds */
  previewSeconds: number;
  previewMaxSeconds: number;
}

/** Frames of the editor's live preview asked in turn, each a request to the PNG's last byte. */
const PREVIEW_RUNS = 7;

export async function renderThroughService(dir: string, names: { clip: string; music: string; broll: string }): Promise<ServiceRender> {
  const files = await serveFolder(dir);
  try {
    return await withPgDatabase(async (url) => {
      const svc = await startService({ DATABASE_URL: url, ALLOW_PRIVATE_NETWORK: '1' }, 'server');
      const worker = await startWorker(svc).catch(async (e) => {
        await svc.stop();
        throw e;
      });
      try {
        const { apiKey } = await admin(svc.env, 'user', 'create', '--email', `bench-render-${Date.now()}@bench.local`);
        const call = async (method: string, path: string, json?: unknown) => {
          const r = await request(svc, method, path, { key: apiKey, json });
          if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
          return r.body as Record<string, any>;
        };
        const library = async (name: string) => {
          const { userMediaId } = await call('POST', '/v1/user-media', { url: files.url(name) });
          const entry = await waitEntry(svc, apiKey, userMediaId, (m) => m.status !== 'pending', 60_000);
          if (entry.status !== 'ready') throw new Error(`${name} did not import: ${entry.failureReason}`);
          return userMediaId as string;
        };
        const [music, broll] = await Promise.all([library(names.music), library(names.broll)]);
        const project = await call('POST', '/v1/projects', {
          title: 'Bench render',
          language: 'en',
          videoUrl: files.url(names.clip),
          autoRender: false,
          removeSilencePace: 'natural',
          cleanAudio: true,
          magicZooms: true,
          hookTitle: { text: 'The one editing trick' },
          music: { userMediaId: music, volume: 30 },
          items: [{ type: 'user-media', userMediaId: broll, startTime: 6, endTime: 9.5 }],
        });
        const transcribed = await waitProject(svc, apiKey, project.id, (p) => p.status !== 'processing' && p.status !== 'transcribing', 600_000);
        if (transcribed.status !== 'completed') throw new Error(`project ${transcribed.status}: ${transcribed.failureReason}`);

        // the editor's live view: one frame with a change not saved, at several seconds of the output
        const previews: number[] = [];
        for (let i = 0; i < PREVIEW_RUNS; i++) {
          const p0 = performance.now();
          const r = await fetch(new URL(`/v1/projects/${project.id}/preview`, svc.url), {
            method: 'POST',
            headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
            body: JSON.stringify({ time: 5 + i * 7, width: 1080, height: 1920, templateName: i % 2 ? 'neon' : 'classic' }),
          });
          const png = Buffer.from(await r.arrayBuffer());
          if (r.status !== 200 || png.length < 1000) throw new Error(`preview: ${r.status} ${png.toString().slice(0, 200)}`);
          previews.push((performance.now() - p0) / 1000);
        }
        previews.sort((a, b) => a - b);

        const tree = () => descendants(worker.pid!);
        const node = () =>
          Math.max(
            0,
            ...tree()
              .filter((p) => p.comm.startsWith('node'))
              .map((p) => rssKiB(p.pid)),
          );
        const workerNodeIdleMiB = node() / 1024;
        let nodePeak = 0;
        let ffPeak = 0;
        const sampler = setInterval(() => {
          for (const p of tree()) {
            if (p.comm.startsWith('ffmpeg')) ffPeak = Math.max(ffPeak, rssKiB(p.pid));
            else if (p.comm.startsWith('node')) nodePeak = Math.max(nodePeak, rssKiB(p.pid));
          }
        }, 100);
        // the end of the export, as a listener sees it: the project's subscription (no polling load on the server)
        // the project is completed: follow keeps the stream open for the export
        const updates = await subscribeSse(svc.url, apiKey, 'subscription($id: ID!) { projectUpdates(projectId: $id, follow: true) { status stage } }', {
          id: project.id,
        });
        const t0 = performance.now();
        try {
          await call('POST', `/v1/projects/${project.id}/export`, { width: 1080, height: 1920, fps: 30 });
          let exporting = false;
          await readSse(
            updates,
            (d) => d.projectUpdates as { status: string; stage: string },
            (e) => {
              exporting ||= e.status === 'exporting';
              if (e.stage === 'failed') throw new Error('the export failed');
              return exporting && e.status === 'completed';
            },
          );
        } finally {
          clearInterval(sampler);
        }
        const seconds = (performance.now() - t0) / 1000;
        const done = await call('GET', `/v1/projects/${project.id}`);
        if (!done.downloadUrl) throw new Error('no downloadUrl after the export');
        const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', done.downloadUrl]);
        return {
          seconds,
          outputSeconds: Number(stdout.trim()),
          workerNodeMiB: nodePeak / 1024,
          workerNodeIdleMiB,
          ffmpegMiB: ffPeak / 1024,
          previewSeconds: previews[previews.length >> 1],
          previewMaxSeconds: previews[previews.length - 1],
        };
      } finally {
        await stopProcess(worker);
        await svc.stop();
      }
    });
  } finally {
    await files.close();
  }
}
