// Magic-clip renders: a window of a long source, reframed by a moving crop
// (sendcmd on a named crop), captioned on the window's timeline, with a
// larger preview, all in one ffmpeg run.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCaptionTemplate } from '../../src/catalog/caption-templates.js';
import type { CropPath } from '../../src/magic-clips/types.js';
import { buildAss } from '../../src/media/render/captions.js';
import { renderVideo } from '../../src/media/render/ffmpeg.js';
import { fontsDir } from '../../src/media/render/fonts.js';
import { buildRenderGraph, cropCommands, PREVIEW, REFRAME_CROP, SEEK_DECODE, type RenderPlan } from '../../src/media/render/graph.js';
import type { TimedWord } from '../../src/media/transcript.js';
import { FF, type Frame, isRed } from '../support/media.js';

const run = promisify(execFile);
let dir: string;
const f = (name: string) => path.join(dir, name);

/*
 * The source: 1280x720, 30 fps, 10 s, H.264 with a keyframe every 50 frames
 * (a window at 3.0 s starts between keyframes), on a dark grey background:
 * - a blue panel on the left (x < 300) and a green one on the right (x >= 980);
 * - a clock: a yellow 20 px box at y 100, x = 440 + 12 * (frame mod 30), and a
 *   magenta one at y 160, x = 440 + 36 * whole seconds;
 * - a red 40 px marker at y 340 moving right, x = 40 + 120 t;
 * - a white flash (x 560-720, y 20-80) during the first 0.1 s of every second,
 *   when the sound beeps (1 kHz), and silence otherwise.
 */
const SRC = { width: 1280, height: 720, fps: 30, duration: 10 };
const CLOCK = { x: 440, frameStep: 12, secondStep: 36, size: 20, yFrame: 100, ySecond: 160 };
const markerLeft = (t: number) => 40 + 120 * t;

const source = (window?: { start: number; duration: number }): RenderPlan['source'] => ({
  path: f('talk.mp4'),
  ...SRC,
  rotation: 0,
  hasAudio: true,
  ...(window ? { window } : {}),
});

/** A still crop of 406x720 at x (the 9:16 slice of the 720 px height). */
const still = (x: number): CropPath => ({ width: 405, height: 720, keys: [{ t: 0, x, y: 0 }] });

const clipPlan = (over: Partial<RenderPlan> = {}): RenderPlan => ({
  source: source({ start: 3, duration: 4 }),
  output: { width: 360, height: 640, fps: 30, preset: 'ultrafast', fit: 'path' },
  reframe: still(430),
  keep: [{ start: 0, end: 4 }],
  audio: { clean: false },
  ...over,
});

async function streams(file: string) {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_type,width,height,r_frame_rate,nb_frames,duration',
    '-of',
    'json',
    file,
  ]);
  const list = (JSON.parse(stdout) as { streams: Array<Record<string, string | number>> }).streams;
  return { video: list.find((s) => s.codec_type === 'video')!, audio: list.find((s) => s.codec_type === 'audio') };
}

/** Every frame of `file`, in order, scaled down by `shrink` (packed RGB). */
async function framesOf(file: string, width: number, height: number, shrink: number): Promise<Frame[]> {
  const w = width / shrink;
  const h = height / shrink;
  const { stdout } = await run(
    'ffmpeg',
    ['-hide_banner', '-loglevel', 'error', '-i', file, '-vf', `scale=${w}:${h}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    {
      encoding: 'buffer',
      maxBuffer: 256 << 20,
    },
  );
  const size = w * h * 3;
  return Array.from({ length: stdout.length / size }, (_, i) => ({ w, h, rgb: stdout.subarray(i * size, (i + 1) * size) }));
}

type Rgb = readonly number[];
const isYellow = ([r, g, b]: Rgb) => r > 180 && g > 180 && b < 90;
const isMagenta = ([r, g, b]: Rgb) => r > 180 && g < 90 && b > 180;
const isBlue = ([r, g, b]: Rgb) => b > 180 && r < 80 && g < 80;
const isGreen = ([r, g, b]: Rgb) => g > 140 && r < 80 && b < 80;
const isBright = ([r, g, _b]: Rgb) => r > 200 && g > 200;

/** Centre (x, y) of the pixels matching `is` in rows y0..y1 of a frame, or null when none do. */
function centroid(fr: Frame, is: (p: Rgb) => boolean, y0 = 0, y1 = fr.h): { x: number; y: number; n: number } | null {
  let sx = 0;
  let sy = 0;
  let n = 0;
  for (let y = Math.max(0, Math.floor(y0)); y < Math.min(fr.h, Math.ceil(y1)); y++)
    for (let x = 0; x < fr.w; x++) {
      const i = (y * fr.w + x) * 3;
      if (is([fr.rgb[i], fr.rgb[i + 1], fr.rgb[i + 2]])) {
        sx += x + 0.5;
        sy += y + 0.5;
        n++;
      }
    }
  return n ? { x: sx / n, y: sy / n, n } : null;
}

const px = (fr: Frame, x: number, y: number): Rgb => {
  const i = (Math.round(y) * fr.w + Math.round(x)) * 3;
  return [fr.rgb[i], fr.rgb[i + 1], fr.rgb[i + 2]];
};

/**
 * The source frame a rendered frame shows, read from the clock: `crop` is the
 * crop's left edge and width in source pixels, `scale` output pixels per
 * source pixel of the decoded frame.
 */
function clockOf(fr: Frame, cropX: number, scale: number): number {
  const at = (is: (p: Rgb) => boolean, ySrc: number) => {
    const c = centroid(fr, is, ySrc * scale, (ySrc + CLOCK.size) * scale);
    if (!c) throw new Error('no clock in the frame');
    return cropX + c.x / scale - CLOCK.x - CLOCK.size / 2;
  };
  const frame = Math.round(at(isYellow, CLOCK.yFrame) / CLOCK.frameStep);
  const second = Math.round(at(isMagenta, CLOCK.ySecond) / CLOCK.secondStep);
  return second * SRC.fps + frame;
}

/** Times (s) where the sound rises above half its peak after at least 0.5 s under it. */
async function beepOnsets(file: string): Promise<number[]> {
  const { stdout } = await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', file, '-vn', '-ac', '1', '-ar', '48000', '-f', 's16le', 'pipe:1'], {
    encoding: 'buffer',
    maxBuffer: 64 << 20,
  });
  const x = new Int16Array(stdout.buffer, stdout.byteOffset, stdout.length / 2);
  const peak = x.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  const onsets: number[] = [];
  let lastLoud = -Infinity;
  for (let i = 0; i < x.length; i++) {
    if (Math.abs(x[i]) <= peak / 2) continue;
    if (i - lastLoud > 0.5 * 48000) onsets.push(i / 48000);
    lastLoud = i;
  }
  return onsets;
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'render-clip-'));
  const graph = [
    `color=c=0x303030:s=${SRC.width}x${SRC.height}:r=${SRC.fps}:d=${SRC.duration}`,
    'drawbox=x=0:y=0:w=300:h=720:color=blue:t=fill',
    'drawbox=x=980:y=0:w=300:h=720:color=0x00c000:t=fill',
    "drawbox=x=560:y=20:w=160:h=60:color=white:t=fill:enable='lt(mod(t,1),0.1)'[bg]",
  ].join(',');
  const filter = [
    graph,
    `color=c=red:s=40x40:r=${SRC.fps}[m]`,
    `color=c=yellow:s=${CLOCK.size}x${CLOCK.size}:r=${SRC.fps}[cf]`,
    `color=c=magenta:s=${CLOCK.size}x${CLOCK.size}:r=${SRC.fps}[cs]`,
    "[bg][m]overlay=x='40+120*t':y=340:shortest=1[b1]",
    `[b1][cf]overlay=x='${CLOCK.x}+${CLOCK.frameStep}*mod(round(t*${SRC.fps}),${SRC.fps})':y=${CLOCK.yFrame}:shortest=1[b2]`,
    `[b2][cs]overlay=x='${CLOCK.x}+${CLOCK.secondStep}*floor(round(t*${SRC.fps})/${SRC.fps})':y=${CLOCK.ySecond}:shortest=1,format=yuv420p[v]`,
    `aevalsrc=exprs='if(lt(mod(t,1),0.1),0.5*sin(2*PI*1000*t),0)':s=48000:d=${SRC.duration}[a]`,
  ].join(';');
  await run('ffmpeg', [
    ...FF,
    '-filter_complex',
    filter,
    '-map',
    '[v]',
    '-map',
    '[a]',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-g',
    '50',
    '-c:a',
    'aac',
    f('talk.mp4'),
  ]);
}, 60_000);

afterAll(() => {
  if (dir && !process.env.KEEP_DIR) fs.rmSync(dir, { recursive: true, force: true });
});

describe('clip graph text', () => {
  it('seeks to the window before decoding and times the cut on the window', () => {
    const g = buildRenderGraph(
      clipPlan({
        keep: [
          { start: 0, end: 1 },
          { start: 2.5, end: 9 },
        ],
      }),
    );
    expect(g.inputs[0].args).toEqual(['-ss', '3', '-t', '4']);
    // a kept range past the window's end is cut at its end
    expect(g.duration).toBeCloseTo(2.5, 9);
    expect(g.filterScript).toContain("select='");
    expect(g.longestCut).toBe(3 + 0); // the seek decodes from the keyframe before 3 s: up to 3 s of source
    expect(buildRenderGraph(clipPlan({ source: source({ start: 600, duration: 4 }) })).longestCut).toBe(SEEK_DECODE);
    // the whole window kept: no select
    expect(buildRenderGraph(clipPlan()).filterScript).not.toContain('select=');
    expect(() => buildRenderGraph(clipPlan({ source: source({ start: 3, duration: 0 }) }))).toThrow(/window/);
  });

  it('moves a named crop with sendcmd, before the cut: keys snapped to frames, even, inside the source', () => {
    const path: CropPath = {
      width: 607.5,
      height: 1080,
      keys: [
        { t: 0, x: 101, y: 5 },
        { t: 0.5, x: 2000, y: 0 }, // past the right edge
        { t: 1.01, x: -40, y: 0 }, // between frames 30 and 31, left of the frame
        { t: 1.02, x: 655, y: 0 }, // same frame: the later key wins
        { t: 2, x: 655, y: 0 }, // no change: nothing sent
      ],
    };
    const c = cropCommands(path, { width: 1920, height: 1080 }, 30);
    expect([c.width, c.height, c.x, c.y]).toEqual([608, 1080, 102, 0]);
    expect(c.commands).toBe(`0.483333 ${REFRAME_CROP} x 1312; 1.016667 ${REFRAME_CROP} x 656;`);
    // before the first key the first holds; a path without keys is centred
    expect(cropCommands({ width: 608, height: 1080, keys: [{ t: 2, x: 300, y: 0 }] }, { width: 1920, height: 1080 }, 30)).toMatchObject({
      x: 300,
      commands: '',
    });
    expect(cropCommands({ width: 608, height: 1080, keys: [] }, { width: 1920, height: 1080 }, 30)).toMatchObject({ x: 656, y: 0 });
    // a crop larger than the source is the source
    expect(cropCommands({ width: 2000, height: 1200, keys: [] }, { width: 1281, height: 719 }, 30)).toMatchObject({ width: 1280, height: 718, x: 0, y: 0 });

    const g = buildRenderGraph(
      clipPlan({
        source: { ...source({ start: 3, duration: 4 }), width: 1920, height: 1080 },
        reframe: path,
        keep: [
          { start: 0, end: 1 },
          { start: 2, end: 4 },
        ],
      }),
    );
    const v = g.filterScript.split(';\n')[0];
    expect(v).toMatch(/^\[0:v\]fps=30,sendcmd=c=0\.483333 crop@reframe x 1312\\; 1\.016667 crop@reframe x 656\\;,crop@reframe=w=608:h=1080:x=102:y=0,select='/);
    expect(v).toMatch(/setpts=N\/FRAME_RATE\/TB,scale=360:640,setsar=1\[framed\]$/);
    expect(() => buildRenderGraph(clipPlan({ reframe: undefined }))).toThrow(/reframe/);
  });

  it('writes a larger preview when the plan asks for one, the default size otherwise', () => {
    const big = buildRenderGraph(clipPlan({ output: { width: 1080, height: 1920, fps: 30, fit: 'path' }, preview: true, previewLongSide: 640 }));
    expect(big.filterScript).toContain(`[pvfull]fps=${PREVIEW.fps},scale=360:640:flags=bilinear`);
    const small = buildRenderGraph(clipPlan({ output: { width: 1080, height: 1920, fps: 30, fit: 'path' }, preview: true }));
    expect(small.filterScript).toContain(`[pvfull]fps=${PREVIEW.fps},scale=136:240:flags=bilinear`);
    expect(() => buildRenderGraph(clipPlan({ preview: true, previewLongSide: 0 }))).toThrow(/preview/);
  });
});

describe('clip renders', () => {
  it('renders a window exactly: size, frame rate, duration, its first frame the source frame at 3.0 s, sound in sync', async () => {
    const g = buildRenderGraph(clipPlan());
    await renderVideo(g, f('window.mp4'));
    const { video, audio } = await streams(f('window.mp4'));
    expect([video.width, video.height, video.r_frame_rate]).toEqual([360, 640, '30/1']);
    expect(Math.abs(Number(video.nb_frames) - 120)).toBeLessThanOrEqual(1);
    expect(Math.abs(Number(video.duration) - 4)).toBeLessThanOrEqual(1 / 30 + 1e-6);
    expect(Math.abs(Number(audio!.duration) - 4)).toBeLessThanOrEqual(1 / 30 + 0.03);

    const frames = await framesOf(f('window.mp4'), 360, 640, 2);
    const scale = 360 / 406 / 2;
    // the clock shows source frames 90, 91, ... (3.0 s on): accurate seek, nothing dropped or doubled
    expect([0, 1, 29, 30, 59, 119].map((i) => clockOf(frames[i], 430, scale))).toEqual([90, 91, 119, 120, 149, 209]);
    // picture and sound: the flash's first frames and the beeps' onsets at every whole second of the window
    const flashOn = frames.map((fr) => (centroid(fr, isBright, 20 * scale, 80 * scale)?.n ?? 0) > 100);
    const flashStarts = flashOn.flatMap((on, i) => (on && (i === 0 || !flashOn[i - 1]) ? [i / 30] : []));
    expect(flashStarts).toEqual([0, 1, 2, 3]);
    const onsets = await beepOnsets(f('window.mp4'));
    expect(onsets).toHaveLength(4);
    onsets.forEach((t, i) => expect(Math.abs(t - flashStarts[i])).toBeLessThan(0.005));
  });

  it('renders a window at 1080x1920', async () => {
    const g = buildRenderGraph(clipPlan({ output: { width: 1080, height: 1920, fps: 30, preset: 'ultrafast', fit: 'path' } }));
    await renderVideo(g, f('full.mp4'));
    const { video } = await streams(f('full.mp4'));
    expect([video.width, video.height, video.r_frame_rate]).toEqual([1080, 1920, '30/1']);
    expect(Math.abs(Number(video.nb_frames) - 120)).toBeLessThanOrEqual(1);
    expect(Math.abs(Number(video.duration) - 4)).toBeLessThanOrEqual(1 / 30 + 1e-6);
    const frames = await framesOf(f('full.mp4'), 1080, 1920, 4);
    const scale = 1080 / 406 / 4;
    expect([0, 1, 119].map((i) => clockOf(frames[i], 430, scale))).toEqual([90, 91, 209]);
  });

  it('a crop path keeps a moving marker in the centre third of every frame', async () => {
    // keys every 0.1 s centring the marker; the marker crosses 480 px of source meanwhile
    const keys = Array.from({ length: 41 }, (_, i) => {
      const t = i / 10;
      return { t, x: markerLeft(3 + t) + 20 - 203, y: 0 };
    });
    const g = buildRenderGraph(clipPlan({ reframe: { width: 405, height: 720, keys } }));
    await renderVideo(g, f('follow.mp4'));
    const frames = await framesOf(f('follow.mp4'), 360, 640, 2);
    expect(frames).toHaveLength(120);
    const xs = frames.map((fr) => centroid(fr, isRed)?.x ?? -1);
    for (const x of xs) {
      expect(x).toBeGreaterThan(180 / 3);
      expect(x).toBeLessThan((2 * 180) / 3);
    }
    // a still crop at the first key loses it
    await renderVideo(buildRenderGraph(clipPlan({ reframe: { width: 405, height: 720, keys: keys.slice(0, 1) } })), f('fixed.mp4'));
    const fixed = await framesOf(f('fixed.mp4'), 360, 640, 2);
    expect(centroid(fixed[119], isRed)).toBeNull();
  });

  it('a jump key (a shot change) takes effect on the first frame at or after its time', async () => {
    // t = 1.51 s: frame 45 is at 1.5 s, frame 46 at 1.533 s
    const reframe: CropPath = {
      width: 405,
      height: 720,
      keys: [
        { t: 0, x: 0, y: 0 },
        { t: 1.51, x: 874, y: 0 },
      ],
    };
    await renderVideo(buildRenderGraph(clipPlan({ reframe })), f('jump.mp4'));
    const frames = await framesOf(f('jump.mp4'), 360, 640, 2);
    // left edge: the blue panel before the jump, the grey between the marker and the green panel after it
    const side = frames.map((fr) => (isBlue(px(fr, 20, 300)) ? 'left' : isGreen(px(fr, 160, 300)) ? 'right' : '?'));
    expect(side.indexOf('right')).toBe(46);
    expect(side.slice(0, 46).every((s) => s === 'left')).toBe(true);
    expect(side.slice(46).every((s) => s === 'right')).toBe(true);
  });

  it('cuts inside the window on its timeline, the crop keys timed before the cut', async () => {
    // keep window 0-1 s and 2.5-4 s; the crop jumps right at window 3.0 s (output 1.5 s)
    const reframe: CropPath = {
      width: 405,
      height: 720,
      keys: [
        { t: 0, x: 430, y: 0 },
        { t: 3, x: 874, y: 0 },
      ],
    };
    const g = buildRenderGraph(
      clipPlan({
        reframe,
        keep: [
          { start: 0, end: 1 },
          { start: 2.5, end: 4 },
        ],
      }),
    );
    await renderVideo(g, f('cut.mp4'));
    const { video } = await streams(f('cut.mp4'));
    expect(Number(video.nb_frames)).toBe(75);
    const frames = await framesOf(f('cut.mp4'), 360, 640, 2);
    const scale = 360 / 406 / 2;
    // output frame 30 is window frame 75: source frame 165
    expect([0, 29, 30, 44].map((i) => clockOf(frames[i], 430, scale))).toEqual([90, 119, 165, 179]);
    expect(isGreen(px(frames[44], 160, 300))).toBe(false);
    expect(isGreen(px(frames[45], 160, 300))).toBe(true);
  });

  it('burns captions timed on the window and writes a 360x640 preview in the same run', async () => {
    const w = (text: string, startTime: number, endTime: number): TimedWord => ({ text, type: 'word', startTime, endTime });
    // source seconds: one word before the window, two at its start, one later
    const words = [w('Early', 1, 1.5), w('Alpha', 3.5, 4), w('Beta', 4, 4.4), w('Gamma', 5.6, 6)];
    const window = { start: 3, duration: 4 };
    // the window as the kept range of the source: captionPages maps the words onto the clip's timeline
    const ass = buildAss({
      words,
      keep: [{ start: window.start, end: window.start + window.duration }],
      style: findCaptionTemplate('classic')!.style,
      width: 360,
      height: 640,
    });
    fs.writeFileSync(f('clip words.ass'), ass);
    const g = buildRenderGraph(
      clipPlan({ source: source(window), assPath: f('clip words.ass'), fontsDir: fontsDir(dir), preview: true, previewLongSide: 640 }),
    );
    await renderVideo(g, { video: f('captioned.mp4'), preview: f('captioned-preview.mp4') });

    const shown = async (file: string, fps: number) => {
      const frames = await framesOf(file, 360, 640, 1);
      // the caption block is centred at 70 % of the height (the template's position): 448 px
      return (t: number) => (centroid(frames[Math.round(t * fps)], isBright, 400, 500)?.n ?? 0) > 50;
    };
    const main = await shown(f('captioned.mp4'), 30);
    expect([0.25, 0.75, 1.25, 2, 2.8, 3.5].map(main)).toEqual([false, true, true, false, true, false]);

    const { video, audio } = await streams(f('captioned-preview.mp4'));
    expect([video.width, video.height, video.r_frame_rate]).toEqual([360, 640, `${PREVIEW.fps}/1`]);
    expect(Math.abs(Number(video.nb_frames) - 4 * PREVIEW.fps)).toBeLessThanOrEqual(1);
    expect(audio).toBeDefined();
    const preview = await shown(f('captioned-preview.mp4'), PREVIEW.fps);
    expect([0.2, 0.8, 2, 2.8].map(preview)).toEqual([false, true, false, true]);
  });
});
