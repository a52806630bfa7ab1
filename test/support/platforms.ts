/**
 * The pieces of a connector test: an account with tokens, a post whose saved
 * progress lives in memory (as the Post row keeps it for the service), the
 * media of a real mp4, and the mp4s themselves.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { PlatformKey } from '../../src/catalog/platforms.js';
import type { ConnectedAccount, OutgoingPost, PostMedia, TokenSet } from '../../src/platforms/types.js';
import { FF } from './media.js';

const run = promisify(execFile);

export function testAccount(platform: PlatformKey, tokens: TokenSet, over: Partial<ConnectedAccount> = {}): ConnectedAccount {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    platform,
    externalId: 'ext-1',
    isPrivate: false,
    followers: 0,
    credentials: tokens,
    createdAt: new Date(),
    ...over,
  };
}

/** A post whose `saveProgress` keeps the progress for the next attempt, as the Post row does. */
export function testPost(
  platform: PlatformKey,
  content: Record<string, unknown>,
  id = '00000000-0000-4000-8000-0000000000aa',
): OutgoingPost & { saved: Array<Record<string, unknown>> } {
  const post = {
    id,
    platform,
    content,
    progress: null as Record<string, unknown> | null,
    saved: [] as Array<Record<string, unknown>>,
    async saveProgress(p: Record<string, unknown>) {
      post.progress = p;
      post.saved.push(p);
    },
  };
  return post;
}

/** A file as a connector reads a stored render; `cutAt` ends the stream early, as a worker dying mid-upload would see it. */
export function mediaOf(file: string, opts: { cutAt?: number } = {}): PostMedia {
  const size = fs.statSync(file).size;
  return {
    key: path.basename(file),
    size,
    contentType: 'video/mp4',
    async open() {
      if (opts.cutAt === undefined) return fs.createReadStream(file);
      const stream = fs.createReadStream(file, { end: opts.cutAt - 1 });
      // reading past `cutAt` fails as a dead disk or killed process would
      stream.on('end', () => stream.destroy(new Error('the worker died mid-upload')));
      return stream;
    },
  };
}

let small: Promise<string> | undefined;
let large: Promise<string> | undefined;

async function encode(name: string, seconds: number, bitrate: string): Promise<string> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'platform-media-')), name);
  // a vertical H.264 + AAC mp4 with the moov atom first, as the service's renders are; at a
  // constant bitrate (nal-hrd=cbr), else x264 stays well under the cap on the test pattern
  await run('ffmpeg', [
    ...FF,
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=720x1280:rate=30:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${seconds}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-b:v',
    bitrate,
    '-maxrate',
    bitrate,
    '-bufsize',
    bitrate,
    '-x264-params',
    'nal-hrd=cbr',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    '-movflags',
    '+faststart',
    file,
  ]);
  return file;
}

/** 3 s, 720x1280, about 0.4 MB: one chunk on every platform. */
export const smallMp4 = () => (small ??= encode('small.mp4', 3, '1M'));

/** 4 s at a high bitrate, about 12 MB: several chunks on every platform whose chunks are counted in MB. */
export const largeMp4 = () => (large ??= encode('large.mp4', 4, '24M'));
