/**
 * The most salient words of a transcript, for the `salient` emphasis rule of
 * caption styles: content words (nouns, proper nouns, adjectives, verbs that
 * are not auxiliaries; wink-nlp's English tagger, the one clip scoring loads)
 * that are long and rare in the talk. Other languages: long words rare in the
 * talk. At most one in SPACING spoken words, about one in six overall.
 */
import type { TimedWord } from '../media/transcript.js';
import { english } from './clip-scoring.js';

/** Spoken words between two salient ones, at least. */
const SPACING = 4;
/** Share of spoken words that may be salient. */
const SHARE = 1 / 6;
const CONTENT = new Set(['NOUN', 'PROPN', 'ADJ', 'VERB']);
/** Words the tagger may call nouns that stand for no thing. */
const EMPTY = new Set([
  'everything',
  'something',
  'anything',
  'nothing',
  'everyone',
  'someone',
  'anyone',
  'thing',
  'things',
  'stuff',
  'people',
  'really',
  'gonna',
]);

const bare = (text: string) =>
  text
    .toLowerCase()
    .replace(/’/g, "'")
    .replace(/^[^\p{L}\p{N}']+|[^\p{L}\p{N}']+$/gu, '');

/** Indexes into `words` of its salient words. */
export async function salientWords(words: readonly TimedWord[], language: string): Promise<Set<number>> {
  const spoken = words.map((w, i) => ({ i, text: bare(w.text ?? '') })).filter((w, k) => words[w.i].type === 'word' && w.text && k >= 0);
  if (!spoken.length) return new Set();
  const counts = new Map<string, number>();
  for (const w of spoken) counts.set(w.text, (counts.get(w.text) ?? 0) + 1);
  // a word's part of speech and stop-word flag, tagged once per distinct word
  const content = new Map<string, boolean>();
  if (language.toLowerCase().startsWith('en')) {
    const { nlp } = await english();
    const its = nlp.its;
    for (const word of counts.keys()) {
      const tokens = nlp.readDoc(word).tokens();
      const pos = tokens.out(its.pos) as string[];
      const stop = tokens.out(its.stopWordFlag as never) as unknown as boolean[];
      content.set(word, pos.length === 1 && CONTENT.has(pos[0]) && !stop[0] && !EMPTY.has(word) && [...word].length >= 4);
    }
  } else {
    for (const word of counts.keys()) content.set(word, [...word].length >= 6);
  }
  const score = (w: string) => [...w].length / Math.sqrt(counts.get(w) ?? 1);
  const ranked = spoken
    .map((w, k) => ({ ...w, k, score: score(w.text) }))
    .filter((w) => content.get(w.text))
    .sort((a, b) => b.score - a.score || a.k - b.k);
  const limit = Math.max(1, Math.round(spoken.length * SHARE));
  const taken: number[] = [];
  for (const w of ranked) {
    if (taken.length >= limit) break;
    if (taken.some((k) => Math.abs(k - w.k) < SPACING)) continue;
    taken.push(w.k);
  }
  return new Set(taken.map((k) => spoken[k].i));
}
