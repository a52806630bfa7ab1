/**
 * The cut timeline of the one-pass renderer: which source ranges are removed
 * (silences, bad takes), which are kept, how source times map to output times,
 * and the `select`/`aselect` expression that keeps them.
 *
 * Everything here is pure; times are seconds. Source times are those of the
 * transcript; output times are those of the rendered (cut) video.
 */
import { PACE_MIN_SILENCE, type SilencePace } from '../../catalog/silence-paces.js';
import type { Segment, TakeCut, TimedWord } from '../transcript.js';

/** Silence kept on each side of speech at most, so cuts never clip a word. */
export const DEFAULT_SILENCE_PADDING = 0.08;

export interface SilenceCutOptions {
  pace: SilencePace;
  /** source duration in seconds */
  duration: number;
  /** frame rate the render runs at (cuts shorter than a frame are dropped) */
  fps: number;
  /**
   * silence kept next to speech on each side; default the smaller of 0.08 s and
   * a quarter of the pace's minimum silence (so fast paces still cut something)
   */
  padding?: number;
  /**
   * measured low-audio ranges (audio-levels.ts): each cut is trimmed to its
   * first and last quiet moment, so speech the transcript's timings miss at the
   * edge of a pause is kept; a cut with nothing quiet in it (steady background
   * sound) stays as the transcript gives it
   */
  quiet?: Segment[];
}

const spoken = (words: readonly TimedWord[]) =>
  words
    .filter((w) => w.type === 'word' && Number.isFinite(w.startTime) && Number.isFinite(w.endTime))
    .map((w) => ({ start: w.startTime, end: Math.max(w.startTime, w.endTime) }))
    .sort((a, b) => a.start - b.start || a.end - b.end);

/** Sorted, merged (overlapping or touching) copy of the ranges; empty ranges dropped. */
export function mergeSegments(segments: readonly Segment[]): Segment[] {
  const sorted = segments
    .filter((s) => s.end > s.start)
    .map((s) => ({ ...s }))
    .sort((a, b) => a.start - b.start);
  const out: Segment[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push(s);
  }
  return out;
}

/**
 * Ranges to remove for `removeSilencePace`: every stretch without speech (the
 * transcript's silence words lie in the gaps between spoken words, and before
 * the first and after the last) at least PACE_MIN_SILENCE[pace] long, minus
 * `padding` next to speech. The leading and trailing silence are cut to the
 * edge of the video. A transcript without spoken words gives no cuts.
 */
export function silenceCuts(words: readonly TimedWord[], opts: SilenceCutOptions): Segment[] {
  const min = PACE_MIN_SILENCE[opts.pace];
  const padding = Math.max(0, opts.padding ?? Math.min(DEFAULT_SILENCE_PADDING, min / 4));
  const frame = 1 / opts.fps;
  const speech = mergeSegments(spoken(words).map((s) => (s.end > s.start ? s : { start: s.start, end: s.start + 1e-6 })));
  if (!speech.length || !(opts.duration > 0)) return [];
  const gaps: Array<Segment & { lead: boolean; trail: boolean }> = [];
  let cursor = 0;
  for (const s of speech) {
    if (s.start > cursor) gaps.push({ start: cursor, end: Math.min(s.start, opts.duration), lead: cursor === 0, trail: false });
    cursor = Math.max(cursor, s.end);
  }
  if (cursor < opts.duration) gaps.push({ start: cursor, end: opts.duration, lead: false, trail: true });
  let cuts: Segment[] = [];
  for (const g of gaps) {
    if (g.end - g.start < min - 1e-9) continue;
    const start = g.lead ? 0 : g.start + padding;
    const end = g.trail ? opts.duration : g.end - padding;
    if (end - start > 1e-9) cuts.push({ start, end });
  }
  if (opts.quiet?.length) cuts = trimToQuiet(cuts, opts.quiet);
  return cuts.filter((c) => c.end - c.start >= frame - 1e-9);
}

/** Each cut shrunk to the hull of its quiet parts; cuts without any quiet part unchanged (one sweep). */
export function trimToQuiet(cuts: readonly Segment[], quiet: readonly Segment[]): Segment[] {
  const q = mergeSegments(quiet);
  const out: Segment[] = [];
  let j = 0;
  for (const c of mergeSegments(cuts)) {
    while (j < q.length && q[j].end <= c.start) j++;
    let first: number | null = null;
    let last: number | null = null;
    for (let k = j; k < q.length && q[k].start < c.end; k++) {
      first ??= Math.max(c.start, q[k].start);
      last = Math.min(c.end, q[k].end);
    }
    out.push(first !== null && last !== null && last > first ? { start: first, end: last } : c);
  }
  return out;
}

// ---------------------------------------------------------------------------
// bad takes

/** Finds the takes to remove in a transcript (offline heuristics or an AI service). */
export interface TakeDetector {
  detect(words: readonly TimedWord[]): Promise<TakeCut[]>;
}

/** Lower case, letters and digits only (apostrophes dropped: "don't" = "dont"). */
export const normalizeWord = (text: string) =>
  text
    .toLocaleLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, '');

export interface RepeatedPhraseOptions {
  /** shortest repeated phrase, in words (default 3) */
  minWords?: number;
  /** the repeat must start at most this many seconds after the earlier take starts (default 8) */
  withinSeconds?: number;
}

/**
 * Offline bad-take detector: when a phrase of at least `minWords` words is
 * spoken again soon after, the earlier take (from its first word to just
 * before the repeat starts) is removed; a phrase said three times keeps only
 * its last take.
 */
export function repeatedPhraseDetector(options: RepeatedPhraseOptions = {}): TakeDetector {
  const n = Math.max(1, options.minWords ?? 3);
  const within = options.withinSeconds ?? 8;
  return {
    async detect(words) {
      const toks = words
        .filter((w) => w.type === 'word')
        .map((w) => ({ key: normalizeWord(w.text), start: w.startTime }))
        .filter((t) => t.key)
        .sort((a, b) => a.start - b.start);
      const same = (i: number, j: number) => {
        for (let k = 0; k < n; k++) if (toks[i + k].key !== toks[j + k].key) return false;
        return true;
      };
      const cuts: TakeCut[] = [];
      let floor = 0; // an earlier take starts at or after the last kept repeat
      for (let j = n; j + n <= toks.length; j++) {
        for (let i = floor; i + n <= j; i++) {
          if (toks[j].start - toks[i].start > within) continue;
          if (!same(i, j)) continue;
          const phrase = toks
            .slice(j, j + n)
            .map((t) => t.key)
            .join(' ');
          cuts.push({ removeStart: toks[i].start, removeEnd: toks[j].start, reason: `repeated phrase "${phrase}"` });
          floor = j;
          break;
        }
      }
      return cuts.filter((c) => c.removeEnd > c.removeStart);
    },
  };
}

/** Source ranges removed as bad takes, by `detector` (default: the offline repeatedPhraseDetector). */
export async function badTakeCuts(words: readonly TimedWord[], detector: TakeDetector = repeatedPhraseDetector()): Promise<Segment[]> {
  const found = await detector.detect(words);
  return mergeSegments(found.map((c) => ({ start: c.removeStart, end: c.removeEnd })));
}

// ---------------------------------------------------------------------------
// kept segments and time mapping

/**
 * The kept source segments once `cuts` are removed from [0, duration]: cuts
 * are merged and sorted, every boundary (the duration too) is rounded to the
 * frame grid (1/fps), and kept pieces shorter than one frame are dropped.
 */
export function keepSegments(duration: number, cuts: readonly Segment[], fps: number): Segment[] {
  if (!(fps > 0)) throw new Error('fps must be positive');
  const total = Math.round(duration * fps);
  const frames = mergeSegments(
    cuts.map((c) => ({
      start: Math.min(total, Math.max(0, Math.round(c.start * fps))),
      end: Math.min(total, Math.max(0, Math.round(c.end * fps))),
    })),
  );
  const keep: Segment[] = [];
  let cursor = 0;
  for (const c of frames) {
    if (c.start - cursor >= 1) keep.push({ start: cursor / fps, end: c.start / fps });
    cursor = Math.max(cursor, c.end);
  }
  if (total - cursor >= 1) keep.push({ start: cursor / fps, end: total / fps });
  return keep;
}

/** Length of the output: the sum of the kept segments. */
export const outputDuration = (keep: readonly Segment[]) => keep.reduce((sum, s) => sum + (s.end - s.start), 0);

/** Output time of source time `t`, or null when `t` is cut (segment ends are inclusive). */
export function mapTime(keep: readonly Segment[], t: number): number | null {
  let offset = 0;
  for (const s of keep) {
    if (t < s.start) return null;
    if (t <= s.end) return offset + (t - s.start);
    offset += s.end - s.start;
  }
  return null;
}

/**
 * The output ranges showing source range [start, end]: its parts inside kept
 * segments, in order (several when a cut falls inside it; none when all of it
 * is cut). A zero-length range gives one zero-length piece when kept.
 */
export function mapRange(keep: readonly Segment[], start: number, end: number): Segment[] {
  if (end <= start) {
    const t = mapTime(keep, start);
    return t === null ? [] : [{ start: t, end: t }];
  }
  const out: Segment[] = [];
  let offset = 0;
  for (const s of keep) {
    const a = Math.max(start, s.start);
    const b = Math.min(end, s.end);
    if (b > a) out.push({ start: offset + (a - s.start), end: offset + (b - s.start) });
    offset += s.end - s.start;
  }
  return out;
}

/** First to last output time of a source range (mapRange's hull); null when all of it is cut. */
export function mapSpan(keep: readonly Segment[], start: number, end: number): Segment | null {
  const parts = mapRange(keep, start, end);
  return parts.length ? { start: parts[0].start, end: parts[parts.length - 1].end } : null;
}

// ---------------------------------------------------------------------------
// select expression

const num = (x: number) => {
  const s = x.toFixed(6).replace(/\.?0+$/, '');
  return s === '-0' ? '0' : s;
};

/**
 * The `select`/`aselect` expression keeping `segments`: between() terms summed
 * as a balanced binary tree, ((a+b)+(c+d)), since a flat sum of over a hundred
 * terms fails in ffmpeg. Each term is shifted `margin` seconds earlier (default
 * 1 ms, far below a frame) so that a frame-aligned segment [a, b) keeps the
 * frame at a and not the one at b (between() includes both ends). No segments
 * gives `0`.
 */
export function betweenTree(segments: readonly Segment[], variable = 't', margin = 0.001): string {
  const terms = segments.filter((s) => s.end > s.start).map((s) => `between(${variable},${num(Math.max(0, s.start - margin))},${num(s.end - margin)})`);
  return balancedSum(terms);
}

/** Sum of expressions as a balanced binary tree (a flat sum of over a hundred terms fails in ffmpeg). */
export function balancedSum(terms: readonly string[]): string {
  if (!terms.length) return '0';
  const build = (lo: number, hi: number): string => {
    if (hi - lo === 1) return terms[lo];
    const mid = (lo + hi) >> 1;
    return `(${build(lo, mid)}+${build(mid, hi)})`;
  };
  return build(0, terms.length);
}
