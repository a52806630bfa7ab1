/**
 * `npm run bench -- render`: the one-pass export render (graph.ts + ffmpeg.ts)
 * against a bare transcode of the same source to the same size, timed in the
 * same run (the machine is noisy: best of BENCH_RENDER_RUNS runs per side).
 *
 * Cases: a 60 s 1080x1920 30 fps talking clip rendered to 1080x1920 (crop fit),
 * and a 10 min 1920x1080 one rendered to 1080x1920 (blurred fill), against
 * two bare transcodes to the same size: `scale=1080:1920` (what `-s` does)
 * and a centre crop scaled up (smoother, so cheaper to encode). Plans are built the way the exporter builds them: captions ASS
 * from a transcript (evenly spaced words, silences on the pauses), a hook
 * title, zooms from emphasisZooms, silence removal 'natural' through
 * keptSegments, clean audio, a looped tone as music at volume 30, one B-roll,
 * and the small preview as a second output of the same run.
 *
 * Peak RSS: ffmpeg children of this process are found by scanning /proc every
 * 100 ms (VmRSS); the Node process's own VmRSS is sampled with them.
 *
 * Cases `wide` and `styled`: a 60 s 1920x1080 talk to 1080x1920 (blurred
 * fill) with two B-roll items, the hook, zooms, silence removal, clean audio
 * and music; `styled` adds a page that pops in, emphasised keywords with emoji,
 * a logo and a colour look. Both against two bare transcodes: the picture
 * fitted and padded with black to 1080x1920 (the issue's yardstick; black
 * bands cost the encoder almost nothing) and squeezed to the full frame.
 *
 * Case `service` exports the 60 s clip through `npm run server` + `npm run
 * worker` (render-service.ts) and samples the worker's RSS.
 *
 * Environment: BENCH_RENDER_RUNS (default 2; 0 makes fixtures and plans only), BENCH_RENDER_LONG_SECONDS
 * (default 600), BENCH_RENDER_CASES (comma list of `short`, `wide`, `styled`, `service`, `long`; default all),
 * BENCH_RENDER_KEEP=1 keeps the temporary directory; BENCH_RENDER_DIR=<dir> makes
 * (or reuses) the fixtures there and keeps them, with each case's plan as JSON.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_HOOK_TITLE_TEMPLATE } from '../src/catalog/hook-title-templates.js';
import { emphasisZooms, keptSegments } from '../src/exports/plan.js';
import { measureLoudness, normalizingGain } from '../src/media/audio-levels.js';
import type { Project } from '../src/generated/prisma/client.ts';
import type { Word } from '../src/media/transcript.js';
import { overStyle, type CaptionStyle } from '../src/catalog/caption-style.js';
import { DEFAULT_CAPTION_TEMPLATE, findCaptionTemplate } from '../src/catalog/caption-templates.js';
import { colorFilterChain } from '../src/catalog/color-filters.js';
import { buildCaptions, emojiStickers } from '../src/media/render/captions.js';
import { renderVideo } from '../src/media/render/ffmpeg.js';
import { fontsDir } from '../src/media/render/fonts.js';
import { buildRenderGraph, type RenderPlan } from '../src/media/render/graph.js';
import type { Row } from './row.js';
import { renderThroughService } from './render-service.js';
import { descendants, rssKiB } from './support.js';

const run = promisify(execFile);
const SECTION = 'render';
const FPS = 30;
/** 0: make the fixtures and plans only */
const RUNS = Math.max(0, Number(process.env.BENCH_RENDER_RUNS ?? 2));
const LONG_SECONDS = Number(process.env.BENCH_RENDER_LONG_SECONDS ?? 600);
const CASES = (process.env.BENCH_RENDER_CASES ?? 'short,wide,styled,service,long').split(',').map((s) => s.trim());
/** one cycle of the talking track: speech, then a pause */
const PAUSE = 1.5;
const SENTENCE =
  'Here is the thing nobody tells you about editing short videos. You cut the pauses, you punch in on the key line, and you keep the captions big.';

const ff = (args: string[]) => {
  // BENCH_RENDER_DIR: fixtures already made there are reused
  const target = args[args.length - 1];
  if (process.env.BENCH_RENDER_DIR && fs.existsSync(target)) return Promise.resolve();
  return run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { maxBuffer: 64 << 20 });
};

async function durationOf(file: string): Promise<number> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]);
  return Number(stdout.trim());
}

// ---------------------------------------------------------------------------
// peak RSS of ffmpeg children and of this process

/** ffmpeg processes run by this process. */
const ffmpegChildren = () => descendants(process.pid).flatMap((p) => (p.comm.startsWith('ffmpeg') ? [p.pid] : []));

/** Samples while `work` runs; returns its wall time and the peak RSS (MiB) of ffmpeg children and of Node. */
async function measured(work: () => Promise<void>): Promise<{ seconds: number; ffmpegMiB: number; nodeMiB: number }> {
  let ffPeak = 0;
  let nodePeak = rssKiB('self');
  const sample = () => {
    for (const pid of ffmpegChildren()) ffPeak = Math.max(ffPeak, rssKiB(pid));
    nodePeak = Math.max(nodePeak, rssKiB('self'));
  };
  const timer = setInterval(sample, 100);
  const t0 = performance.now();
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  const seconds = (performance.now() - t0) / 1000;
  return { seconds, ffmpegMiB: ffPeak / 1024, nodeMiB: nodePeak / 1024 };
}

/** Runs ffmpeg to its end; resolves to the last 4,000 characters it wrote on stderr. */
function ffmpegRun(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn('ffmpeg', ['-hide_banner', '-y', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve(err) : reject(new Error(`ffmpeg exited ${code}: ${err}`))));
  });
}

const spawnFfmpeg = async (args: string[]): Promise<void> => void (await ffmpegRun(['-loglevel', 'error', ...args]));

// ---------------------------------------------------------------------------
// fixtures

interface Fixtures {
  dir: string;
  /** speech + pause, one cycle */
  cycle: number;
  /** [start, end] of the speech inside a cycle */
  speech: [number, number];
  /** seconds of speech per word */
  words: string[];
  music: string;
  broll: string;
}

async function makeFixtures(dir: string): Promise<Fixtures> {
  const raw = path.join(dir, 'speech.wav');
  if (!fs.existsSync(raw)) await run('espeak-ng', ['-s', '165', '-w', raw, SENTENCE]);
  // trim espeak's leading/trailing silence, then pad with a pause: one cycle
  const { stderr } = await run('ffmpeg', ['-hide_banner', '-nostats', '-i', raw, '-af', 'silencedetect=n=-40dB:d=0.05', '-f', 'null', '-']);
  const total = await durationOf(raw);
  const starts = [...stderr.matchAll(/silence_start: ([\d.]+)/g)].map((m) => Number(m[1]));
  const ends = [...stderr.matchAll(/silence_end: ([\d.]+)/g)].map((m) => Number(m[1]));
  const speechStart = ends.length && starts[0] !== undefined && starts[0] < 0.01 ? ends[0] : 0;
  const lastStart = starts.length && starts[starts.length - 1] > total - 1 ? starts[starts.length - 1] : total;
  const cycle = Math.ceil((total - (total - lastStart) + PAUSE) * 10) / 10;
  const padded = path.join(dir, 'cycle.wav');
  await ff(['-i', raw, '-af', `atrim=end=${lastStart},apad=whole_dur=${cycle}`, '-ar', '48000', '-ac', '1', padded]);
  const music = path.join(dir, 'music.mp3');
  await ff(['-f', 'lavfi', '-i', 'sine=f=220:d=20,volume=0.5', '-c:a', 'libmp3lame', '-b:a', '128k', music]);
  const broll = path.join(dir, 'broll.mp4');
  await ff(['-f', 'lavfi', '-i', 'mandelbrot=s=1280x720:r=30', '-t', '4', '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', broll]);
  return { dir, cycle, speech: [speechStart, lastStart], words: SENTENCE.split(/\s+/), music, broll };
}

/** A talking clip: `seconds` of a moving test pattern at w x h, 30 fps, the speech cycle looped. */
async function talkingClip(fx: Fixtures, name: string, w: number, h: number, seconds: number, loopFrom?: number): Promise<string> {
  const out = path.join(fx.dir, name);
  const audio = path.join(fx.dir, `${name}.m4a`);
  await ff(['-stream_loop', '-1', '-i', path.join(fx.dir, 'cycle.wav'), '-t', String(seconds), '-c:a', 'aac', '-b:a', '128k', audio]);
  const enc = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p', '-g', '60'];
  if (!loopFrom) {
    await ff(['-f', 'lavfi', '-i', `testsrc2=s=${w}x${h}:r=${FPS}:d=${seconds}`, '-i', audio, ...enc, '-c:a', 'copy', '-shortest', out]);
    return out;
  }
  // a shorter clip looped by stream copy
  const piece = path.join(fx.dir, `${name}.piece.mp4`);
  await ff(['-f', 'lavfi', '-i', `testsrc2=s=${w}x${h}:r=${FPS}:d=${loopFrom}`, ...enc, piece]);
  await ff(['-stream_loop', '-1', '-i', piece, '-i', audio, '-map', '0:v', '-map', '1:a', '-c', 'copy', '-t', String(seconds), out]);
  return out;
}

/** Evenly spaced words over the speech of each cycle, a silence word on each pause. */
function transcript(fx: Fixtures, duration: number): Word[] {
  const words: Word[] = [];
  let id = 0;
  const [s0, s1] = fx.speech;
  const per = (s1 - s0) / fx.words.length;
  for (let c = 0; c * fx.cycle < duration; c++) {
    const base = c * fx.cycle;
    if (base + s1 > duration) break;
    if (s0 > 0) words.push({ id: `w${id++}`, text: '', type: 'silence', startTime: base, endTime: base + s0 });
    fx.words.forEach((text, i) => {
      words.push({ id: `w${id++}`, text, type: 'word', startTime: base + s0 + i * per, endTime: base + s0 + (i + 0.9) * per });
    });
    words.push({ id: `w${id++}`, text: '', type: 'silence', startTime: base + s1, endTime: Math.min(duration, base + fx.cycle) });
  }
  return words;
}

/** What a plan draws beyond the default look: a style of its own (motion, emphasis, emoji), a logo and a colour look. */
interface Looks {
  style?: CaptionStyle;
  logo?: string;
  colorFilter?: string;
  /** B-roll items (default one) */
  brolls?: number;
}

/** The look of the `styled` case: a page that pops in, keywords emphasised with emoji. */
const STYLED = overStyle(findCaptionTemplate('emoji')!.style, {
  entrance: { effect: 'pop', duration: 150 },
  emphasis: { rules: ['listed', 'numbers'], words: ['editing', 'videos', 'captions'] },
});

async function exportPlan(
  fx: Fixtures,
  file: string,
  srcW: number,
  srcH: number,
  outW: number,
  outH: number,
  name: string,
  looks: Looks = {},
): Promise<RenderPlan> {
  const duration = await durationOf(file);
  const words = transcript(fx, duration);
  const project = { removeSilencePace: 'natural', removeBadTakes: false, videoMeta: null } as unknown as Project;
  const keep = await keptSegments(project, words, duration, FPS);
  const made = buildCaptions({
    words,
    keep,
    style: looks.style ?? DEFAULT_CAPTION_TEMPLATE.style,
    width: outW,
    height: outH,
    captions: true,
    hook: { text: 'The one editing trick', template: DEFAULT_HOOK_TITLE_TEMPLATE },
  });
  const assPath = path.join(fx.dir, `${name}.ass`);
  fs.writeFileSync(assPath, made.ass);
  const stickers = emojiStickers(made.emoji);
  const outDuration = keep.reduce((sum, k) => sum + k.end - k.start, 0);
  if (looks.logo)
    stickers.push({
      path: looks.logo,
      x: outW - 0.04 * outW - 0.09 * outW,
      y: 0.04 * outW + 0.03 * outW,
      size: Math.round(0.18 * outW),
      height: Math.round(0.0675 * outW),
      opacity: 0.9,
      windows: [{ start: 0, end: outDuration }],
    });
  const brolls = Array.from({ length: looks.brolls ?? 1 }, (_, i) => ({
    path: fx.broll,
    kind: 'VIDEO' as const,
    start: 6 + i * 20,
    end: 9.5 + i * 20,
    layout: 'cover' as const,
  }));
  const plan: RenderPlan = {
    source: { path: file, width: srcW, height: srcH, fps: FPS, rotation: 0, hasAudio: true, duration },
    output: { width: outW, height: outH, fps: FPS, preset: process.env.RENDER_PRESET || 'veryfast' },
    keep,
    zooms: emphasisZooms(words, keep),
    assPath,
    fontsDir: fontsDir(fx.dir),
    overlays: brolls,
    stickers,
    ...(looks.colorFilter ? { colorFilter: looks.colorFilter } : {}),
    // the loudness is measured at transcription, before any export
    audio: { clean: true, gainDb: normalizingGain((await measureLoudness(file)).loudness), music: { path: fx.music, volume: 30 } },
    preview: true,
  };
  fs.writeFileSync(path.join(fx.dir, `${name}.plan.json`), JSON.stringify(plan, null, 1));
  return plan;
}

// ---------------------------------------------------------------------------

interface Side {
  seconds: number;
  ffmpegMiB: number;
  nodeMiB: number;
}
const best = (runs: Side[]): Side => ({
  seconds: Math.min(...runs.map((r) => r.seconds)),
  ffmpegMiB: Math.max(...runs.map((r) => r.ffmpegMiB)),
  nodeMiB: Math.max(...runs.map((r) => r.nodeMiB)),
});

/** The CPU seconds (user + system) of one ffmpeg run, from its own `-benchmark` line. */
async function cpuSecondsOf(args: string[]): Promise<number> {
  const err = await ffmpegRun(['-benchmark', '-nostats', ...args]);
  const m = /bench: utime=([\d.]+)s stime=([\d.]+)s/.exec(err);
  if (!m) throw new Error(`ffmpeg printed no benchmark line: ${err}`);
  return Number(m[1]) + Number(m[2]);
}

/** The fewest CPU seconds of `runs` runs of ffmpeg with `args`. */
async function leastCpuSeconds(args: string[], runs: number): Promise<number> {
  let least = Infinity;
  for (let i = 0; i < runs; i++) least = Math.min(least, await cpuSecondsOf(args));
  return least;
}

/** CPU seconds of decoding and filtering a plan's graph with nothing encoded (its outputs go to the null muxer), best of `runs`. */
async function filterCpu(plan: RenderPlan, runs: number): Promise<number> {
  const graph = buildRenderGraph(plan);
  const script = path.join(os.tmpdir(), `bench-graph-${process.pid}.txt`);
  fs.writeFileSync(script, graph.filterScript);
  const inputs = graph.inputs.flatMap((i) => [...i.args, '-i', i.path]);
  const outputs = [['vout', 'aout'], ...(plan.preview ? [['pvout', 'paout']] : [])].flatMap(([v, a]) => [
    '-map',
    `[${v}]`,
    '-map',
    `[${a}]`,
    '-f',
    'null',
    '-',
  ]);
  try {
    return await leastCpuSeconds([...inputs, '-filter_complex_script', script, ...outputs], runs);
  } finally {
    fs.rmSync(script, { force: true });
  }
}

/**
 * Where an export's time goes: the CPU seconds of its decoding and filtering
 * (nothing encoded), against a bare decode and scale of the same source, and
 * what each part adds (the whole graph less the graph without that part).
 * On these cores an export is CPU-bound, so these seconds are what it costs
 * beyond the encode.
 */
async function whereTheTimeGoes(label: string, source: string, plan: RenderPlan, bareFilter: string): Promise<Row[]> {
  const runs = Math.max(1, RUNS);
  const bare = await leastCpuSeconds(['-i', source, '-vf', bareFilter, '-f', 'null', '-'], runs);
  const whole = await filterCpu(plan, runs);
  const parts: Array<[string, RenderPlan]> = [
    ['blurred fill (against a centre crop)', { ...plan, output: { ...plan.output, fit: 'crop' } }],
    ['captions and hook', { ...plan, assPath: undefined, fontsDir: undefined }],
    ['clean audio', { ...plan, audio: { ...plan.audio, clean: false } }],
    ['music', { ...plan, audio: { ...plan.audio, music: undefined } }],
    ['B-roll overlays', { ...plan, overlays: [] }],
    ['zooms', { ...plan, zooms: [] }],
    ['stickers (emoji, logo)', { ...plan, stickers: [] }],
    ['colour look', { ...plan, colorFilter: undefined }],
    ['preview output', { ...plan, preview: false }],
  ];
  const rows: Row[] = [
    { section: SECTION, metric: `${label}: decode + filters CPU, export graph`, value: whole, unit: 'cpu s', note: 'nothing encoded' },
    { section: SECTION, metric: `${label}: decode + scale CPU, bare`, value: bare, unit: 'cpu s', note: `-vf ${bareFilter}, nothing encoded` },
  ];
  for (const [name, without] of parts) {
    const differs = JSON.stringify(without) !== JSON.stringify(plan);
    if (!differs) continue;
    rows.push({ section: SECTION, metric: `${label}: of which ${name}`, value: whole - (await filterCpu(without, runs)), unit: 'cpu s' });
  }
  return rows;
}

/** A bare transcode to compare with: `-vf <filter>` between `-i source` and the encoder options. */
interface Bare {
  name: string;
  filter: string;
}

async function compare(fx: Fixtures, label: string, source: string, plan: RenderPlan, bares: Bare[]): Promise<Row[]> {
  const graph = buildRenderGraph(plan);
  if (!RUNS) return [];
  const sourceFrames = Math.round(plan.source.duration * FPS);
  const outFrames = Math.round(graph.duration * FPS);
  const exported: Side[] = [];
  const bare: Side[][] = bares.map(() => []);
  const out = path.join(fx.dir, `${label}.out.mp4`);
  const preview = path.join(fx.dir, `${label}.preview.mp4`);
  const bareOut = path.join(fx.dir, `${label}.bare.mp4`);
  const { width: W, height: H } = plan.output;
  const encoder = ['-c:v', 'libx264', '-preset', plan.output.preset ?? 'veryfast', '-crf', '20', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '160k'];
  for (let i = 0; i < RUNS; i++) {
    // alternate which side goes first, so drift in machine load hits both
    const doExport = async () => void exported.push(await measured(() => renderVideo(graph, { video: out, preview })));
    const doBares = async () => {
      for (const [k, b] of bares.entries()) bare[k].push(await measured(() => spawnFfmpeg(['-i', source, '-vf', b.filter, ...encoder, bareOut])));
    };
    if (i % 2) {
      await doBares();
      await doExport();
    } else {
      await doExport();
      await doBares();
    }
    process.stderr.write(
      `#   ${label} run ${i + 1}: export ${exported[i].seconds.toFixed(1)} s, ${bares.map((b, k) => `bare ${b.name} ${bare[k][i].seconds.toFixed(1)} s`).join(', ')}\n`,
    );
  }
  const e = best(exported);
  const note = `${plan.source.width}x${plan.source.height} ${plan.source.duration.toFixed(0)} s -> ${W}x${H}, best of ${RUNS}`;
  const rows: Row[] = [];
  bares.forEach((b, k) => {
    const side = best(bare[k]);
    rows.push(
      {
        section: SECTION,
        metric: `${label}: export / bare (${b.name}) wall time`,
        value: e.seconds / side.seconds,
        unit: 'ratio',
        note: `target <= 1.0; ${note}`,
      },
      {
        section: SECTION,
        metric: `${label}: bare (${b.name}) wall time`,
        value: side.seconds,
        unit: 's',
        note: `-vf ${b.filter}; ${(sourceFrames / side.seconds).toFixed(1)} source fps`,
      },
      { section: SECTION, metric: `${label}: bare (${b.name}) ffmpeg peak RSS`, value: side.ffmpegMiB, unit: 'MiB' },
    );
  });
  rows.push(
    {
      section: SECTION,
      metric: `${label}: export wall time`,
      value: e.seconds,
      unit: 's',
      note: `${plan.keep.length} kept segments, ${(plan.zooms ?? []).length} zooms, ${(plan.overlays ?? []).length} B-roll, ${(plan.stickers ?? []).length} stickers`,
    },
    {
      section: SECTION,
      metric: `${label}: export fps (source frames)`,
      value: sourceFrames / e.seconds,
      unit: 'fps',
      note: `${(outFrames / e.seconds).toFixed(1)} output fps`,
    },
    { section: SECTION, metric: `${label}: export ffmpeg peak RSS`, value: e.ffmpegMiB, unit: 'MiB' },
    { section: SECTION, metric: `${label}: Node peak RSS during export`, value: e.nodeMiB, unit: 'MiB' },
  );
  return rows;
}

/** The 60 s clip exported through `npm run server` + `npm run worker`, against a bare transcode run right after. */
async function throughService(fx: Fixtures, file: string): Promise<Row[]> {
  if (!RUNS) return [];
  const label = '60 s 1080x1920 through the service';
  const svc = await renderThroughService(fx.dir, { clip: path.basename(file), music: path.basename(fx.music), broll: path.basename(fx.broll) });
  const bare = await measured(() =>
    spawnFfmpeg([
      '-i',
      file,
      '-vf',
      'scale=1080:1920',
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-crf',
      '20',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '160k',
      path.join(fx.dir, 'service.bare.mp4'),
    ]),
  );
  process.stderr.write(`#   ${label}: export ${svc.seconds.toFixed(1)} s (POST to completed), bare ${bare.seconds.toFixed(1)} s\n`);
  process.stderr.write(`#   ${label}: one-frame preview ${svc.previewSeconds.toFixed(2)} s median, ${svc.previewMaxSeconds.toFixed(2)} s slowest\n`);
  return [
    {
      section: SECTION,
      metric: 'one 1080x1920 frame with an unsaved template (POST /v1/projects/{id}/preview), median',
      value: svc.previewSeconds,
      unit: 's',
      note: `request to the PNG's last byte, 7 seconds of the 60 s clip with every effect; slowest ${svc.previewMaxSeconds.toFixed(2)} s; target under 1 s`,
    },
    {
      section: SECTION,
      metric: `${label}: export / bare (same size) wall time`,
      value: svc.seconds / bare.seconds,
      unit: 'ratio',
      note: 'export: POST to completed, read from the subscription',
    },
    {
      section: SECTION,
      metric: `${label}: export POST to completed`,
      value: svc.seconds,
      unit: 's',
      note: `bare ${bare.seconds.toFixed(1)} s; output ${svc.outputSeconds.toFixed(1)} s long`,
    },
    {
      section: SECTION,
      metric: `${label}: worker Node peak RSS`,
      value: svc.workerNodeMiB,
      unit: 'MiB',
      note: `${svc.workerNodeIdleMiB.toFixed(0)} MiB before the export`,
    },
    { section: SECTION, metric: `${label}: worker ffmpeg peak RSS`, value: svc.ffmpegMiB, unit: 'MiB', note: `bare ${bare.ffmpegMiB.toFixed(0)} MiB` },
  ];
}

export async function render(): Promise<Row[]> {
  const reuse = process.env.BENCH_RENDER_DIR;
  const dir = reuse ? (fs.mkdirSync(reuse, { recursive: true }), reuse) : fs.mkdtempSync(path.join(os.tmpdir(), 'bench-render-'));
  try {
    const fx = await makeFixtures(dir);
    const rows: Row[] = [];
    if (CASES.includes('short')) {
      const file = await talkingClip(fx, 'portrait60.mp4', 1080, 1920, 60);
      const plan = await exportPlan(fx, file, 1080, 1920, 1080, 1920, 'portrait60');
      rows.push(...(await compare(fx, '60 s 1080x1920', file, plan, [{ name: 'same size', filter: 'scale=1080:1920' }])));
    }
    // the issue's case: a 60 s wide talk to a vertical frame (blurred fill) with two B-roll items, and the same with the new looks
    if (CASES.includes('wide') || CASES.includes('styled')) {
      const file = await talkingClip(fx, 'landscape60.mp4', 1920, 1080, 60);
      // the issue's own yardstick (the picture fitted and padded with black, which costs almost nothing to
      // encode), and the squeeze to the full frame (`-s`), a whole picture as the export's is
      const bare = [
        { name: 'padded', filter: 'scale=1080:608,pad=1080:1920:0:656' },
        { name: 'same size', filter: 'scale=1080:1920' },
      ];
      if (CASES.includes('wide')) {
        const plan = await exportPlan(fx, file, 1920, 1080, 1080, 1920, 'wide60', { brolls: 2 });
        rows.push(...(await compare(fx, '60 s 1920x1080 to 1080x1920', file, plan, bare)));
        if (RUNS) rows.push(...(await whereTheTimeGoes('60 s 1920x1080 to 1080x1920', file, plan, 'scale=1080:1920')));
      }
      if (CASES.includes('styled')) {
        const logo = path.join(fx.dir, 'logo.png');
        await ff(['-f', 'lavfi', '-i', 'color=c=0x7B2CFF:s=320x120', '-frames:v', '1', logo]);
        const plan = await exportPlan(fx, file, 1920, 1080, 1080, 1920, 'styled60', {
          brolls: 2,
          style: STYLED,
          logo,
          colorFilter: colorFilterChain('warm', 60),
        });
        const label = '60 s 1920x1080 to 1080x1920, popping emphasis, emoji, logo, warm look';
        rows.push(...(await compare(fx, label, file, plan, bare)));
        if (RUNS) rows.push(...(await whereTheTimeGoes(label, file, plan, 'scale=1080:1920')));
      }
    }
    if (CASES.includes('service')) {
      const file = await talkingClip(fx, 'portrait60.mp4', 1080, 1920, 60);
      rows.push(...(await throughService(fx, file)));
    }
    if (CASES.includes('long')) {
      const label = `${Math.round(LONG_SECONDS / 60) || LONG_SECONDS / 60} min 1920x1080`;
      const file = await talkingClip(fx, 'landscape.mp4', 1920, 1080, LONG_SECONDS, Math.min(20, LONG_SECONDS));
      const plan = await exportPlan(fx, file, 1920, 1080, 1080, 1920, 'landscape');
      // "to the same size": what `-s 1080x1920` does (a squeeze), and a centre crop scaled up
      rows.push(
        ...(await compare(fx, label, file, plan, [
          { name: 'same size', filter: 'scale=1080:1920' },
          { name: 'centre crop', filter: 'crop=ih*9/16:ih,scale=1080:1920' },
        ])),
      );
    }
    rows.push({
      section: SECTION,
      metric: 'Node peak RSS (VmHWM)',
      value: Number(/^VmHWM:\s+(\d+)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN) / 1024,
      unit: 'MiB',
    });
    return rows;
  } finally {
    if (reuse || process.env.BENCH_RENDER_KEEP === '1') process.stderr.write(`# kept ${dir}\n`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
}
