import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planPieces, quietestPoint } from '../../src/media/transcription/pieces.js';
import { Turns } from '../../src/media/transcription/turns.js';
import { endOfText, onRecordingClock } from '../../src/media/transcription/whisper.js';
import { readWavInfo } from '../../src/media/wav.js';
import { writeWav } from '../support/wav.js';

const RATE = 16_000;

/** A 16 kHz mono WAV of `seconds`: a loud tone, silent over each of `gaps` ([start, end] seconds). */
const wav = (file: string, seconds: number, gaps: Array<[number, number]>) =>
  writeWav(file, seconds, (t) => (gaps.some(([a, b]) => t >= a && t < b) ? 0 : 0.37 * Math.sin(2 * Math.PI * 220 * t)));

describe('a long recording in pieces', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pieces-'));
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('finds the quietest stretch of a sound', () => {
    const samples = new Int16Array(RATE * 2).fill(8000);
    samples.fill(0, 23_000, 25_000); // 1.4375-1.5625 s
    const at = quietestPoint(samples, RATE);
    expect(at).toBeGreaterThanOrEqual(23_000);
    expect(at).toBeLessThanOrEqual(25_000);
    // all alike: the first stretch
    expect(quietestPoint(new Int16Array(RATE).fill(100), RATE)).toBe(800);
  });

  it('cuts a long recording about every piece, each cut in a pause near the piece end, and leaves a short one whole', async () => {
    const long = path.join(dir, 'long.wav');
    // 10 s pieces are cut in their last 5 s: pauses at 8.2 s and, from there, at 16.0 s
    await wav(long, 30, [
      [8.2, 8.5],
      [16, 16.3],
    ]);
    const pieces = await planPieces(long, await readWavInfo(long), 10);
    expect(pieces).toHaveLength(3);
    // each piece starts where the one before ended, the last ends with the sound
    expect(pieces[0].from).toBe(0);
    for (let i = 1; i < pieces.length; i++) expect(pieces[i].from).toBe(pieces[i - 1].to);
    expect(pieces.at(-1)!.to).toBe(30 * RATE);
    // each cut falls in the pause
    expect(pieces[0].to / RATE).toBeGreaterThan(8.2);
    expect(pieces[0].to / RATE).toBeLessThan(8.5);
    expect(pieces[1].to / RATE).toBeGreaterThan(16);
    expect(pieces[1].to / RATE).toBeLessThan(16.3);

    // without a pause, a cut still falls in the piece's last 5 s
    const even = path.join(dir, 'even.wav');
    await wav(even, 40, []);
    const evenPieces = await planPieces(even, await readWavInfo(even), 10);
    for (const p of evenPieces.slice(0, -1)) {
      expect((p.to - p.from) / RATE).toBeGreaterThanOrEqual(5);
      expect((p.to - p.from) / RATE).toBeLessThanOrEqual(10);
    }
    expect((evenPieces.at(-1)!.to - evenPieces.at(-1)!.from) / RATE).toBeLessThanOrEqual(15);

    const short = path.join(dir, 'short.wav');
    await wav(short, 14, [[5, 6]]);
    expect(await planPieces(short, await readWavInfo(short), 10)).toEqual([{ from: 0, to: 14 * RATE }]);
  });
});

describe('turns on one model', () => {
  const tick = () => new Promise((r) => setImmediate(r));

  it('gives interactive work the next turn, then batch, each class in the order asked', async () => {
    const turns = new Turns();
    const order: string[] = [];
    const first = await turns.take('batch');
    const asked = [
      turns.take('batch').then((end) => (order.push('batch 2'), end)),
      turns.take('upkeep').then((end) => (order.push('upkeep'), end)),
      turns.take('interactive').then((end) => (order.push('interactive 1'), end)),
      turns.take('interactive').then((end) => (order.push('interactive 2'), end)),
    ];
    await tick();
    expect(order).toEqual([]);
    expect(turns.waiting).toBe(4);
    first();
    first(); // a second end changes nothing
    for (const expected of ['interactive 1', 'interactive 2', 'batch 2', 'upkeep']) {
      await tick();
      expect(order.at(-1)).toBe(expected);
      const i = ['batch 2', 'upkeep', 'interactive 1', 'interactive 2'].indexOf(expected);
      (await asked[i])();
    }
    expect(turns.waiting).toBe(0);
  });

  it('takes a caller whose signal aborts out of the line, with the signal reason', async () => {
    const turns = new Turns();
    const end = await turns.take('interactive');
    const ac = new AbortController();
    const gone = turns.take('batch', ac.signal);
    const next = turns.take('batch');
    ac.abort(new Error('job cancelled'));
    await expect(gone).rejects.toThrow('job cancelled');
    expect(turns.waiting).toBe(1);
    end();
    (await next)();
    await expect(turns.take('batch', AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
  });
});

describe("a piece's words on the recording's clock", () => {
  it("moves a piece's segments and tokens by its start, and holds what whisper.cpp timed past its end within it", () => {
    // a piece from 60 s to 115 s: whisper.cpp timed its last segment to its 30 s window's end, 60 s
    const piece = { from: 60 * RATE, to: 115 * RATE };
    const [first, last] = onRecordingClock(
      [
        { from: 0, to: 2000, text: ' Hello', tokens: [{ text: ' Hello', id: 1, p: 0.9, from: 100, to: 1900 }] },
        {
          from: 54_000,
          to: 60_000,
          text: ' there',
          tokens: [
            { text: ' there', id: 2, p: 0.8, from: 54_500, to: 59_000 },
            { text: '.', id: 3, p: 0.9 },
          ],
        },
      ],
      piece,
    );
    expect(first).toMatchObject({ from: 60_000, to: 62_000, tokens: [{ from: 60_100, to: 61_900 }] });
    expect(last).toMatchObject({ from: 114_000, to: 115_000, tokens: [{ from: 114_500, to: 115_000 }, { text: '.' }] });
    expect(last.tokens![1]).not.toHaveProperty('from');
  });

  it("carries the end of a piece's text, from a word's start and without sound annotations, into the next prompt", () => {
    expect(endOfText('  short   text ', 160)).toBe('short text');
    expect(endOfText('one two three four', 10)).toBe('three four');
    // the cut falls on a word's start: that word stays
    expect(endOfText('abc defgh ijk', 9)).toBe('defgh ijk');
    expect(endOfText(' [BLANK_AUDIO] so we went (upbeat music) home ♪', 160)).toBe('so we went home');
    expect(endOfText('unbroken', 4)).toBe('oken');
  });
});
