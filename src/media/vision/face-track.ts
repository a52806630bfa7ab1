/**
 * Where the speaker's face is through one clip's window: one low-resolution
 * ffmpeg decode of just that window (seeked before decoding), frames sampled
 * at `fps` with `fps=N:round=up` (sample k is the frame shown at k/N s; plain
 * `fps=N` takes the frame nearest (k + 1/2)/N), each run through the face
 * detector, and the shot changes read from the same frames.
 *
 * Memory stays flat: the frames come raw (RGB24) through a pipe into two
 * reused buffers; the next frame is read while the detector works on the
 * previous one.
 */
import { createFaceDetector, type Face } from './face-detector.js';
import { inputOptions, withoutUrlQueries } from '../input.js';
import { ProgramError, startProgram } from '../program.js';
import { yieldToInteractive } from '../../jobs/priority.js';

export type { Face } from './face-detector.js';

export interface FaceTrackInput {
  /** a local media file, or a remote store's URL of it (Storage.mediaSource) */
  path: string;
  /** the window in the source, seconds */
  start: number;
  duration: number;
  /** the source's displayed size (the probe's width and height, rotation applied) */
  width: number;
  height: number;
}

export interface FaceTrackOptions {
  /** samples per second, 2-5 (default 3) */
  fps?: number;
  signal?: AbortSignal;
}

export interface FaceSample {
  /** seconds from the window's start (the clip's own timeline, as CropKey.t) */
  t: number;
  /** the speaker's face in the displayed source's pixels, or null when none was found */
  face: Face | null;
  /**
   * every face found (at most MAX_FACES, the largest), left to right, each
   * with its mouth's movement since the previous sample: what the layout of
   * two speakers reads (speaker-layout.ts). Absent from tracks kept before it.
   */
  faces?: SampledFace[];
}

export interface SampledFace extends Face {
  /** mean absolute change of the grey level (0-255) over the lower third of the face since the previous sample; 0 at a shot's first sample */
  motion: number;
}

/** faces kept per sample, the largest first */
export const MAX_FACES = 4;

export interface FaceTrack {
  samples: FaceSample[];
  /** times (as FaceSample.t) of the first sample of each new shot, ascending */
  shotChanges: number[];
}

export const DEFAULT_TRACK_FPS = 3;
export const MIN_TRACK_FPS = 2;
export const MAX_TRACK_FPS = 5;
/** the analysed frames' longer side (px): the detector's input is 256 px square, so more only costs */
export const ANALYSIS_SIZE = 320;

/**
 * Shot changes: each sampled frame reduced to a SHOT_GRID x SHOT_GRID grid of
 * block means of its grey level; the mean absolute difference from the
 * previous sample (`mafd`, percent of full scale) is compared with the
 * previous pair's, as ffmpeg's scdet filter does: a cut when
 * min(mafd, |mafd - previous mafd|) >= SHOT_THRESHOLD. Block means ignore
 * noise and small movement; the relative term keeps a steady pan or a moving
 * subject (a constant high mafd) from counting as a cut.
 */
export const SHOT_GRID = 16;
export const SHOT_THRESHOLD = 10;

/**
 * The speaker among several faces: each face weighs its area times its score,
 * discounted by up to half for distance from the frame's centre. The heaviest
 * face wins, except that a face within one face-width of the previous
 * sample's speaker (same shot) keeps the part when it weighs at least
 * CONTINUITY_SHARE of the heaviest.
 */
export const CONTINUITY_SHARE = 0.5;

export class FaceTrackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FaceTrackError';
  }
}

/**
 * Decoder shortcuts for the analysis, before `-i`: frames no other frame
 * refers to (most B-frames of an x264 source) are not decoded, and the rest
 * skip the in-loop deblocking. About 40 % less decode time on an x264
 * veryfast source, which has 3 B-frames between references; a phone's
 * stream without B-frames decodes as before. A skipped frame cannot break
 * the decode of another (nothing refers to it); a sample that falls on one
 * takes the frame decoded before it, at most a few frames (about 0.1 s)
 * earlier, which a 3-5 fps track of a face does not see. A cut still shows
 * on its own sample: an encoder starts a new shot on a reference frame.
 */
export const ANALYSIS_DECODE = ['-flags2', '+fast', '-skip_frame', 'noref', '-skip_loop_filter', 'all'] as const;

/** The analysed frame's size for a displayed source size: longer side ANALYSIS_SIZE, both even. */
export function analysisSize(width: number, height: number): { width: number; height: number } {
  const even = (v: number) => Math.max(2, 2 * Math.round(v / 2));
  if (width >= height) return { width: even(ANALYSIS_SIZE), height: even((ANALYSIS_SIZE * height) / width) };
  return { width: even((ANALYSIS_SIZE * width) / height), height: even(ANALYSIS_SIZE) };
}

/** Faces of one window of a video: one sample every 1/fps s from the window's start, and its shot changes. */
export async function trackFaces(input: FaceTrackInput, opts: FaceTrackOptions = {}): Promise<FaceTrack> {
  const fps = opts.fps ?? DEFAULT_TRACK_FPS;
  if (!(fps >= MIN_TRACK_FPS && fps <= MAX_TRACK_FPS)) throw new RangeError(`fps must be ${MIN_TRACK_FPS}-${MAX_TRACK_FPS}, got ${fps}`);
  if (!(input.width > 0 && input.height > 0)) throw new RangeError('the source size must be positive');
  if (!(input.start >= 0 && input.duration > 0)) throw new RangeError('the window must start at 0 or later and last more than 0 s');
  const { signal } = opts;
  signal?.throwIfAborted();

  const size = analysisSize(input.width, input.height);
  const frameBytes = size.width * size.height * 3;
  const toSourceX = input.width / size.width;
  const toSourceY = input.height / size.height;

  const detector = await createFaceDetector();
  const ffmpeg = startProgram(
    'ffmpeg',
    [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      ...ANALYSIS_DECODE,
      ...inputOptions(input.path),
      '-ss',
      String(input.start),
      '-t',
      String(input.duration),
      '-i',
      input.path,
      '-map',
      '0:v:0',
      '-an',
      '-sn',
      '-dn',
      '-vf',
      // start_time=0: a window starting between two frames still gets sample 0 (the first frame, repeated); else ffmpeg starts at 1/fps
      `fps=${fps}:round=up:start_time=0,scale=${size.width}:${size.height}:flags=bilinear`,
      '-pix_fmt',
      'rgb24',
      '-f',
      'rawvideo',
      'pipe:1',
    ],
    // the frames are read at the detector's pace; the path may be a signed URL
    { stdout: 'stream', signal, redact: withoutUrlQueries, quoteLines: 3 },
  );

  const samples: FaceSample[] = [];
  const shotChanges: number[] = [];
  const shots = new ShotDetector(size.width, size.height);
  let previous: Face | null = null;
  // grey levels of this sample and the one before, for the mouths' movement
  let grey: Uint8Array = new Uint8Array(size.width * size.height);
  let greyBefore: Uint8Array | null = null;

  const analyse = async (frame: Buffer, index: number) => {
    const t = round(index / fps);
    const cut = shots.push(frame);
    if (cut) shotChanges.push(t);
    greyOf(frame, grey);
    const found = (await detector.detect(frame, size.width, size.height))
      .sort((a, b) => b.w * b.h - a.w * a.h)
      .slice(0, MAX_FACES)
      .sort((a, b) => a.x - b.x);
    const before = cut ? null : greyBefore;
    const faces = found.map((f) => ({
      x: f.x * toSourceX,
      y: f.y * toSourceY,
      w: f.w * toSourceX,
      h: f.h * toSourceY,
      score: f.score,
      motion: before ? mouthMotion(grey, before, size.width, size.height, f) : 0,
    }));
    const face = pickSpeaker(faces, input.width, input.height, cut ? null : previous);
    samples.push({ t, face: face && roundFace(face), faces: faces.map((f) => ({ ...roundFace(f), motion: round(f.motion) })) });
    previous = face;
    [greyBefore, grey] = [grey, greyBefore ?? new Uint8Array(grey.length)];
  };

  try {
    let pending: Promise<void> = Promise.resolve();
    let index = 0;
    // samples at k/fps inside the window: the frame ffmpeg may give for t = duration (the window's last frame again) is not one
    const count = Math.ceil(input.duration * fps - 1e-6);
    for await (const frame of frames(ffmpeg.stdout!, frameBytes)) {
      await pending;
      // a step of batch work: it waits here while an interactive job uses this process's cores
      await yieldToInteractive(signal);
      signal?.throwIfAborted();
      if (index >= count) continue;
      pending = analyse(frame, index++);
      // a failure surfaces at the next await; meanwhile it must not count as unhandled
      pending.catch(() => undefined);
    }
    await pending;
    await ffmpeg.done;
    return { samples, shotChanges };
  } catch (e) {
    // an abort cuts the frames short: the signal's reason is the one to give
    signal?.throwIfAborted();
    throw e instanceof ProgramError ? new FaceTrackError(e.message) : e;
  } finally {
    ffmpeg.stop();
    await ffmpeg.done.catch(() => undefined);
    await detector.close();
  }
}

/** Whole frames of `frameBytes` from a stream, in two buffers used in turn: a frame is overwritten two frames later. */
async function* frames(stream: AsyncIterable<Buffer>, frameBytes: number): AsyncGenerator<Buffer> {
  const buffers = [Buffer.allocUnsafe(frameBytes), Buffer.allocUnsafe(frameBytes)];
  let which = 0;
  let filled = 0;
  for await (const chunk of stream) {
    let at = 0;
    while (at < chunk.length) {
      const n = Math.min(frameBytes - filled, chunk.length - at);
      chunk.copy(buffers[which], filled, at, at + n);
      filled += n;
      at += n;
      if (filled === frameBytes) {
        yield buffers[which];
        which = 1 - which;
        filled = 0;
      }
    }
  }
}

/** The scdet-like cut test of SHOT_GRID block means (see SHOT_THRESHOLD). */
class ShotDetector {
  private previous: Float32Array | null = null;
  private current: Float32Array;
  private previousMafd = 0;
  private readonly cellOf: Uint16Array;
  private readonly cellCount: Float32Array;

  constructor(
    private readonly width: number,
    private readonly height: number,
  ) {
    this.current = new Float32Array(SHOT_GRID * SHOT_GRID);
    this.cellOf = new Uint16Array(width * height);
    this.cellCount = new Float32Array(SHOT_GRID * SHOT_GRID);
    for (let y = 0; y < height; y++) {
      const cy = Math.min(SHOT_GRID - 1, Math.floor((y * SHOT_GRID) / height));
      for (let x = 0; x < width; x++) {
        const cell = cy * SHOT_GRID + Math.min(SHOT_GRID - 1, Math.floor((x * SHOT_GRID) / width));
        this.cellOf[y * width + x] = cell;
        this.cellCount[cell] += 1;
      }
    }
  }

  /** Takes the next sampled frame; true when it starts a new shot. */
  push(rgb: Uint8Array): boolean {
    const grid = this.current;
    grid.fill(0);
    const pixels = this.width * this.height;
    for (let p = 0, i = 0; p < pixels; p++, i += 3) grid[this.cellOf[p]] += 0.299 * rgb[i] + 0.587 * rgb[i + 1] + 0.114 * rgb[i + 2];
    for (let c = 0; c < grid.length; c++) grid[c] /= this.cellCount[c];
    const before = this.previous;
    this.previous = grid;
    this.current = before ?? new Float32Array(grid.length);
    if (!before) return false;
    let sum = 0;
    for (let c = 0; c < grid.length; c++) sum += Math.abs(grid[c] - before[c]);
    const mafd = (100 * sum) / grid.length / 255;
    const score = Math.min(mafd, Math.abs(mafd - this.previousMafd));
    this.previousMafd = mafd;
    return score >= SHOT_THRESHOLD;
  }
}

/** The grey level (BT.601 luma) of each pixel of an RGB24 frame, into `out`. */
function greyOf(rgb: Uint8Array, out: Uint8Array): void {
  for (let p = 0, i = 0; p < out.length; p++, i += 3) out[p] = (77 * rgb[i] + 150 * rgb[i + 1] + 29 * rgb[i + 2]) >> 8;
}

/**
 * How much the mouth moved between two samples: the mean absolute grey
 * difference over the lower third of the face's box (analysis pixels), the
 * middle half of its width. A speaker's jaw and lips move; a listener's
 * mostly do not. Camera motion moves every face alike, so only the faces'
 * difference from each other means anything.
 */
export function mouthMotion(now: Uint8Array, before: Uint8Array, width: number, height: number, face: Face): number {
  const x0 = Math.max(0, Math.floor(face.x + face.w / 4));
  const x1 = Math.min(width, Math.ceil(face.x + (3 * face.w) / 4));
  const y0 = Math.max(0, Math.floor(face.y + (2 * face.h) / 3));
  const y1 = Math.min(height, Math.ceil(face.y + face.h));
  let sum = 0;
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0, p = y * width + x0; x < x1; x++, p++) sum += Math.abs(now[p] - before[p]);
    n += Math.max(0, x1 - x0);
  }
  return n ? sum / n : 0;
}

/** The speaker among `faces` (source pixels), by the rule of CONTINUITY_SHARE. */
export function pickSpeaker(faces: Face[], width: number, height: number, previous: Face | null): Face | null {
  if (!faces.length) return null;
  const halfDiagonal = Math.hypot(width, height) / 2;
  const weight = (f: Face) => {
    const off = Math.hypot(f.x + f.w / 2 - width / 2, f.y + f.h / 2 - height / 2) / halfDiagonal;
    return f.w * f.h * f.score * (1 - 0.5 * Math.min(1, off));
  };
  const heaviest = Math.max(...faces.map(weight));
  if (previous) {
    const px = previous.x + previous.w / 2;
    const py = previous.y + previous.h / 2;
    const near = faces
      .filter((f) => weight(f) >= CONTINUITY_SHARE * heaviest)
      .map((f) => ({ f, d: Math.hypot(f.x + f.w / 2 - px, f.y + f.h / 2 - py) }))
      .filter(({ d }) => d <= Math.max(previous.w, previous.h))
      .sort((a, b) => a.d - b.d);
    if (near.length) return near[0].f;
  }
  return faces.reduce((best, f) => (weight(f) > weight(best) ? f : best));
}

const round = (v: number) => Math.round(v * 1000) / 1000;
const roundFace = (f: Face): Face => ({ x: round(f.x), y: round(f.y), w: round(f.w), h: round(f.h), score: round(f.score) });
