import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { probe } from '../../src/media/ffprobe.js';
import { ownCopy, sharedFixture } from './fixture-cache.js';

const run = promisify(execFile);
/** ffmpeg quiet but for errors, overwriting its output: the start of every fixture's command */
export const FF = ['-hide_banner', '-loglevel', 'error', '-y'];
/** The fixtures' video encoding: H.264 at its fastest preset, in the 4:2:0 every player reads */
export const H264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];
/** the same, with AAC sound */
export const H264_AAC = [...H264, '-c:a', 'aac'];

export interface Fixtures {
  dir: string;
  /** 2 s, 320x240 at 25 fps, H.264 + AAC */
  video: string;
  /** 3 s of a 440 Hz tone, MP3 */
  audio: string;
  /** 64x48 PNG */
  image: string;
  page: string;
  text: string;
  /** bytes that look like nothing: accepted by the first look, refused by ffprobe */
  noise: string;
  /** ~8 s, 320x240: two spoken sentences with a 1.5 s pause (espeak-ng), H.264 + AAC */
  talk: string;
  /** the same streams in a QuickTime container */
  talkMov: string;
}

export const TALK_A = 'Hello and welcome to this short video about captions.';
export const TALK_B = 'Now we talk about clips and social publishing.';

let cached: Promise<Fixtures> | undefined;

/** Small media files made with ffmpeg once per run (test/support/fixture-cache.ts), in a folder of this process's own. */
export function mediaFixtures(): Promise<Fixtures> {
  cached ??= (async () => {
    const dir = await ownCopy(await sharedFixture('media', makeMedia), 'media');
    const f = (n: string) => path.join(dir, n);
    return {
      dir,
      video: f('clip.mp4'),
      audio: f('tone.mp3'),
      image: f('image.png'),
      page: f('page.html'),
      text: f('notes.txt'),
      noise: f('noise.bin'),
      talk: f('talk.mp4'),
      talkMov: f('talk.mov'),
    };
  })();
  return cached;
}

async function makeMedia(dir: string): Promise<void> {
  const f = (n: string) => path.join(dir, n);
  await Promise.all([
    run('ffmpeg', [...FF, '-f', 'lavfi', '-i', 'testsrc2=s=320x240:r=25:d=2', '-f', 'lavfi', '-i', 'sine=f=330:d=2', ...H264_AAC, '-shortest', f('clip.mp4')]),
    run('ffmpeg', [...FF, '-f', 'lavfi', '-i', 'sine=f=440:d=3', '-c:a', 'libmp3lame', '-b:a', '64k', f('tone.mp3')]),
    run('ffmpeg', [...FF, '-f', 'lavfi', '-i', 'testsrc=s=64x48', '-frames:v', '1', f('image.png')]),
    fs.writeFile(f('page.html'), '<!doctype html><html><head><title>x</title></head><body>Not media</body></html>\n'),
    fs.writeFile(f('notes.txt'), 'just some words, not a media file\n'),
    fs.writeFile(f('noise.bin'), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 251))),
    run('espeak-ng', ['-v', 'en-us', '-s', '160', '-w', f('a.wav'), TALK_A]),
    run('espeak-ng', ['-v', 'en-us', '-s', '160', '-w', f('b.wav'), TALK_B]),
  ]);
  await run('ffmpeg', [
    ...FF,
    '-i',
    f('a.wav'),
    '-f',
    'lavfi',
    '-t',
    '1.5',
    '-i',
    'anullsrc=r=22050:cl=mono',
    '-i',
    f('b.wav'),
    '-filter_complex',
    '[0:a][1:a][2:a]concat=n=3:v=0:a=1[a]',
    '-map',
    '[a]',
    f('speech.wav'),
  ]);
  await run('ffmpeg', [
    ...FF,
    '-f',
    'lavfi',
    '-i',
    'testsrc2=s=320x240:r=30',
    '-i',
    f('speech.wav'),
    '-map',
    '0:v',
    '-map',
    '1:a',
    '-shortest',
    ...H264_AAC,
    '-ar',
    '44100',
    '-ac',
    '2',
    '-movflags',
    '+faststart',
    f('talk.mp4'),
  ]);
  await run('ffmpeg', [...FF, '-i', f('talk.mp4'), '-map', '0', '-c', 'copy', '-f', 'mov', f('talk.mov')]);
}

const TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.mp3': 'audio/mpeg',
  '.png': 'image/png',
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain',
  '.bin': 'application/octet-stream',
};

export interface FileServer {
  url: (name: string) => string;
  close(): Promise<void>;
}

/** Serves a folder over HTTP on 127.0.0.1 (the service fetches from it with ALLOW_PRIVATE_NETWORK=1). */
export async function serveFolder(dir: string): Promise<FileServer> {
  const server = http.createServer(async (req, res) => {
    const name = path.basename(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    try {
      const body = await fs.readFile(path.join(dir, name));
      res.writeHead(200, { 'content-type': TYPES[path.extname(name)] ?? 'application/octet-stream', 'content-length': body.length });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: (name) => `http://127.0.0.1:${port}/files/${name}`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

// ---------------------------------------------------------------------------
// looking at rendered files

export interface Frame {
  w: number;
  h: number;
  /** packed RGB */
  rgb: Buffer;
}

/** One decoded frame at `t` seconds as packed RGB. */
export async function frameAt(file: string, t: number): Promise<Frame> {
  // the display size: ffmpeg turns rotated video upright
  const { video } = await probe(file);
  if (!video) throw new Error(`${file} has no video`);
  const { width: w, height: h } = video;
  const { stdout } = await run(
    'ffmpeg',
    ['-hide_banner', '-loglevel', 'error', '-ss', String(t), '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    {
      encoding: 'buffer',
      maxBuffer: 64 << 20,
    },
  );
  return { w, h, rgb: stdout };
}

export const pixel = (fr: Frame, x: number, y: number) => {
  const i = (Math.round(y) * fr.w + Math.round(x)) * 3;
  return [fr.rgb[i], fr.rgb[i + 1], fr.rgb[i + 2]] as const;
};

export const isRed = ([r, g, b]: readonly number[]) => r > 180 && g < 80 && b < 80;

/** Mean absolute difference (0-255) of two frames of the same size inside a box. */
export function frameDiff(a: Frame, b: Frame, box = { x: 0, y: 0, w: a.w, h: a.h }): number {
  let sum = 0;
  let n = 0;
  for (let y = box.y; y < box.y + box.h; y++) {
    for (let x = box.x; x < box.x + box.w; x++) {
      const i = (y * a.w + x) * 3;
      sum += Math.abs(a.rgb[i] - b.rgb[i]) + Math.abs(a.rgb[i + 1] - b.rgb[i + 1]) + Math.abs(a.rgb[i + 2] - b.rgb[i + 2]);
      n += 3;
    }
  }
  return n ? sum / n : 0;
}

/** mean_volume (dB) of the audio in [start, start + dur), after an optional filter chain (end it with a comma). */
export async function meanVolume(file: string, start: number, dur: number, pre = ''): Promise<number> {
  const { stderr } = await run('ffmpeg', [
    '-hide_banner',
    '-nostats',
    '-ss',
    String(start),
    '-t',
    String(dur),
    '-i',
    file,
    '-vn',
    '-af',
    `${pre}volumedetect`,
    '-f',
    'null',
    '-',
  ]);
  const m = /mean_volume:\s*(-?[\d.]+|-inf) dB/.exec(stderr);
  if (!m) throw new Error(`no volumedetect output: ${stderr.slice(-500)}`);
  return m[1] === '-inf' ? -200 : Number(m[1]);
}
