/**
 * Frames of rendered videos with each caption template and each hook-title
 * template, for the caption-frames test (which measures them) and for
 * `npm run frames` (which writes them to docs/images for the README). The
 * source is a short talking picture: the portrait of test/fixtures/face.jpg
 * over espeak-ng speech, its words timed evenly per sentence (no transcription:
 * the frames show the renderer, not an engine). Each render goes through the
 * exports' renderer: buildAss, buildRenderGraph, renderVideo.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { StrongestLineHook } from '../../src/ai/hook.js';
import { CAPTION_TEMPLATES, type CaptionTemplate } from '../../src/catalog/caption-templates.js';
import { HOOK_TITLE_TEMPLATES, type HookTitleTemplate } from '../../src/catalog/hook-title-templates.js';
import { hookFace, hookTopFor } from '../../src/projects/hook-placement.js';
import { buildCaptions, emojiStickers } from '../../src/media/render/captions.js';
import { renderVideo } from '../../src/media/render/ffmpeg.js';
import { fontsDir } from '../../src/media/render/fonts.js';
import { buildRenderGraph } from '../../src/media/render/graph.js';
import type { TimedWord } from '../../src/media/transcript.js';
import { FACE_PICTURE } from './faces.js';
import type { Frame } from './media.js';
import { FF } from './media.js';

const run = promisify(execFile);

/** What is said, and when (seconds). The last word, alone on its page and all capitals, is for measuring capitals. */
const SAID: readonly [string, number, number][] = [
  ['Three out of four people kept going for a full year.', 0.2, 2.7],
  ['WOW!', 3.5, 4.0],
  ['It changed everything.', 4.4, 5.4],
];
const DURATION = 5.6;
/**
 * What each render keeps of the talk, and the output second of each frame:
 * the hook over the first sentence; without it, the measuring word and a page
 * of the last sentence (under a second: the renders stay short; the hook
 * fades out at the end of its render, so that render runs past its frame).
 */
const HOOK_RENDER = { keep: [{ start: 0, end: 2 }], at: 1.3 };
const CAPTION_RENDER = {
  keep: [
    { start: 3.55, end: 4.0 },
    { start: 4.4, end: 5.0 },
  ],
  // past any entrance (fades and pops take at most 250 ms)
  capitals: 0.35,
  caption: 0.75,
};

/** The talk's words, evenly timed per sentence, all heard sure. */
export function frameWords(): TimedWord[] {
  const out: TimedWord[] = [];
  for (const [sentence, start, end] of SAID) {
    const tokens = sentence.split(' ');
    const step = (end - start) / tokens.length;
    tokens.forEach((token, i) => {
      const [, text, mark] = /^(.*?)([.!?]?)$/.exec(token)!;
      const t = start + i * step;
      out.push({ text, type: 'word', startTime: t, endTime: t + step * 0.9, confidence: 0.95 });
      if (mark) out.push({ text: mark, type: 'punctuation', startTime: t + step * 0.9, endTime: t + step * 0.9 });
    });
  }
  return out;
}

export interface FrameSize {
  width: number;
  height: number;
}

/** The talking picture at `size`: the portrait cropped to fill it, the sentences spoken at their times. */
async function talkingPicture(dir: string, size: FrameSize): Promise<string> {
  const wavs = await Promise.all(
    SAID.map(async ([text], i) => {
      const wav = path.join(dir, `say${i}.wav`);
      await run('espeak-ng', ['-v', 'en-us', '-s', '170', '-w', wav, text]);
      return wav;
    }),
  );
  const delays = SAID.map(([, start], i) => `[${i + 1}:a]adelay=${Math.round(start * 1000)}:all=1[a${i}]`);
  const mix = `${delays.join(';')};${SAID.map((_, i) => `[a${i}]`).join('')}amix=inputs=${SAID.length}:normalize=0,apad[a]`;
  const out = path.join(dir, 'talk.mp4');
  await run('ffmpeg', [
    ...FF,
    '-loop',
    '1',
    '-framerate',
    '25',
    '-i',
    FACE_PICTURE,
    ...wavs.flatMap((w) => ['-i', w]),
    '-filter_complex',
    `[0:v]scale=-2:${size.height},crop=${size.width}:${size.height},setsar=1,format=yuv420p[v];${mix}`,
    '-map',
    '[v]',
    '-map',
    '[a]',
    '-t',
    String(DURATION),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-tune',
    'stillimage',
    '-c:a',
    'aac',
    out,
  ]);
  return out;
}

interface Render {
  name: string;
  keep: { start: number; end: number }[];
  template: CaptionTemplate;
  hook: { text: string; template: HookTitleTemplate; top?: number } | null;
  captions: boolean;
}

/** One render of the kept parts of the talk, with captions and the hook as asked, through the exports' renderer. */
async function renderTalk(dir: string, source: string, size: FrameSize, { name, keep, template, hook, captions }: Render) {
  const assPath = path.join(dir, `${name}.ass`);
  const made = buildCaptions({ words: frameWords(), keep, style: template.style, width: size.width, height: size.height, captions, hook });
  await fs.writeFile(assPath, made.ass);
  const stickers = emojiStickers(made.emoji);
  const out = path.join(dir, `${name}.mp4`);
  const graph = buildRenderGraph({
    source: { path: source, width: size.width, height: size.height, fps: 25, rotation: 0, hasAudio: true, duration: DURATION },
    output: { width: size.width, height: size.height, fps: 25, preset: 'ultrafast' },
    keep,
    assPath,
    // as an export links them (src/themes/looks.ts): the families its captions draw with, not every installed one
    fontsDir: fontsDir(dir, [template.style.font.family], [], made.ass),
    stickers,
    audio: { clean: false },
  });
  await renderVideo(graph, out);
  return out;
}

/** The frame at `t` of `video` (of `size`) as packed RGB. */
async function frameOf(video: string, t: number, size: FrameSize): Promise<Frame> {
  const { stdout } = await run(
    'ffmpeg',
    ['-hide_banner', '-loglevel', 'error', '-ss', String(t), '-i', video, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    {
      encoding: 'buffer',
      maxBuffer: 16 << 20,
    },
  );
  return { w: size.width, h: size.height, rgb: stdout };
}

/** The frame at `t` of `video` as a PNG `pngWidth` wide, in 256 colours (small enough to commit). */
async function png(video: string, t: number, file: string, pngWidth: number) {
  await run('ffmpeg', [
    ...FF,
    '-ss',
    String(t),
    '-i',
    video,
    '-frames:v',
    '1',
    '-filter_complex',
    `[0:v]scale=${pngWidth}:-2:flags=lanczos,split[a][b];[a]palettegen=max_colors=256:stats_mode=single[p];[b][p]paletteuse=dither=sierra2_4a`,
    file,
  ]);
}

export interface TemplateFrames {
  template: CaptionTemplate;
  /** decoded frames at the render size: a page of the last sentence, the measuring word alone */
  caption: Frame;
  capitals: Frame;
}

export interface HookFrames {
  template: HookTitleTemplate;
  /** the hook (captions off) */
  frame: Frame;
}

export interface CaptionFrames {
  size: FrameSize;
  /** the source's picture where nothing is drawn */
  plain: Frame;
  hookText: string;
  /** the speaker's face the hooks keep off (source pixels = frame pixels), or null */
  face: { x: number; y: number; w: number; h: number } | null;
  templates: TemplateFrames[];
  hooks: HookFrames[];
  /** the PNGs written */
  files: string[];
}

/**
 * Renders the talk with each caption template and with each hook template
 * (alone: the caption frames show the captions), at `size`; writes
 * `caption-<template>.png` and `hook-<hook template>.png` into `outDir`.
 */
export async function captionFrames(workDir: string, outDir: string, { size = { width: 270, height: 480 }, pngWidth = 270 } = {}): Promise<CaptionFrames> {
  await fs.mkdir(outDir, { recursive: true });
  const source = await talkingPicture(workDir, size);
  const hookText = await new StrongestLineHook().write(frameWords());
  const plain = await frameOf(source, 0.5, size);
  const files: string[] = [];
  const templates: TemplateFrames[] = [];
  // one render at a time: the machine's cores go to each ffmpeg in turn
  for (const template of CAPTION_TEMPLATES) {
    const video = await renderTalk(workDir, source, size, { name: template.name, keep: CAPTION_RENDER.keep, template, hook: null, captions: true });
    const file = path.join(outDir, `caption-${template.name}.png`);
    await png(video, CAPTION_RENDER.caption, file, pngWidth);
    files.push(file);
    templates.push({ template, caption: await frameOf(video, CAPTION_RENDER.caption, size), capitals: await frameOf(video, CAPTION_RENDER.capitals, size) });
  }
  const hooks: HookFrames[] = [];
  // placed as an export places a hook without a top: off the speaker's face (hook-placement.ts)
  const face = await hookFace(source, { ...size, duration: DURATION });
  for (const hookTemplate of HOOK_TITLE_TEMPLATES) {
    const top = hookTopFor(
      { text: hookText, template: hookTemplate.name, top: 50, size: 30, autoTop: true, face },
      { style: CAPTION_TEMPLATES[0].style, captions: false, source: size, out: size },
    );
    const video = await renderTalk(workDir, source, size, {
      name: `hook-${hookTemplate.name}`,
      keep: HOOK_RENDER.keep,
      template: CAPTION_TEMPLATES[0],
      hook: { text: hookText, template: hookTemplate, top },
      captions: false,
    });
    const file = path.join(outDir, `hook-${hookTemplate.name}.png`);
    await png(video, HOOK_RENDER.at, file, pngWidth);
    files.push(file);
    hooks.push({ template: hookTemplate, frame: await frameOf(video, HOOK_RENDER.at, size) });
  }
  return { size, plain, hookText, face, templates, hooks, files };
}

// ---------------------------------------------------------------------------
// measuring frames

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const differs = (a: Frame, b: Frame, i: number, threshold: number) =>
  Math.abs(a.rgb[i] - b.rgb[i]) + Math.abs(a.rgb[i + 1] - b.rgb[i + 1]) + Math.abs(a.rgb[i + 2] - b.rgb[i + 2]) > threshold;

/** The box of every pixel drawn over `plain` (a sum of channel differences above `threshold`), or null. */
export function drawnBox(frame: Frame, plain: Frame, threshold = 90): Box | null {
  let box: Box | null = null;
  for (let y = 0; y < frame.h; y++) {
    for (let x = 0; x < frame.w; x++) {
      if (!differs(frame, plain, (y * frame.w + x) * 3, threshold)) continue;
      box = box ? { x0: Math.min(box.x0, x), y0: Math.min(box.y0, y), x1: Math.max(box.x1, x), y1: Math.max(box.y1, y) } : { x0: x, y0: y, x1: x, y1: y };
    }
  }
  return box;
}

const rgbOf = (hex: string) => [0, 2, 4].map((i) => parseInt(hex.replace('#', '').slice(i, i + 2), 16));

/**
 * The height in pixels of the tallest line of letters drawn in one of
 * `colours` (#RRGGBB) over `plain`: rows holding such pixels, split into
 * lines where a row holds none. On a page of capitals without descenders it
 * is the capital height.
 */
export function letterHeight(frame: Frame, plain: Frame, colours: readonly string[], tolerance = 90): number {
  const targets = colours.map(rgbOf);
  const rows: boolean[] = [];
  for (let y = 0; y < frame.h; y++) {
    let found = false;
    for (let x = 0; x < frame.w && !found; x++) {
      const i = (y * frame.w + x) * 3;
      if (!differs(frame, plain, i, tolerance)) continue;
      const px = [frame.rgb[i], frame.rgb[i + 1], frame.rgb[i + 2]];
      found = targets.some((c) => Math.abs(c[0] - px[0]) + Math.abs(c[1] - px[1]) + Math.abs(c[2] - px[2]) <= tolerance);
    }
    rows.push(found);
  }
  let best = 0;
  let run = 0;
  for (const r of rows) {
    run = r ? run + 1 : 0;
    best = Math.max(best, run);
  }
  return best;
}
