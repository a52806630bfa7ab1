import { describe, expect, it } from 'vitest';
import { alignWords, normaliseWords, parseCmuTranscription, scoreText, startsWithin, sumCounts, wordErrorRate } from '../../bench/wer.js';

describe('normaliseWords', () => {
  it('lower-cases, drops punctuation, splits hyphens and keeps inner apostrophes', () => {
    expect(normaliseWords('Well, Mr. Dashwood — cold-hearted; "don’t" (he said)!')).toEqual([
      'well',
      'mr',
      'dashwood',
      'cold',
      'hearted',
      "don't",
      'he',
      'said',
    ]);
  });

  it('drops quote apostrophes at word edges and expands nothing', () => {
    expect(normaliseWords("'Ten' o'clock, 10 Mister")).toEqual(['ten', "o'clock", '10', 'mister']);
    expect(normaliseWords('  ... ')).toEqual([]);
  });
});

describe('parseCmuTranscription', () => {
  it('reads `text (fileid)` lines without sentence and filler markers', () => {
    const map = parseCmuTranscription('<s> ten of clubs  </s> (001)\n<s> he [noise] was <sil> ill </s> (sense-0880)\n\n');
    expect([...map]).toEqual([
      ['001', 'ten of clubs'],
      ['sense-0880', 'he was ill'],
    ]);
  });
});

describe('alignWords and scoreText', () => {
  it('counts a substitution', () => {
    expect(scoreText('the cat sat', 'the hat sat')).toEqual({ n: 3, substitutions: 1, deletions: 0, insertions: 0 });
  });

  it('counts a deletion', () => {
    expect(scoreText('the cat sat down', 'the cat down')).toEqual({ n: 4, substitutions: 0, deletions: 1, insertions: 0 });
  });

  it('counts an insertion, so WER can pass 100%', () => {
    const c = scoreText('yes', 'oh yes yes');
    expect(c).toEqual({ n: 1, substitutions: 0, deletions: 0, insertions: 2 });
    expect(wordErrorRate(c)).toBe(2);
  });

  it('scores an empty hypothesis as all deletions, and an empty reference as NaN', () => {
    expect(scoreText('he was not', '')).toEqual({ n: 3, substitutions: 0, deletions: 3, insertions: 0 });
    expect(wordErrorRate(scoreText('he was not', ''))).toBe(1);
    expect(wordErrorRate(scoreText('', 'noise'))).toBeNaN();
  });

  it('normalises both sides before aligning', () => {
    expect(scoreText('He was not an ill-disposed young man.', 'he was NOT an ill disposed young man')).toEqual({
      n: 8,
      substitutions: 0,
      deletions: 0,
      insertions: 0,
    });
  });

  it('finds the fewest edits on a mixed example (an upstream hypothesis of a LibriVox clip)', () => {
    const a = alignWords(normaliseWords('he was not an ill disposed young man'), normaliseWords('he was not an illness those young man'));
    // "ill disposed" → "illness those": two substitutions, not a deletion and insertions
    expect([a.hits, a.substitutions, a.deletions, a.insertions]).toEqual([6, 2, 0, 0]);
    expect(a.ops.map((o) => o.op)).toEqual(['hit', 'hit', 'hit', 'hit', 'sub', 'sub', 'hit', 'hit']);
  });

  it('mixes all three kinds', () => {
    // ref: a b c d e f; hyp: a x c e f g → b→x (S), d deleted (D), g inserted (I)
    const a = alignWords(['a', 'b', 'c', 'd', 'e', 'f'], ['a', 'x', 'c', 'e', 'f', 'g']);
    expect([a.substitutions, a.deletions, a.insertions]).toEqual([1, 1, 1]);
    expect(wordErrorRate(a)).toBeCloseTo(3 / 6);
  });
});

describe('sumCounts', () => {
  it('adds the counts of a set, whose WER weighs utterances by their length', () => {
    const total = sumCounts([scoreText('a b c d', 'a b c d'), scoreText('e', 'f')]);
    expect(total).toEqual({ n: 5, substitutions: 1, deletions: 0, insertions: 0 });
    expect(wordErrorRate(total)).toBeCloseTo(0.2);
  });
});

describe('startsWithin', () => {
  it('counts hit words whose start is within the tolerance, over all reference words', () => {
    const a = alignWords(['go', 'forward', 'ten', 'meters'], ['go', 'forward', 'then', 'meters']);
    // go: 0.02 s off (in), forward: 0.15 s off (out), ten: a substitution (out), meters: exact (in)
    expect(startsWithin(a, [0, 0.3, 0.7, 1.0], [0.02, 0.45, 0.7, 1.0], 0.1)).toBeCloseTo(2 / 4);
  });
});
