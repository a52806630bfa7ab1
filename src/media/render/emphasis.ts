/**
 * Which words of a transcript a caption style emphasises: its rules (numbers,
 * names, the words it lists, the transcript's most salient words) applied to
 * the words. Pure: the salient words come computed (src/ai/salience.ts).
 */
import type { CaptionStyle } from '../../catalog/caption-style.js';
import type { TimedWord } from '../transcript.js';

const NUMBER_WORDS = new Set(
  'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million billion trillion percent half double triple first second third'.split(
    ' ',
  ),
);
/** Capitalised words that are not names. */
const NOT_NAMES = new Set(['i', "i'm", "i've", "i'll", "i'd", 'ok', 'okay']);

const letters = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}'’]/gu, '');

/** A number said or written: digits, or a number word. */
export const isNumberWord = (text: string) => /\p{N}/u.test(text) || NUMBER_WORDS.has(letters(text));

/**
 * The indexes of `words` the style emphasises. `names`: a capitalised word
 * that does not start a sentence (engines that write everything in lower case
 * give none); `listed`: the style's words, compared without case or
 * punctuation; `salient`: the indexes given.
 */
export function emphasizedWords(
  words: readonly TimedWord[],
  emphasis: Pick<CaptionStyle['emphasis'], 'rules' | 'words'>,
  salient?: ReadonlySet<number>,
): Set<number> {
  const out = new Set<number>();
  if (!emphasis.rules.length) return out;
  const rules = new Set(emphasis.rules);
  const listed = new Set(emphasis.words.map(letters).filter(Boolean));
  let sentenceStart = true;
  words.forEach((w, i) => {
    if (w.type === 'silence') return;
    if (w.type === 'punctuation') {
      if (/[.!?…。！？]/u.test(w.text)) sentenceStart = true;
      return;
    }
    const text = w.text.trim();
    const bare = letters(text);
    const starts = sentenceStart;
    sentenceStart = /[.!?…]$/.test(text);
    if (!bare) return;
    if (rules.has('numbers') && isNumberWord(text)) out.add(i);
    else if (rules.has('names') && !starts && /^\p{Lu}/u.test(text) && !NOT_NAMES.has(bare)) out.add(i);
    else if (rules.has('listed') && listed.has(bare)) out.add(i);
    else if (rules.has('salient') && salient?.has(i)) out.add(i);
  });
  return out;
}
