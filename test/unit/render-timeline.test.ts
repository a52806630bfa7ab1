import { describe, expect, it } from 'vitest';
import {
  badTakeCuts,
  betweenTree,
  keepSegments,
  mapRange,
  mapSpan,
  mapTime,
  mergeSegments,
  outputDuration,
  repeatedPhraseDetector,
  silenceCuts,
} from '../../src/media/render/timeline.js';
import type { Segment, TimedWord } from '../../src/media/transcript.js';

const w = (text: string, startTime: number, endTime: number): TimedWord => ({ text, type: 'word', startTime, endTime });
const sil = (startTime: number, endTime: number): TimedWord => ({ text: '', type: 'silence', startTime, endTime });
const close = (a: Segment[], b: Segment[]) => {
  expect(a.length).toBe(b.length);
  a.forEach((s, i) => {
    expect(s.start).toBeCloseTo(b[i].start, 6);
    expect(s.end).toBeCloseTo(b[i].end, 6);
  });
};

/** words at 0.0-0.5, 0.6-1.0 | 0.3 gap | 1.3-1.8 | 0.15 gap | 1.95-2.4 | 1.0 gap (silence word) | 3.4-3.9, duration 5 */
const SPEECH: TimedWord[] = [w('one', 0, 0.5), w('two', 0.6, 1.0), w('three', 1.3, 1.8), w('four', 1.95, 2.4), sil(2.4, 3.4), w('five', 3.4, 3.9)];

describe('silenceCuts', () => {
  it('natural cuts only silences of 0.6 s or more, keeping 0.08 s next to speech, and the trailing silence', () => {
    const cuts = silenceCuts(SPEECH, { pace: 'natural', duration: 5, fps: 30 });
    close(cuts, [
      { start: 2.48, end: 3.32 },
      { start: 3.98, end: 5 },
    ]);
  });

  it('fast also cuts 0.2-0.6 s gaps, extra-fast 0.1-0.2 s ones too', () => {
    const fast = silenceCuts(SPEECH, { pace: 'fast', duration: 5, fps: 30 });
    // 0.3 s gap 1.0-1.3, padding min(0.08, 0.2/4) = 0.05
    close(fast, [
      { start: 1.05, end: 1.25 },
      { start: 2.45, end: 3.35 },
      { start: 3.95, end: 5 },
    ]);
    const xfast = silenceCuts(SPEECH, { pace: 'extra-fast', duration: 5, fps: 100 });
    // 0.1 s gap 0.5-0.6 and 0.15 s gap 1.8-1.95 now count; padding 0.025
    expect(xfast.map((c) => [c.start, c.end].map((x) => Math.round(x * 1000)))).toEqual([
      [525, 575],
      [1025, 1275],
      [1825, 1925],
      [2425, 3375],
      [3925, 5000],
    ]);
  });

  it('cuts leading silence to the start, honours an explicit padding and drops cuts under a frame', () => {
    const words = [w('hi', 1.5, 2), w('there', 2.04, 2.5)];
    close(silenceCuts(words, { pace: 'natural', duration: 2.5, fps: 25, padding: 0.2 }), [{ start: 0, end: 1.3 }]);
    // a 0.1 s gap with 0.04 padding leaves 0.02 s: less than a frame at 30 fps
    expect(silenceCuts([w('a', 0, 1), w('b', 1.1, 2)], { pace: 'extra-fast', duration: 2, fps: 30, padding: 0.04 })).toEqual([]);
  });

  it('trims each cut to its quiet part when measured ranges are given', () => {
    const cuts = silenceCuts(SPEECH, {
      pace: 'natural',
      duration: 5,
      fps: 30,
      quiet: [
        { start: 2.9, end: 3.6 },
        { start: 4.5, end: 5 },
      ],
    });
    close(cuts, [
      { start: 2.9, end: 3.32 },
      { start: 4.5, end: 5 },
    ]);
    // two quiet pieces in one pause: one cut over both (no fragments); a pause with no quiet part stays as the transcript says
    const hull = silenceCuts(SPEECH, {
      pace: 'natural',
      duration: 5,
      fps: 30,
      quiet: [
        { start: 2.6, end: 2.8 },
        { start: 3.0, end: 3.2 },
      ],
    });
    close(hull, [
      { start: 2.6, end: 3.2 },
      { start: 3.98, end: 5 },
    ]);
  });

  it('gives nothing without spoken words', () => {
    expect(silenceCuts([sil(0, 4)], { pace: 'natural', duration: 4, fps: 30 })).toEqual([]);
  });
});

describe('bad takes', () => {
  const words = (text: string, start = 0, step = 0.4): TimedWord[] => text.split(' ').map((t, i) => w(t, start + i * step, start + i * step + 0.3));

  it('removes the earlier take of a repeated phrase, up to the repeat', async () => {
    const ws = words('So today I want, so today I want to show you this');
    const cuts = await repeatedPhraseDetector().detect(ws);
    expect(cuts).toEqual([{ removeStart: 0, removeEnd: 1.6, reason: 'repeated phrase "so today i"' }]);
    expect(await badTakeCuts(ws)).toEqual([{ start: 0, end: 1.6 }]);
  });

  it('keeps only the last of three takes, ignoring case and punctuation', async () => {
    const ws = words('Hello there friends. Hello, there friends! hello there FRIENDS and welcome');
    const cuts = await badTakeCuts(ws);
    close(cuts, [{ start: 0, end: 2.4 }]);
    const kept = ws.filter((x) => !cuts.some((c) => x.startTime >= c.start && x.startTime < c.end)).map((x) => x.text);
    expect(kept.join(' ')).toBe('hello there FRIENDS and welcome');
  });

  it('leaves phrases repeated long after, two-word repeats and silence alone', async () => {
    const far = [...words('we did it again', 0), ...words('and we did it again', 20)];
    expect(await badTakeCuts(far)).toEqual([]);
    expect(await badTakeCuts(words('very good very good day'))).toEqual([]);
    expect(await badTakeCuts([sil(0, 1), sil(1, 2), sil(2, 3), sil(3, 4), sil(4, 5), sil(5, 6)])).toEqual([]);
    const ws = words('the cat sat then the cat sat down');
    expect(await badTakeCuts(ws, repeatedPhraseDetector({ withinSeconds: 1 }))).toEqual([]);
  });

  it('uses the detector it is given', async () => {
    const cuts = await badTakeCuts(words('a b c'), {
      detect: async () => [
        { removeStart: 2, removeEnd: 3, reason: 'x' },
        { removeStart: 1, removeEnd: 2.5, reason: 'y' },
      ],
    });
    expect(cuts).toEqual([{ start: 1, end: 3 }]);
  });
});

describe('keepSegments and time mapping', () => {
  it('merges, sorts and snaps cuts to frames and drops kept slivers', () => {
    const keep = keepSegments(
      10,
      [
        { start: 5, end: 6.01 },
        { start: 1.02, end: 2 },
        { start: 1.5, end: 3 },
        { start: 6.02, end: 7 },
      ],
      30,
    );
    // 6.01 → frame 180 (6.0); 6.02 → 6.0333: a one-frame piece stays; cuts at 1.02 → 1.0333
    close(keep, [
      { start: 0, end: 31 / 30 },
      { start: 3, end: 5 },
      { start: 6, end: 181 / 30 },
      { start: 7, end: 10 },
    ]);
    for (const s of keep) for (const t of [s.start, s.end]) expect(Math.abs(t * 30 - Math.round(t * 30))).toBeLessThan(1e-9);
    // kept piece of half a frame between two cuts disappears
    close(
      keepSegments(
        4,
        [
          { start: 1, end: 2 },
          { start: 2.01, end: 3 },
        ],
        30,
      ),
      [
        { start: 0, end: 1 },
        { start: 3, end: 4 },
      ],
    );
    expect(keepSegments(3, [], 25)).toEqual([{ start: 0, end: 3 }]);
    expect(keepSegments(3, [{ start: -1, end: 9 }], 25)).toEqual([]);
    expect(outputDuration(keep)).toBeCloseTo(31 / 30 + 2 + 1 / 30 + 3, 9);
  });

  it('maps source times to output times', () => {
    const keep = [
      { start: 0, end: 2 },
      { start: 3, end: 5 },
      { start: 8, end: 10 },
    ];
    expect(mapTime(keep, 1.5)).toBe(1.5);
    expect(mapTime(keep, 2.5)).toBeNull();
    expect(mapTime(keep, 3)).toBe(2);
    expect(mapTime(keep, 9)).toBe(5);
    expect(mapTime(keep, 10)).toBe(6);
    expect(mapTime(keep, 10.5)).toBeNull();
    expect(mapRange(keep, 0.5, 1)).toEqual([{ start: 0.5, end: 1 }]);
    expect(mapRange(keep, 5.5, 7)).toEqual([]);
  });

  it('splits a word that straddles a cut and clips one half cut', () => {
    const keep = [
      { start: 0, end: 2 },
      { start: 3, end: 5 },
      { start: 8, end: 10 },
    ];
    expect(mapRange(keep, 1.5, 3.5)).toEqual([
      { start: 1.5, end: 2 },
      { start: 2, end: 2.5 },
    ]);
    expect(mapSpan(keep, 1.5, 3.5)).toEqual({ start: 1.5, end: 2.5 });
    expect(mapRange(keep, 4.5, 8.5)).toEqual([
      { start: 3.5, end: 4 },
      { start: 4, end: 4.5 },
    ]);
    expect(mapRange(keep, 2.5, 3.5)).toEqual([{ start: 2, end: 2.5 }]);
    expect(mapRange(keep, 1, 9)).toHaveLength(3);
    expect(mapRange(keep, 4, 4)).toEqual([{ start: 3, end: 3 }]);
    expect(
      mergeSegments([
        { start: 2, end: 3 },
        { start: 0, end: 1 },
        { start: 1, end: 1.5 },
      ]),
    ).toEqual([
      { start: 0, end: 1.5 },
      { start: 2, end: 3 },
    ]);
  });
});

describe('betweenTree', () => {
  const depth = (expr: string) => {
    let d = 0;
    let max = 0;
    for (let i = 0; i < expr.length; i++) {
      if (expr.startsWith('between(', i)) {
        i = expr.indexOf(')', i);
        continue;
      }
      if (expr[i] === '(') max = Math.max(max, ++d);
      if (expr[i] === ')') d--;
    }
    return max;
  };

  it('nests the terms as a balanced tree', () => {
    const segs = [0, 1, 2, 3].map((i) => ({ start: i * 2, end: i * 2 + 1.5 }));
    expect(betweenTree(segs)).toBe('((between(t,0,1.499)+between(t,1.999,3.499))+(between(t,3.999,5.499)+between(t,5.999,7.499)))');
    expect(betweenTree(segs.slice(0, 1), 'T', 0)).toBe('between(T,0,1.5)');
    expect(betweenTree([])).toBe('0');
    const many = Array.from({ length: 300 }, (_, i) => ({ start: i, end: i + 0.5 }));
    const expr = betweenTree(many);
    expect(expr.match(/between\(/g)).toHaveLength(300);
    expect(depth(expr)).toBe(Math.ceil(Math.log2(300)));
  });
});
