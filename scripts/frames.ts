/**
 * `npm run frames`: the frames of the caption-frames test (each caption
 * template, each hook-title template, on a rendered talking picture) written
 * to docs/images for the README, 270 px wide.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { captionFrames } from '../test/support/caption-frames.js';

const out = path.resolve('docs/images');
const work = await fs.mkdtemp(path.join(os.tmpdir(), 'frames-'));
try {
  const { files, hookText } = await captionFrames(work, out);
  let bytes = 0;
  for (const f of files) bytes += (await fs.stat(f)).size;
  console.log(`${files.length} frames in ${path.relative(process.cwd(), out)} (${Math.round(bytes / 1024)} KiB); hook: "${hookText}"`);
} finally {
  await fs.rm(work, { recursive: true, force: true });
}
