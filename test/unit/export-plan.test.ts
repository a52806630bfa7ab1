import { describe, expect, it } from 'vitest';
import { emphasisZooms, stressedWords } from '../../src/exports/plan.js';
import type { Word } from '../../src/media/transcript.js';

let n = 0;
const w = (text: string, startTime: number, endTime: number, type: Word['type'] = 'word'): Word => ({ id: `w${n++}`, text, type, startTime, endTime });

/** an even pace: 0.06 s per letter */
const said = (text: string, at: number) => w(text, at, at + 0.06 * text.replace(/\W/g, '').length);

describe('stressedWords', () => {
  it('finds words drawn out for their length, and exclaimed ones; short words are not judged by pace', () => {
    const words = [
      said('This', 0),
      said('is', 0.3),
      w('really', 0.5, 1.3), // 6 letters in 0.8 s: 0.13 s a letter, over twice the median
      said('the', 1.4),
      w('best', 1.7, 1.95),
      w('!', 1.95, 1.95, 'punctuation'),
      w('so', 2.1, 2.6), // slow, but two letters
      said('Stop!', 3),
      said('today', 3.5),
    ];
    expect([...stressedWords(words)].map((x) => x.text)).toEqual(['really', 'best', 'Stop!']);
  });
});

describe('emphasisZooms', () => {
  const keepAll = [{ start: 0, end: 60 }];

  it('punches in at sentence starts and stressed words, at most one every 4 s, the earlier one first', () => {
    const flowing = (texts: string[], from: number) => texts.map((t, i) => said(t, from + i * 0.4));
    const words = [
      ...flowing(['Welcome', 'to', 'the', 'show'], 0),
      w('.', 1.5, 1.5, 'punctuation'),
      ...flowing(['We', 'talk', 'about', 'how', 'this', 'goes', 'and', 'why', 'it', 'works', 'for'], 1.6), // a sentence start at 1.6: too close
      w('absolutely', 6, 7.6), // stressed: 0.16 s a letter, no pause before it
      said('everyone', 7.7),
      w('', 8.2, 10, 'silence'),
      ...flowing(['Then', 'more'], 10), // a sentence start 2.4 s after the last zoom ends: too close
      w('.', 10.7, 10.7, 'punctuation'),
      ...flowing(['Later', 'on'], 11.7),
    ];
    const zooms = emphasisZooms(words, keepAll);
    expect(zooms.map((z) => z.start)).toEqual([0, 6, 11.7]);
    expect(zooms.every((z) => z.scale > 1 && z.end - z.start > 1)).toBe(true);
  });

  it('follows the cut timeline and skips what is cut', () => {
    const words = [
      said('First', 0),
      said('line', 0.4),
      w('', 0.7, 5, 'silence'),
      said('Second', 5),
      said('line', 5.5),
      w('', 6, 12, 'silence'),
      said('Third', 12),
      said('one', 12.5),
    ];
    // "First" keeps only 0.7 s of its zoom window and "Second" is cut: the zoom is on "Third", at output 0.7 + 0.8
    const keep = [
      { start: 0, end: 0.7 },
      { start: 5.2, end: 6 },
      { start: 12, end: 14 },
    ];
    expect(emphasisZooms(words, keep).map((z) => Number(z.start.toFixed(3)))).toEqual([1.5]);
    // without the middle: "Third" lands right after "First"'s 0.7 s
    const joined = emphasisZooms(words, [
      { start: 0, end: 0.7 },
      { start: 12, end: 20 },
    ]);
    expect(joined.map((z) => Number(z.start.toFixed(3)))).toEqual([0.7]);
    // "First" whole, "Second" at output 2 (too close to the first zoom), "Third" at 2 + 7
    const far = emphasisZooms(words, [
      { start: 0, end: 2 },
      { start: 5, end: 20 },
    ]);
    expect(far.map((z) => Number(z.start.toFixed(3)))).toEqual([0, 9]);
  });
});
