/**
 * Finding a source's best moments: its transcript's sentences, the runs of
 * whole sentences that fit the clip lengths, their scores, and the best of
 * them that do not overlap. Every window is first rated by the offline rules
 * (cheap: O(1) a window); only the strongest candidates go to the configured
 * scorer, so an hour's transcript never sends thousands of windows to a
 * chat model.
 */
import { ABOUT_TOPIC, reasonsFor } from '../ai/clip-reasons.js';
import { topicIndex, type TopicIndex } from '../ai/clip-topic.js';
import type { Word } from '../media/transcript.js';
import { SentenceCache, SentenceRater, type ClipScorer, type ClipScoringContext } from './scoring.js';
import { sentencesOf } from './sentences.js';
import type { AudioFeatures, ScoredWindow, Sentence } from './types.js';
import { bestDisjoint, clipCountFor, forEachWindowSpan, pickBest, windowOf, type ClipLengths } from './windows.js';

export interface FindMomentsOptions extends ClipLengths {
  /** the analysed length of the source (seconds): how many clips it gets when `count` is not given (clipCountFor) */
  duration: number;
  /** how many clips the creator asked for; null or left out: clipCountFor(duration) */
  count?: number | null;
  /** what the clips should be about: clips about it rank first */
  topic?: string | null;
  scorer: ClipScorer;
  language: string;
  signal?: AbortSignal;
}

/** A chosen moment: its scores and title, why it scored so, its rank among the chosen and how much it is about the topic. */
export interface Moment extends ScoredWindow {
  /** two to four short sentences (src/ai/clip-reasons.ts) */
  reasons: string[];
  /** 1 = the best: about the topic first (when one is given), then by total */
  rank: number;
  /** 0-1; null without a topic */
  topicMatch: number | null;
}

export interface Moments {
  /** in time order */
  clips: Moment[];
  /** what the choice could not be as asked, in words; null when it is as asked */
  note: string | null;
}

/** Candidates the scorer sees: four for each clip wanted, at least 12, at most 60. */
export function candidateCap(clips: number): number {
  return Math.min(60, Math.max(12, clips * 4));
}

/** How much a candidate's offline rating gains from the topic (at a full match): enough that windows about it are always scored. */
const TOPIC_PULL = 100;

interface Span {
  first: number;
  last: number;
  start: number;
  end: number;
  rating: number;
}

/**
 * The best non-overlapping windows of whole sentences with lengths in
 * [minLength, maxLength], as many as asked (else as clipCountFor(duration)
 * allows), scored by `scorer` and ranked: with a topic, the windows about it
 * (a match of at least ABOUT_TOPIC) come first, by match and total; then by
 * total. No clips when the speech (first word to last) is shorter than
 * minLength or no run of sentences fits.
 */
export async function findMoments(words: readonly Word[], audio: AudioFeatures | null, opts: FindMomentsOptions): Promise<Moments> {
  const { minLength, maxLength, signal } = opts;
  const none: Moments = { clips: [], note: null };
  const sentences = sentencesOf(words);
  if (sentences.length === 0 || sentences[sentences.length - 1].end - sentences[0].start < minLength) return none;
  const topic = opts.topic?.trim() || null;
  const ctx: ClipScoringContext = { words, audio, language: opts.language, minLength, maxLength, topic };
  const count = opts.count ?? clipCountFor(opts.duration);
  const cache = await SentenceCache.for(ctx);
  const about = topic ? await topicIndex(topic, sentences, opts.language) : null;

  const rater = new SentenceRater(sentences, ctx, cache);
  const candidates = strongestSpans(sentences, rater, about, { minLength, maxLength }, { cap: candidateCap(count), count });
  signal?.throwIfAborted();
  if (candidates.length === 0) return none;
  candidates.sort((a, b) => a.start - b.start || a.end - b.end);
  const windows = candidates.map((c) => windowOf(sentences, c.first, c.last));
  const scored = await opts.scorer.score(windows, ctx, { signal });
  if (scored.length !== windows.length) throw new Error(`the clip scorer gave ${scored.length} scores for ${windows.length} windows`);

  const all = candidates.map((c, i) => {
    const offline = about ? about.match(c.first, c.last) : null;
    const topicMatch = about ? round2(scored[i].topicMatch ?? offline!) : null;
    const topicFacts = about && topic ? { topic, said: about.said(c.first, c.last), match: topicMatch! } : null;
    return {
      ...windows[i],
      scores: scored[i].scores,
      title: scored[i].title,
      topicMatch,
      reasons: reasonsFor(rater.facts(c.first, c.last), topicFacts),
    };
  });
  // the best first; when that leaves too little room around it for the count, the set that holds the most
  const greedy = pickBest(all, count, rankKey);
  const fullest = greedy.length < count ? bestDisjoint(all, count, rankKey) : greedy;
  const chosen = fullest.length > greedy.length ? fullest : greedy;
  const ranked = [...chosen].sort((a, b) => rankKey(b) - rankKey(a) || a.start - b.start);
  const clips = chosen.map((m) => ({ ...m, rank: ranked.indexOf(m) + 1 }));
  return { clips, note: noteOf({ asked: opts.count ?? null, made: clips.length, topic, about, lengths: { minLength, maxLength } }) };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** The order of the ranking: windows about the topic first (by match, then total), then by total. */
function rankKey(w: { scores: { total: number }; topicMatch: number | null }): number {
  if (w.topicMatch === null || w.topicMatch < ABOUT_TOPIC) return w.scores.total;
  return 1000 + 60 * w.topicMatch + 0.4 * w.scores.total;
}

/** What the creator asked for and could not get, in words. */
function noteOf(o: { asked: number | null; made: number; topic: string | null; about: TopicIndex | null; lengths: ClipLengths }): string | null {
  const notes: string[] = [];
  if (o.asked !== null && o.made < o.asked) {
    notes.push(
      `You asked for ${o.asked} clips; the source has ${o.made} distinct moment${o.made === 1 ? '' : 's'} of whole sentences lasting ${o.lengths.minLength}-${o.lengths.maxLength} s.`,
    );
  }
  if (o.topic && o.about && !o.about.present) notes.push(`Nothing in the source names “${o.topic}”; the clips are ranked by their scores alone.`);
  return notes.length ? notes.join(' ') : null;
}

/**
 * Up to `cap` windows worth scoring: the best-rated window starting at each
 * sentence (the topic's match adds to the rating), then taken in layers, each
 * layer the best-rated windows that do not overlap one another, so the
 * candidates cover the whole source and always hold enough disjoint clips.
 */
function strongestSpans(
  sentences: readonly Sentence[],
  rater: SentenceRater,
  about: TopicIndex | null,
  lengths: ClipLengths,
  { cap, count }: { cap: number; count: number },
): Span[] {
  const byFirst: Span[] = [];
  const every: Span[] = [];
  forEachWindowSpan(sentences, lengths, (first, last) => {
    const rating = rater.scores(first, last).total + (about ? TOPIC_PULL * about.match(first, last) : 0);
    const span = { first, last, start: sentences[first].start, end: sentences[last].end, rating };
    every.push(span);
    const held = byFirst[first];
    if (!held || rating > held.rating) byFirst[first] = span;
  });
  // the set of `count` windows with room for all of them, which the layers below may miss, is always scored
  const out: Span[] = bestDisjoint(every, count, (s) => s.rating).slice(0, cap);
  let rest = byFirst.filter((s) => s && !out.includes(s)).sort((a, b) => b.rating - a.rating || a.start - b.start || a.end - b.end);
  while (rest.length > 0 && out.length < cap) {
    const layer: Span[] = [];
    const left: Span[] = [];
    for (const s of rest) {
      if (out.length + layer.length < cap && !layer.some((l) => s.start < l.end && l.start < s.end)) layer.push(s);
      else left.push(s);
    }
    out.push(...layer);
    rest = left;
  }
  return out;
}
