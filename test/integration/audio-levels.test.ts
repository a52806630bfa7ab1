import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_GAIN_DB, TARGET_LOUDNESS, measureLoudness, normalizingGain, parseEbur128, quietRanges, quietThresholdFor } from '../../src/media/audio-levels.js';
import { FF } from '../support/media.js';

const run = promisify(execFile);
let dir: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'audio-levels-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const SUMMARY = `[Parsed_ebur128_0 @ 0x55] Summary:

  Integrated loudness:
    I:         -20.6 LUFS
    Threshold: -30.8 LUFS

  Loudness range:
    LRA:         3.8 LU

  True peak:
    Peak:       -1.5 dBFS
`;

describe('parseEbur128', () => {
  it('reads the integrated loudness and the peak (true or sample) of the summary', () => {
    expect(parseEbur128(`size=N/A time=00:01:00.01\n${SUMMARY}`)).toEqual({ loudness: -20.6, peak: -1.5 });
    expect(parseEbur128(SUMMARY.replace('True peak', 'Sample peak').replace('-1.5 dBFS', '-2.5 dBFS'))).toEqual({ loudness: -20.6, peak: -2.5 });
  });

  it('gives null for silence (the -70 LUFS gate, a -inf peak) and for a log without a summary', () => {
    const silent = SUMMARY.replace('-20.6 LUFS', '-70.0 LUFS').replace('-1.5 dBFS', '-inf dBFS');
    expect(parseEbur128(silent)).toEqual({ loudness: null, peak: null });
    expect(parseEbur128('Error opening input')).toEqual({ loudness: null, peak: null });
  });
});

describe('measureLoudness', () => {
  it('measures a file; the same sound 10 dB quieter reads 10 LU lower', async () => {
    const loud = path.join(dir, 'loud.wav');
    const soft = path.join(dir, 'soft.wav');
    await run('ffmpeg', [...FF, '-f', 'lavfi', '-i', 'sine=f=500:d=3', loud]);
    await run('ffmpeg', [...FF, '-f', 'lavfi', '-i', 'sine=f=500:d=3,volume=-10dB', soft]);
    const a = await measureLoudness(loud);
    const b = await measureLoudness(soft);
    expect(a.loudness).toEqual(expect.any(Number));
    expect(a.loudness! - b.loudness!).toBeCloseTo(10, 0);
    expect(a.peak! - b.peak!).toBeCloseTo(10, 0);
  });

  it('rejects what has no sound', async () => {
    const png = path.join(dir, 'still.png');
    await run('ffmpeg', [...FF, '-f', 'lavfi', '-i', 'testsrc=s=32x32', '-frames:v', '1', png]);
    await expect(measureLoudness(png)).rejects.toThrow(/ffmpeg/);
  });
});

describe('quietRanges', () => {
  it('finds the quiet stretches of a WAV, at least 0.1 s long, to the 20 ms window', async () => {
    // 1 s tone | 0.5 s silence | 1 s tone | 0.05 s silence | 0.5 s tone | 0.4 s of a tone 50 dB down
    const wav = path.join(dir, 'pattern.wav');
    const parts = [
      'sine=f=300:d=1:sample_rate=16000',
      'anullsrc=r=16000:cl=mono,atrim=duration=0.5',
      'sine=f=300:d=1:sample_rate=16000',
      'anullsrc=r=16000:cl=mono,atrim=duration=0.05',
      'sine=f=300:d=0.5:sample_rate=16000',
      'sine=f=300:d=0.4:sample_rate=16000,volume=-50dB',
    ];
    const inputs = parts.flatMap((p) => ['-f', 'lavfi', '-i', p]);
    const concat = `${parts.map((_, i) => `[${i}:a]`).join('')}concat=n=${parts.length}:v=0:a=1`;
    await run('ffmpeg', [...FF, ...inputs, '-filter_complex', concat, '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', wav]);
    const quiet = await quietRanges(wav, -45);
    expect(quiet).toHaveLength(2);
    expect(quiet[0].start).toBeCloseTo(1, 1);
    expect(quiet[0].end).toBeCloseTo(1.5, 1);
    expect(quiet[1].start).toBeCloseTo(3.05, 1);
    expect(quiet[1].end).toBeCloseTo(3.45, 1);
    // a lower threshold no longer counts the tone 50 dB down (-68 dBFS RMS) as loud
    expect(await quietRanges(wav, -80)).toEqual([expect.objectContaining({ start: expect.closeTo(1, 1) })]);
  });

  it('refuses a WAV that is not 16-bit PCM', async () => {
    const wav = path.join(dir, 'float.wav');
    await run('ffmpeg', [...FF, '-f', 'lavfi', '-i', 'sine=d=0.5', '-c:a', 'pcm_f32le', wav]);
    await expect(quietRanges(wav, -45)).rejects.toThrow(/16-bit/);
  });
});

describe('gain and threshold', () => {
  it('brings any measured loudness to the target within the gain bound; nothing when unmeasured', () => {
    expect(normalizingGain(-26)).toBe(TARGET_LOUDNESS + 26);
    expect(normalizingGain(-10)).toBe(TARGET_LOUDNESS + 10);
    expect(normalizingGain(-90)).toBe(MAX_GAIN_DB);
    expect(normalizingGain(null)).toBe(0);
  });

  it('puts quiet 30 dB under the loudness, between -65 and -35 dBFS', () => {
    expect(quietThresholdFor(-20)).toBe(-50);
    expect(quietThresholdFor(-10)).toBe(-40);
    expect(quietThresholdFor(0)).toBe(-35);
    expect(quietThresholdFor(-50)).toBe(-65);
    expect(quietThresholdFor(null)).toBe(-65);
  });
});
