// The cut list of the timeline (src/media/render/timeline.ts) as ffmpeg reads it: the pure rules are in test/unit/render-timeline.test.ts.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { betweenTree, keepSegments, outputDuration } from '../../src/media/render/timeline.js';

const run = promisify(execFile);

describe('betweenTree in ffmpeg', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'render-timeline-'));
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('keeps exactly the kept frames of 300 segments (select through a filter script)', async () => {
    const fps = 30;
    // 300 cuts of one or two frames, not on the frame grid, spread over 30 s (three frames apart)
    const cuts = Array.from({ length: 300 }, (_, i) => ({ start: i * 0.1 + 0.01, end: i * 0.1 + 0.01 + (i % 2 ? 0.05 : 0.03) }));
    const keep = keepSegments(30, cuts, fps);
    expect(keep.length).toBeGreaterThanOrEqual(300);
    const script = path.join(dir, 'select.txt');
    await fs.writeFile(script, `select='${betweenTree(keep)}',setpts=N/FRAME_RATE/TB`);
    const { stdout } = await run(
      'ffmpeg',
      ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc=d=30:r=${fps}:s=160x90`, '-filter_script:v', script, '-f', 'framecrc', '-'],
      { maxBuffer: 64 << 20 },
    );
    const frames = stdout.split('\n').filter((l) => l && !l.startsWith('#')).length;
    const expected = outputDuration(keep) * fps;
    expect(Math.abs(frames - expected)).toBeLessThanOrEqual(1);
  });
});
