/**
 * What each part of a caption style draws, measured from the pixels of still
 * frames rendered by the renderer's own filters (renderStill: the ASS file,
 * then the emoji stickers): entrances at two instants, the popped and the
 * emphasised word's size and colour, emoji as coloured pixels, per-word
 * looks, two-tone lines, and real glyphs (not the font's .notdef box) for
 * Japanese, Arabic (right to left), Hindi and Thai.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overStyle, type CaptionStyle, type StyleOverride } from '../../src/catalog/caption-style.js';
import { findCaptionTemplate } from '../../src/catalog/caption-templates.js';
import { buildCaptions, emojiStickers, captionPages, type CaptionSourceWord } from '../../src/media/render/captions.js';
import { fontsDir } from '../../src/media/render/fonts.js';
import { renderStill } from '../../src/media/render/still.js';
import { drawnBox, letterHeight } from '../support/caption-frames.js';
import type { Frame } from '../support/media.js';

const run = promisify(execFile);
const W = 270;
const H = 480;
let dir: string;
let plain: Frame;
let n = 0;

/** words said one after another from 0.5 s, 0.4 s each */
const said = (text: string, looks: Record<number, Partial<CaptionSourceWord>> = {}): CaptionSourceWord[] =>
  text.split(' ').map((t, i) => ({ text: t, type: 'word', startTime: 0.5 + i * 0.4, endTime: 0.5 + i * 0.4 + 0.38, ...looks[i] }));

const classic = (over: StyleOverride = {}): CaptionStyle =>
  overStyle(findCaptionTemplate('classic')!.style, { font: { size: 130 }, layout: { wordsPerLine: 3 }, ...over });

/** The frame at `at` of `words` in `style` (language: the page cutting), as packed RGB. */
async function still(style: CaptionStyle, words: CaptionSourceWord[], at: number, language = 'en'): Promise<Frame> {
  const made = buildCaptions({ words, keep: [{ start: 0, end: 10 }], style, width: W, height: H, language });
  const base = path.join(dir, `still-${n++}`);
  await fs.writeFile(`${base}.ass`, made.ass);
  const stickers = emojiStickers(made.emoji);
  // the fonts as a render links them: the families these captions draw with (libass reads every file of the folder at each run)
  const fonts = fontsDir(dir, [style.font.family], [], made.ass);
  await renderStill({ width: W, height: H, background: null, at, assPath: `${base}.ass`, fontsDir: fonts, stickers, out: `${base}.png` });
  const { stdout } = await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', `${base}.png`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], {
    encoding: 'buffer',
    maxBuffer: 8 << 20,
  });
  return { w: W, h: H, rgb: stdout };
}

/** how far a frame is from the plain background: the sum of channel differences */
const ink = (f: Frame) => {
  let sum = 0;
  for (let i = 0; i < f.rgb.length; i++) sum += Math.abs(f.rgb[i] - plain.rgb[i]);
  return sum;
};

/** pixels near `hex`, and their mean x */
function colourPixels(f: Frame, hex: string, tolerance = 60) {
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(1 + i, 3 + i), 16));
  let count = 0;
  let xs = 0;
  for (let i = 0; i < f.rgb.length; i += 3) {
    if (Math.abs(f.rgb[i] - r) + Math.abs(f.rgb[i + 1] - g) + Math.abs(f.rgb[i + 2] - b) > tolerance) continue;
    count++;
    xs += (i / 3) % W;
  }
  return { count, meanX: count ? xs / count : NaN };
}

/** strongly coloured pixels (an emoji; the background gradient and the white and black letters are not) in rows y0..y1 */
function vividPixels(f: Frame, y0 = 0, y1 = H) {
  let count = 0;
  for (let y = Math.max(0, Math.floor(y0)); y < Math.min(H, y1); y++) {
    for (let x = 0; x < W; x++) {
      const i = (y * W + x) * 3;
      const [r, g, b] = [f.rgb[i], f.rgb[i + 1], f.rgb[i + 2]];
      if (Math.max(r, g, b) - Math.min(r, g, b) > 140 && Math.max(r, g, b) > 180) count++;
    }
  }
  return count;
}

/** the pixels drawn over the background, as a mask */
const mask = (f: Frame) => {
  const m = new Uint8Array(W * H);
  for (let p = 0; p < W * H; p++) {
    const i = p * 3;
    m[p] = Math.abs(f.rgb[i] - plain.rgb[i]) + Math.abs(f.rgb[i + 1] - plain.rgb[i + 1]) + Math.abs(f.rgb[i + 2] - plain.rgb[i + 2]) > 90 ? 1 : 0;
  }
  return m;
};
const iou = (a: Uint8Array, b: Uint8Array) => {
  let both = 0;
  let either = 0;
  for (let i = 0; i < a.length; i++) {
    both += a[i] & b[i];
    either += a[i] | b[i];
  }
  return either ? both / either : 1;
};

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'caption-styles-'));
  plain = await still(classic(), [], 1);
}, 60_000);
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const WORDS = said('Big money moves');

describe('page entrances, at two instants', () => {
  const entering = (effect: string) => classic({ entrance: { effect: effect as never, duration: 400 }, activeWord: { effect: 'none' } });

  it('fade: the page is fainter early in the fade than after it', async () => {
    const [early, late] = [await still(entering('fade'), WORDS, 0.56), await still(entering('fade'), WORDS, 1.0)];
    expect(ink(early)).toBeLessThan(0.6 * ink(late));
  });

  it('pop: the page is smaller early in the pop than after it', async () => {
    const [early, late] = [drawnBox(await still(entering('pop'), WORDS, 0.56), plain)!, drawnBox(await still(entering('pop'), WORDS, 1.0), plain)!];
    expect(early.x1 - early.x0).toBeLessThan(0.9 * (late.x1 - late.x0));
  });

  it('slide up: the page is lower early in the slide than after it', async () => {
    const [early, late] = [drawnBox(await still(entering('slideUp'), WORDS, 0.6), plain)!, drawnBox(await still(entering('slideUp'), WORDS, 1.0), plain)!];
    expect(early.y0).toBeGreaterThan(late.y0 + 3);
  });

  it('reveal: each word appears as it is said', async () => {
    const [one, all] = [drawnBox(await still(entering('reveal'), WORDS, 0.6), plain)!, drawnBox(await still(entering('reveal'), WORDS, 1.5), plain)!];
    expect(one.x1 - one.x0).toBeLessThan(0.6 * (all.x1 - all.x0));
  });

  it('karaoke: the colour sweeps through the word being said', async () => {
    const style = classic({ entrance: { effect: 'karaoke', duration: 0 }, activeWord: { effect: 'none', color: '#00FF00' } });
    const [early, late] = [colourPixels(await still(style, WORDS, 0.55), '#00FF00'), colourPixels(await still(style, WORDS, 0.8), '#00FF00')];
    expect(late.count).toBeGreaterThan(early.count + 20);
  });

  it('none: the page is drawn whole at once', async () => {
    const [early, late] = [drawnBox(await still(entering('none'), WORDS, 0.52), plain)!, drawnBox(await still(entering('none'), WORDS, 1.0), plain)!];
    expect(Math.abs(early.x1 - early.x0 - (late.x1 - late.x0))).toBeLessThanOrEqual(2);
  });
});

describe('the word being said, emphasis and emoji', () => {
  it('pop: the word being said is larger than the others, in its colour', async () => {
    const style = classic({ font: { case: 'upper' }, activeWord: { effect: 'pop', color: '#FF0000', scale: 150 } });
    const f = await still(style, WORDS, 1.1);
    expect(letterHeight(f, plain, ['#FF0000'], 60)).toBeGreaterThan(1.25 * letterHeight(f, plain, ['#FFFFFF'], 60));
  });

  it('emphasis: a listed word and a number are larger and in the emphasis colour', async () => {
    const style = classic({
      font: { case: 'upper' },
      activeWord: { effect: 'none' },
      emphasis: { rules: ['listed', 'numbers'], words: ['money'], color: '#00FF00', scale: 150 },
    });
    for (const words of [said('Big money moves'), said('Only 30 days')]) {
      const f = await still(style, words, 1.6);
      expect(colourPixels(f, '#00FF00').count).toBeGreaterThan(100);
      expect(letterHeight(f, plain, ['#00FF00'], 60)).toBeGreaterThan(1.25 * letterHeight(f, plain, ['#FFFFFF'], 60));
    }
  });

  it('emoji: a coloured picture above a page whose emphasised keyword has one; none when emoji is off', async () => {
    const style = classic({ emphasis: { rules: ['listed'], words: ['fire'] }, emoji: 'keywords' });
    const words = said('This is fire');
    const on = await still(style, words, 1.4);
    const off = await still(overStyle(style, { emoji: 'off' }), words, 1.4);
    const text = drawnBox(off, plain)!;
    // above the caption's letters (whose highlight and emphasis colours are vivid too)
    expect(vividPixels(on, 0, text.y0)).toBeGreaterThan(150);
    expect(vividPixels(off, 0, text.y0)).toBe(0);
  });

  it('per-word looks: a word in its own colour, a hidden word not drawn', async () => {
    const style = classic({ activeWord: { effect: 'none' } });
    const coloured = await still(style, said('Big money moves', { 1: { color: '#FF00FF' } }), 1.6);
    expect(colourPixels(coloured, '#FF00FF').count).toBeGreaterThan(100);
    // "money" hidden: the page draws the two other words only (less ink than the three)
    const all = ink(await still(style, WORDS, 1.6));
    const hidden = ink(await still(style, said('Big money moves', { 1: { hidden: true } }), 1.6));
    expect(hidden).toBeLessThan(0.8 * all);
  });

  it('two-tone: the second line of a page in the alternate colour', async () => {
    const style = classic({ alternateFill: '#FFD400', layout: { wordsPerLine: 2, linesPerPage: 2 }, activeWord: { effect: 'none' } });
    const f = await still(style, said('One two three four'), 1.9);
    const box = drawnBox(f, plain)!;
    const yellow = colourPixels(f, '#FFD400');
    expect(yellow.count).toBeGreaterThan(100);
    // the yellow is the lower line: count it in the lower half of the block only
    const mid = Math.round((box.y0 + box.y1) / 2);
    const upper = { w: W, h: mid, rgb: f.rgb.subarray(0, mid * W * 3) };
    expect(colourPixels(upper as Frame, '#FFD400').count).toBeLessThan(yellow.count * 0.1);
  });
});

describe('every script', () => {
  const SCRIPTS = [
    { language: 'ja', text: '今日は 良い 天気' },
    { language: 'ar', text: 'مرحبا بالعالم الجميل' },
    { language: 'hi', text: 'नमस्ते दुनिया अच्छा' },
    { language: 'th', text: 'สวัสดี ชาวโลก ครับ' },
  ];
  const style = classic({ activeWord: { effect: 'none' }, font: { size: 110 } });

  it.each(SCRIPTS)('$language: real glyphs, not the .notdef box of a missing one', async ({ language, text }) => {
    const words = said(text);
    const real = mask(await still(style, words, 1.6, language));
    // the same number of characters that no font has: every one the .notdef box
    const missing = said(text.replace(/\S/gu, '\u{10FFFD}'));
    const boxes = mask(await still(style, missing, 1.6, language));
    const drawn = real.reduce((a, b) => a + b, 0);
    expect(drawn).toBeGreaterThan(200);
    // the same boxes would overlap whole (1); real letters of another shape and width overlap them little
    expect(iou(real, boxes)).toBeLessThan(0.6);
  });

  it('Arabic reads right to left: the first word said is on the right', async () => {
    const s = classic({ activeWord: { effect: 'color', color: '#FF0000' }, font: { size: 110 } });
    const f = await still(s, said('مرحبا بالعالم الجميل'), 0.6, 'ar');
    const first = colourPixels(f, '#FF0000');
    const rest = colourPixels(f, '#FFFFFF');
    expect(first.count).toBeGreaterThan(50);
    expect(first.meanX).toBeGreaterThan(rest.meanX + 10);
  });

  it('languages without spaces are cut into words (Intl.Segmenter) and joined without spaces', () => {
    const words: CaptionSourceWord[] = [{ text: '今日はとても良い天気です。', type: 'word', startTime: 0, endTime: 3 }];
    const pages = captionPages(words, [{ start: 0, end: 10 }], { wordsPerLine: 2, language: 'ja' });
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.map((p) => p.words.map((w) => w.text).join('')).join('')).toBe('今日はとても良い天気です。');
    // times shared out by letters, in order, covering the word
    const all = pages.flatMap((p) => p.words);
    expect(all[0].start).toBe(0);
    expect(all.at(-1)!.end).toBe(3);
    for (let i = 1; i < all.length; i++) expect(all[i].start).toBeCloseTo(all[i - 1].end, 9);
    const ass = buildCaptions({ words, keep: [{ start: 0, end: 10 }], style, width: W, height: H, language: 'ja' }).ass;
    expect(ass).not.toMatch(/今日 |は |とても /);
  });
});
