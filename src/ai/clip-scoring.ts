/**
 * Scores of candidate clips (SPEC.md, Magic clip) and their titles. The
 * offline scorer reads only what is computed here: the words (wink-nlp's
 * English model for tokens, parts of speech and entities; AFINN-165 through
 * the `sentiment` package for the strength of feelings) and the sound's
 * features. Its rules (word lists, weights, thresholds) are data, the table
 * SCORING_RULES. The same window text and sound give the same scores. For a
 * language other than English the word lists and lexicons do not apply: those
 * features count as SCORING_RULES.neutral, and the punctuation, structure and
 * sound still count.
 */
import type Sentiment from 'sentiment';
import type { WinkMethods } from 'wink-nlp';
import { primaryLanguage } from '../media/transcription/languages.js';
import type { Word } from '../media/transcript.js';
import type { Sentence } from '../media/sentences.js';

/** A candidate clip: whole sentences, from the start of the first to the end of the last. */
export interface ClipWindow {
  start: number;
  end: number;
  /** its sentences, in order */
  sentences: Sentence[];
  text: string;
}

/** The five scores of a magic clip (SPEC.md, Magic clip), each an integer 0-100. */
export interface ViralityScores {
  total: number;
  shareability: number;
  hook_strength: number;
  story_quality: number;
  emotional_impact: number;
}

/**
 * The sound, measured on a fixed step over the whole source: loudness in dBFS
 * (RMS of each step; -Infinity is stored as -120) and the voice's pitch in Hz
 * (0 where no voiced pitch was found).
 */
export interface AudioFeatures {
  /** seconds per value */
  step: number;
  /** seconds of the source at the first value (a range of the source was measured); 0 when left out */
  offset?: number;
  loudness: Float32Array;
  pitch: Float32Array;
}

export interface ClipScoringContext {
  /** the whole transcript */
  words: readonly Word[];
  /** the whole source's sound; null when it could not be measured */
  audio: AudioFeatures | null;
  language: string;
  /** what the creator wants the clips to be about */
  topic?: string | null;
  /** the project's clip length bounds (seconds); story_quality prefers the middle. Default SCORING_RULES.story.defaultLengths */
  minLength?: number;
  maxLength?: number;
}

export interface ClipScore {
  scores: ViralityScores;
  /** 1-100 characters */
  title: string;
  /** how strongly it is about the scoring context's topic, 0-1 (a scorer that judges it; else the offline match is used) */
  topicMatch?: number;
}

export interface ClipScorer {
  /** one score and title per window, in the windows' order */
  score(windows: readonly ClipWindow[], ctx: ClipScoringContext, opts?: { signal?: AbortSignal }): Promise<ClipScore[]>;
}

/** A title is 1-100 characters (SPEC.md, Magic clip). */
export const CLIP_TITLE_MAX_CHARS = 100;

/**
 * The offline scorer's rules. Each score is the weighted sum of features in
 * [0, 1] (weights sum to 1), times 100, rounded; `total` weighs the four
 * rounded scores with `weights`.
 */
// biome-ignore format: a table of weights and word lists, one list a line as written
export const SCORING_RULES = {
  weights: { hook_strength: 0.3, shareability: 0.25, story_quality: 0.2, emotional_impact: 0.25 },
  /** the value of a feature the language (word lists) or a missing sound cannot measure */
  neutral: 0.5,
  /** steps of the sound louder than this (dBFS) are speech for the loudness statistics */
  speechFloorDb: -50,
  hook: {
    /** the hook is the opening sentence and every sentence starting within this many seconds of the clip's start */
    seconds: 3,
    weights: { question: 0.25, number: 0.15, directAddress: 0.2, strongClaim: 0.2, voiceEnergy: 0.2 },
    /** voice energy: the hook's mean speech loudness against the source's median; 0 at -range dB, 0.5 level, 1 at +range dB */
    energyRangeDb: 6,
    /** a question opener counts among a sentence's first this many words */
    openerWords: 2,
  },
  shareability: {
    weights: { selfContainedStart: 0.4, completeEnd: 0.25, quotable: 0.2, entities: 0.15 },
    /** mean words per sentence: at most `short` counts 1, at least `long` 0 */
    quotableWords: { short: 10, long: 30 },
    /** named entities (proper nouns, numbers with units, dates) for full marks */
    entitiesForFull: 2,
  },
  story: {
    weights: { sentences: 0.35, connectives: 0.3, lengthFit: 0.2, completeEnd: 0.15 },
    /** complete sentences: one counts 0, this many or more 1 */
    sentencesForFull: 4,
    /** causal, contrast and sequence connectives for full marks */
    connectivesForFull: 3,
    /** length bounds when the context gives none: 1 at their middle, 0 at either end */
    defaultLengths: { minLength: 15, maxLength: 300 },
  },
  emotion: {
    weights: { lexicon: 0.45, exclamations: 0.15, loudnessVariation: 0.2, pitchVariation: 0.2 },
    /** AFINN strength per word (sum of |word score| -5..5 over the words) for full marks */
    lexiconForFull: 0.3,
    exclamationsForFull: 2,
    /** standard deviation of the speech steps' loudness (dB): `flat` counts 0, `lively` 1 (read speech: about 6.5) */
    loudnessStdDb: { flat: 4, lively: 10 },
    /** standard deviation of the voiced pitch (semitones): `flat` counts 0, `lively` 1 (read speech: about 3) */
    pitchStdSemitones: { flat: 1.5, lively: 5 },
  },
  /** how complete an unpunctuated sentence ending is when it does not end on a dangling word */
  unpunctuatedEnd: 0.75,
  title: {
    /** titles are cut at a word boundary to this many characters */
    maxChars: 70,
    /** sentences of this many words make the best titles */
    idealWords: { min: 4, max: 16 },
    /** words a title cut mid-sentence does not end on: they lead on to what was cut ("what it is" keeps its verb) */
    leadingOn: ['and', 'but', 'so', 'or', 'because', 'the', 'a', 'an', 'to', 'of', 'in', 'on', 'at', 'for', 'with', 'from', 'by', 'if', 'my', 'your', 'our', 'their', 'his', 'her', 'its', 'um', 'uh'],
  },
  words: {
    questionOpeners: ['what', 'why', 'how', 'who', 'whose', 'which', 'where', 'do', 'does', 'did', 'is', 'are', 'was', 'were', 'can', 'could', 'would', 'should', 'will', 'have', 'has', 'ever'],
    directAddress: ['you', "you're", 'youre', "you've", "you'll", "you'd", 'your', 'yours', 'yourself', 'yourselves'],
    strongClaims: [
      'never', 'always', 'everyone', 'everybody', 'nobody', 'nothing', 'everything', 'every', 'only', 'must', 'secret', 'truth',
      'mistake', 'mistakes', 'wrong', 'proven', 'guaranteed', 'absolutely', 'completely', 'totally', 'literally', 'impossible',
      'incredible', 'insane', 'huge', 'massive', 'best', 'worst', 'most', 'least',
    ],
    /** words a speaker starts with before saying anything: skipped before a question opener and dropped from a title */
    fillers: ['so', 'and', 'but', 'or', 'then', 'okay', 'ok', 'well', 'now', 'yeah', 'um', 'uh', 'like', 'right', 'anyway', 'also'],
    /** a clip starting with one of these leans on what came before */
    danglingStart: [
      'and', 'but', 'so', 'or', 'nor', 'because', 'then', 'also', 'which', 'that', 'this', 'these', 'those', 'there', 'it', "it's",
      'its', 'he', "he's", 'she', "she's", 'they', "they're", 'them', 'him', 'her', 'his', 'their', 'another', 'too', 'anyway',
      'otherwise', 'though', 'although', 'however', 'plus', 'yeah', 'um', 'uh',
    ],
    /** a sentence ending on one of these is cut off */
    danglingEnd: [
      'and', 'but', 'so', 'or', 'because', 'the', 'a', 'an', 'to', 'of', 'in', 'on', 'at', 'for', 'with', 'from', 'by', 'that',
      'which', 'if', 'my', 'your', 'our', 'their', 'his', 'her', 'its', 'is', 'are', 'was', 'were', 'be', 'um', 'uh', 'like',
    ],
    connectives: [
      'because', 'so', 'therefore', 'since', 'thus', 'hence', 'consequently', 'but', 'however', 'although', 'though', 'yet',
      'instead', 'despite', 'whereas', 'actually', 'then', 'finally', 'eventually', 'later', 'until', 'suddenly', 'after', 'before',
      'when', 'if', 'unless', 'turns',
    ],
  },
} as const;

type Rules = typeof SCORING_RULES;

/** What one sentence contributes; lexicon parts are 0 outside English (the scores use `neutral` then). */
interface SentenceFeatures {
  words: number;
  question: boolean;
  number: boolean;
  directAddress: boolean;
  strongClaim: boolean;
  danglingStart: boolean;
  /** 0-1: 1 ends on . ! ?, `unpunctuatedEnd` without punctuation, 0 on a dangling word */
  complete: number;
  entities: number;
  connectives: number;
  /** sum of |AFINN score| over its words */
  emotion: number;
  exclamations: number;
  /** what a reason quotes (English): the first number, claim word, contrast connective; the feeling words and names */
  quotes: { number?: string; claim?: string; contrast?: string; feelings: string[]; names: string[] };
}

const SUMMED = ['words', 'complete', 'entities', 'connectives', 'emotion', 'exclamations'] as const;

const clamp01 = (x: number) => (x <= 0 ? 0 : Math.min(x, 1));
/** 0 at `lo`, 1 at `hi`, linear between. */
const ramp = (x: number, lo: number, hi: number) => (hi === lo ? (x >= hi ? 1 : 0) : clamp01((x - lo) / (hi - lo)));
const weigh = <K extends string>(weights: Readonly<Record<K, number>>, f: Record<K, number>) => {
  let s = 0;
  for (const k of Object.keys(weights) as K[]) s += weights[k] * f[k];
  return Math.round(100 * clamp01(s));
};

export interface EnglishTools {
  nlp: WinkMethods;
  afinn: Sentiment;
}
let englishTools: Promise<EnglishTools> | undefined;
/** The English model and lexicon (about 70 ms and 30 MiB), loaded on first use: processes that score no clip never load them. */
export function english(): Promise<EnglishTools> {
  englishTools ??= Promise.all([import('wink-nlp'), import('wink-eng-lite-web-model'), import('sentiment')]).then(([wink, model, sentiment]) => ({
    nlp: wink.default(model.default),
    afinn: new sentiment.default(),
  }));
  return englishTools;
}

const lists = (rules: Rules) => ({
  openers: new Set<string>(rules.words.questionOpeners),
  direct: new Set<string>(rules.words.directAddress),
  claims: new Set<string>(rules.words.strongClaims),
  danglingStart: new Set<string>(rules.words.danglingStart),
  danglingEnd: new Set<string>(rules.words.danglingEnd),
  fillers: new Set<string>(rules.words.fillers),
  connectives: new Set<string>(rules.words.connectives),
});
const LISTS = lists(SCORING_RULES);
/** Connectives that turn a story: what a reason calls "a turn". */
const CONTRASTS = new Set(['but', 'however', 'although', 'though', 'yet', 'instead', 'despite', 'whereas', 'actually', 'suddenly', 'turns']);

const ENDS_SENTENCE = /[.!?…。！？]["'”’»)\]]*$/u;
const spokenTokens = (text: string) => text.split(/\s+/).filter((t) => /[\p{L}\p{N}]/u.test(t));
const bare = (token: string) =>
  token
    .toLowerCase()
    .replace(/’/g, "'")
    .replace(/^[^\p{L}\p{N}']+|[^\p{L}\p{N}']+$/gu, '');

/** The features of a sentence's text; the English tools turn on the word lists, the tagger and the lexicon. */
function sentenceFeatures(text: string, tools: EnglishTools | null): SentenceFeatures {
  const tokens = spokenTokens(text);
  const trimmed = text.trim();
  const punctuatedEnd = ENDS_SENTENCE.test(trimmed);
  const f: SentenceFeatures = {
    words: tokens.length,
    question: /[?？]/.test(text),
    number: /\p{N}/u.test(text),
    directAddress: false,
    strongClaim: false,
    danglingStart: false,
    complete: punctuatedEnd ? 1 : SCORING_RULES.neutral,
    entities: 0,
    connectives: 0,
    emotion: 0,
    exclamations: (text.match(/[!！]/g) ?? []).length,
    quotes: { number: text.match(/\p{N}[\p{N},.]*/u)?.[0]?.replace(/[,.]$/, ''), feelings: [], names: [] },
  };
  if (!tools || tokens.length === 0) return f;

  const normal = tokens.map(bare);
  const { nlp, afinn } = tools;
  const doc = nlp.readDoc(trimmed);
  const its = nlp.its;
  const pos = doc.tokens().out(its.pos) as string[];
  const norms = doc.tokens().out(its.normal) as string[];
  // the package's typings give `lemma` another signature than its other token properties
  const lemmas = doc.tokens().out(its.lemma as never) as string[];

  f.question ||= normal.slice(0, SCORING_RULES.hook.openerWords).some((w, i) => LISTS.openers.has(w) && (i === 0 || LISTS.fillers.has(normal[0])));
  const spelledNumber = pos.findIndex((p, i) => p === 'NUM' && norms[i] !== 'one');
  f.number ||= spelledNumber >= 0;
  if (spelledNumber >= 0) f.quotes.number ??= norms[spelledNumber];
  f.directAddress = normal.some((w) => LISTS.direct.has(w));
  // superlatives: "biggest" (its lemma is "big"), or a claim word
  const superlative = norms.find((w, i) => /est$/.test(w) && lemmas[i] !== w && (pos[i] === 'ADJ' || pos[i] === 'ADV'));
  const claim = normal.find((w) => LISTS.claims.has(w)) ?? superlative;
  f.strongClaim = claim !== undefined;
  f.quotes.claim = claim;
  f.quotes.contrast = normal.find((w) => CONTRASTS.has(w));
  f.danglingStart = LISTS.danglingStart.has(normal[0]);
  if (!punctuatedEnd) f.complete = LISTS.danglingEnd.has(normal[normal.length - 1]) ? 0 : SCORING_RULES.unpunctuatedEnd;
  // runs of proper nouns ("New York") count once, like the tagger's entities (dates, amounts, percentages)
  const tokenTexts = doc.tokens().out() as string[];
  let runs = 0;
  for (let i = 0; i < pos.length; i++) {
    if (pos[i] !== 'PROPN' || pos[i - 1] === 'PROPN') continue;
    runs++;
    let j = i;
    while (pos[j + 1] === 'PROPN') j++;
    // a sentence's first word is tagged a name by its capital alone
    if (i > 0 || j > i) f.quotes.names.push(tokenTexts.slice(i, j + 1).join(' '));
  }
  const entities = doc.entities();
  f.entities = runs + entities.length();
  f.quotes.names.push(...(entities.out() as string[]));
  f.connectives = normal.filter((w) => LISTS.connectives.has(w)).length;
  for (const c of afinn.analyze(trimmed).calculation)
    for (const [word, v] of Object.entries(c)) {
      f.emotion += Math.abs(v);
      if (Math.abs(v) >= 2 && !f.quotes.feelings.includes(word)) f.quotes.feelings.push(word);
    }
  return f;
}

/** The source's sound as running sums, so any range's statistics cost O(1). */
class SoundStats {
  private readonly speech: Float64Array[];
  private readonly voiced: Float64Array[];
  /** median loudness of the speech steps (dBFS) */
  readonly median: number;

  constructor(private readonly audio: AudioFeatures) {
    const n = audio.loudness.length;
    const floor = SCORING_RULES.speechFloorDb;
    this.speech = [new Float64Array(n + 1), new Float64Array(n + 1), new Float64Array(n + 1)];
    this.voiced = [new Float64Array(n + 1), new Float64Array(n + 1), new Float64Array(n + 1)];
    const levels: number[] = [];
    for (let i = 0; i < n; i++) {
      const db = audio.loudness[i];
      const loud = db > floor;
      if (loud) levels.push(db);
      this.speech[0][i + 1] = this.speech[0][i] + (loud ? 1 : 0);
      this.speech[1][i + 1] = this.speech[1][i] + (loud ? db : 0);
      this.speech[2][i + 1] = this.speech[2][i] + (loud ? db * db : 0);
      const hz = audio.pitch[i];
      const st = hz > 0 ? 12 * Math.log2(hz) : 0;
      this.voiced[0][i + 1] = this.voiced[0][i] + (hz > 0 ? 1 : 0);
      this.voiced[1][i + 1] = this.voiced[1][i] + st;
      this.voiced[2][i + 1] = this.voiced[2][i] + st * st;
    }
    levels.sort((a, b) => a - b);
    this.median = levels.length ? levels[levels.length >> 1] : floor;
  }

  private range(sourceStart: number, sourceEnd: number): [number, number] {
    const n = this.audio.loudness.length;
    const offset = this.audio.offset ?? 0;
    const [start, end] = [sourceStart - offset, sourceEnd - offset];
    const a = Math.min(n, Math.max(0, Math.floor(start / this.audio.step + 1e-9)));
    const b = Math.min(n, Math.max(a, Math.ceil(end / this.audio.step - 1e-9)));
    return [a, b];
  }

  /** count, mean and standard deviation of the sums over [start, end) seconds */
  private moments(sums: Float64Array[], start: number, end: number) {
    const [a, b] = this.range(start, end);
    const count = sums[0][b] - sums[0][a];
    if (count <= 0) return { count: 0, mean: 0, std: 0 };
    const mean = (sums[1][b] - sums[1][a]) / count;
    return { count, mean, std: Math.sqrt(Math.max(0, (sums[2][b] - sums[2][a]) / count - mean * mean)) };
  }

  /**
   * The loudest `span` seconds of [start, end): where they start (seconds of
   * the source) and their mean level against the source's median (dB);
   * quieter steps count as the speech floor. Null for a range shorter than `span`.
   */
  peak(start: number, end: number, span = 1): { at: number; aboveMedian: number } | null {
    const [a, b] = this.range(start, end);
    const n = Math.max(1, Math.round(span / this.audio.step));
    if (b - a < n) return null;
    const floor = SCORING_RULES.speechFloorDb;
    const level = (i: number) => Math.max(floor, this.audio.loudness[i]);
    let sum = 0;
    for (let i = a; i < a + n; i++) sum += level(i);
    let best = { from: a, sum };
    for (let i = a + n; i < b; i++) {
      sum += level(i) - level(i - n);
      if (sum > best.sum) best = { from: i - n + 1, sum };
    }
    return { at: (this.audio.offset ?? 0) + best.from * this.audio.step, aboveMedian: best.sum / n - this.median };
  }

  /** loudness of the speech steps (dBFS) */
  loudness(start: number, end: number) {
    return this.moments(this.speech, start, end);
  }

  /** pitch of the voiced steps (semitones) */
  pitch(start: number, end: number) {
    return this.moments(this.voiced, start, end);
  }
}

/**
 * Scores runs of sentences `sentences[first..last]` of one list, each in
 * O(1) after the list's features are summed once (plus the few sentences of
 * its hook). Sentence features are kept by text, so overlapping windows and
 * repeated sentences are analysed once.
 */
export class SentenceRater {
  private readonly features: SentenceFeatures[];
  private readonly sums: Float64Array;
  private readonly isEnglish: boolean;
  private readonly sound: SoundStats | null;
  private readonly lengths: { minLength: number; maxLength: number };

  constructor(
    private readonly sentences: readonly Sentence[],
    ctx: ClipScoringContext,
    cache: SentenceCache,
  ) {
    this.isEnglish = cache.isEnglish;
    this.sound = cache.sound;
    this.features = sentences.map((s) => cache.of(s.text));
    const width = SUMMED.length;
    this.sums = new Float64Array((sentences.length + 1) * width);
    this.features.forEach((f, i) => SUMMED.forEach((k, j) => (this.sums[(i + 1) * width + j] = this.sums[i * width + j] + f[k])));
    const { defaultLengths } = SCORING_RULES.story;
    this.lengths = { minLength: ctx.minLength ?? defaultLengths.minLength, maxLength: ctx.maxLength ?? defaultLengths.maxLength };
  }

  private sum(key: (typeof SUMMED)[number], first: number, last: number) {
    const width = SUMMED.length;
    const j = SUMMED.indexOf(key);
    return this.sums[(last + 1) * width + j] - this.sums[first * width + j];
  }

  /** The five scores of `sentences[first..last]`. */
  scores(first: number, last: number): ViralityScores {
    const R = SCORING_RULES;
    const neutral: number = R.neutral;
    const lexicon = (x: number) => (this.isEnglish ? x : neutral);
    const start = this.sentences[first].start;
    const end = this.sentences[last].end;
    const opening = this.features[first];
    const closing = this.features[last];
    const count = last - first + 1;
    const words = this.sum('words', first, last);

    const hook = { question: 0, number: 0, directAddress: 0, strongClaim: 0, voiceEnergy: neutral };
    for (let i = first; i <= last && (i === first || this.sentences[i].start < start + R.hook.seconds); i++) {
      const f = this.features[i];
      hook.question ||= f.question ? 1 : 0;
      hook.number ||= f.number ? 1 : 0;
      hook.directAddress ||= f.directAddress ? 1 : 0;
      hook.strongClaim ||= f.strongClaim ? 1 : 0;
    }
    hook.directAddress = lexicon(hook.directAddress);
    hook.strongClaim = lexicon(hook.strongClaim);
    if (this.sound) {
      const { count: n, mean } = this.sound.loudness(start, start + R.hook.seconds);
      hook.voiceEnergy = n > 0 ? ramp(mean - this.sound.median, -R.hook.energyRangeDb, R.hook.energyRangeDb) : 0;
    }

    const { quotableWords, entitiesForFull } = R.shareability;
    const shareability = {
      selfContainedStart: lexicon(opening.danglingStart ? 0 : 1),
      completeEnd: closing.complete,
      quotable: ramp(words / count, quotableWords.long, quotableWords.short),
      entities: lexicon(clamp01(this.sum('entities', first, last) / entitiesForFull)),
    };

    const { minLength, maxLength } = this.lengths;
    const half = (maxLength - minLength) / 2;
    const story = {
      sentences: ramp(this.sum('complete', first, last), 1, R.story.sentencesForFull),
      connectives: lexicon(clamp01(this.sum('connectives', first, last) / R.story.connectivesForFull)),
      lengthFit: half > 0 ? clamp01(1 - Math.abs(end - start - (minLength + half)) / half) : 1,
      completeEnd: closing.complete,
    };

    const emotion = {
      lexicon: lexicon(words > 0 ? clamp01(this.sum('emotion', first, last) / words / R.emotion.lexiconForFull) : 0),
      exclamations: clamp01(this.sum('exclamations', first, last) / R.emotion.exclamationsForFull),
      loudnessVariation: neutral,
      pitchVariation: neutral,
    };
    if (this.sound) {
      const loud = this.sound.loudness(start, end);
      const pitch = this.sound.pitch(start, end);
      emotion.loudnessVariation = loud.count >= 2 ? ramp(loud.std, R.emotion.loudnessStdDb.flat, R.emotion.loudnessStdDb.lively) : 0;
      emotion.pitchVariation = pitch.count >= 2 ? ramp(pitch.std, R.emotion.pitchStdSemitones.flat, R.emotion.pitchStdSemitones.lively) : 0;
    }

    const scores = {
      hook_strength: weigh(R.hook.weights, hook),
      shareability: weigh(R.shareability.weights, shareability),
      story_quality: weigh(R.story.weights, story),
      emotional_impact: weigh(R.emotion.weights, emotion),
    };
    return { total: totalOf(scores), ...scores };
  }

  /** What the scores of `sentences[first..last]` were made from, for its reasons (src/ai/clip-reasons.ts). */
  facts(first: number, last: number): WindowFacts {
    const R = SCORING_RULES;
    const start = this.sentences[first].start;
    const end = this.sentences[last].end;
    const hook: WindowFacts['hook'] = { directAddress: false };
    for (let i = first; i <= last && (i === first || this.sentences[i].start < start + R.hook.seconds); i++) {
      const f = this.features[i];
      if (f.question && hook.question === undefined) hook.question = this.sentences[i].text;
      if (f.number && hook.number === undefined) hook.number = f.quotes.number;
      hook.directAddress ||= this.isEnglish && f.directAddress;
      if (this.isEnglish && f.strongClaim && hook.claim === undefined) hook.claim = f.quotes.claim;
    }
    const range = this.features.slice(first, last + 1);
    const sound = this.sound;
    let voice: WindowFacts['voice'] = null;
    if (sound) {
      const opening = sound.loudness(start, start + R.hook.seconds);
      const pitch = sound.pitch(start, end);
      voice = {
        hookAboveMedian: opening.count > 0 ? opening.mean - sound.median : null,
        peak: sound.peak(start, end),
        loudnessStd: sound.loudness(start, end).std,
        pitchStd: pitch.count >= 2 ? pitch.std : null,
      };
    }
    return {
      start,
      end,
      sentences: last - first + 1,
      completeSentences: range.filter((f) => f.complete === 1).length,
      hook,
      selfContainedStart: this.isEnglish && !this.features[first].danglingStart,
      completeEnd: this.features[last].complete === 1,
      names: [...new Set(range.flatMap((f) => f.quotes.names))],
      contrast: range.find((f) => f.quotes.contrast)?.quotes.contrast,
      connectives: this.sum('connectives', first, last),
      feelings: [...new Set(range.flatMap((f) => f.quotes.feelings))],
      exclamations: this.sum('exclamations', first, last),
      voice,
      isEnglish: this.isEnglish,
    };
  }

  /**
   * A title from the run's strongest sentence (a question, a number, direct
   * address, a claim, feeling, names; a title-like length), leading filler
   * dropped, cut at a word boundary, capitalised.
   */
  title(first: number, last: number): string {
    const { idealWords } = SCORING_RULES.title;
    let best = first;
    let bestWeight = -1;
    for (let i = first; i <= last; i++) {
      const f = this.features[i];
      const weight =
        (f.question ? 1 : 0) +
        (f.number ? 1 : 0) +
        (f.directAddress ? 1 : 0) +
        (f.strongClaim ? 1 : 0) +
        (f.words > 0 ? clamp01(f.emotion / f.words / SCORING_RULES.emotion.lexiconForFull) : 0) +
        Math.min(1, f.entities) +
        (f.words >= idealWords.min && f.words <= idealWords.max ? 1 : 0) +
        (f.danglingStart ? -0.5 : 0);
      if (weight > bestWeight) {
        best = i;
        bestWeight = weight;
      }
    }
    return (
      titleFrom(this.sentences[best].text, this.isEnglish) ||
      titleFrom(
        this.sentences
          .slice(first, last + 1)
          .map((s) => s.text)
          .join(' '),
        this.isEnglish,
      ) ||
      'Untitled clip'
    );
  }
}

/** What a window's scores were made from, in the words and numbers its reasons quote. */
export interface WindowFacts {
  /** seconds of the source */
  start: number;
  end: number;
  sentences: number;
  /** sentences ending on . ! ? */
  completeSentences: number;
  /** what its first seconds hold: the question sentence, the number, "you", the claim word */
  hook: { question?: string; number?: string; directAddress: boolean; claim?: string };
  selfContainedStart: boolean;
  completeEnd: boolean;
  names: string[];
  /** the first connective that turns the story ("but") */
  contrast?: string;
  connectives: number;
  /** words of strong feeling (AFINN |score| >= 2) */
  feelings: string[];
  exclamations: number;
  /** the sound, when measured: the hook's level and the loudest second against the source's median (dB), the spread of loudness (dB) and pitch (semitones) */
  voice: { hookAboveMedian: number | null; peak: { at: number; aboveMedian: number } | null; loudnessStd: number; pitchStd: number | null } | null;
  isEnglish: boolean;
}

/** Sentence features by text and the sound's running sums, shared by the raters of one scoring call. */
export class SentenceCache {
  readonly isEnglish: boolean;
  readonly sound: SoundStats | null;
  private readonly byText = new Map<string, SentenceFeatures>();

  private constructor(
    ctx: Pick<ClipScoringContext, 'audio'>,
    private readonly tools: EnglishTools | null,
  ) {
    this.isEnglish = tools !== null;
    this.sound = ctx.audio && ctx.audio.loudness.length > 0 ? new SoundStats(ctx.audio) : null;
  }

  static async for(ctx: Pick<ClipScoringContext, 'language' | 'audio'>): Promise<SentenceCache> {
    return new SentenceCache(ctx, primaryLanguage(ctx.language) === 'en' ? await english() : null);
  }

  of(text: string): SentenceFeatures {
    let f = this.byText.get(text);
    if (!f) this.byText.set(text, (f = sentenceFeatures(text, this.tools)));
    return f;
  }
}

/** `total`: the documented weighting of the four scores, rounded. */
export function totalOf(s: Omit<ViralityScores, 'total'>): number {
  const w = SCORING_RULES.weights;
  return Math.round(
    clamp01(
      (w.hook_strength * s.hook_strength + w.shareability * s.shareability + w.story_quality * s.story_quality + w.emotional_impact * s.emotional_impact) / 100,
    ) * 100,
  );
}

const TITLE_LEADING_ON = new Set<string>(SCORING_RULES.title.leadingOn);

/** A sentence made a title: leading filler dropped (English), cut at a word boundary, capitalised, no trailing junk; '' when nothing is left. */
export function titleFrom(text: string, isEnglish = true, maxChars: number = SCORING_RULES.title.maxChars): string {
  let words = text.replace(/\s+/g, ' ').trim().split(' ').filter(Boolean);
  if (isEnglish) {
    let drop = 0;
    while (drop < words.length - 2 && LISTS.fillers.has(bare(words[drop]))) drop++;
    words = words.slice(drop);
  }
  let t = words.join(' ').replace(/^[^\p{L}\p{N}¿¡"“]+/u, '');
  if (t.length > maxChars) {
    const cut = t.slice(0, maxChars + 1);
    const space = cut.lastIndexOf(' ');
    t = space > 0 ? cut.slice(0, space) : t.slice(0, maxChars);
    // a title cut mid-sentence does not end on a word that leads on ("… with the locals and")
    if (isEnglish) {
      const kept = t.split(' ');
      while (kept.length > 1 && TITLE_LEADING_ON.has(bare(kept[kept.length - 1]))) kept.pop();
      t = kept.join(' ');
    }
  }
  t = t.replace(/[\s,;:.\-–—…"'“”‘’([]+$/u, '').replace(/^["“]([^"”]*)$/u, '$1');
  t = t.charAt(0).toLocaleUpperCase() + t.slice(1);
  return t.slice(0, CLIP_TITLE_MAX_CHARS);
}

/** The scorer that runs here, from the text and the sound alone (SCORING_RULES). */
export class OfflineClipScorer implements ClipScorer {
  async score(windows: readonly ClipWindow[], ctx: ClipScoringContext): Promise<ClipScore[]> {
    const cache = await SentenceCache.for(ctx);
    return windows.map((w) => {
      const sentences = w.sentences.length > 0 ? w.sentences : [{ first: 0, last: 0, start: w.start, end: w.end, text: w.text }];
      const rater = new SentenceRater(sentences, ctx, cache);
      const last = sentences.length - 1;
      return { scores: rater.scores(0, last), title: rater.title(0, last) };
    });
  }
}
