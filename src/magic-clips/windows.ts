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
 * The best `count` windows by total score (or by `key`) that do not overlap one another
 * (touching ends are fine), in time order. Ties go to the earlier, then the
 * shorter window, so the choice is the same on every run.
 */
export function pickBest<T extends ScoredWindow>(scored: readonly T[], count: number, key: (w: T) => number = (w) => w.scores.total): T[] {
  const ranked = [...scored].sort((a, b) => key(b) - key(a) || a.start - b.start || a.end - b.end);
  const chosen: T[] = [];
  for (const w of ranked) {
    if (chosen.length >= count) break;
    if (!chosen.some((c) => overlaps(c, w))) chosen.push(w);
  }
  return chosen.sort((a, b) => a.start - b.start);
}

/**
 * As many windows as can be had, up to `count`, that do not overlap (touching
 * ends are fine), and among such sets the one of the largest summed `key`:
 * weighted interval scheduling, O(m log m + m * count) for m windows. In time
 * order. What meets a clip count where taking the best window first would
 * leave too little room on either side of it.
 */
export function bestDisjoint<T extends { start: number; end: number }>(windows: readonly T[], count: number, key: (w: T) => number): T[] {
  const byEnd = [...windows].sort((a, b) => a.end - b.end || a.start - b.start);
  const m = byEnd.length;
  if (m === 0 || count <= 0) return [];
  // a set's worth: its size first, then its sum (keys are far below PER_CLIP)
  const PER_CLIP = 1e7;
  // before[j]: how many windows end by the start of byEnd[j]
  const before = byEnd.map((w) => {
    let lo = 0;
    let hi = m;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (byEnd[mid].end <= w.start + 1e-9) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  });
  const width = count + 1;
  // best[j * width + k]: the worth of the best set of at most k windows among the first j
  const best = new Float64Array((m + 1) * width);
  for (let j = 1; j <= m; j++) {
    const w = byEnd[j - 1];
    const worth = PER_CLIP + key(w);
    for (let k = 1; k <= count; k++) {
      const skip = best[(j - 1) * width + k];
      const take = best[before[j - 1] * width + k - 1] + worth;
      best[j * width + k] = Math.max(take, skip);
    }
  }
  const out: T[] = [];
  for (let j = m, k = count; j > 0 && k > 0; ) {
    if (best[j * width + k] === best[(j - 1) * width + k]) j--;
    else {
      out.push(byEnd[j - 1]);
      j = before[j - 1];
      k--;
    }
  }
  return out.reverse();
}
