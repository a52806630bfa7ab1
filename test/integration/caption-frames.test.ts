/**
 * What a viewer sees: frames of rendered videos with each caption template and
 * each hook title, measured from their pixels, and kept as PNGs in
 * test-artifacts/frames (gitignored; `npm run frames` writes the same to
 * docs/images for the README).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOOK_WORDS } from '../../src/ai/hook.js';
import { DEFAULT_CAPTION_TEMPLATE, SAFE_AREA } from '../../src/catalog/caption-templates.js';
import { hookFontSize } from '../../src/media/render/captions.js';
import { captionFrames, drawnBox, letterHeight, type CaptionFrames } from '../support/caption-frames.js';

const ARTIFACTS = path.resolve('test-artifacts/frames');
let dir: string;
let frames: CaptionFrames;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'caption-frames-'));
  frames = await captionFrames(dir, ARTIFACTS);
  // 42 small renders one after another: about 30 s alone, several times that beside another heavy file on two busy cores
}, 420_000);
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

/** the vertical safe area in pixels of the frames */
const safe = () => {
  const { width: W, height: H } = frames.size;
  const s = SAFE_AREA.vertical;
  return { x0: W * s.left, x1: W * (1 - s.right), y0: H * s.top, y1: H * (1 - s.bottom) };
};

describe('caption templates on a rendered vertical video', () => {
  it('writes a PNG of every template and hook template', async () => {
    expect(frames.files).toHaveLength(frames.templates.length + frames.hooks.length);
    for (const f of frames.files) expect((await fs.stat(f)).size).toBeGreaterThan(5000);
  });

  it("the default template's capitals are at least 5 % of the frame's height; the others at least 3.3 %", () => {
    const H = frames.size.height;
    const measured = frames.templates.map((t) => {
      // the letters' colours (a box highlight's colour is its box)
      const st = t.template.style;
      const colours = [st.fill, ...(st.activeWord.effect === 'box' ? [] : [st.activeWord.color]), ...(st.alternateFill ? [st.alternateFill] : [])];
      return { name: t.template.name, share: letterHeight(t.capitals, frames.plain, colours) / H };
    });
    const least = (name: string) => (name === DEFAULT_CAPTION_TEMPLATE.name ? 0.05 : 0.033);
    // every template's figure, so one run names every template out of bounds (and not a whole screen of letters)
    expect(measured.filter((m) => m.share < least(m.name) || m.share >= 0.08)).toEqual([]);
  });

  it('captions are drawn inside the safe area, on one or two lines', () => {
    const zone = safe();
    // a few pixels of outline and shadow may pass the text's wrap margin
    const slack = frames.size.width * 0.02;
    for (const t of frames.templates) {
      for (const frame of [t.caption, t.capitals]) {
        const box = drawnBox(frame, frames.plain);
        expect(box, t.template.name).not.toBeNull();
        expect(box!.y0, t.template.name).toBeGreaterThanOrEqual(zone.y0);
        expect(box!.y1, t.template.name).toBeLessThanOrEqual(zone.y1);
        expect(box!.x0, t.template.name).toBeGreaterThanOrEqual(zone.x0 - slack);
        expect(box!.x1, t.template.name).toBeLessThanOrEqual(zone.x1 + slack);
        // a line is at most the template's line height (its font size) plus outline; two lines at most, and an emoji above them
        const line = (t.template.style.font.size * frames.size.width) / 1080;
        const emoji = t.template.style.emoji === 'keywords' ? 1.3 * line : 0;
        expect(box!.y1 - box!.y0, t.template.name).toBeLessThan(2.5 * line + emoji);
      }
    }
  });
});

describe('the hook title on a rendered vertical video', () => {
  it('is a short line of the talk', () => {
    const words = frames.hookText.split(' ').length;
    expect(words).toBeGreaterThanOrEqual(HOOK_WORDS.min);
    expect(words).toBeLessThanOrEqual(HOOK_WORDS.max);
  });

  it("is a line or two off the speaker's face, inside the safe area", () => {
    const zone = safe();
    const { width: W, height: H } = frames.size;
    const size = (hookFontSize(30) * W) / 1080;
    const face = frames.face!;
    expect(face, 'the face of the talking picture is found').not.toBeNull();
    for (const { template, frame } of frames.hooks) {
      const box = drawnBox(frame, frames.plain);
      expect(box, template.name).not.toBeNull();
      // not a row of the title crosses the face (its head)
      expect(box!.y1 < face.y || box!.y0 > face.y + face.h, `${template.name}: ${JSON.stringify({ box, face })}`).toBe(true);
      // a close-up: the head fills the safe area, so the title goes below the chin, still inside the frame
      expect(box!.y0, template.name).toBeGreaterThan(H * 0.02);
      expect(box!.y1, template.name).toBeLessThan(H * 0.98);
      expect(box!.x0, template.name).toBeGreaterThanOrEqual(zone.x0 - W * 0.06);
      expect(box!.x1, template.name).toBeLessThanOrEqual(zone.x1 + W * 0.02);
      // two lines and the card's padding at most (a four-line box would be twice as tall)
      expect(box!.y1 - box!.y0, template.name).toBeLessThanOrEqual(size * 2.8);
    }
  });
});
