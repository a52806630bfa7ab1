/**
 * Where a hook title goes when the user did not say: at the middle of the
 * frame (top 50 %), unless the speaker's face or the caption block is there;
 * then the nearest band of the safe area clear of both (DECISIONS.md, Looks).
 * Pure: the face comes found (media/vision/face-track.ts) and mapped onto the
 * output frame (outputBox).
 */
import { safeAreaOf } from '../../catalog/caption-templates.js';
import { chooseFit, type RenderPlan } from './graph.js';

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The default top of a hook title, percent from the top. */
export const HOOK_DEFAULT_TOP = 50;
/** Space kept between the title and a face or the captions, as a share of the frame's height. */
const CLEARANCE = 0.02;

/**
 * A box in the source's displayed pixels as it lands on the output frame, for
 * a render that fills the frame with a centred crop or fits the whole picture
 * between blurred bands (graph.ts: chooseFit, coverTo, blurredFill); through
 * a moving crop (`path`), its height is right and its place across is the
 * centred crop's.
 */
export function outputBox(box: Box, src: { width: number; height: number }, out: { width: number; height: number }, fit?: RenderPlan['output']['fit']): Box {
  // a moving crop is a crop of the frame's shape: the same heights, wherever it is across
  const mode = !fit || fit === 'auto' ? chooseFit(src, out) : fit === 'path' ? 'crop' : fit;
  const { width: W, height: H } = out;
  if (mode === 'crop') {
    const cw = Math.min(src.width, (src.height * W) / H);
    const ch = Math.min(src.height, (src.width * H) / W);
    const s = W / cw;
    return { x: (box.x - (src.width - cw) / 2) * s, y: (box.y - (src.height - ch) / 2) * s, w: box.w * s, h: box.h * s };
  }
  const s = Math.min(W / src.width, H / src.height);
  return { x: (W - src.width * s) / 2 + box.x * s, y: (H - src.height * s) / 2 + box.y * s, w: box.w * s, h: box.h * s };
}

const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));

/** The frame's edge a title keeps when it has to leave the safe area, as a share of the height. */
const EDGE = 0.02;

/**
 * The top (percent) for a title `titleHeight` pixels tall on a `width` x
 * `height` frame: HOOK_DEFAULT_TOP when that band is clear of `avoid` (the
 * face, the caption block); else the clear band of the safe area nearest to
 * it (whole percents); else, when the face fills the safe area (a close-up),
 * the nearest clear band of the whole frame (a face matters more than the
 * platforms' buttons); when none is clear, the one covering the least.
 */
export function hookTop(o: { width: number; height: number; titleHeight: number; avoid: readonly (Box | null)[] }): number {
  const { width, height, titleHeight } = o;
  const safe = safeAreaOf(width, height);
  const margin = CLEARANCE * height;
  const boxes = o.avoid.filter((b): b is Box => !!b && b.h > 0);
  const covered = (topPct: number) => {
    const y0 = (topPct / 100) * height;
    const y1 = y0 + titleHeight;
    return boxes.reduce((sum, b) => sum + overlap(y0, y1, b.y - margin, b.y + b.h + margin), 0);
  };
  if (covered(HOOK_DEFAULT_TOP) === 0) return HOOK_DEFAULT_TOP;
  const lastTop = (bottomShare: number) => Math.min(Math.floor((((1 - bottomShare) * height - titleHeight) / height) * 100), 80);
  /** the least covered top of `lowest..highest`, the nearest to the default among equals */
  const best = (lowest: number, highest: number) => {
    let top = HOOK_DEFAULT_TOP;
    let cover = covered(HOOK_DEFAULT_TOP);
    let distance = 0;
    for (let t = lowest; t <= highest; t++) {
      const c = covered(t);
      const d = Math.abs(t - HOOK_DEFAULT_TOP);
      if (c < cover || (c === cover && d < distance)) [top, cover, distance] = [t, c, d];
    }
    return { top, cover };
  };
  const inSafe = best(Math.ceil(safe.top * 100), lastTop(safe.bottom));
  if (inSafe.cover === 0) return inSafe.top;
  const anywhere = best(Math.ceil(EDGE * 100), lastTop(EDGE));
  return anywhere.cover < inSafe.cover ? anywhere.top : inSafe.top;
}
