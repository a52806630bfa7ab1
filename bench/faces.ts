/**
 * `npm run bench -- faces`: what the face analysis of magic clips costs.
 *
 * - the detector alone: ms per frame on a 320x180 frame (the analysis size of
 *   a 1920x1080 source), after a warm-up;
 * - the decode alone: the same ffmpeg decode trackFaces runs (same input
 *   options, `fps=N:round=up` and the downscale) writing nothing;
 * - trackFaces over a whole 1920x1080 30 fps H.264 source (testsrc2 with a
 *   face crossing it, libx264 veryfast crf 20 as the render bench's sources,
 *   about 7 Mb/s) at 3 and at 5 fps: seconds per analysed minute, wall and
 *   CPU (this process and its ffmpeg children, from /proc/self/stat), the
 *   share of samples with the face, and the peak RSS of Node and ffmpeg.
 *
 * The machine is shared and noisy: best of BENCH_FACES_RUNS runs (default 2),
 * and the load average at the time is in each row's note. CPU seconds do not
 * depend on the load; wall seconds on two idle cores are about CPU / 2 for the
 * decode, which runs on both.
 *
 * Environment: BENCH_FACES_SECONDS (default 60), BENCH_FACES_RUNS,
 * BENCH_FACES_DIR=<dir> makes (or reuses) the source there and keeps it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ANALYSIS_DECODE, analysisSize, trackFaces } from '../src/media/vision/face-track.js';
import { createFaceDetector } from '../src/media/vision/face-detector.js';
import { acrossTheFrame, makeMovingFaceVideo } from '../test/support/faces.js';
import type { Row } from './row.js';
import { descendants, rssKiB } from './support.js';

const SECTION = 'faces';
const SECONDS = Number(process.env.BENCH_FACES_SECONDS ?? 60);
const RUNS = Math.max(1, Number(process.env.BENCH_FACES_RUNS ?? 2));
const WIDTH = 1920;
const HEIGHT = 1080;

/** CPU seconds of this process and of its children it has waited for. */
function cpuSeconds(): number {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime stime cutime cstime, fields 14-17 of stat
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
}

const load = () => `load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`;

interface Measure {
  wall: number;
  cpu: number;
  nodeMiB: number;
  ffmpegMiB: number;
}

async function measure(work: () => Promise<void>): Promise<Measure> {
  let nodePeak = rssKiB('self');
  let ffPeak = 0;
  const timer = setInterval(() => {
    nodePeak = Math.max(nodePeak, rssKiB('self'));
    for (const p of descendants(process.pid)) if (p.comm.startsWith('ffmpeg')) ffPeak = Math.max(ffPeak, rssKiB(p.pid));
  }, 100);
  const c0 = cpuSeconds();
  const t0 = performance.now();
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return { wall: (performance.now() - t0) / 1000, cpu: cpuSeconds() - c0, nodeMiB: nodePeak / 1024, ffmpegMiB: ffPeak / 1024 };
}

function ffmpeg(args: string[], stdout: 'ignore' | 'pipe' = 'ignore'): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const p = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { stdio: ['ignore', stdout, 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    p.stdout?.on('data', (d: Buffer) => out.push(d));
    p.stderr?.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`ffmpeg exited ${code}: ${err}`))));
  });
}

const best = (runs: Measure[]) => runs.reduce((a, b) => (b.wall < a.wall ? b : a));

export async function faces(): Promise<Row[]> {
  const keep = process.env.BENCH_FACES_DIR;
  const dir = keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bench-faces-'));
  fs.mkdirSync(dir, { recursive: true });
  const rows: Row[] = [];
  const perMinute = 60 / SECONDS;
  try {
    const motion = acrossTheFrame(WIDTH, HEIGHT, SECONDS);
    const source = path.join(dir, `faces-${WIDTH}x${HEIGHT}-${SECONDS}s.mp4`);
    if (!fs.existsSync(source)) {
      process.stderr.write(`# faces: making a ${SECONDS} s ${WIDTH}x${HEIGHT} source...\n`);
      await makeMovingFaceVideo(`${source}.part.mp4`, motion, { background: 'testsrc2', preset: 'veryfast', crf: 20 });
      fs.renameSync(`${source}.part.mp4`, source);
    }

    // the detector alone, on the frame size trackFaces gives it
    const size = analysisSize(WIDTH, HEIGHT);
    const frame = await ffmpeg(
      [
        '-ss',
        String(SECONDS / 2),
        '-i',
        source,
        '-frames:v',
        '1',
        '-vf',
        `scale=${size.width}:${size.height}`,
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        'pipe:1',
      ],
      'pipe',
    );
    const detector = await createFaceDetector();
    try {
      for (let i = 0; i < 10; i++) await detector.detect(frame, size.width, size.height);
      const times: number[] = [];
      for (let i = 0; i < 200; i++) {
        const t0 = performance.now();
        await detector.detect(frame, size.width, size.height);
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      rows.push({
        section: SECTION,
        metric: 'detector per frame (median)',
        value: times[100],
        unit: 'ms',
        note: `${size.width}x${size.height} frame, 200 runs, p95 ${times[190].toFixed(1)} ms, ${load()}`,
      });
    } finally {
      await detector.close();
    }

    for (const fps of [3, 5]) {
      // the decode alone: trackFaces's own ffmpeg input options and filters, output thrown away
      const decode: Measure[] = [];
      for (let i = 0; i < RUNS; i++) {
        decode.push(
          await measure(async () => {
            await ffmpeg([
              ...ANALYSIS_DECODE,
              '-i',
              source,
              '-an',
              '-vf',
              `fps=${fps}:round=up:start_time=0,scale=${size.width}:${size.height}:flags=bilinear`,
              '-pix_fmt',
              'rgb24',
              '-f',
              'null',
              '-',
            ]);
          }),
        );
      }
      const d = best(decode);
      rows.push({
        section: SECTION,
        metric: `decode alone at ${fps} fps, per source minute`,
        value: d.wall * perMinute,
        unit: 's',
        note: `CPU ${(d.cpu * perMinute).toFixed(2)} s, ${load()}`,
      });

      const tracked: Measure[] = [];
      let found = 0;
      let samples = 0;
      for (let i = 0; i < RUNS; i++) {
        tracked.push(
          await measure(async () => {
            const track = await trackFaces({ path: source, start: 0, duration: SECONDS, width: WIDTH, height: HEIGHT }, { fps });
            samples = track.samples.length;
            found = track.samples.filter((s) => s.face).length;
          }),
        );
      }
      const t = best(tracked);
      rows.push({
        section: SECTION,
        metric: `trackFaces at ${fps} fps, per analysed minute`,
        value: t.wall * perMinute,
        unit: 's',
        note: `CPU ${(t.cpu * perMinute).toFixed(2)} s, face in ${found}/${samples} samples, peak RSS node ${t.nodeMiB.toFixed(0)} MiB ffmpeg ${t.ffmpegMiB.toFixed(0)} MiB, ${load()}`,
      });
    }
    return rows;
  } finally {
    if (!keep) fs.rmSync(dir, { recursive: true, force: true });
  }
}
