/**
 * `npm run bench -- clips`: a magic-clips project end to end through the
 * running service, for a 10-minute and a 60-minute 1920x1080 source, and a
 * 10-minute interview of two speakers side by side (their voices from the
 * left and the right channel, now and then both; twoFaces, speech).
 *
 * The sources: spoken sentences (espeak-ng; a pool of sentences in a seeded,
 * reshuffled order at three speaking rates, with pauses of 0.45-1.2 s and a
 * longer one every few sentences) over a face picture (test/fixtures/face.jpg)
 * drifting left and right across testsrc2 and bobbing, 30 fps H.264 (libx264
 * veryfast crf 20, a keyframe every 2 s, about 7 Mb/s) + AAC. The picture is a
 * 60 s piece whose motion repeats every 60 s, copied end to end (no
 * re-encode) to the source's length; the speech is assembled sample by sample
 * from one WAV per sentence and rate. Both are made once and kept in the cache
 * folder.
 *
 * The service: `npm run server` and `npm run worker` as separate processes on
 * a fresh PostgreSQL database (render-service.ts) and, when TEST_REDIS_URL or
 * BENCH_REDIS_URL names one, Redis for the pub/sub: every progress write of
 * the worker then reaches the subscription (without it the server hears of
 * the worker's progress through the job queue, a few times a second, and can
 * miss a stage as short as scoring, which the table then shows as NaN). Each
 * source is uploaded through POST /v1/projects/magic-clips/upload
 * (BENCH_CLIPS_ROUTE=url: created from its URL on a local file server
 * instead, which adds the fetch and probe stages), with the defaults (15-60 s
 * clips, face tracking on).
 *
 * What is read, and from where:
 * - upload: the POST from its first byte to the 202 (the file streamed to
 *   storage and probed);
 * - stages: the project's subscription over SSE; each event carries `at`, the
 *   time the worker wrote that progress, so a stage lasts from its first event
 *   to the next stage's (queued → [fetch → probe →] extract → transcribe →
 *   score → clips → completed); the voice's measure (part of the transcribe
 *   stage) from the worker's `voice measured` log line;
 * - per clip: the worker's `faces tracked` (the face analysis of its window)
 *   and `clip rendered` (the one ffmpeg run writing the clip and its preview;
 *   storing both) log lines; their CPU time from /proc (watchCpu);
 * - the bare transcode: `ffmpeg -ss S -t D -i src -vf
 *   crop=608:1080:X:0,scale=1080:1920 -c:v libx264 -preset veryfast -c:a aac`
 *   of each clip's seconds (X: the clip's first crop position), run by this
 *   process after the project completed, one at a time, in a session of its
 *   own as the worker's ffmpeg runs, in the same run on the same machine;
 * - per clip again: the worker's own render command (its arguments read from
 *   /proc as it starts, its work folder copied: graph, captions, fonts) run
 *   once more after the project completed, in turns with the bare transcode
 *   and with its frames alone (framesOnlyArgs: the same moving crop or
 *   stacked windows, nothing added) (PAIRS rounds, the median ratio): all
 *   compared alike, on a machine the next clip's face analysis is not
 *   sharing. The bare transcode's fixed crop shows another part of the
 *   picture than the clip's, which on this source changes the encoder's
 *   cost more than the render's additions do; the frames alone show the
 *   same pixels.
 *
 * The machine has 2 cores shared with other work: the load average is
 * sampled every 5 s through the run and reported with the figures. Wall
 * times follow that load (the same clip's render / bare ratio went from 0.6
 * to 1.9 between runs); CPU times do not, so both ratios are given.
 *
 * Environment: BENCH_CLIPS_MINUTES (default `10,10x2,60`; `x2`: two speakers), BENCH_CLIPS_ROUTE
 * (`upload`, default, or `url`), BENCH_CLIPS_DIR (the cache folder; default
 * bench-clips under the system's temporary folder, kept between runs),
 * BENCH_REDIS_URL, BENCH_CLIPS_PAIRS (rounds of the runs in turns; default
 * 3), BENCH_CLIPS_KEEP (a folder: each clip's captured render, bare transcode
 * and frames alone are kept there as `clip-N.{render,bare,frames}.sh`, with
 * the files they read, to time them again by hand). Each source's rows are
 * also written to stderr as soon as they are known, and a source that fails
 * becomes a `failed` row: the hour's run failing keeps the 10-minute figures.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { readWavInfo } from '../src/media/wav.js';
import { request } from '../test/support/http.js';
import { FACE_PICTURE, makeMovingFaceVideo, type MovingFace } from '../test/support/faces.js';
import { readSse, subscribeSse } from '../test/support/sse.js';
import { TALK_SENTENCES } from '../test/support/talk.js';
import type { Row } from './row.js';
import { buildRenderGraph, type RenderPlan } from '../src/media/render/graph.js';
import { keepSegments } from '../src/media/render/timeline.js';
import type { CropPath } from '../src/magic-clips/types.js';
import { CLIP_SIZE, clipFps } from '../src/magic-clips/render.js';
import { admin, childrenCpu, descendants, startService, startWorker, stopProcess, withPgDatabase, type Service } from './support.js';

const run = promisify(execFile);
const SECTION = 'clips';
const WIDTH = 1920;
const HEIGHT = 1080;
const FPS = 30;
/** the picture's motion repeats every PERIOD seconds, so PERIOD-second pieces join seamlessly */
const PERIOD = 60;
/** A source: its length and how many people are on screen (`10x2`: ten minutes, two speakers). */
interface SourceSpec {
  minutes: number;
  speakers: 1 | 2;
  name: string;
}
const SOURCES: SourceSpec[] = (process.env.BENCH_CLIPS_MINUTES ?? '10,10x2,60')
  .split(',')
  .map((s) => {
    const [m, x] = s.trim().split('x');
    const minutes = Number(m);
    const speakers = x === '2' ? 2 : 1;
    return { minutes, speakers, name: speakers === 2 ? `${minutes} min, two speakers` : `${minutes} min` } as SourceSpec;
  })
  .filter((s) => s.minutes > 0);
const ROUTE = process.env.BENCH_CLIPS_ROUTE === 'url' ? 'url' : 'upload';
/** a folder to keep each clip's captured render, bare transcode and frames alone in, as shell scripts (for paired timing by hand) */
const KEEP = process.env.BENCH_CLIPS_KEEP ? path.resolve(process.env.BENCH_CLIPS_KEEP) : null;
/** A folder for the run's files: under KEEP and kept, else a temporary one the run removes. */
function workFolder(name: string): string {
  if (!KEEP) return fs.mkdtempSync(path.join(os.tmpdir(), `bench-clips-${name}-`));
  fs.mkdirSync(KEEP, { recursive: true });
  return fs.mkdtempSync(path.join(KEEP, `${name}-`));
}
/** Writes `args` as a shell script that runs ffmpeg as the bench does. */
const keepScript = (file: string, args: string[]) =>
  fs.writeFileSync(file, `ffmpeg -hide_banner -loglevel error -nostdin -y ${args.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ')}\n`);
const DIR = process.env.BENCH_CLIPS_DIR ?? path.join(os.tmpdir(), 'bench-clips');
/** the codecs of the bare transcode and of the frames alone: x264 veryfast at its default CRF, AAC at its defaults */
const BARE_CODECS = ['-c:v', 'libx264', '-preset', 'veryfast', '-c:a', 'aac'];
/** the bare transcode's crop: the output's aspect at the source's full height */
const CROP_WIDTH = 2 * Math.round((HEIGHT * 9) / 16 / 2);

/** More sentences of a talk, beside TALK_SENTENCES: questions, numbers, claims and plain narration. */
const MORE_SENTENCES = [
  'What would you do if you had one more hour every day?',
  'Most people spend about two hours a day on their phones without noticing.',
  'I tried cutting that in half for thirty days.',
  'The first thing I noticed was how bored I felt.',
  'Boredom turned out to be the best thing that happened to me.',
  'We walked down to the station and waited for the train.',
  'The train was late, as it usually is on Mondays.',
  'Here is a question I get asked all the time.',
  'How do you stay focused when everything is competing for your attention?',
  'The honest answer is that I do not, at least not every day.',
  'But I have a simple rule that works most of the time.',
  'Never start the day by reading other people’s messages.',
  'Your first hour belongs to your own work.',
  'Five years ago I would have laughed at that idea.',
  'I was answering emails before I even got out of bed.',
  'Then one winter I burned out completely.',
  'It took me six months to feel like myself again.',
  'So listen carefully, because this part matters.',
  'You do not need more motivation, you need fewer decisions.',
  'Every decision you remove is energy you get back.',
  'Lay out your clothes the night before.',
  'Eat the same breakfast on weekdays.',
  'Put your running shoes by the door.',
  'These sound tiny, and they are, and that is the point.',
  'The afternoon was quiet and the office was half empty.',
  'Somebody had left a stack of papers on the printer.',
  'Imagine what a whole year of this would look like.',
  'Twelve months of small wins add up to a different life.',
  'I am not exaggerating when I say it changed everything for me.',
  'If you remember one thing from this talk, remember this.',
  'Start smaller than you think you should.',
  'Then keep going for longer than you think you can.',
  'Thank you all for listening, it really means a lot.',
  'Now let us take a few questions from the audience.',
];
const SENTENCES = [...TALK_SENTENCES, ...MORE_SENTENCES];
/** espeak-ng speaking rates (words a minute) a sentence is said at */
const RATES = [150, 165, 180];

const load = () => Number(fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

/** CPU seconds (user + system) a process has used, from /proc (0 when it is gone). */
function cpuOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

interface Watched {
  /** the command name it was classified under */
  comm: string;
  kind: 'render' | 'faces' | 'node' | 'other';
  /** render: the clip (its work folder is named after it); faces: the window's start (`-ss`) */
  clipId?: string;
  start?: number;
  cpu: number;
  /** faces: the worker's Node CPU when the decode appeared and when it was last seen */
  nodeFrom?: number;
  nodeTo?: number;
}

/** A clip's render command as the worker ran it, its work folder copied (graph, captions, fonts) so it can run again. */
export interface CapturedRender {
  args: string[];
}

/**
 * Copies the work folder of a render ffmpeg just seen into `into/<clipId>`
 * and gives its arguments with that folder's paths (the graph's captions and
 * fonts, the outputs) pointing at the copy: the same command, run again
 * later beside the bare transcodes, in turns (inTurns).
 */
function captureRender(argv: string[], clipId: string, into: string): CapturedRender | null {
  const script = argv[argv.indexOf('-filter_complex_script') + 1];
  if (!script) return null;
  const work = path.dirname(script);
  const copy = path.join(into, clipId);
  try {
    fs.cpSync(work, copy, { recursive: true });
  } catch {
    return null;
  }
  const moved = (s: string) => s.split(work).join(copy);
  const graph = path.join(copy, path.basename(script));
  fs.writeFileSync(graph, moved(fs.readFileSync(graph, 'utf8')));
  return { args: argv.slice(1).map(moved) };
}

/**
 * Samples the CPU time of the worker's processes every 100 ms: each clip's
 * render ffmpeg (known by its work folder), each face analysis decode (known
 * by its window's start) and the worker's Node, so the face analysis's CPU is
 * its decode's plus what Node spent while it ran (the detector). The last
 * sample of a process is at most 100 ms before it ends.
 */
function watchCpu(root: number, captureInto: string) {
  // live processes by pid (a pid can come back as another process), and every process seen
  const seen = new Map<number, Watched>();
  const captured = new Map<string, CapturedRender>();
  const all: Watched[] = [];
  const nodeCpu = () => all.filter((w) => w.kind === 'node').reduce((a, w) => a + w.cpu, 0);
  const timer = setInterval(() => {
    const live = new Set<number>();
    for (const p of descendants(root)) {
      live.add(p.pid);
      let w = seen.get(p.pid);
      // a child is first seen as its parent (between fork and exec): classified again once its name changes
      if (w && w.comm !== p.comm) {
        all.splice(all.indexOf(w), 1);
        w = undefined;
      }
      if (!w) {
        let argv: string[] = [];
        try {
          argv = fs.readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
        } catch {
          continue;
        }
        const cmd = argv.join(' ');
        // empty while the process is between programs (exec): read again on the next sample
        if (!cmd) continue;
        const { comm } = p;
        if (comm.startsWith('ffmpeg') && cmd.includes('-filter_complex_script')) {
          w = { comm, kind: 'render', clipId: /clip-([0-9a-f-]{36})/.exec(cmd)?.[1], cpu: 0 };
          const got = w.clipId && !captured.has(w.clipId) ? captureRender(argv, w.clipId, captureInto) : null;
          if (got) captured.set(w.clipId!, got);
        } else if (comm.startsWith('ffmpeg') && cmd.includes('-skip_loop_filter'))
          w = { comm, kind: 'faces', start: Number(/-ss (\S+)/.exec(cmd)?.[1]), cpu: 0, nodeFrom: nodeCpu() };
        else w = { comm, kind: comm.startsWith('node') ? 'node' : 'other', cpu: 0 };
        seen.set(p.pid, w);
        all.push(w);
      }
      w.cpu = Math.max(w.cpu, cpuOf(p.pid));
    }
    const node = nodeCpu();
    for (const [pid, w] of seen) {
      if (!live.has(pid)) seen.delete(pid);
      else if (w.kind === 'faces') w.nodeTo = node;
    }
  }, 100);
  return {
    stop: () => clearInterval(timer),
    render: (clipId: string) => all.find((w) => w.kind === 'render' && w.clipId === clipId)?.cpu ?? NaN,
    captured: (clipId: string) => captured.get(clipId),
    faces: (start: number) => {
      const w = all.find((x) => x.kind === 'faces' && Math.abs((x.start ?? NaN) - start) < 1e-3);
      return w ? w.cpu + (w.nodeTo ?? w.nodeFrom!) - w.nodeFrom! : NaN;
    },
  };
}

/** mulberry32: the same talk on every machine */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ffmpeg = (args: string[]) => run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args], { maxBuffer: 64 << 20 });

/**
 * ffmpeg in a session of its own, as the worker's ffmpeg runs (the worker is
 * started detached): the kernel's autogroup scheduling shares the CPU between
 * sessions, so both sides of a comparison get the same share of a busy machine.
 */
const ffmpegDetached = (args: string[]) =>
  new Promise<void>((resolve, reject) => {
    const p = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    let err = '';
    p.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
    p.on('error', reject);
    p.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited ${code}: ${err}`))));
  });

/** Rounds of runs of a captured render and its bare transcodes (BENCH_CLIPS_PAIRS). */
const PAIRS = Math.max(1, Math.floor(Number(process.env.BENCH_CLIPS_PAIRS) || 3));

/** One detached ffmpeg run: its wall and CPU seconds. */
async function timed(args: string[]): Promise<{ wall: number; cpu: number }> {
  const c0 = childrenCpu();
  const t0 = performance.now();
  await ffmpegDetached(args);
  return { wall: (performance.now() - t0) / 1000, cpu: childrenCpu() - c0 };
}

/**
 * A against each of Bs in turns (A, B1, B2, A, B1, B2, ...): per B, the median
 * of the rounds' ratios A/B, wall and CPU, so a drift of the machine's speed
 * hits all alike.
 */
async function inTurns(a: string[], bs: string[][], pairs: number): Promise<Array<{ wall: number; cpu: number }>> {
  const ratios = bs.map(() => ({ wall: [] as number[], cpu: [] as number[] }));
  for (let i = 0; i < pairs; i++) {
    const x = await timed(a);
    for (const [j, b] of bs.entries()) {
      const y = await timed(b);
      ratios[j].wall.push(x.wall / y.wall);
      ratios[j].cpu.push(x.cpu / y.cpu);
    }
  }
  const median = (v: number[]) => {
    const s = [...v].sort((p, q) => p - q);
    const m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  };
  return ratios.map((r) => ({ wall: median(r.wall), cpu: median(r.cpu) }));
}

/**
 * The clip's frames and nothing else: its seconds through the same framing
 * as its render (the crop following its path, or its stacked windows: the
 * render graph's first part), scaled to 1080x1920 and encoded as the bare
 * transcode is (veryfast, x264's CRF, AAC at its default rate); no captions,
 * hook or preview, and the sound through the same resampling as the clip's.
 * A fixed crop sees another part of the picture than the moving one, and over
 * the test pattern the part decides the encoder's cost (a fixed 608-pixel
 * crop's CPU time differs by a quarter, and its file ten times, from one side
 * of the frame to the other): this is the like-for-like reference for what
 * the render adds to the picture it shows.
 */
function framesOnlyArgs(file: string, clip: { startTime: number; endTime: number }, crop: CropPath | null, dir: string, name: string): string[] {
  const plan: RenderPlan = {
    source: {
      path: file,
      width: WIDTH,
      height: HEIGHT,
      fps: FPS,
      rotation: 0,
      duration: clip.endTime,
      hasAudio: true,
      window: { start: clip.startTime, duration: clip.endTime - clip.startTime },
    },
    // the clip's own frame and rate (render.ts); x264's default CRF is the clip's
    output: { ...CLIP_SIZE, fps: clipFps(FPS), preset: 'veryfast', fit: crop ? 'path' : 'auto' },
    ...(crop ? { reframe: crop } : {}),
    keep: keepSegments(clip.endTime - clip.startTime, [], clipFps(FPS)),
    audio: { clean: false },
  };
  const graph = buildRenderGraph(plan);
  const script = path.join(dir, `${name}.graph.txt`);
  fs.writeFileSync(script, graph.filterScript);
  return [
    ...graph.inputs.flatMap((i) => [...i.args, '-i', i.path]),
    '-filter_complex_script',
    script,
    ...['-map', '[vout]', '-map', '[aout]'],
    ...BARE_CODECS,
    path.join(dir, `${name}.mp4`),
  ];
}

/** Each sentence said at each rate, as 16-bit mono PCM of one sample rate. */
async function sentenceSounds(dir: string): Promise<{ rate: number; pcm: Buffer[][] }> {
  fs.mkdirSync(dir, { recursive: true });
  const jobs = SENTENCES.flatMap((text, i) => RATES.map((wpm, j) => ({ text, file: path.join(dir, `s${i}-${wpm}.wav`), i, j, wpm })));
  for (let k = 0; k < jobs.length; k += 8) {
    await Promise.all(
      jobs.slice(k, k + 8).map((x) => (fs.existsSync(x.file) ? null : run('espeak-ng', ['-v', 'en-us', '-s', String(x.wpm), '-w', x.file, x.text]))),
    );
  }
  const pcm: Buffer[][] = SENTENCES.map(() => []);
  let rate = 0;
  for (const x of jobs) {
    const info = await readWavInfo(x.file);
    if (info.channels !== 1 || info.bitsPerSample !== 16) throw new Error(`${x.file}: not 16-bit mono`);
    if (rate && info.sampleRate !== rate) throw new Error(`${x.file}: ${info.sampleRate} Hz, not ${rate}`);
    rate = info.sampleRate;
    pcm[x.i][x.j] = fs.readFileSync(x.file).subarray(info.dataOffset, info.dataOffset + info.dataBytes);
  }
  return { rate, pcm };
}

/**
 * A WAV of `seconds` of talk: sentences in a reshuffled order, at varied
 * rates, with varied pauses. With two speakers it is stereo: each sentence
 * from the left or the right (the other channel at 0.15), the side changing
 * every 1-3 sentences, and every ninth sentence from both alike.
 */
async function speech(out: string, seconds: number, cache: string, speakers: 1 | 2 = 1): Promise<void> {
  const { rate, pcm } = await sentenceSounds(path.join(cache, 'sentences'));
  const rnd = random(11);
  const total = Math.round(seconds * rate);
  const channels = speakers;
  const body = Buffer.alloc(total * 2 * channels);
  let side = 0;
  let runLeft = 0;
  let at = Math.round(0.6 * rate);
  let deck: number[] = [];
  for (let n = 0; ; n++) {
    if (!deck.length) deck = SENTENCES.map((_, i) => i).sort(() => rnd() - 0.5);
    const said = pcm[deck.pop()!][Math.floor(rnd() * RATES.length)];
    // the talk ends with a pause, never inside a sentence
    if ((at + said.length / 2) / rate > seconds - 1) break;
    if (channels === 1) said.copy(body, at * 2);
    else {
      if (runLeft-- <= 0) {
        side = 1 - side;
        runLeft = Math.floor(rnd() * 3);
      }
      const [gl, gr] = n % 9 === 8 ? [1, 1] : side === 0 ? [1, 0.15] : [0.15, 1];
      for (let i = 0; i < said.length / 2; i++) {
        const v = said.readInt16LE(i * 2);
        body.writeInt16LE(Math.round(v * gl), (at + i) * 4);
        body.writeInt16LE(Math.round(v * gr), (at + i) * 4 + 2);
      }
    }
    at += said.length / 2;
    // a pause between sentences; a longer one now and then, as between paragraphs
    at += Math.round((n % 7 === 6 ? 1.8 + rnd() : 0.45 + 0.75 * rnd()) * rate);
  }
  const head = Buffer.alloc(44);
  head.write('RIFF', 0, 'ascii');
  head.writeUInt32LE(36 + body.length, 4);
  head.write('WAVEfmt ', 8, 'ascii');
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(channels, 22);
  head.writeUInt32LE(rate, 24);
  head.writeUInt32LE(rate * 2 * channels, 28);
  head.writeUInt16LE(2 * channels, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36, 'ascii');
  head.writeUInt32LE(body.length, 40);
  fs.writeFileSync(out, Buffer.concat([head, body]));
}

/** The face drifting left and right across the frame and bobbing, repeating every PERIOD seconds. */
function drifting(): MovingFace {
  const size = Math.round(HEIGHT * 0.42);
  const cx = Math.round((WIDTH - size) / 2);
  const swing = Math.round(WIDTH * 0.25);
  const cy = Math.round((HEIGHT - size) / 2);
  const bob = Math.round(HEIGHT * 0.04);
  return {
    width: WIDTH,
    height: HEIGHT,
    fps: FPS,
    duration: PERIOD,
    size,
    at: (t) => ({ x: Math.floor(cx + swing * Math.sin((2 * Math.PI * t) / PERIOD)), y: Math.floor(cy + bob * Math.sin((2 * Math.PI * t) / 5)) }),
    xExpr: `${cx}+${swing}*sin(2*PI*t/${PERIOD})`,
    yExpr: `${cy}+${bob}*sin(2*PI*t/5)`,
  };
}

/**
 * Two people side by side, PERIOD seconds: the face picture on the left half
 * and its mirror image on the right, each swaying a little (20 px, out of
 * step), over two plain halves.
 */
async function twoFaces(out: string): Promise<void> {
  const size = Math.round(HEIGHT * 0.4);
  const y = Math.round((HEIGHT - size) / 2);
  const sway = (cx: number, phase: number) => `${cx - size / 2}+20*sin(2*PI*t/${PERIOD / 6}+${phase})`;
  await ffmpeg([
    ...['-f', 'lavfi', '-i', `color=c=0x6a4a3a:s=${WIDTH}x${HEIGHT}:r=${FPS}:d=${PERIOD}`, '-loop', '1', '-framerate', String(FPS), '-i', FACE_PICTURE],
    '-filter_complex',
    [
      `[0:v]drawbox=x=${WIDTH / 2}:y=0:w=${WIDTH / 2}:h=${HEIGHT}:color=0x3a4a6a:t=fill[bg]`,
      `[1:v]scale=${size}:${size},setsar=1,split[a][b]`,
      '[b]hflip[bf]',
      `[bg][a]overlay=x='${sway(WIDTH / 4, 0)}':y=${y}:shortest=1[one]`,
      `[one][bf]overlay=x='${sway((3 * WIDTH) / 4, 1.5)}':y=${y}:shortest=1,format=yuv420p[v]`,
    ].join(';'),
    ...['-map', '[v]', '-t', String(PERIOD), '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-g', String(FPS * 2), out],
  ]);
}

/** The source of `spec` in the cache folder, made when missing. */
async function source(spec: SourceSpec): Promise<string> {
  const { minutes, speakers } = spec;
  fs.mkdirSync(DIR, { recursive: true });
  const tag = speakers === 2 ? '-2speakers' : '';
  const file = path.join(DIR, `talk-${minutes}min${tag}-${WIDTH}x${HEIGHT}.mp4`);
  if (fs.existsSync(file)) return file;
  const t0 = performance.now();
  process.stderr.write(`# clips: making the ${spec.name} source in ${DIR}...\n`);
  const piece = path.join(DIR, `${speakers === 2 ? 'two-faces' : 'face'}-${WIDTH}x${HEIGHT}-${PERIOD}s.mp4`);
  if (!fs.existsSync(piece)) {
    if (speakers === 2) await twoFaces(`${piece}.part.mp4`);
    else await makeMovingFaceVideo(`${piece}.part.mp4`, drifting(), { background: 'testsrc2', preset: 'veryfast', crf: 20 });
    fs.renameSync(`${piece}.part.mp4`, piece);
  }
  const seconds = minutes * 60;
  const list = path.join(DIR, `pieces-${minutes}${tag}.txt`);
  fs.writeFileSync(list, Array.from({ length: Math.ceil(seconds / PERIOD) }, () => `file '${path.basename(piece)}'\n`).join(''));
  const wav = path.join(DIR, `talk-${minutes}min${tag}.wav`);
  await speech(wav, seconds, DIR, speakers);
  await ffmpeg([
    '-f',
    'concat',
    '-safe',
    '0',
    '-i',
    list,
    '-i',
    wav,
    '-map',
    '0:v',
    '-map',
    '1:a',
    '-t',
    String(seconds),
    '-c:v',
    'copy',
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-ar',
    '44100',
    '-ac',
    '2',
    '-movflags',
    '+faststart',
    `${file}.part.mp4`,
  ]);
  fs.renameSync(`${file}.part.mp4`, file);
  fs.rmSync(wav, { force: true });
  fs.rmSync(list, { force: true });
  process.stderr.write(`# clips: made in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
  return file;
}

/** Serves the files of a folder, streamed from disk (the sources are too big to read whole). */
async function streamFolder(dir: string): Promise<{ url: (name: string) => string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const file = path.join(dir, path.basename(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
    fs.stat(file, (err, st) => {
      if (err) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': st.size });
      if (req.method === 'HEAD') return void res.end();
      void pipeline(fs.createReadStream(file), res).catch(() => {});
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { url: (name) => `http://127.0.0.1:${port}/files/${name}`, close: () => new Promise((r) => server.close(() => r())) };
}

interface ProjectUpdate {
  status: string;
  stage: string | null;
  percent: number | null;
  clipsDone: number | null;
  clipsTotal: number | null;
  failureReason: string | null;
  at: string;
}

/**
 * Every update of a project until it completes or fails, from its
 * subscription; a dropped stream is opened again (it starts with the current
 * state, so only repeated percentages are lost).
 */
async function follow(svc: Service, key: string, id: string): Promise<ProjectUpdate[]> {
  const seen: ProjectUpdate[] = [];
  const ended = (e: ProjectUpdate) => e.status === 'completed' || e.status === 'failed';
  for (let drops = 0; ; ) {
    try {
      const res = await subscribeSse(
        svc.url,
        key,
        'subscription($id: ID!) { projectUpdates(projectId: $id) { status stage percent clipsDone clipsTotal failureReason at } }',
        { id },
      );
      const got = await readSse(res, (d) => d.projectUpdates as ProjectUpdate, ended);
      seen.push(...got);
      if (got.length && ended(got[got.length - 1])) return seen;
    } catch (e) {
      if (++drops > 20) throw e;
      process.stderr.write(`# clips: the subscription dropped (${e instanceof Error ? e.message : e}); again\n`);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

interface ClipLog {
  faces?: { ms: number; seconds: number; samples: number; faces: number; shotChanges: number };
  speakers?: { ms: number; shots: number; splitSeconds: number };
  render?: { renderMs: number; storeMs: number; seconds: number };
}

/** What the worker tells in its log, and the CPU its processes use. */
interface WorkerWatch {
  clips: Map<string, ClipLog>;
  voice: Map<string, number>;
  cpu: ReturnType<typeof watchCpu>;
}

const avg = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const secondsBetween = (a: string | number, b: string | number) => (new Date(b).getTime() - new Date(a).getTime()) / 1000;
const perMinute = (seconds: number, analysed: number) => (seconds / analysed) * 60;

/**
 * One source through the service: upload (or URL), stages, clips, then the
 * bare transcodes of the clips' seconds. `quiet` runs each clip's captured
 * render again in turns with its bare transcode and its frames alone, once
 * the caller has stopped the service: while the service is up, its processes'
 * small wake-ups slowed the render (its filter graph runs on one thread)
 * more than the bare transcode, by up to 0.15 of the ratio.
 */
async function measureSource(
  svc: Service,
  db: pg.Client,
  key: string,
  watch: WorkerWatch,
  files: Awaited<ReturnType<typeof streamFolder>> | null,
  spec: SourceSpec,
): Promise<{ rows: Row[]; quiet: () => Promise<Row[]> }> {
  const { minutes, name } = spec;
  const file = await source(spec);
  const bytes = fs.statSync(file).size;
  const mib = bytes / 2 ** 20;
  const rows: Row[] = [];
  const row = (metric: string, value: number, unit: string, note?: string) =>
    rows.push({ section: SECTION, metric: `${name}: ${metric}`, value, unit, ...(note ? { note } : {}) });
  const loads: Array<{ at: number; load: number }> = [{ at: Date.now(), load: load() }];
  const sampler = setInterval(() => loads.push({ at: Date.now(), load: load() }), 5000);
  const loadBetween = (from: string | number, to: string | number) => {
    const [a, b] = [new Date(from).getTime(), new Date(to).getTime()];
    return avg(loads.filter((l) => l.at >= a && l.at <= b).map((l) => l.load)).toFixed(1);
  };
  try {
    process.stderr.write(`# clips: ${name} source, ${mib.toFixed(0)} MiB, by ${ROUTE}...\n`);
    const start = Date.now();
    let created;
    if (ROUTE === 'upload') {
      const form = new FormData();
      form.append('title', `Bench ${name}`);
      form.append('language', 'en');
      // a Blob backed by the file: read as the body is sent, never whole
      form.append('file', await fs.openAsBlob(file, { type: 'video/mp4' }), path.basename(file));
      created = await request(svc, 'POST', '/v1/projects/magic-clips/upload', { key, body: form });
    } else {
      created = await request(svc, 'POST', '/v1/projects/magic-clips', {
        key,
        json: { title: `Bench ${name}`, language: 'en', videoshareUrl: files!.url(path.basename(file)) },
      });
    }
    const accepted = Date.now();
    if (created.status !== 202) throw new Error(`creating the project: ${created.status} ${JSON.stringify(created.body)}`);
    const id = created.body.id as string;
    process.stderr.write(`# clips: project ${id}\n`);

    const updates = await follow(svc, key, id);
    const last = updates[updates.length - 1];
    if (last.status !== 'completed') throw new Error(`project ${id} ${last.status}: ${last.failureReason}`);
    // when each stage was first reported
    const began = new Map<string, string>();
    for (const u of updates) if (u.stage && !began.has(u.stage)) began.set(u.stage, u.at);
    // without REDIS_URL the server hears of the worker's progress through the job queue, and may miss a short stage
    const at = (stage: string) => began.get(stage) ?? 'missed';
    const stage = (from: string, to: string) => secondsBetween(at(from), at(to));

    if (ROUTE === 'upload')
      row(
        'upload, POST to 202 (stored and probed)',
        (accepted - start) / 1000,
        's',
        `${mib.toFixed(0)} MiB, ${(mib / ((accepted - start) / 1000)).toFixed(0)} MiB/s`,
      );
    else {
      row('fetch (from a local file server)', stage('fetch', 'probe'), 's', `${mib.toFixed(0)} MiB`);
      row('probe', stage('probe', 'extract'), 's');
    }
    const ingestFrom = ROUTE === 'url' ? at('fetch') : accepted;
    row('ingest: audio extraction', stage('extract', 'transcribe'), 's');
    const voice = (watch.voice.get(id) ?? NaN) / 1000;
    const transcription = stage('transcribe', 'score') - voice;
    row(
      'ingest: transcription (pocketsphinx)',
      transcription,
      's',
      `${((transcription / (minutes * 60)) * 100).toFixed(0)} % of real time; load ${loadBetween(at('transcribe'), at('score'))}`,
    );
    row("ingest: the voice's measure", voice, 's', 'loudness and pitch, for the scores');
    row(
      `ingest in all (${ROUTE === 'url' ? 'fetch start' : '202'} to scoring)`,
      secondsBetween(ingestFrom, at('score')),
      's',
      ROUTE === 'url' ? 'fetch, probe, audio, transcription' : 'job pickup, audio, transcription (the probe is in the upload)',
    );
    row('scoring (sentences, windows, scores, clips stored)', stage('score', 'clips'), 's');

    const project = await request(svc, 'GET', `/v1/projects/${id}`, { key });
    const clips = [...(project.body.magicClips as Array<{ id: string; startTime: number; endTime: number; duration: number; status: string }>)].sort(
      (a, b) => a.startTime - b.startTime,
    );
    const paths = new Map<string, CropPath | null>();
    for (const r of (await db.query<{ id: string; cropPath: any }>('SELECT id, "cropPath" FROM "MagicClip" WHERE "projectId" = $1', [id])).rows)
      paths.set(r.id, r.cropPath?.keys ? r.cropPath : null);
    const clipsLoad = loadBetween(at('clips'), last.at);

    const sum = {
      faceMs: 0,
      faceCpu: 0,
      analysed: 0,
      render: 0,
      renderCpu: 0,
      bare: 0,
      bareCpu: 0,
      worst: 0,
      paired: [] as number[],
      pairedCpu: [] as number[],
      frames: [] as number[],
      framesCpu: [] as number[],
    };
    const bareFrom = Date.now();
    const tmp = workFolder('bare');
    /** each clip's runs in turns, for `quiet` */
    const inTurnsOf: Array<{ k: string; render: string[]; others: string[][] }> = [];
    try {
      for (const [i, c] of clips.entries()) {
        const log = watch.clips.get(c.id) ?? {};
        const k = `clip ${i + 1}`;
        const span = `${c.startTime.toFixed(1)}-${c.endTime.toFixed(1)} s`;
        if (c.status !== 'completed' || !log.render) {
          row(`${k}: not made`, c.duration, 's', `${span}, status ${c.status}`);
          continue;
        }
        if (log.faces) {
          const cpu = watch.cpu.faces(c.startTime);
          sum.faceMs += log.faces.ms;
          sum.faceCpu += cpu;
          sum.analysed += log.faces.seconds;
          row(
            `${k}: face analysis`,
            log.faces.ms / 1000,
            's',
            `${span}, ${perMinute(log.faces.ms / 1000, log.faces.seconds).toFixed(2)} s (CPU ${perMinute(cpu, log.faces.seconds).toFixed(2)} s) per analysed minute, face in ${log.faces.faces}/${log.faces.samples} samples`,
          );
        }
        if (log.speakers) {
          row(
            `${k}: two speakers laid out (sides read, shots planned)`,
            log.speakers.ms / 1000,
            's',
            `${log.speakers.shots} shots, ${log.speakers.splitSeconds} of ${c.duration.toFixed(1)} s both stacked`,
          );
        }
        // the bare transcode of the same seconds, with the crop where the clip's path starts
        const keys = paths.get(c.id)?.keys;
        const x = keys?.length ? Math.max(0, Math.min(WIDTH - CROP_WIDTH, 2 * Math.round(keys[0].x / 2))) : (WIDTH - CROP_WIDTH) / 2;
        const bareArgs = [
          '-ss',
          String(c.startTime),
          '-t',
          String(c.duration),
          '-i',
          file,
          '-vf',
          `crop=${CROP_WIDTH}:${HEIGHT}:${x}:0,scale=1080:1920`,
          ...BARE_CODECS,
          path.join(tmp, `bare-${i}.mp4`),
        ];
        const { wall: bare, cpu: bareCpu } = await timed(bareArgs);
        const render = log.render.renderMs / 1000;
        const renderCpu = watch.cpu.render(c.id);
        sum.render += render;
        sum.renderCpu += renderCpu;
        sum.bare += bare;
        sum.bareCpu += bareCpu;
        sum.worst = Math.max(sum.worst, render / bare);
        row(
          `${k}: render (clip and preview, one ffmpeg run)`,
          render,
          's',
          `${span} (${c.duration.toFixed(1)} s), CPU ${renderCpu.toFixed(1)} s; stored in ${(log.render.storeMs / 1000).toFixed(2)} s`,
        );
        row(
          `${k}: render / bare veryfast transcode`,
          render / bare,
          'x',
          `bare ${bare.toFixed(1)} s (CPU ${bareCpu.toFixed(1)} s, crop x ${x}); in CPU time ${(renderCpu / bareCpu).toFixed(2)}`,
        );
        // the service's own command again, in turns with the bare transcode and the frames alone, on a quiet machine: compared alike
        const captured = watch.cpu.captured(c.id);
        if (captured) {
          const frames = framesOnlyArgs(file, c, paths.get(c.id) ?? null, tmp, `frames-${i}`);
          // the service's copy of the source (or its URL) goes with the service: the same bytes are read here
          const input = captured.args.indexOf('-i') + 1;
          const render = captured.args.map((a, j) => (j === input ? file : a));
          inTurnsOf.push({ k, render, others: [bareArgs, frames] });
          if (KEEP) {
            keepScript(path.join(tmp, `clip-${i}.render.sh`), render);
            keepScript(path.join(tmp, `clip-${i}.bare.sh`), bareArgs);
            keepScript(path.join(tmp, `clip-${i}.frames.sh`), frames);
          }
        }
      }
    } catch (e) {
      if (!KEEP) fs.rmSync(tmp, { recursive: true, force: true });
      throw e;
    }
    const made = clips.filter((c) => c.status === 'completed').length;
    row(
      'face analysis per analysed minute',
      perMinute(sum.faceMs / 1000, sum.analysed),
      's',
      `CPU ${perMinute(sum.faceCpu, sum.analysed).toFixed(2)} s; ${(sum.analysed / 60).toFixed(1)} min analysed in ${made} clips at 3 samples a second; load ${clipsLoad}`,
    );
    row(
      'render / bare transcode, all clips',
      sum.render / sum.bare,
      'x',
      `${sum.render.toFixed(1)} s against ${sum.bare.toFixed(1)} s, worst clip ${sum.worst.toFixed(2)}; load ${clipsLoad} while the service rendered, ${loadBetween(bareFrom, Date.now())} during the bare runs`,
    );
    row(
      'render / bare transcode in CPU time, all clips',
      sum.renderCpu / sum.bareCpu,
      'x',
      `${sum.renderCpu.toFixed(1)} s against ${sum.bareCpu.toFixed(1)} s`,
    );
    row(
      'clips stage (clips stored to the last clip ready)',
      secondsBetween(at('clips'), last.at),
      's',
      `${made} of ${clips.length} clips made; load ${clipsLoad}`,
    );
    row(
      'upload start to the last clip ready',
      secondsBetween(start, last.at),
      's',
      `load average ${loadBetween(start, last.at)} (max ${Math.max(...loads.map((l) => l.load)).toFixed(1)}) on 2 cores shared with other work`,
    );
    const quiet = async (): Promise<Row[]> => {
      const done = rows.length;
      try {
        for (const { k, render, others } of inTurnsOf) {
          const [paired, framed] = await inTurns(render, others, PAIRS);
          sum.paired.push(paired.wall);
          sum.pairedCpu.push(paired.cpu);
          sum.frames.push(framed.wall);
          sum.framesCpu.push(framed.cpu);
          row(
            `${k}: render / bare, in turns after the run`,
            paired.wall,
            'x',
            `median of ${PAIRS} rounds (render, bare, frames alone), the service stopped; in CPU time ${paired.cpu.toFixed(2)}`,
          );
          row(
            `${k}: render / its frames alone, in turns after the run`,
            framed.wall,
            'x',
            `the same framing with nothing added, encoded as the bare one; in CPU time ${framed.cpu.toFixed(2)}`,
          );
        }
        if (sum.paired.length) {
          row(
            'render / bare, in turns after the run, worst clip',
            Math.max(...sum.paired),
            'x',
            `each clip's own command run again beside its bare transcode, ${PAIRS} rounds each; in CPU time at most ${Math.max(...sum.pairedCpu).toFixed(2)}`,
          );
          row(
            'render / its frames alone, in turns after the run, worst clip',
            Math.max(...sum.frames),
            'x',
            `what the render adds to the picture it shows (captions, hook, the preview, the sound at 160 kb/s); in CPU time at most ${Math.max(...sum.framesCpu).toFixed(2)}`,
          );
        }
        return rows.slice(done);
      } finally {
        if (!KEEP) fs.rmSync(tmp, { recursive: true, force: true });
      }
    };
    return { rows, quiet };
  } finally {
    clearInterval(sampler);
  }
}

export async function clips(): Promise<Row[]> {
  // the sources first: the service does not wait for them
  for (const s of SOURCES) await source(s);
  const files = ROUTE === 'url' ? await streamFolder(DIR) : null;
  try {
    return await withPgDatabase(async (url) => {
      // with Redis every progress write reaches the subscription; without, short stages can be missed (see `at`)
      const redis = process.env.BENCH_REDIS_URL || process.env.TEST_REDIS_URL;
      const svc = await startService(
        { DATABASE_URL: url, ALLOW_PRIVATE_NETWORK: '1', VIDEO_PLATFORM_HOSTS: '127.0.0.1', ...(redis ? { REDIS_URL: redis } : {}) },
        'server',
      );
      const clipLogs = new Map<string, ClipLog>();
      const voice = new Map<string, number>();
      const onLine = (line: string) => {
        if (!line.startsWith('{')) return;
        let e: Record<string, any>;
        try {
          e = JSON.parse(line);
        } catch {
          return;
        }
        const clip = () => clipLogs.get(e.clipId) ?? clipLogs.set(e.clipId, {}).get(e.clipId)!;
        if (e.msg === 'faces tracked') clip().faces = { ms: e.ms, seconds: e.seconds, samples: e.samples, faces: e.faces, shotChanges: e.shotChanges };
        else if (e.msg === 'two speakers laid out') clip().speakers = { ms: e.ms, shots: e.shots, splitSeconds: e.splitSeconds };
        else if (e.msg === 'clip rendered') clip().render = { renderMs: e.renderMs, storeMs: e.storeMs, seconds: e.seconds };
        else if (e.msg === 'voice measured') voice.set(e.projectId, e.ms);
        else if (e.level >= 40) process.stderr.write(`# clips: worker: ${line.slice(0, 600)}\n`);
      };
      const worker = await startWorker(svc, onLine).catch(async (e) => {
        await svc.stop();
        throw e;
      });
      const captures = workFolder('renders');
      const cpu = watchCpu(worker.pid!, captures);
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      let stopped: Promise<void> | undefined;
      const stop = () =>
        (stopped ??= (async () => {
          cpu.stop();
          await db.end().catch(() => {});
          await stopProcess(worker);
          await svc.stop();
        })());
      try {
        const { apiKey } = await admin(
          svc.env,
          'user',
          'create',
          '--email',
          `bench-clips-${Date.now()}@bench.local`,
          '--clip-credits',
          String(SOURCES.length),
          '--clips-subscription',
        );
        const rows: Row[] = [];
        const quiet: Array<() => Promise<Row[]>> = [];
        const tell = (got: Row[]) => {
          for (const r of got) process.stderr.write(`# clips: ${r.metric} = ${r.value.toFixed(2)} ${r.unit}${r.note ? ` (${r.note})` : ''}\n`);
        };
        for (const s of SOURCES) {
          try {
            const got = await measureSource(svc, db, apiKey, { clips: clipLogs, voice, cpu }, files, s);
            rows.push(...got.rows);
            quiet.push(got.quiet);
            // as they come: a later source that fails (an hour's run) does not take these with it
            tell(got.rows);
          } catch (e) {
            process.stderr.write(`# clips: the ${s.name} source failed: ${e instanceof Error ? e.stack : e}\n`);
            rows.push({ section: SECTION, metric: `${s.name}: failed`, value: NaN, unit: '', note: e instanceof Error ? e.message : String(e) });
          }
        }
        // the renders again beside their bare transcodes, on a machine the service no longer shares
        await stop();
        for (const q of quiet) {
          try {
            const got = await q();
            rows.push(...got);
            tell(got);
          } catch (e) {
            process.stderr.write(`# clips: a render in turns failed: ${e instanceof Error ? e.stack : e}\n`);
            rows.push({ section: SECTION, metric: 'renders in turns: failed', value: NaN, unit: '', note: e instanceof Error ? e.message : String(e) });
          }
        }
        return rows;
      } finally {
        await stop();
        if (!KEEP) fs.rmSync(captures, { recursive: true, force: true });
      }
    });
  } finally {
    await files?.close();
  }
}
