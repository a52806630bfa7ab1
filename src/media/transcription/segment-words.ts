import type { TimedWord } from '../transcript.js';

/**
 * The words of a timed stretch of text when the engine gave no time per word: the span is
 * shared in proportion to their lengths. Parts without a letter or digit are punctuation.
 */
export function segmentWords(text: string, start: number, end: number): TimedWord[] {
  const parts = text.trim().split(/\s+/).filter(Boolean);
  const letters = parts.reduce((n, p) => n + p.length, 0);
  const span = Math.max(0, end - start);
  const words: TimedWord[] = [];
  let at = start;
  for (const p of parts) {
    const share = (span * p.length) / letters;
    words.push({ text: p, type: /[\p{L}\p{N}]/u.test(p) ? 'word' : 'punctuation', startTime: at, endTime: at + share });
    at += share;
  }
  return words;
}
