/**
 * `npm run frames`: the frames of the caption-frames test (each caption
 * template, each hook-title template, on a rendered talking picture) laid out
 * as two contact sheets for the README, docs/images/caption-templates.png and
 * docs/images/hook-templates.png, each frame 180 px wide under its name.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { captionFrames } from '../test/support/caption-frames.js';

const run = promisify(execFile);
const out = path.resolve('docs/images');
const CELL = { width: 180, height: 320, label: 28 };
const COLUMNS = 6;

/** One sheet of `files` (each named), COLUMNS across, in 256 colours (small enough to commit). */
async function sheet(files: { file: string; name: string }[], target: string) {
  const rows = Math.ceil(files.length / COLUMNS);
  const cellH = CELL.height + CELL.label;
  const cells = files.map(
    ({ name }, i) =>
      `[${i}:v]scale=${CELL.width}:${CELL.height}:flags=lanczos,pad=${CELL.width}:${cellH}:0:${CELL.label}:color=0x15161A,drawtext=text='${name}':font='Roboto':fontcolor=white:fontsize=17:x=(w-tw)/2:y=6[c${i}]`,
  );
  const layout = files.map((_, i) => `${(i % COLUMNS) * CELL.width}_${Math.floor(i / COLUMNS) * cellH}`).join('|');
  const graph = [
    ...cells,
    `${files.map((_, i) => `[c${i}]`).join('')}xstack=inputs=${files.length}:layout=${layout}:fill=0x15161A,pad=${COLUMNS * CELL.width}:${rows * cellH}:0:0:color=0x15161A,split[a][b]`,
    '[a]palettegen=max_colors=256:stats_mode=single[p]',
    '[b][p]paletteuse=dither=sierra2_4a',
  ].join(';');
  await run('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    ...files.flatMap((f) => ['-i', f.file]),
    '-filter_complex',
    graph,
    '-frames:v',
    '1',
    target,
  ]);
}

const work = await fs.mkdtemp(path.join(os.tmpdir(), 'frames-'));
try {
  const frames = await captionFrames(work, path.join(work, 'png'));
  await fs.mkdir(out, { recursive: true });
  const named = (prefix: string) =>
    frames.files.filter((f) => path.basename(f).startsWith(prefix)).map((file) => ({ file, name: path.basename(file, '.png').slice(prefix.length) }));
  // in catalogue order (the first is the default)
  const order = (list: { file: string; name: string }[], names: string[]) => names.map((n) => list.find((x) => x.name === n)!);
  await sheet(
    order(
      named('caption-'),
      frames.templates.map((t) => t.template.name),
    ),
    path.join(out, 'caption-templates.png'),
  );
  await sheet(
    order(
      named('hook-'),
      frames.hooks.map((h) => h.template.name),
    ),
    path.join(out, 'hook-templates.png'),
  );
  const sizes = await Promise.all(['caption-templates.png', 'hook-templates.png'].map(async (f) => (await fs.stat(path.join(out, f))).size));
  console.log(
    `${frames.templates.length} caption templates and ${frames.hooks.length} hooks in ${path.relative(process.cwd(), out)} (${Math.round((sizes[0] + sizes[1]) / 1024)} KiB); hook: "${frames.hookText}"`,
  );
} finally {
  await fs.rm(work, { recursive: true, force: true });
}
