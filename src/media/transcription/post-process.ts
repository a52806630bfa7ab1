import crypto from 'node:crypto';
import { dictionaryEntries, letterKey, matchEntry, splitPunctuation, type DictionaryEntry } from './dictionary.js';
import type { TimedWord, Word } from '../transcript.js';

export interface PostProcessOptions {
  /** project dictionary: spellings that replace what the engine heard */
  dictionary?: string[];
  /** seconds; gaps at least this long become silence elements (default 0.3) */
  minSilence?: number;
  /** seconds of media; silence is added up to it, and no element ends after it */
  duration?: number;
}

/** Working form: integer milliseconds, so comparisons and rounding are exact. */
interface Token {
  text: string;
  type: 'word' | 'punctuation';
  start: number;
  end: number;
  /** the engine's, while the text is what it heard */
  confidence?: number;
}

const DEFAULT_MIN_SILENCE = 0.3;
/** adjacent words whose letters together spell a dictionary entry ("quo kka"): up to three */
const MAX_JOINED_WORDS = 3;

const ms = (seconds: number) => Math.round(seconds * 1000);

/**
 * Turns an engine's words into the project transcript: times in order and rounded to the
 * millisecond, punctuation that stands alone typed as such, dictionary spellings applied,
 * silence elements (empty text) in every gap of at least `minSilence`, and a unique id on
 * each element. Silences the engine reported are dropped and recomputed from the gaps, so
 * every engine yields the same shape. A word keeps the engine's confidence while its text
 * is what the engine heard; a dictionary spelling is the user's and carries none.
 */
export function postProcess(words: TimedWord[], opts: PostProcessOptions = {}): Word[] {
  const minSilence = ms(opts.minSilence ?? DEFAULT_MIN_SILENCE);
  const duration = opts.duration !== undefined && Number.isFinite(opts.duration) && opts.duration >= 0 ? ms(opts.duration) : undefined;
  const clamp = (t: number) => Math.min(Math.max(t, 0), duration ?? Infinity);

  const tokens: Token[] = words
    .filter((w) => w.type !== 'silence' && Number.isFinite(w.startTime) && Number.isFinite(w.endTime))
    .map((w) => ({
      text: w.text.replace(/\s+/g, ' ').trim(),
      start: clamp(ms(w.startTime)),
      end: clamp(ms(w.endTime)),
      ...(typeof w.confidence === 'number' && Number.isFinite(w.confidence) ? { confidence: w.confidence } : {}),
    }))
    .filter((w) => w.text !== '')
    .map((w) => ({ ...w, end: Math.max(w.end, w.start), type: letterKey(w.text) ? ('word' as const) : ('punctuation' as const) }))
    .sort((a, b) => a.start - b.start);
  // engines overlap neighbours a little; a word's start is the surer time, so the earlier word yields
  for (let i = 0; i + 1 < tokens.length; i++) {
    if (tokens[i].end > tokens[i + 1].start) tokens[i].end = Math.max(tokens[i].start, tokens[i + 1].start);
  }

  const spelled = applyDictionary(tokens, dictionaryEntries(opts.dictionary), minSilence);

  const out: Word[] = [];
  const ids = new Set<string>();
  const push = (text: string, type: TimedWord['type'], start: number, end: number, confidence?: number) => {
    out.push({ id: newWordId(ids), text, type, startTime: start / 1000, endTime: end / 1000, ...(confidence !== undefined ? { confidence } : {}) });
  };
  let cursor = 0;
  for (const t of spelled) {
    if (t.start - cursor >= minSilence) push('', 'silence', cursor, t.start);
    push(t.text, t.type, t.start, t.end, t.confidence);
    cursor = Math.max(cursor, t.end);
  }
  if (duration !== undefined && duration - cursor >= minSilence) push('', 'silence', cursor, duration);
  return out;
}

/** A new word id (`w_` and 8 random base64url characters), unused in `taken`, which it joins. */
export function newWordId(taken: Set<string>): string {
  let id: string;
  do id = `w_${crypto.randomBytes(6).toString('base64url')}`;
  while (taken.has(id));
  taken.add(id);
  return id;
}

/**
 * Replaces heard words by dictionary spellings. Joins first (two or three adjacent words,
 * no silence between them, whose letters together are an entry's exactly), then single
 * words that are an entry's letters or within its allowed edits.
 */
function applyDictionary(tokens: Token[], entries: DictionaryEntry[], maxGap: number): Token[] {
  if (entries.length === 0) return tokens;
  const byKey = new Map(entries.map((e) => [e.key, e]));
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type !== 'word') {
      out.push(t);
      continue;
    }
    let joined = false;
    for (let n = Math.min(MAX_JOINED_WORDS, tokens.length - i); n >= 2 && !joined; n--) {
      const run = tokens.slice(i, i + n);
      if (run.some((w, k) => w.type !== 'word' || (k > 0 && w.start - run[k - 1].end >= maxGap))) continue;
      const entry = byKey.get(run.map((w) => letterKey(w.text)).join(''));
      if (!entry) continue;
      out.push({ text: respell(t.text, run[n - 1].text, entry.spelling), type: t.type, start: t.start, end: run[n - 1].end });
      i += n - 1;
      joined = true;
    }
    if (joined) continue;
    const entry = matchEntry(splitPunctuation(t.text).core, entries);
    const text = entry ? respell(t.text, t.text, entry.spelling) : t.text;
    out.push(text === t.text ? t : { text, type: t.type, start: t.start, end: t.end });
  }
  return out;
}

/** The dictionary spelling, keeping the punctuation heard around it (unless the spelling carries it). */
function respell(first: string, last: string, spelling: string): string {
  const { lead } = splitPunctuation(first);
  const { trail } = splitPunctuation(last);
  return (spelling.startsWith(lead) ? '' : lead) + spelling + (spelling.endsWith(trail) ? '' : trail);
}
