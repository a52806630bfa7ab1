/**
 * How strongly a run of sentences is about a creator's topic, offline: the
 * topic's words and the transcript's are compared by lemma (wink-nlp's
 * English model, the one clip scoring loads; other languages by their
 * lowercased words), each topic word weighted by how rare it is in the talk,
 * and the talk's own salient words that keep company with the topic (said
 * mostly in or beside the sentences that name it) count half. A run's match
 * (0-1) is half how much of the topic it names, half how many of its
 * sentences are about it, so a section about the topic beats a passing
 * mention, in O(topic words) a run after one pass over the transcript.
 */
import { english } from './clip-scoring.js';
import { primaryLanguage } from '../media/transcription/languages.js';
import type { Sentence } from '../media/sentences.js';

const CONTENT = new Set(['NOUN', 'PROPN', 'VERB', 'ADJ', 'NUM', 'ADV']);
/** A related word is said at least this often... */
const RELATED_MIN_COUNT = 2;
/** ...this share of the times in or beside a sentence naming the topic... */
const RELATED_NEAR_SHARE = 0.75;
/** ...and in at most this share of the sentences (a word said everywhere tells nothing). */
const RELATED_MAX_SPREAD = 1 / 3;
/** A related word's part of a sentence's being about the topic. */
const RELATED_WEIGHT = 0.5;

export interface TopicIndex {
  /** whether the talk names any word of the topic */
  readonly present: boolean;
  /** 0-1: how strongly sentences[first..last] are about the topic */
  match(first: number, last: number): number;
  /** the topic's words and the related words sentences[first..last] say, as said, most telling first */
  said(first: number, last: number): string[];
}

interface Term {
  key: string;
  /** as said */
  text: string;
}

type Terms = (text: string) => Term[];

const bare = (token: string) =>
  token
    .toLowerCase()
    .replace(/’/g, "'")
    .replace(/^[^\p{L}\p{N}']+|[^\p{L}\p{N}']+$/gu, '');

/** The content words of a text by lemma (English) or lowercased (other languages). */
async function termReader(language: string): Promise<Terms> {
  if (primaryLanguage(language) !== 'en') {
    return (text) =>
      text
        .split(/\s+/)
        .map(bare)
        .filter((w) => [...w].length >= 3)
        .map((w) => ({ key: w, text: w }));
  }
  const { nlp } = await english();
  const its = nlp.its;
  return (text) => {
    const tokens = nlp.readDoc(text).tokens();
    const pos = tokens.out(its.pos) as string[];
    const said = tokens.out() as string[];
    const lemmas = tokens.out(its.lemma as never) as string[];
    const stop = tokens.out(its.stopWordFlag as never) as unknown as boolean[];
    const out: Term[] = [];
    for (let i = 0; i < said.length; i++) {
      const text = bare(said[i]);
      if (!CONTENT.has(pos[i]) || stop[i] || [...text].length < 3) continue;
      out.push({ key: bare(lemmas[i] || said[i]), text });
    }
    return out;
  };
}

/** The topic index of `topic` over a transcript's sentences. */
export async function topicIndex(topic: string, sentences: readonly Sentence[], language: string): Promise<TopicIndex> {
  const terms = await termReader(language);
  const wanted = new Set(terms(topic).map((t) => t.key));
  // a topic of stop words alone ("the one") is matched on its words as written
  if (wanted.size === 0) for (const w of topic.split(/\s+/).map(bare).filter(Boolean)) wanted.add(w);

  const bySentence = sentences.map((s) => terms(s.text));
  const n = sentences.length;
  const df = new Map<string, number>();
  const said = new Map<string, string>();
  for (const list of bySentence)
    for (const key of new Set(list.map((t) => t.key))) {
      df.set(key, (df.get(key) ?? 0) + 1);
    }
  for (const list of bySentence) for (const t of list) if (!said.has(t.key)) said.set(t.key, t.text);
  const present = [...wanted].filter((k) => df.has(k));
  const idf = (k: string) => Math.log(1 + n / (df.get(k) ?? 1));

  const names = bySentence.map((list) => list.some((t) => wanted.has(t.key)));
  const near = (i: number) => names[i] || names[i - 1] || names[i + 1];
  // the talk's salient words that keep the topic's company
  // sentences in or beside one naming the topic, per word: one pass
  const close = new Map<string, number>();
  bySentence.forEach((list, i) => {
    if (near(i)) for (const key of new Set(list.map((t) => t.key))) close.set(key, (close.get(key) ?? 0) + 1);
  });
  const related = new Set<string>();
  for (const [key, count] of df) {
    if (wanted.has(key) || count < RELATED_MIN_COUNT || count / n > RELATED_MAX_SPREAD) continue;
    if ((close.get(key) ?? 0) / count >= RELATED_NEAR_SHARE) related.add(key);
  }

  // per sentence: 1 naming the topic, RELATED_WEIGHT saying only related words; prefix sums for O(1) density
  const about = new Float64Array(n + 1);
  bySentence.forEach((list, i) => {
    about[i + 1] = about[i] + (names[i] ? 1 : list.some((t) => related.has(t.key)) ? RELATED_WEIGHT : 0);
  });
  // per topic word: prefix counts of the sentences naming it
  const naming = new Map(
    present.map((k) => {
      const sums = new Int32Array(n + 1);
      bySentence.forEach((list, i) => (sums[i + 1] = sums[i] + (list.some((t) => t.key === k) ? 1 : 0)));
      return [k, sums] as const;
    }),
  );
  const totalWeight = present.reduce((s, k) => s + idf(k), 0);
  const ranked = [...present].sort((a, b) => idf(b) - idf(a));

  return {
    present: present.length > 0,
    match(first, last) {
      if (!present.length) return 0;
      let covered = 0;
      for (const [k, sums] of naming) if (sums[last + 1] - sums[first] > 0) covered += idf(k);
      const density = (about[last + 1] - about[first]) / (last - first + 1);
      return Math.min(1, 0.5 * (covered / totalWeight) + 0.5 * density);
    },
    said(first, last) {
      const inRun = new Set(bySentence.slice(first, last + 1).flatMap((list) => list.map((t) => t.key)));
      const topicWords = ranked.filter((k) => inRun.has(k));
      const company = [...related].filter((k) => inRun.has(k)).sort((a, b) => idf(b) - idf(a));
      return [...topicWords, ...company].map((k) => said.get(k) ?? k);
    },
  };
}
