import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const FF = ['-hide_banner', '-loglevel', 'error', '-y'];

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

/** Small media files made with ffmpeg once per test process. */
export function mediaFixtures(): Promise<Fixtures> {
  cached ??= (async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fixtures-'));
    const f = (n: string) => path.join(dir, n);
    await Promise.all([
      run('ffmpeg', [...FF, '-f', 'lavfi', '-i', 'testsrc2=s=320x240:r=25:d=2', '-f', 'lavfi', '-i', 'sine=f=330:d=2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', f('clip.mp4')]),
      run('ffmpeg', [...FF, '-f', 'lavfi', '-i', 'sine=f=440:d=3', '-c:a', 'libmp3lame', '-b:a', '64k', f('tone.mp3')]),
      run('ffmpeg', [...FF, '-f', 'lavfi', '-i', 'testsrc=s=64x48', '-frames:v', '1', f('image.png')]),
      fs.writeFile(f('page.html'), '<!doctype html><html><head><title>x</title></head><body>Not media</body></html>\n'),
      fs.writeFile(f('notes.txt'), 'just some words, not a media file\n'),
      fs.writeFile(f('noise.bin'), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 251))),
    ]);
    await run('espeak-ng', ['-v', 'en-us', '-s', '160', '-w', f('a.wav'), TALK_A]);
    await run('espeak-ng', ['-v', 'en-us', '-s', '160', '-w', f('b.wav'), TALK_B]);
    await run('ffmpeg', [...FF, '-i', f('a.wav'), '-f', 'lavfi', '-t', '1.5', '-i', 'anullsrc=r=22050:cl=mono', '-i', f('b.wav'),
      '-filter_complex', '[0:a][1:a][2:a]concat=n=3:v=0:a=1[a]', '-map', '[a]', f('speech.wav')]);
    await run('ffmpeg', [...FF, '-f', 'lavfi', '-i', 'testsrc2=s=320x240:r=30', '-i', f('speech.wav'), '-map', '0:v', '-map', '1:a', '-shortest',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-ar', '44100', '-ac', '2', '-movflags', '+faststart', f('talk.mp4')]);
    await run('ffmpeg', [...FF, '-i', f('talk.mp4'), '-map', '0', '-c', 'copy', '-f', 'mov', f('talk.mov')]);
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
