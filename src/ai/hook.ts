/**
 * Hook titles: the short line shown over the start of a video when a project
 * asks for the default AI-generated hook (`hookTitle: true`). The offline
 * default takes a short line (HOOK_WORDS) from the transcript's strongest
 * sentence; with OPENAI_API_KEY set (and HOOK_WRITER=openai) an
 * OpenAI-compatible chat-completions server writes it. Neither uses a word the
 * engine was unsure of; a transcript with no usable line gets no hook ('').
 */
import { SCORING_RULES } from './clip-scoring.js';
import { sentencesOf } from '../media/sentences.js';
import type { TimedWord } from '../media/transcript.js';
import { primaryLanguage } from '../media/transcription/languages.js';
import { chatCompletion, type OpenAiCompatibleOptions } from '../net/openai-compatible.js';

/** A hook title is 1-100 characters (SPEC.md, Hook title). */
export const HOOK_MAX_CHARS = 100;

/** A derived hook has this many words: a line read in a glance, at most two lines on screen. */
export const HOOK_WORDS = { min: 3, max: 8 } as const;

/**
 * Words the engine was less sure of than this never go into a derived hook;
 * words without a confidence (older transcripts, engines that give none, words
 * a user typed) count as sure. Measured on pocketsphinx's posteriors against
 * the reference transcripts: on the LibriVox clips 70 % of all words are
 * right, 85 % of those at 0.8 or more, 96 % at 0.9 or more (a third of the
 * words); on the synthetic talk of test/support/talk.ts 69 %, 79 % and 89 %.
 * A wrong word in a hook is worse than no hook, so 0.9.
 */
export const HOOK_MIN_CONFIDENCE = 0.9;

/**
 * What a hook leaves out: sounds of hesitation in any language; in English,
 * fillers (`like` only where no subject or verb before it makes it a verb or
 * a comparison), two-word fillers, and the words a line should not start
 * (SCORING_RULES fillers: "so", "and", "well"...) or end on (dangling words).
 */
const HESITATIONS = new Set(['um', 'uh', 'uhm', 'umm', 'er', 'erm', 'ah', 'eh', 'hm', 'hmm', 'mm', 'mhm']);
const FILLERS = new Set(['basically', 'like']);
const FILLER_PAIRS = new Set(['you know', 'i mean', 'you see', 'kind of', 'sort of']);
/** `like` after these is meant ("I like", "would like", "looks like"), and so is "you know" after "do", "if", "what"... */
const KEEPS_LIKE = new Set([
  'i',
  'you',
  'we',
  'they',
  'he',
  'she',
  'people',
  'would',
  "i'd",
  "we'd",
  "you'd",
  'do',
  "don't",
  'did',
  "didn't",
  'to',
  'just',
  'really',
  'looks',
  'look',
  'looked',
  'feels',
  'feel',
  'felt',
  'sounds',
  'sound',
  'seems',
  'more',
  'less',
  'much',
  'nothing',
  'something',
  'anything',
  'things',
  'what',
  'is',
  'was',
  'are',
]);
const KEEPS_PAIR = new Set(['do', 'did', 'does', "don't", "didn't", 'if', 'what', 'as', 'whether', 'the', 'a', 'this', 'that', 'some', 'any', 'no', 'one']);
const LEADING = new Set<string>(SCORING_RULES.words.fillers);
const TRAILING = new Set<string>(SCORING_RULES.words.danglingEnd);
const FUNCTION_WORDS = new Set<string>([...SCORING_RULES.words.danglingStart, ...SCORING_RULES.words.danglingEnd, ...SCORING_RULES.words.fillers]);
const OPENERS = new Set<string>(SCORING_RULES.words.questionOpeners);
const DIRECT = new Set<string>(SCORING_RULES.words.directAddress);
const CLAIMS = new Set<string>(SCORING_RULES.words.strongClaims);
const NUMBER_WORDS = new Set(
  'two three four five six seven eight nine ten eleven twelve thirteen fifteen twenty thirty forty fifty hundred thousand million billion percent half double triple'.split(
    ' ',
  ),
);
/** Words that say a number when read one by one ("nine three four", "one oh five"): a run of them is a string of digits, not a claim. */
const DIGIT_WORDS = new Set([
  ...NUMBER_WORDS,
  'zero',
  'oh',
  'one',
  'fourteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'sixty',
  'seventy',
  'eighty',
  'ninety',
]);
/** Words that turn a sentence against what came before: a contrast makes a hook. */
const CONTRASTS = new Set([
  'but',
  'however',
  'instead',
  'actually',
  'yet',
  'although',
  'though',
  'unless',
  'versus',
  'unlike',
  'wrong',
  'myth',
  'never',
  'stop',
]);
/** A line of this share of number words or more, or with this many in a row, reads as a list of numbers. */
const NUMBER_LIST = { share: 0.5, run: 3 };

/**
 * Weights of what makes a line strong; a little also for a line that starts
 * where its sentence does (it keeps the subject: "three out of four people",
 * not "four people"), that ends where it ends, and for each word. Ties go to
 * the earlier line.
 */
const STRENGTH = {
  question: 3,
  number: 2,
  claim: 2,
  contrast: 2,
  directAddress: 1.5,
  wholeSentence: 1,
  lengthFit: 1,
  sentenceStart: 0.75,
  sentenceEnd: 0.5,
  perWord: 0.05,
} as const;

export interface HookWriteOptions {
  signal?: AbortSignal;
  /** the project's language (default English): fillers and the word lists are English */
  language?: string;
}

export interface HookWriter {
  /** a hook of 1-100 characters for the transcript; '' when it has no usable line */
  write(words: readonly TimedWord[], opts?: HookWriteOptions): Promise<string>;
}

/** The transcript as text: words separated by spaces, punctuation attached, silences dropped. */
export function transcriptText(words: readonly Pick<TimedWord, 'text' | 'type'>[]): string {
  let out = '';
  for (const w of words) {
    const text = w.text.trim();
    if (w.type === 'silence' || !text) continue;
    out += w.type === 'punctuation' || !out ? text : ` ${text}`;
  }
  return out.trim();
}

/** `text` cut to at most `max` characters at a word boundary (a single longer word is cut hard). */
export function trimAtWord(text: string, max = HOOK_MAX_CHARS): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max + 1);
  const space = cut.lastIndexOf(' ');
  return (space > 0 ? cut.slice(0, space) : t.slice(0, max)).replace(/[\s,;:–-]+$/, '');
}

/** Whether the engine was sure enough of a word for a hook (no confidence: sure). */
export const isSure = (w: Pick<TimedWord, 'confidence'>) => w.confidence === undefined || w.confidence === null || w.confidence >= HOOK_MIN_CONFIDENCE;

/** A spoken word of a sentence, its punctuation attached. */
interface Token {
  text: string;
  /** lower case, straight apostrophes, no edge punctuation */
  key: string;
  sure: boolean;
}

const keyOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/’/g, "'")
    .replace(/^[^\p{L}\p{N}']+|[^\p{L}\p{N}']+$/gu, '');

/** The sentence's words with punctuation attached, hesitations, fillers and repeats ("to to") left out. */
function cleanTokens(elements: readonly TimedWord[], english: boolean): Token[] {
  const raw: Token[] = [];
  for (const w of elements) {
    const text = w.text.trim();
    if (w.type === 'silence' || !text) continue;
    if (w.type === 'punctuation') {
      if (raw.length) raw[raw.length - 1].text += text;
      continue;
    }
    raw.push({ text, key: keyOf(text), sure: isSure(w) });
  }
  const out: Token[] = [];
  for (let i = 0; i < raw.length; i++) {
    const t = raw[i];
    const before = out[out.length - 1]?.key;
    if (HESITATIONS.has(t.key)) continue;
    if (english) {
      const pair = i + 1 < raw.length ? `${t.key} ${raw[i + 1].key}` : '';
      if (FILLER_PAIRS.has(pair) && !(before && KEEPS_PAIR.has(before))) {
        i++;
        continue;
      }
      if (FILLERS.has(t.key) && !(t.key === 'like' && before && KEEPS_LIKE.has(before))) continue;
    }
    // a word said twice ("to to"), or two said twice ("I think I think")
    if (t.key && t.key === before) continue;
    if (i + 1 < raw.length && out.length >= 2 && `${out[out.length - 2].key} ${before}` === `${t.key} ${raw[i + 1].key}`) {
      i++;
      continue;
    }
    out.push({ ...t });
  }
  return out;
}

/** A candidate line: tokens[from..to) of a run of sure words. */
interface Line {
  tokens: Token[];
  score: number;
  question: boolean;
  whole: boolean;
}

/**
 * The lines of one sentence: every window of HOOK_WORDS words inside a run of
 * sure words that neither starts on a filler nor ends on a dangling word and
 * says something (two words outside the function-word lists), scored.
 */
function sentenceLines(tokens: Token[], english: boolean, order: number): Line[] {
  const question = tokens.some((t) => /[?？]/.test(t.text)) || (english && OPENERS.has(tokens[0]?.key ?? '') && tokens.length > 2);
  const lines: Line[] = [];
  let runStart = 0;
  for (let i = 0; i <= tokens.length; i++) {
    if (i < tokens.length && tokens[i].sure) continue;
    for (let a = runStart; a < i; a++) {
      if (english && LEADING.has(tokens[a].key)) continue;
      for (let b = a + HOOK_WORDS.min; b <= Math.min(i, a + HOOK_WORDS.max); b++) {
        const span = tokens.slice(a, b);
        const last = span[span.length - 1];
        if (english && TRAILING.has(last.key) && !/[.!?]$/.test(last.text)) continue;
        if (english && span.filter((t) => !FUNCTION_WORDS.has(t.key)).length < 2) continue;
        if (numberList(span, english)) continue;
        const whole = a === 0 && b === tokens.length;
        const isQuestion = question && a === 0;
        const n = span.length;
        const score =
          (isQuestion ? STRENGTH.question : 0) +
          (span.some((t) => /\p{N}/u.test(t.key) || (english && NUMBER_WORDS.has(t.key))) ? STRENGTH.number : 0) +
          (english && span.some((t) => CLAIMS.has(t.key)) ? STRENGTH.claim : 0) +
          (english && span.some((t) => CONTRASTS.has(t.key)) ? STRENGTH.contrast : 0) +
          (english && span.some((t) => DIRECT.has(t.key)) ? STRENGTH.directAddress : 0) +
          (whole ? STRENGTH.wholeSentence : 0) +
          (n >= 4 && n <= 7 ? STRENGTH.lengthFit : STRENGTH.lengthFit / 2) +
          (a === 0 ? STRENGTH.sentenceStart : 0) +
          (b === tokens.length ? STRENGTH.sentenceEnd : 0) +
          n * STRENGTH.perWord -
          order * 1e-6;
        lines.push({ tokens: span, score, question: isQuestion && whole, whole });
      }
    }
    runStart = i + 1;
  }
  return lines;
}

/** A string of digits or a list of numbers ("nine three four", "1 2 3"): half its words numbers, or three in a row. */
function numberList(span: readonly Token[], english: boolean): boolean {
  const isNumber = (t: Token) => /^\p{N}+([.,]\p{N}+)?%?$/u.test(t.key) || (english && DIGIT_WORDS.has(t.key));
  let run = 0;
  let longest = 0;
  let count = 0;
  for (const t of span) {
    run = isNumber(t) ? run + 1 : 0;
    if (run) count++;
    longest = Math.max(longest, run);
  }
  return longest >= NUMBER_LIST.run || count / span.length >= NUMBER_LIST.share;
}

/** A line as a title: capitalised, no trailing comma or full stop; a whole question keeps (or gets) its mark. */
function lineText(line: Line): string {
  let t = line.tokens
    .map((x) => x.text)
    .join(' ')
    .replace(/^[^\p{L}\p{N}¿¡"“]+/u, '')
    .replace(/[\s,;:.\-–—…"'“”‘’([]+$/u, '');
  if (line.question && !/[?？]$/.test(t)) t += '?';
  return trimAtWord(t.charAt(0).toLocaleUpperCase() + t.slice(1));
}

/**
 * The offline writer: the strongest short line of the transcript (a question,
 * a number, a claim, a contrast, words to the viewer; whole sentences and 4-7
 * words preferred), built only from words the engine was sure of, without
 * fillers, repeats or strings of digits; '' when no sentence has such a line.
 */
export class StrongestLineHook implements HookWriter {
  async write(words: readonly TimedWord[], { language = 'en' }: HookWriteOptions = {}): Promise<string> {
    const english = primaryLanguage(language) === 'en';
    let best: Line | undefined;
    sentencesOf(words).forEach((s, order) => {
      for (const line of sentenceLines(cleanTokens(words.slice(s.first, s.last + 1), english), english, order)) {
        if (!best || line.score > best.score) best = line;
      }
    });
    return best ? lineText(best) : '';
  }
}

/**
 * An OpenAI-compatible chat-completions server (POST {base}/v1/chat/completions,
 * `choices[0].message.content`), given the transcript with the words the
 * engine was unsure of masked. Any failure falls back to the offline writer:
 * a hook never blocks an update.
 */
export class ChatCompletionsHook implements HookWriter {
  private readonly fallback = new StrongestLineHook();

  constructor(private readonly opts: OpenAiCompatibleOptions) {}

  async write(words: readonly TimedWord[], opts: HookWriteOptions = {}): Promise<string> {
    const { signal } = opts;
    const text = transcriptText(words.map((w) => (w.type === 'word' && !isSure(w) ? { ...w, text: '[?]' } : w)));
    if (!text) return '';
    try {
      const content = await chatCompletion(this.opts, {
        temperature: 0.7,
        messages: [
          {
            role: 'system',
            content: `Write one hook title for a short video from its transcript: ${HOOK_WORDS.min} to ${HOOK_WORDS.max} words, its strongest claim, number or question, in the transcript's language, no quotes, no hashtags, no filler words. Words the speech engine could not make out are written [?]: never use or guess them. Answer with the title only.`,
          },
          { role: 'user', content: text.slice(0, 8000) },
        ],
        signal,
      });
      const hook = typeof content === 'string' ? trimAtWord(content.replace(/^["'“”\s]+|["'“”\s]+$/g, '')) : '';
      if (hook && !hook.includes('[?]')) return hook;
      throw new Error('empty answer');
    } catch (e) {
      if (signal?.aborted) throw e;
      return this.fallback.write(words, opts);
    }
  }
}
