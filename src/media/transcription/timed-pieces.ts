import type { TimedWord } from '../transcript.js';

/**
 * A timed piece of an engine's text: a Whisper token (" wel", "come", ","), or a word of the
 * OpenAI API with the text that leads up to it (" well", "-known").
 */
export interface TimedPiece {
  text: string;
  /** seconds */
  start: number;
  end: number;
  /** probability 0-1 the engine gave the piece */
  p?: number;
}

const LETTER = /[\p{L}\p{N}]/u;

/**
 * Words from pieces, the same way for every engine that gives pieces: a piece that begins with
 * a space begins a word, any other joins the word before it, so sub-word tokens make one word
 * and punctuation stays attached to its word ("Hello," and "(upbeat" and "well-known").
 * Times are clamped to [0, duration], never run backwards, and end at or after the start.
 * A word's confidence is the mean probability of its pieces that carry letters or digits.
 */
export function joinPieces(pieces: readonly TimedPiece[], duration = Infinity): TimedWord[] {
  const words: Array<TimedWord & { probs: number[] }> = [];
  let floor = 0;
  // a piece that is only a space makes the next one begin a word
  let spaced = false;
  for (const piece of pieces) {
    if (!piece.text || !Number.isFinite(piece.start) || !Number.isFinite(piece.end)) continue;
    const start = Math.min(Math.max(piece.start, floor, 0), duration);
    const end = Math.min(Math.max(piece.end, start), duration);
    floor = start;
    const last = words.at(-1);
    const text = piece.text.replace(/\s+/g, ' ');
    const probs = piece.p !== undefined && LETTER.test(text) ? [piece.p] : [];
    if (!text.trim()) {
      spaced = true;
      continue;
    }
    if (!last || spaced || /^\s/.test(text)) {
      spaced = false;
      const trimmed = text.trim();
      if (trimmed) words.push({ text: trimmed, type: 'word', startTime: start, endTime: end, probs });
      continue;
    }
    last.text += text.trimEnd();
    last.endTime = Math.max(last.endTime, end);
    last.probs.push(...probs);
  }
  return words.map(({ probs, ...w }) => {
    const word: TimedWord = { ...w, type: LETTER.test(w.text) ? 'word' : 'punctuation' };
    if (probs.length) word.confidence = Math.round((probs.reduce((s, p) => s + p, 0) / probs.length) * 1000) / 1000;
    return word;
  });
}
