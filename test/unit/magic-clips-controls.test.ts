// What a creator steers and reads of magic clips, on transcripts built here: a target
// clip count (met when the talk has that many moments, said when it has not), a topic
// whose section ranks first only when it is asked for, and the reasons each clip gives
// for its scores, made from what the scorer measured in it.
import { describe, expect, it } from 'vitest';
import { reasonsFor, REASONS } from '../../src/ai/clip-reasons.js';
import { topicIndex } from '../../src/ai/clip-topic.js';
import { SentenceCache, SentenceRater } from '../../src/ai/clip-scoring.js';
import type { Word } from '../../src/media/transcript.js';
import { findMoments } from '../../src/magic-clips/moments.js';
import { OfflineClipScorer } from '../../src/magic-clips/scoring.js';
import { sentencesOf } from '../../src/magic-clips/sentences.js';
import { bestDisjoint, pickBest } from '../../src/magic-clips/windows.js';
import type { AudioFeatures } from '../../src/magic-clips/types.js';

let ids = 0;
/** Each sentence's tokens as words of 0.3 s, 0.05 s apart, with a 0.6 s silence after it. */
function talk(sentences: readonly string[], at = 0): Word[] {
  const out: Word[] = [];
  let t = at;
  for (const s of sentences) {
    for (const token of s.split(/\s+/).filter(Boolean)) {
      out.push({ id: `w${ids++}`, text: token, type: 'word', startTime: t, endTime: t + 0.3 });
      t += 0.35;
    }
    out.push({ id: `w${ids++}`, text: '', type: 'silence', startTime: t - 0.05, endTime: t + 0.55 });
    t += 0.55;
  }
  return out;
}

/** Strong openings: questions, numbers, "you", claims, feelings. */
const HOOKY = [
  'Have you ever wondered why most startups fail in their first year?',
  'I spent ten years building companies, and I made every mistake you can imagine.',
  'The biggest one was hiring my friends instead of the best people.',
  'It felt safe, but it was a total disaster and I was miserable.',
  'You have to tell people the truth, even when it hurts.',
  'Six months later we had doubled our revenue.',
];
/** A plain section about gardening: flat words, no hook. */
const GARDEN = [
  'The garden is at the back of the house.',
  'We planted tomatoes in the garden beds in spring.',
  'The tomato plants needed water in the morning.',
  'Compost went into the soil of every bed.',
  'Later the garden gave us tomatoes and beans.',
  'The soil stayed damp under the compost.',
];
const OPTS = { minLength: 15, maxLength: 25, scorer: new OfflineClipScorer(), language: 'en' } as const;

describe('topic', () => {
  // hooky talk, then the garden, then hooky talk again: about two minutes
  const words = [...talk(HOOKY), ...talk(GARDEN, 40), ...talk(HOOKY, 80)];
  const gardenStart = 40;
  const gardenEnd = 80;
  const inGarden = (c: { start: number; end: number }) => c.start >= gardenStart - 1 && c.end <= gardenEnd + 1;

  it('a section about the topic ranks first when the topic is given, and not otherwise', async () => {
    const plain = await findMoments(words, null, { ...OPTS, duration: 120, count: 3 });
    expect(plain.clips).toHaveLength(3);
    const best = plain.clips.find((c) => c.rank === 1)!;
    expect(inGarden(best)).toBe(false);
    expect(plain.clips.every((c) => c.topicMatch === null)).toBe(true);

    const about = await findMoments(words, null, { ...OPTS, duration: 120, count: 3, topic: 'growing tomatoes in a garden' });
    const first = about.clips.find((c) => c.rank === 1)!;
    expect(inGarden(first)).toBe(true);
    expect(first.topicMatch).toBeGreaterThan(0.5);
    // the garden clip scores lower than the hooky ones: the topic, not the score, put it first
    expect(first.scores.total).toBeLessThan(Math.max(...about.clips.map((c) => c.scores.total)));
    expect(first.reasons[0]).toMatch(/^About “growing tomatoes in a garden”: says “(garden|tomatoes|tomato)”/);
    // ranks are 1..n, the clips in time order
    expect(about.clips.map((c) => c.rank).sort()).toEqual([1, 2, 3]);
    expect(about.clips.map((c) => c.start)).toEqual([...about.clips.map((c) => c.start)].sort((a, b) => a - b));
    expect(about.note).toBeNull();
  });

  it('matches by lemma ("tomato" finds "tomatoes") and counts the talk’s words that keep the topic company', async () => {
    const index = await topicIndex('tomato', sentencesOf(talk(GARDEN)), 'en');
    expect(index.present).toBe(true);
    expect(index.match(1, 2)).toBeGreaterThan(0.5);
    // "garden", "compost", "soil" are said beside the tomatoes: related, so a bed of compost is somewhat about them
    expect(index.said(0, 5)).toEqual(expect.arrayContaining(['tomatoes']));
    expect(index.match(3, 3)).toBeGreaterThan(0);
    expect(index.match(3, 3)).toBeLessThan(index.match(1, 2));
  });

  it('a topic the talk never names ranks by score alone, and the project says so', async () => {
    const r = await findMoments(words, null, { ...OPTS, duration: 120, count: 2, topic: 'quantum chemistry' });
    expect(r.clips).toHaveLength(2);
    expect(r.clips.every((c) => c.topicMatch === 0)).toBe(true);
    expect(r.note).toBe('Nothing in the source names “quantum chemistry”; the clips are ranked by their scores alone.');
  });
});

describe('clip count', () => {
  const long = [...talk(HOOKY), ...talk(GARDEN, 40), ...talk(HOOKY, 80), ...talk(GARDEN, 120), ...talk(HOOKY, 160)];

  it('is met when the talk has that many distinct moments', async () => {
    // 200 s of speech, clips of 15-25 s: room for 7
    for (const count of [1, 4, 7]) {
      const { clips, note } = await findMoments(long, null, { ...OPTS, duration: 200, count });
      expect(clips).toHaveLength(count);
      expect(note).toBeNull();
      for (let i = 1; i < clips.length; i++) expect(clips[i].start).toBeGreaterThanOrEqual(clips[i - 1].end);
    }
  });

  it('is met where taking the best moment first would leave no room around it', () => {
    const w = (start: number, end: number, total: number) => ({
      start,
      end,
      sentences: [],
      text: '',
      title: 't',
      scores: { total, shareability: 0, hook_strength: 0, story_quality: 0, emotional_impact: 0 },
    });
    // the best moment sits in the middle of 40 s; two of 18 s fit only on either side of it
    const all = [w(11, 29, 90), w(0, 18, 50), w(22, 40, 60), w(5, 23, 40)];
    expect(pickBest(all, 2).map((c) => c.start)).toEqual([11]);
    expect(bestDisjoint(all, 2, (c) => c.scores.total).map((c) => [c.start, c.end])).toEqual([
      [0, 18],
      [22, 40],
    ]);
    // among sets of the most windows, the largest sum; never more than asked
    expect(bestDisjoint([...all, w(0, 10, 99), w(30, 40, 1)], 2, (c) => c.scores.total).map((c) => c.start)).toEqual([0, 11]);
    expect(bestDisjoint(all, 0, () => 1)).toEqual([]);
  });

  it('is said when the talk has fewer: the clips there are, and the reason in the project', async () => {
    const { clips, note } = await findMoments(long, null, { ...OPTS, duration: 200, count: 20 });
    expect(clips.length).toBeGreaterThan(4);
    expect(clips.length).toBeLessThan(20);
    expect(note).toBe(`You asked for 20 clips; the source has ${clips.length} distinct moments of whole sentences lasting 15-25 s.`);
  });
});

describe('reasons', () => {
  it('two to four sentences quoting what the scores were made from, strongest first', async () => {
    const { clips } = await findMoments(talk(HOOKY), null, { ...OPTS, duration: 40, count: 1 });
    const [clip] = clips;
    expect(clip.reasons.length).toBeGreaterThanOrEqual(REASONS.min);
    expect(clip.reasons.length).toBeLessThanOrEqual(REASONS.max);
    // weighted as the total weighs them: the story (a fifth of the total, most of it for full sentences and turns) above
    // the feelings (a quarter x 0.45), standing alone (a quarter, two parts of it), the question (0.3 x 0.25)
    expect(clip.reasons).toEqual([
      'A complete story with a turn (“instead”) in 4 full sentences',
      'Words of strong feeling: “fail”, “mistake” and “best”',
      'Stands on its own: it needs nothing said before it and ends on a full sentence',
      'Opens with a question: “Have you ever wondered why most startups fail…”',
    ]);
  });

  it('each feature in its own words: a number, a claim, a story with a turn, names, feelings', async () => {
    const sentences = sentencesOf(
      talk([
        'Three out of four people in London never finish what they start.',
        'I tried for years, but nothing worked.',
        'Then I found one simple trick.',
        'It was amazing, and I was so happy!',
      ]),
    );
    const rater = new SentenceRater(sentences, { words: [], audio: null, language: 'en' }, await SentenceCache.for({ language: 'en', audio: null }));
    const reasons = reasonsFor(rater.facts(0, 3));
    // the same clip gives the same reasons
    expect(reasonsFor(rater.facts(0, 3))).toEqual(reasons);
    expect(reasons).toHaveLength(4);
    const text = reasons.join(' | ');
    expect(text).toMatch(/Names a number in the first 3 seconds \(“Three”\)|Opens on a strong claim \(“never”\)/);
    expect(text).toMatch(/A complete story with a turn \(“but”\) in 4 full sentences|Words of strong feeling|Names “London”/);
  });

  it('the voice: where it rises, from the measured loudness', async () => {
    const words = talk(GARDEN.slice(0, 4));
    const sentences = sentencesOf(words);
    const end = sentences.at(-1)!.end;
    // speech at -30 dB, one loud second at 8 s
    const steps = Math.ceil(end / 0.1) + 5;
    const loudness = new Float32Array(steps).fill(-30);
    for (let i = 80; i < 90; i++) loudness[i] = -18;
    const audio: AudioFeatures = { step: 0.1, loudness, pitch: new Float32Array(steps) };
    const ctx = { words, audio, language: 'en' };
    const rater = new SentenceRater(sentences, ctx, await SentenceCache.for(ctx));
    expect(reasonsFor(rater.facts(0, sentences.length - 1))).toContain('The voice rises at 0:08');
    // measured on a range of the source: the same second, named in the clip's time
    const shifted = talk(GARDEN.slice(0, 4), 100);
    const s2 = sentencesOf(shifted);
    const ctx2 = { words: shifted, audio: { ...audio, offset: 100 }, language: 'en' };
    const r2 = new SentenceRater(s2, ctx2, await SentenceCache.for(ctx2));
    expect(reasonsFor(r2.facts(0, s2.length - 1))).toContain('The voice rises at 0:08');
  });

  it('a flat clip says what holds it back, never a sentence that fits any clip', async () => {
    const sentences = sentencesOf(talk(['and then it was over and we went home', 'the rest of the day was the same as the one before']));
    const rater = new SentenceRater(sentences, { words: [], audio: null, language: 'en' }, await SentenceCache.for({ language: 'en', audio: null }));
    const reasons = reasonsFor(rater.facts(0, 1));
    expect(reasons.length).toBeGreaterThanOrEqual(2);
    expect(reasons).toContain('Its first seconds hold no question, number, claim or “you” to stop a scroll');
    expect(reasons).toContain('Starts on a word that leans on what came before it');
  });
});
