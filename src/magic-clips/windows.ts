/**
 * Candidate clips and the choice among them: runs of whole sentences whose
 * length fits the project's bounds, how many clips a source gets, and the
 * best of them that do not overlap.
 */
import type { ClipWindow, ScoredWindow, Sentence } from './types.js';

export interface ClipLengths {
  /** seconds */
  minLength: number;
  maxLength: number;
}

/** A source gets one clip per this many seconds of its length (rounded)... */
export const SECONDS_PER_CLIP = 180;
/** ...at least one and at most this many. */
export const MAX_CLIPS = 10;

/**
 * Calls `visit(first, last)` for every run of consecutive sentences
 * `sentences[first..last]` whose span (first start to last end) lies in
 * [minLength, maxLength], in order of `first`, then `last`. A run stops
 * growing once it is longer than maxLength, so the work is O(n * k), k the
 * most sentences a maxLength holds.
 */
export function forEachWindowSpan(sentences: readonly Sentence[], { minLength, maxLength }: ClipLengths, visit: (first: number, last: number) => void): void {
  for (let first = 0; first < sentences.length; first++) {
    const start = sentences[first].start;
    for (let last = first; last < sentences.length; last++) {
      const span = sentences[last].end - start;
      if (span > maxLength + 1e-9) break;
      if (span >= minLength - 1e-9) visit(first, last);
    }
  }
}

/** The window of `sentences[first..last]`. */
export function windowOf(sentences: readonly Sentence[], first: number, last: number): ClipWindow {
  const run = sentences.slice(first, last + 1);
  return { start: run[0].start, end: run[run.length - 1].end, sentences: run, text: run.map((s) => s.text).join(' ') };
}

/** Every run of whole consecutive sentences whose span lies in [minLength, maxLength]. */
export function candidateWindows(sentences: readonly Sentence[], lengths: ClipLengths): ClipWindow[] {
  const out: ClipWindow[] = [];
  forEachWindowSpan(sentences, lengths, (first, last) => out.push(windowOf(sentences, first, last)));
  return out;
}

/**
 * How many clips a source of this length (seconds) gets: one per
 * SECONDS_PER_CLIP (3 minutes), rounded, at least 1 and at most MAX_CLIPS (a
 * 10-minute talk gives 3, an hour 10). Fewer come out when fewer
 * non-overlapping windows exist.
 */
export function clipCountFor(durationSeconds: number): number {
  if (!Number.isFinite(durationSeconds) || durationSeconds <= 0) return 1;
  return Math.min(MAX_CLIPS, Math.max(1, Math.round(durationSeconds / SECONDS_PER_CLIP)));
}

const overlaps = (a: ClipWindow, b: ClipWindow) => a.start < b.end - 1e-9 && b.start < a.end - 1e-9;

/**
 * The best `count` windows by total score that do not overlap one another
 * (touching ends are fine), in time order. Ties go to the earlier, then the
 * shorter window, so the choice is the same on every run.
 */
export function pickBest<T extends ScoredWindow>(scored: readonly T[], count: number): T[] {
  const ranked = [...scored].sort((a, b) => b.scores.total - a.scores.total || a.start - b.start || a.end - b.end);
  const chosen: T[] = [];
  for (const w of ranked) {
    if (chosen.length >= count) break;
    if (!chosen.some((c) => overlaps(c, w))) chosen.push(w);
  }
  return chosen.sort((a, b) => a.start - b.start);
}
