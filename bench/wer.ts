/**
 * Word error rate: the scoring of `npm run bench -- transcription`, kept pure so
 * its rules can be tested on hand-made examples (test/unit/wer.test.ts).
 */

/**
 * The words of a text, normalised the same way for references and hypotheses:
 * Unicode NFKC, lower case, typographic apostrophes made straight; every character
 * that is not a letter, digit or apostrophe separates words (so "cold-hearted" is
 * "cold hearted" and "Well," is "well"); apostrophes at a word's edges are quotes and
 * go. Nothing is expanded: "mr" and "mister", "10" and "ten" stay different words.
 */
export function normaliseWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[^\p{L}\p{N}']+/gu, ' ')
    .split(' ')
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter(Boolean);
}

/** `<s>`, `</s>`, `<sil>`, `[noise]`, `++breath++`: markers of CMU transcripts, not words */
const CMU_MARKER = /^(<[^>]*>|\[[^\]]*\]|\+\+.*\+\+)$/;

/**
 * A CMU Sphinx transcription file (`<s> the text </s> (fileid)` a line) as fileid → text,
 * without the sentence and filler markers.
 */
export function parseCmuTranscription(content: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of content.split(/\r?\n/)) {
    const m = /^(.*)\(([^()\s]+)\)\s*$/.exec(line.trim());
    if (!m) continue;
    const text = m[1]
      .trim()
      .split(/\s+/)
      .filter((w) => w && !CMU_MARKER.test(w))
      .join(' ');
    out.set(m[2], text);
  }
  return out;
}

/** a reference word and the hypothesis word aligned with it, the same (hit) or not (sub) */
export interface PairOp {
  op: 'hit' | 'sub';
  ref: number;
  hyp: number;
}

export type EditOp = PairOp | { op: 'del'; ref: number } | { op: 'ins'; hyp: number };

export interface WerCounts {
  /** words of the reference */
  n: number;
  substitutions: number;
  deletions: number;
  insertions: number;
}

export interface Alignment extends WerCounts {
  hits: number;
  /** in reference order: which reference word each hypothesis word stands for */
  ops: EditOp[];
}

/**
 * Levenshtein alignment on words (every edit costs 1). Of the alignments with the fewest
 * edits, the backtrace prefers a hit or substitution to a deletion, and a deletion to an
 * insertion; the total S + D + I is the same for all of them.
 */
export function alignWords(ref: readonly string[], hyp: readonly string[]): Alignment {
  const cols = hyp.length + 1;
  const cost = new Uint32Array((ref.length + 1) * cols);
  for (let j = 0; j <= hyp.length; j++) cost[j] = j;
  for (let i = 1; i <= ref.length; i++) {
    cost[i * cols] = i;
    for (let j = 1; j <= hyp.length; j++) {
      const diagonal = cost[(i - 1) * cols + j - 1] + (ref[i - 1] === hyp[j - 1] ? 0 : 1);
      cost[i * cols + j] = Math.min(diagonal, cost[(i - 1) * cols + j] + 1, cost[i * cols + j - 1] + 1);
    }
  }
  const ops: EditOp[] = [];
  let i = ref.length;
  let j = hyp.length;
  while (i > 0 || j > 0) {
    const here = cost[i * cols + j];
    if (i > 0 && j > 0 && here === cost[(i - 1) * cols + j - 1] + (ref[i - 1] === hyp[j - 1] ? 0 : 1)) {
      ops.push({ op: ref[i - 1] === hyp[j - 1] ? 'hit' : 'sub', ref: --i, hyp: --j });
    } else if (i > 0 && here === cost[(i - 1) * cols + j] + 1) {
      ops.push({ op: 'del', ref: --i });
    } else {
      ops.push({ op: 'ins', hyp: --j });
    }
  }
  ops.reverse();
  const count = (op: EditOp['op']) => ops.filter((o) => o.op === op).length;
  return { n: ref.length, hits: count('hit'), substitutions: count('sub'), deletions: count('del'), insertions: count('ins'), ops };
}

/** Counts of a reference text against a hypothesis text, both normalised by normaliseWords. */
export function scoreText(reference: string, hypothesis: string): WerCounts {
  const { n, substitutions, deletions, insertions } = alignWords(normaliseWords(reference), normaliseWords(hypothesis));
  return { n, substitutions, deletions, insertions };
}

/** Counts of a set: each utterance is aligned on its own, then the counts are added. */
export function sumCounts(counts: readonly WerCounts[]): WerCounts {
  return counts.reduce(
    (a, c) => ({
      n: a.n + c.n,
      substitutions: a.substitutions + c.substitutions,
      deletions: a.deletions + c.deletions,
      insertions: a.insertions + c.insertions,
    }),
    { n: 0, substitutions: 0, deletions: 0, insertions: 0 },
  );
}

/** (S + D + I) / N; NaN for an empty reference, where the rate means nothing. */
export const wordErrorRate = (c: WerCounts) => (c.n === 0 ? NaN : (c.substitutions + c.deletions + c.insertions) / c.n);

/**
 * The share of the reference's words that the hypothesis got right (a hit) and started
 * within `tolerance` seconds of the reference start; for sets with a timed reference alignment.
 */
export function startsWithin(alignment: Alignment, refStarts: readonly number[], hypStarts: readonly number[], tolerance: number): number {
  const hits = alignment.ops.filter((o): o is PairOp => o.op === 'hit');
  if (alignment.n === 0) return NaN;
  return hits.filter((o) => Math.abs(refStarts[o.ref] - hypStarts[o.hyp]) <= tolerance).length / alignment.n;
}
