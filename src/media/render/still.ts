/**
 * One still frame of captions: a background (a picture, or a soft gradient
 * when there is none), the ASS file and the emoji stickers, as a PNG. For the
 * catalogue's template previews; the same filters as a render's last steps
 * (graph.ts: `ass`, then stickerLines).
 */
import { runProgram } from '../program.js';
import { escapeFilterValue, stickerLines, type RenderInput, type RenderSticker } from './graph.js';

export interface StillOptions {
  width: number;
  height: number;
  /** a picture filling the frame; null: a dark blue-violet gradient */
  background: string | null;
  /** the second of the captions to show */
  at: number;
  assPath: string;
  fontsDir?: string;
  stickers?: RenderSticker[];
  /** the PNG to write */
  out: string;
}

/** Writes the still; rejects with ffmpeg's error when it fails. */
export async function renderStill(o: StillOptions): Promise<void> {
  const { width: W, height: H } = o;
  const length = (o.at + 0.5).toFixed(2);
  const inputs: RenderInput[] = [
    o.background
      ? { path: o.background, args: ['-loop', '1', '-framerate', '25', '-t', length] }
      : {
          // one frame of the gradient, repeated: the background stays the same at every instant
          path: `gradients=s=${W}x${H}:c0=0x1F2A44:c1=0x5B3B6E:x0=0:y0=0:x1=${W}:y1=${H}:seed=1:r=1:d=1,loop=loop=-1:size=1,fps=25`,
          args: ['-f', 'lavfi', '-t', length],
        },
  ];
  const fonts = o.fontsDir ? `:fontsdir=${escapeFilterValue(o.fontsDir)}` : '';
  const lines = [
    `[0:v]scale=${W}:${H}:force_original_aspect_ratio=increase,crop=${W}:${H},setsar=1,ass=filename=${escapeFilterValue(o.assPath)}${fonts}[captioned]`,
  ];
  const laid = stickerLines(o.stickers ?? [], inputs, 'captioned');
  lines.push(...laid.lines);
  const last = laid.output;
  await runProgram(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      ...inputs.flatMap((i) => [...i.args, '-i', i.path]),
      '-filter_complex',
      `${lines.join(';')};[${last}]format=rgb24[still]`,
      '-map',
      '[still]',
      '-ss',
      o.at.toFixed(3),
      '-frames:v',
      '1',
      o.out,
    ],
    { timeoutMs: 60_000 },
  );
}
