/**
 * The one-pass render graph (DESIGN.md, Rendering): one ffmpeg run decodes the
 * source once, cuts it, reframes it to the export size, zooms, lays B-roll
 * media over it, burns the captions, cleans the voice, mixes the music and
 * encodes once. Pure: this module only writes the ffmpeg arguments and the
 * filter script (ffmpeg.ts runs them).
 *
 * Graph rules (measured on these machines, DESIGN.md "Verified on these machines"):
 * - `fps=N` on the source before any cut; cuts are `select`/`aselect` over a
 *   balanced tree of between() terms, then `setpts=N/FRAME_RATE/TB` /
 *   `asetpts=N/SR/TB`; the audio is first resampled to 48 kHz and chunked with
 *   `asetnsamples=n=48000/fps`, so audio and video keep the same frames; the
 *   audio fades out and in over CUT_FADE at every join (one `aeval`, enabled
 *   only on the chunks next to a join), so cuts do not click.
 * - Source window (a clip of a long source): `-ss start -t duration` before
 *   `-i`, so ffmpeg seeks to the keyframe before `start`, decodes from there
 *   and drops what comes before `start` (accurate seek: picture and sound
 *   both start at exactly `start`, their timestamps at 0). Everything timed in
 *   the plan (keep, zooms, overlays, captions, crop keys) is then on the
 *   window's timeline, 0..duration.
 * - Reframe: ffmpeg auto-rotates, so the plan carries the display size. The
 *   source fills the output with a centred crop when that crop keeps at least
 *   half of the picture (the aspect ratios differ by a factor of 2 or less,
 *   e.g. 1:1 into 9:16); otherwise (16:9 into 9:16) the whole picture is shown
 *   between bands of a blurred copy of its centre (blurredFill). `fit` forces
 *   either; `fit: 'path'` moves a crop of fixed size along `reframe` (face
 *   tracking): a named crop, `crop@reframe`, placed before the cut (so the
 *   keys are on the window's timeline) and moved by `sendcmd`, whose commands
 *   are written into the filter script itself (`sendcmd=c=...`: no second
 *   file, no argument-size limit); each key takes effect on the first frame
 *   at or after its time (cropCommands).
 * - Zooms: `scale=...:eval=frame` + `crop` centred, eased in and out with a
 *   smoothstep over ZOOM_EASE seconds (never zoompan).
 * - Overlays: `trim=duration=D,setpts=PTS-STARTPTS+T/TB`, scaled per layout,
 *   `overlay=...:eof_action=pass:enable='between(t,T,T+D)'`; images are looped
 *   inputs (`-loop 1 -t D`); rounded corners come from one mask frame drawn once
 *   with geq on a one-frame `color` source and repeated by alphamerge.
 * - A colour look on the source's fitted picture (before the blurred fill's
 *   copy, or right after a crop) and on each item at its size: never on the
 *   whole stacked frame, and never on captions or stickers.
 * - Captions after the overlays: `ass=<file>:fontsdir=<dir>`; then stickers
 *   (emoji pictures): each a one-frame input scaled once, laid with
 *   `overlay=...:eof_action=repeat:enable=<its windows>` (the picture is
 *   decoded once and repeated, never re-read per frame).
 * - Preview (when asked): the final picture and sound are split into a second
 *   output of the same run, a small, low-frame-rate, low-bit-rate mp4
 *   (previewSize, PREVIEW), so the design's single pass holds.
 * - Audio: the source's audio (or `anullsrc`) cut like the video; clean-up
 *   `highpass,lowpass,afftdn`, a fixed `volume` gain to the target loudness
 *   measured before the render, and `alimiter` (no look-ahead normaliser:
 *   loudnorm's 3 s buffer held seconds of decoded video in memory), then
 *   `aformat=48000/stereo`; music looped
 *   (`-stream_loop -1`), trimmed to the output, faded, ducked under the voice
 *   with `sidechaincompress` (10-15 dB down under a voice at normal level:
 *   a bed that stays audible, not a cut-out) and mixed with `amix=normalize=0`.
 */
import type { Layout } from '../../catalog/layouts.js';
import { balancedSum, betweenTree } from './timeline.js';
import type { Segment } from '../transcript.js';

export type OverlayLayout = Layout;

export interface RenderOverlay {
  path: string;
  kind: 'VIDEO' | 'IMAGE';
  /** output seconds */
  start: number;
  end: number;
  /** default cover */
  layout?: OverlayLayout;
}

/**
 * A still picture laid over the finished frame (above the captions) at a
 * fixed place while any of its windows lasts: the emoji of a caption style,
 * a preset's logo.
 */
export interface RenderSticker {
  /** a picture file (PNG with transparency, or any picture ffmpeg reads) */
  path: string;
  /** centre, output pixels */
  x: number;
  y: number;
  /** width, output pixels (and height, unless `height` says otherwise) */
  size: number;
  height?: number;
  /** 0-1, default 1 */
  opacity?: number;
  /** output seconds it is shown */
  windows: Segment[];
}

export interface RenderZoom {
  /** output seconds */
  start: number;
  end: number;
  /** e.g. 1.2 = 20 % punch-in */
  scale: number;
}

export interface RenderMusic {
  path: string;
  /** 1-100: linear gain volume/100 on the track's own level */
  volume: number;
  /** seconds into the track where the music starts */
  startFrom?: number;
  /** fade in and out (default true) */
  fade?: boolean;
  /** duck the music under speech (default true) */
  duck?: boolean;
}

/**
 * A crop of fixed size moving over the source (face tracking's output, the
 * magic-clips CropPath): size and top-left positions in source display pixels;
 * a key holds until the next one.
 */
export interface ReframePath {
  width: number;
  height: number;
  keys: ReadonlyArray<ReframeKey>;
  /** two speakers stacked in the frame over some windows (speaker-layout.ts) */
  split?: ReframeSplit;
}

/**
 * Two fixed crops of the source (display pixels) stacked in the frame: `top`
 * filling the upper half, `bottom` the lower, shown over `windows` (seconds
 * of the same timeline as the keys) instead of the moving crop.
 */
export interface ReframeSplit {
  top: { x: number; y: number; w: number; h: number };
  bottom: { x: number; y: number; w: number; h: number };
  windows: ReadonlyArray<{ start: number; end: number }>;
}

/** Where the crop's top-left corner is from time `t` on (seconds). */
export interface ReframeKey {
  t: number;
  x: number;
  y: number;
}

export interface RenderPlan {
  source: {
    path: string;
    /** display size (probe(): already swapped for 90/270-degree rotations) */
    width: number;
    height: number;
    fps: number | null;
    rotation: number;
    hasAudio: boolean;
    duration: number;
    /**
     * render only these source seconds (`-ss start -t duration` before `-i`);
     * keep, zooms, overlays, captions and crop keys are then timed on the
     * window (0..duration)
     */
    window?: { start: number; duration: number };
  };
  output: {
    width: number;
    height: number;
    fps: number;
    /** libx264 preset, default veryfast */
    preset?: string;
    /** libx264 CRF, default 20 */
    crf?: number;
    /** how the source fills the frame; default auto (see the module comment); 'path' follows `reframe` */
    fit?: 'auto' | 'crop' | 'blur' | 'path';
  };
  /**
   * the moving crop of `fit: 'path'`: size and keys in source display pixels,
   * key times in seconds of the window (of the source without one)
   */
  reframe?: ReframePath;
  /** kept source ranges (keepSegments: sorted, frame-snapped) */
  keep: Segment[];
  zooms?: RenderZoom[];
  /** ASS file burned in after the overlays */
  assPath?: string;
  fontsDir?: string;
  /** pictures laid over the captions (emoji, a logo), one input each, decoded once */
  stickers?: RenderSticker[];
  /** a colour look (catalog/color-filters.ts): a per-pixel filter chain on the source's picture and on each item, before they are laid together (so never on captions or stickers) */
  colorFilter?: string;
  overlays?: RenderOverlay[];
  audio: {
    /** band-limit, denoise, bring to loudness with `gainDb`, limit the peaks */
    clean: boolean;
    /** clean audio's fixed gain in dB (audio-levels.ts normalizingGain), default 0 */
    gainDb?: number;
    music?: RenderMusic | null;
  };
  /** also write the small preview (previewSize, PREVIEW) as a second output of the same run */
  preview?: boolean;
  /**
   * the output's first instant, in seconds of the whole output (default 0): a
   * still of one instant renders a short window of the source whose captions,
   * zooms, overlays and stickers stay timed on the whole output
   */
  startAt?: number;
  /** the picture only: no audio chain, no [aout] (a still) */
  videoOnly?: boolean;
  /** the preview's longer side in pixels (default PREVIEW.longSide; never above the export's) */
  previewLongSide?: number;
}

export interface RenderInput {
  path: string;
  /** input options, placed before `-i path` */
  args: string[];
}

export interface RenderGraph {
  inputs: RenderInput[];
  /** the -filter_complex_script text; its outputs are [vout] and [aout] */
  filterScript: string;
  /** output options (maps, codecs), placed before the output path */
  outputArgs: string[];
  /** output options of the preview, the second output; present when the plan asks for one */
  previewArgs?: string[];
  /** expected output duration in seconds (sum of the kept segments) */
  duration: number;
  /**
   * the longest stretch of source, in seconds, decoded before or between kept
   * segments (with a window, up to SEEK_DECODE seconds before its start):
   * ffmpeg writes nothing while it reads through it
   */
  longestCut: number;
}

/** Seconds the sound fades out before a cut and back in after it, so joins do not click. */
export const CUT_FADE = 0.01;
/** Seconds a zoom takes to ease in (and out). */
export const ZOOM_EASE = 0.25;
/** Audio sample rate of the graph and of the output. */
export const SAMPLE_RATE = 48_000;
/** Peak ceiling of clean audio (linear, -1 dBFS). */
export const LIMIT = 0.891;
/** Aspect ratios differing by more than this factor get the blurred fill instead of a crop. */
export const CROP_MAX_ASPECT_FACTOR = 2;
/**
 * Frames a second the blurred fill's bands change at (blurredFill): each band
 * picture is held over the frames between, so the encoder skips the bands'
 * blocks there instead of searching them (bench: 9 % of a wide-to-vertical
 * export's CPU). The bands are a blur some 30 pixels wide of the picture's
 * centre, so what moves there moves in small steps ten times a second.
 */
export const BLUR_FILL_RATE = 10;
/** Outputs shorter than this (a still's few frames) change the bands every frame. */
const BLUR_HOLD_MIN_SECONDS = 1;
/**
 * Seconds of source a windowed render may decode before the window's start
 * (from the keyframe before it) counted into longestCut: longer keyframe
 * intervals are rare (x264's default, 250 frames, is 10 s at 25 fps).
 */
export const SEEK_DECODE = 10;
/** The preview: longer side in pixels (never above the export's), frame rate, x264 CRF and bit-rate caps. */
export const PREVIEW = { longSide: 240, fps: 10, crf: 30, maxVideoKbps: 200, audioKbps: 48 } as const;

const num = (x: number) => {
  const s = x.toFixed(6).replace(/\.?0+$/, '');
  return s === '-0' ? '0' : s;
};
const even = (x: number) => Math.max(2, 2 * Math.round(x / 2));

/** Size of the preview of a W x H export: scaled down to `longSide` (default PREVIEW.longSide), even, aspect kept to the pixel. */
export function previewSize(width: number, height: number, longSide: number = PREVIEW.longSide): { width: number; height: number } {
  const s = Math.min(1, longSide / Math.max(width, height));
  return { width: even(width * s), height: even(height * s) };
}

/** Escapes a filter option value for a filtergraph (both levels: option parser, then graph parser). */
export function escapeFilterValue(v: string): string {
  const option = v.replace(/[\\':]/g, (c) => `\\${c}`);
  return option.replace(/[\\'[\],;]/g, (c) => `\\${c}`);
}

/** A 3D LUT file (.cube) applied to the picture: tetrahedral interpolation, as colour tools apply them. */
export const lut3dFilter = (file: string) => `lut3d=file=${escapeFilterValue(file)}:interp=tetrahedral`;

/** The zoom factor at output time t: 1 outside zooms, `scale` inside, smoothstep ease over ZOOM_EASE. */
export function zoomExpression(zooms: readonly RenderZoom[]): string {
  const terms = zooms
    .filter((z) => z.end > z.start && z.scale > 0 && z.scale !== 1)
    .map((z) => {
      const r = Math.max(1e-3, Math.min(ZOOM_EASE, (z.end - z.start) / 2));
      const p = `clip(min((t-${num(z.start)})/${num(r)},(${num(z.end)}-t)/${num(r)}),0,1)`;
      return `${num(z.scale - 1)}*${p}*${p}*(3-2*${p})`;
    });
  return terms.length ? `(1+${balancedSum(terms)})` : '1';
}

/** How the source fills the output frame (see the module comment). */
export function chooseFit(src: { width: number; height: number }, out: { width: number; height: number }): 'crop' | 'blur' {
  const sa = src.width / src.height;
  const oa = out.width / out.height;
  return Math.max(sa / oa, oa / sa) <= CROP_MAX_ASPECT_FACTOR + 1e-9 ? 'crop' : 'blur';
}

/**
 * Fill w x h with a centred crop: crop the input to the target's aspect first,
 * then scale (scaling the whole picture up and cropping afterwards costs the
 * scale of the cut-away part too, e.g. 3.2x the pixels for 16:9 media on 9:16).
 */
const coverTo = (w: number, h: number) => `crop=w='min(iw,ih*${w}/${h})':h='min(ih,iw*${h}/${w})',scale=${w}:${h},setsar=1`;

/** The named crop `fit: 'path'` moves with sendcmd. */
export const REFRAME_CROP = 'crop@reframe';

export interface CropCommands {
  /** crop size: even, inside the source */
  width: number;
  height: number;
  /** the position on the first frame: even, the crop inside the source */
  x: number;
  y: number;
  /** sendcmd commands moving the crop, one interval per key, on one line (empty when it never moves) */
  commands: string;
}

/**
 * A crop path as the named crop's first position and the sendcmd commands that
 * move it, at `fps` frames a second on the path's timeline. The size is made
 * even and at most the source's; every position is made even (4:2:0 chroma)
 * and clamped so the crop stays inside the source. A key takes effect on the
 * first frame at or after its time (frame k at k/fps): its command is timed
 * half a frame before that frame, so rounding cannot move it to a neighbour;
 * of keys falling on the same frame the last wins; before the first key, the
 * first key holds. Only changed coordinates are sent.
 */
export function cropCommands(path: ReframePath, src: { width: number; height: number }, fps: number, target = REFRAME_CROP): CropCommands {
  const evenDown = (v: number) => 2 * Math.floor(v / 2);
  const width = Math.max(2, Math.min(even(path.width), evenDown(src.width)));
  const height = Math.max(2, Math.min(even(path.height), evenDown(src.height)));
  const maxX = Math.max(0, evenDown(src.width - width));
  const maxY = Math.max(0, evenDown(src.height - height));
  const place = (v: number, max: number) => (Number.isFinite(v) ? Math.min(max, Math.max(0, 2 * Math.round(v / 2))) : evenDown(max / 2));
  const byFrame = new Map<number, { x: number; y: number }>();
  [...path.keys]
    .filter((k) => Number.isFinite(k.t))
    .sort((a, b) => a.t - b.t)
    .forEach((k) => byFrame.set(Math.max(0, Math.ceil(k.t * fps - 1e-6)), { x: place(k.x, maxX), y: place(k.y, maxY) }));
  const frames = [...byFrame.keys()].sort((a, b) => a - b);
  if (!frames.length) return { width, height, x: evenDown(maxX / 2), y: evenDown(maxY / 2), commands: '' };
  let cur = byFrame.get(frames[0])!;
  const first = cur;
  const lines: string[] = [];
  for (const k of frames) {
    const next = byFrame.get(k)!;
    if (k === 0) continue;
    const sets = [...(next.x !== cur.x ? [`${target} x ${next.x}`] : []), ...(next.y !== cur.y ? [`${target} y ${next.y}`] : [])];
    if (sets.length) lines.push(`${num((k - 0.5) / fps)} ${sets.join(', ')};`);
    cur = next;
  }
  return { width, height, x: first.x, y: first.y, commands: lines.join(' ') };
}

/**
 * A crop path with stacked windows (two speakers): the source's timeline in
 * segments, each frame drawn by one of them only. A followed segment is the
 * moving crop (its own named crop, `crop@reframe<k>`, moved by the commands of
 * its keys), a stacked one the two seats' crops one above the other; `trim`
 * gives each its frames (contiguous, so every frame lands in exactly one),
 * `concat` joins them in order, and the cut follows as for one crop. The
 * source is decoded once: concat reads the segments in turn as the frames
 * arrive, so nothing waits in a queue.
 */
function stackedSegments(
  reframe: ReframePath,
  split: ReframeSplit,
  src: { width: number; height: number },
  duration: number,
  F: number,
  W: number,
  H: number,
  cut: string,
): string[] {
  const windows = [...split.windows].filter((w) => w.end > w.start && w.start < duration).sort((a, b) => a.start - b.start);
  // the timeline as [start, end) pieces: stacked windows and the followed stretches between them
  const pieces: Array<{ start: number; end: number; stacked: boolean }> = [];
  let at = 0;
  for (const w of windows) {
    const start = Math.max(at, w.start);
    const end = Math.min(duration, w.end);
    if (start > at) pieces.push({ start: at, end: start, stacked: false });
    if (end > start) pieces.push({ start, end, stacked: true });
    at = Math.max(at, end);
  }
  if (at < duration) pieces.push({ start: at, end: duration, stacked: false });
  const topH = 2 * Math.floor(H / 4);
  const part = (b: ReframeSplit['top'], h: number) => `crop=w=${b.w}:h=${b.h}:x=${b.x}:y=${b.y},scale=${W}:${h},setsar=1`;
  const lines = [`[0:v]fps=${num(F)},split=${pieces.length}${pieces.map((_, k) => `[rs${k}]`).join('')}`];
  pieces.forEach((p, k) => {
    // the first piece from the first frame, the last to the end: no frame falls outside
    const trim = `trim=${k > 0 ? `start=${num(p.start)}` : ''}${k > 0 && k < pieces.length - 1 ? ':' : ''}${k < pieces.length - 1 ? `end=${num(p.end)}` : ''}`;
    const cutTo = trim === 'trim=' ? 'null' : trim;
    if (p.stacked) {
      lines.push(`[rs${k}]${cutTo},split=2[rt${k}][rb${k}]`);
      lines.push(`[rt${k}]${part(split.top, topH)}[rtop${k}]`);
      lines.push(`[rb${k}]${part(split.bottom, H - topH)}[rbottom${k}]`);
      lines.push(`[rtop${k}][rbottom${k}]vstack=inputs=2,setpts=PTS-STARTPTS[rp${k}]`);
    } else {
      // the keys in force over this piece: the one held at its start, then those inside it
      const held = reframe.keys.filter((key) => key.t <= p.start + 1e-9).at(-1) ?? reframe.keys[0];
      const inside = reframe.keys.filter((key) => key.t > p.start + 1e-9 && key.t < p.end);
      const name = `${REFRAME_CROP}${k}`;
      const c = cropCommands({ ...reframe, keys: held ? [{ ...held, t: p.start }, ...inside] : inside }, src, F, name);
      const send = c.commands ? `sendcmd=c=${escapeFilterValue(c.commands)},` : '';
      lines.push(`[rs${k}]${cutTo},${send}${name}=w=${c.width}:h=${c.height}:x=${c.x}:y=${c.y},scale=${W}:${H},setsar=1,setpts=PTS-STARTPTS[rp${k}]`);
    }
  });
  lines.push(`${pieces.map((_, k) => `[rp${k}]`).join('')}concat=n=${pieces.length}:v=1:a=0,${cut}[framed]`);
  return lines;
}

/** Geometry of one overlay layout on a W x H frame. */
export interface LayoutBox {
  /** media box */
  x: number;
  y: number;
  w: number;
  h: number;
  /** contain: fit inside the box (centred) instead of filling it */
  fit: 'cover' | 'contain';
  /** corner radius of a rounded mask (0: none) */
  radius: number;
  /** split layouts: the part of the (zoomed) source shown beside the media, cut from the centre of the frame */
  source?: { x: number; y: number; w: number; h: number };
  /** bordered splits: a white line of this thickness on the media's edge facing the source */
  border?: number;
}

/**
 * Layout rules. cover: full frame. contain: whole media centred over the
 * source. square: centred square of the frame's shorter side. rounded: a card
 * of 88 % of the frame with rounded corners (5 % of the shorter side).
 * pip-*: 36 % of the frame, margin 4 % of the shorter side. split-A-B: the
 * media takes the first A % (top on portrait and square frames, left on
 * landscape ones), the source's centre the other B %; -bordered adds a white
 * line between them.
 */
export function layoutBox(layout: OverlayLayout, W: number, H: number): LayoutBox {
  const short = Math.min(W, H);
  switch (layout) {
    case 'cover':
      return { x: 0, y: 0, w: W, h: H, fit: 'cover', radius: 0 };
    case 'contain':
      return { x: 0, y: 0, w: W, h: H, fit: 'contain', radius: 0 };
    case 'square': {
      const s = Math.min(even(short), short - (short % 2));
      return { x: Math.floor((W - s) / 2), y: Math.floor((H - s) / 2), w: s, h: s, fit: 'cover', radius: 0 };
    }
    case 'rounded': {
      const w = even(W * 0.88);
      const h = even(H * 0.88);
      return { x: Math.floor((W - w) / 2), y: Math.floor((H - h) / 2), w, h, fit: 'cover', radius: Math.max(2, Math.round(short * 0.05)) };
    }
    case 'pip-top-right':
    case 'pip-bottom-right': {
      const w = even(W * 0.36);
      const h = even(H * 0.36);
      const m = Math.round(short * 0.04);
      return { x: W - w - m, y: layout === 'pip-top-right' ? m : H - h - m, w, h, fit: 'cover', radius: 0 };
    }
    default: {
      const share = layout.startsWith('split-35-65') ? 0.35 : 0.5;
      const border = layout.endsWith('-bordered') ? Math.max(2, even(Math.max(W, H) * 0.006)) : undefined;
      if (H >= W) {
        const h = even(H * share);
        const sh = H - h;
        return { x: 0, y: 0, w: W, h, fit: 'cover', radius: 0, border, source: { x: 0, y: h, w: W, h: sh } };
      }
      const w = even(W * share);
      const sw = W - w;
      return { x: 0, y: 0, w, h: H, fit: 'cover', radius: 0, border, source: { x: w, y: 0, w: sw, h: H } };
    }
  }
}

/**
 * The whole source, fitted inside W x H, between two bands of a blurred copy
 * of its centre (above and below it, or left and right). Measured cheapest
 * this way: the source is scaled once; the blur works on an eighth-size crop
 * of that, and only the visible bands are scaled up (bilinear: it is blurred)
 * and stacked with the picture, with no full-frame blur or overlay.
 *
 * `look`: a colour look applied to the fitted picture, before the blur takes
 * its copy (a third of the frame's pixels, where after the stack it would
 * work on all of them). `hold`: each band picture is repeated over groups of
 * `hold` frames (`shuffleframes`, which keeps every frame's timestamp, so the
 * stack stays in step with the picture; the last, partial group repeats the
 * last band picture).
 */
export function blurredFill(
  src: { width: number; height: number },
  W: number,
  H: number,
  input: string,
  output: string,
  { look, hold = 1 }: { look?: string; hold?: number } = {},
): string[] {
  const wide = src.width / src.height >= W / H;
  // the picture, fitted: full width (a wider source) or full height
  const fw = wide ? W : Math.min(W, even((H * src.width) / src.height));
  const fh = wide ? Math.min(H, even((W * src.height) / src.width)) : H;
  const band = wide ? H - fh : W - fw;
  const looked = look ? `,${look}` : '';
  if (band < 4) return [`${input},scale=${W}:${H},setsar=1${looked}[${output}]`];
  const first = 2 * Math.floor(band / 4);
  const second = band - first;
  // the blurred background: the picture's centre at the output's aspect, at an eighth of the size
  const bw = Math.max(8, even(W / 8));
  const bh = Math.max(8, even(H / 8));
  const cw = wide ? Math.min(fw, even((fh * W) / H)) : fw;
  const ch = wide ? fh : Math.min(fh, even((fw * H) / W));
  const radius = Math.max(1, Math.min(4, Math.floor(Math.min(bw, bh) / 4)));
  const held = hold > 1 ? `shuffleframes=${Array(Math.round(hold)).fill(0).join(' ')},` : '';
  const lines = [
    `${input},scale=${fw}:${fh},setsar=1${looked},split=2[${output}_fg][${output}_c]`,
    `[${output}_c]${held}crop=${cw}:${ch},scale=${bw}:${bh}:flags=fast_bilinear,boxblur=${radius}:2,split=2[${output}_b1][${output}_b2]`,
  ];
  // each band: its end of the small blurred picture, scaled up to the band
  const bandOf = (name: string, source: string, size: number, atEnd: boolean) => {
    if (wide) {
      const h = Math.max(2, Math.round((size * bh) / H));
      lines.push(`[${source}]crop=${bw}:${h}:0:${atEnd ? bh - h : 0},scale=${W}:${size}:flags=fast_bilinear,setsar=1[${name}]`);
    } else {
      const w = Math.max(2, Math.round((size * bw) / W));
      lines.push(`[${source}]crop=${w}:${bh}:${atEnd ? bw - w : 0}:0,scale=${size}:${H}:flags=fast_bilinear,setsar=1[${name}]`);
    }
  };
  bandOf(`${output}_a`, `${output}_b1`, first, false);
  bandOf(`${output}_z`, `${output}_b2`, second, true);
  lines.push(`[${output}_a][${output}_fg][${output}_z]${wide ? 'vstack' : 'hstack'}=inputs=3[${output}]`);
  return lines;
}

const roundedMask = (r: number) => `lum='if(lte(pow(max(max(${r}-X,X-(W-1-${r})),0),2)+pow(max(max(${r}-Y,Y-(H-1-${r})),0),2),${r * r}),255,0)'`;

/**
 * A balanced if() tree over sorted points: `leaf(p)` of the point nearest to
 * `variable` (split at the midpoints), O(log n) per evaluation where a sum of
 * between() terms would evaluate every term.
 */
export function nearestTree(points: readonly number[], leaf: (p: number) => string, variable = 't'): string {
  const build = (lo: number, hi: number): string => {
    if (hi - lo === 1) return leaf(points[lo]);
    const mid = (lo + hi) >> 1;
    return `if(lt(${variable},${num((points[mid - 1] + points[mid]) / 2)}),${build(lo, mid)},${build(mid, hi)})`;
  };
  return points.length ? build(0, points.length) : '1';
}

/**
 * The output times where the cut audio jumps from one kept segment to the next
 * (and its start and end when those are cut out of the middle of the sound), as
 * the cut lays its chunks of `chunk` samples end to end.
 */
export function audioJoins(keep: readonly Segment[], duration: number, fps: number, chunk: number): number[] {
  const joins: number[] = [];
  if (keep.length && keep[0].start > 1e-6) joins.push(0);
  let samples = 0;
  keep.forEach((s, i) => {
    samples += Math.round((s.end - s.start) * fps) * chunk;
    if (i < keep.length - 1 || s.end < duration - 1e-6) joins.push(samples / SAMPLE_RATE);
  });
  return joins;
}

/**
 * De-click at the cuts: the sound fades out over CUT_FADE seconds before each
 * join and back in after it, one `aeval` whose gain is 1 away from joins and
 * which runs only on the chunks touching one (timeline `enable`).
 */
function cutFades(keep: readonly Segment[], duration: number, fps: number, chunk: number): string {
  const joins = audioJoins(keep, duration, fps, chunk);
  if (!joins.length) return 'anull';
  const len = chunk / SAMPLE_RATE;
  const gain = nearestTree(joins, (j) => `clip(abs(t-${num(j)})/${num(CUT_FADE)},0,1)`);
  const near = nearestTree(joins, (j) => `between(t,${num(j - len - 0.0005)},${num(j + 0.0005)})`);
  return `aeval=exprs='val(ch)*${gain}':c=same:enable='${near}'`;
}

/**
 * The filter lines laying `stickers` one after another over the frame labelled
 * `input`, and the label of the frame they leave (`input` itself when there
 * are none); their pictures are added to `inputs`.
 */
export function stickerLines(stickers: readonly RenderSticker[], inputs: RenderInput[], input: string): { lines: string[]; output: string } {
  const lines: string[] = [];
  let output = input;
  stickers
    .filter((s) => s.windows.some((w) => w.end > w.start) && s.size >= 2)
    .forEach((s, i) => {
      const index = inputs.length;
      inputs.push({ path: s.path, args: [] });
      const w = even(s.size);
      const h = even(s.height ?? s.size);
      const enable = betweenTree(s.windows, 't', 0);
      const fade = s.opacity !== undefined && s.opacity < 1 ? `,colorchannelmixer=aa=${num(Math.max(0, s.opacity))}` : '';
      lines.push(
        `[${index}:v]scale=${w}:${h},format=rgba${fade}[sp${index}];[${output}][sp${index}]overlay=x=${Math.round(s.x - w / 2)}:y=${Math.round(s.y - h / 2)}:eof_action=repeat:enable='${enable}'[stk${i}]`,
      );
      output = `stk${i}`;
    });
  return { lines, output };
}

/** The one-pass render of a plan: inputs, filter script and output options. */
export function buildRenderGraph(plan: RenderPlan): RenderGraph {
  const { source: src, output: out } = plan;
  const W = out.width;
  const H = out.height;
  const F = out.fps;
  if (!(W > 0 && H > 0 && F > 0)) throw new Error('output width, height and fps must be positive');
  if (W % 2 || H % 2) throw new Error('output width and height must be even (yuv420p)');
  if (plan.previewLongSide !== undefined && !(plan.previewLongSide >= 2)) throw new Error('the preview size must be at least 2 pixels');
  const win = src.window;
  if (win && !(win.start >= 0 && win.duration > 0)) throw new Error('the source window needs a start of 0 or more and a positive duration');
  // the source's timeline: the window's when there is one
  const srcDuration = win ? win.duration : src.duration;
  const keep = plan.keep.map((s) => (win ? { start: Math.max(0, s.start), end: Math.min(win.duration, s.end) } : s)).filter((s) => s.end > s.start);
  if (!keep.length) throw new Error('nothing is kept: the output would be empty');
  const D = keep.reduce((sum, s) => sum + (s.end - s.start), 0);

  const inputs: RenderInput[] = [{ path: src.path, args: win ? ['-ss', num(win.start), '-t', num(win.duration)] : [] }];
  const lines: string[] = [];
  const fullCut = keep.length === 1 && keep[0].start <= 1e-6 && keep[0].end >= srcDuration - 1e-6;
  const tree = betweenTree(keep);

  // ---- video: fps, cut, reframe, zoom
  const offset = plan.startAt ? `+${num(plan.startAt)}/TB` : '';
  const cut = fullCut ? `setpts=N/FRAME_RATE/TB${offset}` : `select='${tree}',setpts=N/FRAME_RATE/TB${offset}`;
  const fit = !out.fit || out.fit === 'auto' ? chooseFit(src, out) : out.fit;
  if (fit === 'path') {
    if (!plan.reframe) throw new Error("fit 'path' needs the plan's reframe (a crop path)");
    // the crop moves on the window's timeline, so it comes before the cut
    const split = plan.reframe.split;
    const windows = split?.windows.filter((w) => w.end > w.start) ?? [];
    if (split && windows.length) {
      lines.push(...stackedSegments(plan.reframe, split, src, srcDuration, F, W, H, cut));
    } else {
      const c = cropCommands(plan.reframe, src, F);
      const send = c.commands ? `sendcmd=c=${escapeFilterValue(c.commands)},` : '';
      lines.push(`[0:v]fps=${num(F)},${send}${REFRAME_CROP}=w=${c.width}:h=${c.height}:x=${c.x}:y=${c.y},${cut},scale=${W}:${H},setsar=1[framed]`);
    }
  } else if (fit === 'crop') {
    lines.push(`[0:v]fps=${num(F)},${cut},${coverTo(W, H)}[framed]`);
  } else {
    const hold = D >= BLUR_HOLD_MIN_SECONDS ? Math.round(F / BLUR_FILL_RATE) : 1;
    lines.push(...blurredFill(src, W, H, `[0:v]fps=${num(F)},${cut}`, 'framed', { look: plan.colorFilter, hold }));
  }
  let cur = 'framed';
  // the colour look goes on the source's picture and on each item, before they are laid together:
  // the blurred fill takes it on the fitted picture, a third of the frame
  const look = plan.colorFilter ? `,${plan.colorFilter}` : '';
  if (look && fit !== 'blur') {
    lines.push(`[framed]${plan.colorFilter}[looked]`);
    cur = 'looked';
  }
  const zooms = (plan.zooms ?? []).filter((z) => z.end > z.start && z.scale > 0 && z.scale !== 1);
  if (zooms.length) {
    const z = zoomExpression(zooms);
    const sw = `2*trunc(${W}*${z}/2)`;
    const sh = `2*trunc(${H}*${z}/2)`;
    lines.push(`[${cur}]scale=w='${sw}':h='${sh}':eval=frame,crop=w=${W}:h=${H}:x='(${sw}-${W})/2':y='(${sh}-${H})/2',setsar=1[zoomed]`);
    cur = 'zoomed';
  }

  // ---- overlays
  const overlays = (plan.overlays ?? []).filter((o) => o.end > o.start);
  const splits = overlays.filter((o) => layoutBox(o.layout ?? 'cover', W, H).source).length;
  const sourceParts: string[] = [];
  if (splits) {
    const labels = Array.from({ length: splits }, (_, i) => `sp${i}`);
    lines.push(`[${cur}]split=${splits + 1}[based]${labels.map((l) => `[${l}]`).join('')}`);
    cur = 'based';
    sourceParts.push(...labels);
  }
  overlays.forEach((o, i) => {
    const index = inputs.length;
    const T = o.start;
    const len = o.end - o.start;
    inputs.push({
      path: o.path,
      args: o.kind === 'IMAGE' ? ['-loop', '1', '-framerate', num(F), '-t', num(len + 1 / F)] : ['-t', num(len + 1 / F)],
    });
    const box = layoutBox(o.layout ?? 'cover', W, H);
    const enable = `enable='between(t,${num(T)},${num(T + len)})'`;
    let media = `[${index}:v]trim=duration=${num(len)},setpts=PTS-STARTPTS+${num(T)}/TB,`;
    media += box.fit === 'contain' ? `scale=${box.w}:${box.h}:force_original_aspect_ratio=decrease:force_divisible_by=2,setsar=1` : coverTo(box.w, box.h);
    if (box.border) {
      const b = box.border;
      media +=
        box.source && box.source.y > 0 ? `,drawbox=x=0:y=ih-${b}:w=iw:h=${b}:color=white:t=fill` : `,drawbox=x=iw-${b}:y=0:w=${b}:h=ih:color=white:t=fill`;
    }
    // every look keeps a transparent picture's alpha plane (tested)
    media += `${look},format=yuva420p`;
    if (box.radius > 0) {
      lines.push(`${media}[ovraw${i}]`);
      lines.push(`color=c=black:s=${box.w}x${box.h}:r=${num(F)}:d=${num(1 / F)},format=gray,geq=${roundedMask(box.radius)}[mask${i}]`);
      lines.push(`[ovraw${i}][mask${i}]alphamerge[ov${i}]`);
    } else {
      lines.push(`${media}[ov${i}]`);
    }
    if (box.source) {
      const part = sourceParts.shift() as string;
      const s = box.source;
      lines.push(`[${part}]trim=start=${num(T)}:end=${num(T + len)},crop=${s.w}:${s.h}:${Math.floor((W - s.w) / 2)}:${Math.floor((H - s.h) / 2)}[src${i}]`);
      lines.push(`[${cur}][src${i}]overlay=${s.x}:${s.y}:eof_action=pass:${enable}[withsrc${i}]`);
      cur = `withsrc${i}`;
    }
    const x = box.fit === 'contain' ? '(W-w)/2' : String(box.x);
    const y = box.fit === 'contain' ? '(H-h)/2' : String(box.y);
    lines.push(`[${cur}][ov${i}]overlay=${x}:${y}:eof_action=pass:${enable}[over${i}]`);
    cur = `over${i}`;
  });

  // ---- the captions
  let tail = '';
  if (plan.assPath) {
    tail += `ass=filename=${escapeFilterValue(plan.assPath)}`;
    if (plan.fontsDir) tail += `:fontsdir=${escapeFilterValue(plan.fontsDir)}`;
    tail += ',';
  }
  // with a preview, the final picture and sound go through split/asplit first
  const vEnd = plan.preview ? 'vfull' : 'vout';
  const aEnd = plan.preview ? 'afull' : 'aout';
  if (plan.stickers?.length) {
    lines.push(`[${cur}]${tail}null[captioned]`);
    const laid = stickerLines(plan.stickers, inputs, 'captioned');
    lines.push(...laid.lines);
    cur = laid.output;
    tail = '';
  }
  lines.push(`[${cur}]${tail}format=yuv420p[${vEnd}]`);

  // ---- audio
  const stereo = `aformat=sample_fmts=fltp:sample_rates=${SAMPLE_RATE}:channel_layouts=stereo`;
  const music = plan.audio.music;
  const voiceOut = music ? 'voice' : aEnd;
  const clean = plan.audio.clean
    ? `highpass=f=80,lowpass=f=12000,afftdn,volume=${num(plan.audio.gainDb ?? 0)}dB,alimiter=limit=${LIMIT}:level=0:latency=1,`
    : '';
  if (plan.videoOnly) {
    // a still: no sound
  } else if (src.hasAudio) {
    const chunk = Math.max(1, Math.round(SAMPLE_RATE / F));
    const acut = fullCut ? 'asetpts=N/SR/TB' : `aselect='${tree}',asetpts=N/SR/TB,${cutFades(keep, srcDuration, F, chunk)}`;
    lines.push(`[0:a]aresample=${SAMPLE_RATE},asetnsamples=n=${chunk}:p=0,${acut},${clean}${stereo}[${voiceOut}]`);
  } else {
    lines.push(`anullsrc=r=${SAMPLE_RATE}:cl=stereo,atrim=duration=${num(D)},${stereo}[${voiceOut}]`);
  }
  if (music && !plan.videoOnly) {
    const index = inputs.length;
    inputs.push({ path: music.path, args: ['-stream_loop', '-1', ...(music.startFrom ? ['-ss', num(music.startFrom)] : [])] });
    const gain = Math.min(100, Math.max(1, music.volume)) / 100;
    const f = Math.min(2, D / 4);
    const fades = music.fade !== false && f > 0.01 ? `,afade=t=in:st=0:d=${num(f)},afade=t=out:st=${num(D - f)}:d=${num(f)}` : '';
    lines.push(`[${index}:a]atrim=duration=${num(D)},asetpts=PTS-STARTPTS,aresample=${SAMPLE_RATE},${stereo},volume=${num(gain)}${fades}[music]`);
    if (music.duck !== false && src.hasAudio) {
      lines.push(`[voice]asplit=2[voicemix][voicesc]`);
      lines.push(`[music][voicesc]sidechaincompress=threshold=0.02:ratio=5:attack=20:release=400[ducked]`);
      lines.push(`[voicemix][ducked]amix=inputs=2:normalize=0:duration=first,${stereo}[${aEnd}]`);
    } else {
      lines.push(`[voice][music]amix=inputs=2:normalize=0:duration=first,${stereo}[${aEnd}]`);
    }
  }

  // ---- preview: scaled after the frame-rate drop, so only the kept frames are scaled
  let previewArgs: string[] | undefined;
  if (plan.preview) {
    const p = previewSize(W, H, plan.previewLongSide);
    lines.push(`[vfull]split=2[vout][pvfull]`);
    lines.push(`[pvfull]fps=${PREVIEW.fps},scale=${p.width}:${p.height}:flags=bilinear,setsar=1,format=yuv420p[pvout]`);
    lines.push(`[afull]asplit=2[aout][paout]`);
    previewArgs = [
      '-map',
      '[pvout]',
      '-map',
      '[paout]',
      '-c:v',
      'libx264',
      '-preset',
      out.preset ?? 'veryfast',
      '-crf',
      String(PREVIEW.crf),
      '-maxrate',
      `${PREVIEW.maxVideoKbps}k`,
      '-bufsize',
      `${2 * PREVIEW.maxVideoKbps}k`,
      '-pix_fmt',
      'yuv420p',
      '-r',
      String(PREVIEW.fps),
      '-c:a',
      'aac',
      // the fast coder: a quarter of the preview's CPU went to the default one's search, for a 48 kb/s mono track
      '-aac_coder',
      'fast',
      '-b:a',
      `${PREVIEW.audioKbps}k`,
      '-ac',
      '1',
      '-movflags',
      '+faststart',
    ];
  }

  const outputArgs = [
    '-map',
    '[vout]',
    '-map',
    '[aout]',
    '-c:v',
    'libx264',
    '-preset',
    out.preset ?? 'veryfast',
    '-crf',
    String(out.crf ?? 20),
    '-pix_fmt',
    'yuv420p',
    '-r',
    num(F),
    '-c:a',
    'aac',
    // the fast coder: at 160 kb/s it keeps the waveform closer than ffmpeg 5's default (twoloop) and takes about
    // half its CPU (2.0-2.4 s against 3.7-5.2 s for a minute of stereo speech): a few per cent of a clip's render
    '-aac_coder',
    'fast',
    '-b:a',
    '160k',
    '-ar',
    String(SAMPLE_RATE),
    '-ac',
    '2',
    '-movflags',
    '+faststart',
  ];
  const seek = win ? Math.min(win.start, SEEK_DECODE) : 0;
  const longestCut = Math.max(seek + keep[0].start, ...keep.slice(1).map((k, i) => k.start - keep[i].end));
  return { inputs, filterScript: `${lines.join(';\n')}\n`, outputArgs, ...(previewArgs ? { previewArgs } : {}), duration: D, longestCut };
}
