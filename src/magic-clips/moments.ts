/**
 * Finding a source's best moments: its transcript's sentences, the runs of
 * whole sentences that fit the clip lengths, their scores, and the best of
 * them that do not overlap. Every window is first rated by the offline rules
 * (cheap: O(1) a window); only the strongest candidates go to the configured
 * scorer, so an hour's transcript never sends thousands of windows to a
 * chat model.
 */
import type { Word } from '../media/transcript.js';
import { SentenceCache, SentenceRater, type ClipScorer, type ClipScoringContext } from './scoring.js';
import { sentencesOf } from './sentences.js';
import type { AudioFeatures, ScoredWindow, Sentence } from './types.js';
import { clipCountFor, forEachWindowSpan, pickBest, windowOf, type ClipLengths } from './windows.js';

export interface FindMomentsOptions extends ClipLengths {
  /** the source's length (seconds): how many clips it gets (clipCountFor) */
  duration: number;
  scorer: ClipScorer;
  language: string;
  signal?: AbortSignal;
}

/** Candidates the scorer sees: four for each clip wanted, at least 12, at most 60. */
export function candidateCap(clips: number): number {
  return Math.min(60, Math.max(12, clips * 4));
}

interface Span {
  first: number;
  last: number;
  start: number;
  end: number;
  rating: number;
}

/**
 * The best non-overlapping windows of whole sentences with lengths in
 * [minLength, maxLength], as many as clipCountFor(duration) allows, scored by
 * `scorer`, in time order. Empty when the speech (first word to last) is
 * shorter than minLength or no run of sentences fits.
 */
export async function findMoments(words: readonly Word[], audio: AudioFeatures | null, opts: FindMomentsOptions): Promise<ScoredWindow[]> {
  const { minLength, maxLength, signal } = opts;
  const sentences = sentencesOf(words);
  if (sentences.length === 0 || sentences[sentences.length - 1].end - sentences[0].start < minLength) return [];
  const ctx: ClipScoringContext = { words, audio, language: opts.language, minLength, maxLength };
  const count = clipCountFor(opts.duration);

  const candidates = strongestSpans(sentences, await SentenceCache.for(ctx), ctx, { minLength, maxLength }, candidateCap(count));
  signal?.throwIfAborted();
  if (candidates.length === 0) return [];
  const windows = candidates.sort((a, b) => a.start - b.start || a.end - b.end).map((c) => windowOf(sentences, c.first, c.last));
  const scored = await opts.scorer.score(windows, ctx, { signal });
  if (scored.length !== windows.length) throw new Error(`the clip scorer gave ${scored.length} scores for ${windows.length} windows`);
  return pickBest(
    windows.map((w, i) => ({ ...w, scores: scored[i].scores, title: scored[i].title })),
    count,
  );
}

/**
 * Up to `cap` windows worth scoring: the best-rated window starting at each
 * sentence, then taken in layers, each layer the best-rated windows that do
 * not overlap one another, so the candidates cover the whole source and
 * always hold enough disjoint clips.
 */
function strongestSpans(sentences: readonly Sentence[], cache: SentenceCache, ctx: ClipScoringContext, lengths: ClipLengths, cap: number): Span[] {
  const rater = new SentenceRater(sentences, ctx, cache);
  const byFirst: Span[] = [];
  forEachWindowSpan(sentences, lengths, (first, last) => {
    const rating = rater.scores(first, last).total;
    const held = byFirst[first];
    if (!held || rating > held.rating) byFirst[first] = { first, last, start: sentences[first].start, end: sentences[last].end, rating };
  });
  let rest = byFirst.filter(Boolean).sort((a, b) => b.rating - a.rating || a.start - b.start || a.end - b.end);
  const out: Span[] = [];
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
