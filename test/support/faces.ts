/**
 * Test videos with a real face in them: the portrait of test/fixtures/face.jpg
 * (Grace Hopper, a U.S. Navy photograph in the public domain, as shipped in
 * Debian's `facedetect` examples as grace_hopper_512x512.jpg) laid over a
 * plain background with ffmpeg, at a position known for every frame.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { FF } from './media.js';

const run = promisify(execFile);

export const FACE_PICTURE = fileURLToPath(new URL('../fixtures/face.jpg', import.meta.url));
/** the picture's size, px (square) */
export const FACE_PICTURE_SIZE = 512;

export interface MovingFace {
  width: number;
  height: number;
  fps: number;
  duration: number;
  /** the picture's side in the video, px */
  size: number;
  /** the picture's top-left corner at time t (what overlay draws; ffmpeg expressions of the same motion) */
  at(t: number): { x: number; y: number };
  xExpr: string;
  yExpr: string;
}

/** The picture crossing the frame from left to right, bobbing up and down, over `duration` s. */
export function acrossTheFrame(width: number, height: number, duration: number, fps = 30): MovingFace {
  const size = Math.round(height * 0.42);
  const x0 = Math.round(width * 0.05);
  const travel = width - size - 2 * x0;
  const y0 = Math.round((height - size) / 2);
  const bob = Math.round(height * 0.08);
  return {
    width,
    height,
    fps,
    duration,
    size,
    at: (t) => ({ x: Math.floor(x0 + (travel * t) / duration), y: Math.floor(y0 + bob * Math.sin(2 * t)) }),
    xExpr: `${x0}+${travel}*t/${duration}`,
    yExpr: `${y0}+${bob}*sin(2*t)`,
  };
}

export interface VideoOptions {
  /** a colour (0xRRGGBB, the default 0x5a6b7c) or `testsrc2` (a busy, moving picture) */
  background?: string;
  /** libx264 settings: preset (default ultrafast) and crf (default x264's) */
  preset?: string;
  crf?: number;
}

/** Renders a MovingFace to an H.264 mp4 at `out`. */
export async function makeMovingFaceVideo(out: string, m: MovingFace, opts: VideoOptions = {}): Promise<void> {
  const { background = '0x5a6b7c', preset = 'ultrafast', crf } = opts;
  const base = background === 'testsrc2' ? 'testsrc2=' : `color=c=${background}:`;
  await run('ffmpeg', [
    ...FF,
    '-f',
    'lavfi',
    '-i',
    `${base}s=${m.width}x${m.height}:r=${m.fps}:d=${m.duration}`,
    '-loop',
    '1',
    '-framerate',
    String(m.fps),
    '-i',
    FACE_PICTURE,
    '-filter_complex',
    `[1:v]scale=${m.size}:${m.size},setsar=1[f];[0:v][f]overlay=x='${m.xExpr}':y='${m.yExpr}':shortest=1,format=yuv420p[v]`,
    '-map',
    '[v]',
    '-t',
    String(m.duration),
    '-c:v',
    'libx264',
    '-preset',
    preset,
    ...(crf === undefined ? [] : ['-crf', String(crf)]),
    '-g',
    String(m.fps * 2),
    out,
  ]);
}
