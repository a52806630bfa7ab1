/**
 * The sentences of a transcript: the units a magic clip starts and ends on,
 * and a hook title is taken from.
 * Engines that punctuate (whisper, the OpenAI engine) mark sentence ends
 * themselves; pocketsphinx gives none, so there a pause ends a sentence.
 */
import type { TimedWord } from './transcript.js';

/** A sentence of the transcript: its words `words[first..last]` (indices into the transcript), start of the first, end of the last. */
export interface Sentence {
  first: number;
  last: number;
  start: number;
  end: number;
  /** the words as text, punctuation attached */
  text: string;
}

/**
 * Without punctuation, a gap of at least this long between two spoken words
 * ends a sentence. Tuned on a synthetic talk (18 espeak-ng sentences at 140
 * and 160 words a minute, transcribed by pocketsphinx): between sentences the
 * engine's gaps were 0.34-0.71 s, at commas 0.16-0.32 s. 0.35 s found 14 of
 * 15 and 15 of 15 sentence ends; 0.30 s splits at many commas, 0.40 s misses a
 * third of the ends at 160 words a minute. The splits it makes that are no
 * sentence end are mostly where the engine dropped words (a gap it heard
 * nothing in), which no threshold avoids. Real speakers pause longer between
 * sentences than espeak does, so the threshold errs on the side of ending.
 */
export const PAUSE_SECONDS = 0.35;

/**
 * Even a punctuated transcript ends a sentence at a pause this long: an engine
 * may leave the full stop off the end of a segment, and a speaker who stops
 * for this long has ended a thought.
 */
export const LONG_PAUSE_SECONDS = 1.5;

/** A sentence-ending mark, possibly followed by closing quotes or brackets. */
const SENTENCE_END = /[.!?…。！？‼⁇⁈⁉]+["'”’»)\]]*$/u;
/** Punctuation that belongs to the word after it. */
const OPENING = /^[([{“‘«¿¡]+$/u;
/** Words whose full stop is not a sentence's end. */
const ABBREVIATIONS = new Set(['mr.', 'mrs.', 'ms.', 'dr.', 'prof.', 'st.', 'jr.', 'sr.', 'vs.', 'e.g.', 'i.e.', 'approx.']);

const endsSentence = (w: TimedWord) => {
  const text = w.text.trim();
  if (w.type === 'silence' || !SENTENCE_END.test(text)) return false;
  return w.type === 'punctuation' || !ABBREVIATIONS.has(text.toLowerCase());
};

/**
 * Splits a transcript into sentences of whole elements (never mid-word). When
 * the transcript has any sentence punctuation, a sentence ends after a
 * punctuation element or a word ending in . ! ? (or at a pause of
 * LONG_PAUSE_SECONDS); otherwise it ends at a pause of PAUSE_SECONDS: a gap
 * between one word's end and the next word's start, or a silence element that
 * long. Punctuation stays with its sentence (an opening mark with the next
 * one); silences belong to none.
 */
export function sentencesOf(words: readonly TimedWord[]): Sentence[] {
  const punctuated = words.some(endsSentence);
  const pause = punctuated ? LONG_PAUSE_SECONDS : PAUSE_SECONDS;
  const out: Sentence[] = [];
  /** indices of the open sentence's words and punctuation */
  let open: number[] = [];
  let lastWord = -1;
  let paused = false;

  const close = (carry: number[] = []) => {
    const spoken = open.filter((i) => words[i].type === 'word');
    if (spoken.length > 0) {
      const first = words[spoken[0]];
      const last = words[spoken[spoken.length - 1]];
      out.push({
        first: open[0],
        last: open[open.length - 1],
        start: first.startTime,
        end: Math.max(first.startTime, last.endTime),
        text: joinText(open.map((i) => words[i].text)),
      });
    }
    open = carry;
  };

  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (w.type === 'silence') {
      if (w.endTime - w.startTime >= pause - 1e-9) paused = true;
      continue;
    }
    if (!w.text.trim()) continue;
    if (w.type === 'word') {
      if (lastWord >= 0 && (paused || w.startTime - words[lastWord].endTime >= pause - 1e-9)) {
        // opening marks after the last word (a quote the next sentence starts with) go with it
        let keep = open.length;
        while (keep > 0 && words[open[keep - 1]].type === 'punctuation' && OPENING.test(words[open[keep - 1]].text.trim())) keep--;
        const carry = open.slice(keep);
        open = open.slice(0, keep);
        close(carry);
      }
      paused = false;
      lastWord = i;
      open.push(i);
      if (punctuated && endsSentence(w)) close();
      continue;
    }
    const prev = out[out.length - 1];
    if (open.length === 0 && prev?.last === i - 1 && !OPENING.test(w.text.trim())) {
      // a closing mark right after a sentence's end ("Go!" then '"') stays with it
      prev.last = i;
      prev.text = joinText([prev.text, w.text]);
      continue;
    }
    open.push(i);
    if (punctuated && endsSentence(w) && open.some((j) => words[j].type === 'word')) close();
  }
  close();
  return out;
}

/** Words separated by spaces, punctuation attached to the word before it (an opening mark to the one after). */
function joinText(texts: readonly string[]): string {
  let out = '';
  let glue = true;
  for (const raw of texts) {
    const t = raw.trim();
    if (!t) continue;
    const punctuation = !/[\p{L}\p{N}]/u.test(t);
    if (punctuation && OPENING.test(t)) {
      out += out ? ` ${t}` : t;
      glue = true;
      continue;
    }
    out += glue || punctuation ? t : ` ${t}`;
    glue = false;
  }
  return out;
}
