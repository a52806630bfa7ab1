/**
 * A project's dictionary fed to pocketsphinx itself. The decoder hears only words that are
 * both in its pronunciation dictionary and in its language model; the model's 72,500 words
 * lack most names, and no setting adds one.
 *
 * Per job, in a folder of its own in the job's folder:
 * - a pronunciation dictionary: the model's own, plus one token per listed word, pronounced
 *   as the model's dictionary has it and as espeak-ng reads it (IPA mapped to the model's
 *   ARPAbet phones), both where they differ;
 * - a language model control file (`-lmctl`): the stock model, loaded unchanged, with one
 *   class holding the listed words. pocketsphinx gives the class the probability of a
 *   uniform unigram (1/72,500: the model's 4,000th most likely word, about as likely as
 *   "john"), shared equally by its words: each of 2 words is as likely as its 6,400th word,
 *   each of 20 as its 23,000th, each of 100 as its 45,000th (of 72,500). One class only:
 *   with more, sphinxbase 0.8 reads freed memory once the model's word table grows (seen
 *   with valgrind, a crash from 6 classes on). Rewriting the model per job is out of reach
 *   (sphinx_lm_convert aborts writing Debian's trie model as text), and the class costs
 *   nothing to load.
 *
 * Every listed word gets a token of its own (`dict-3-1`), also a word the model knows: it is
 * then heard with the larger of its own probability and its class's. The transcriber writes
 * each token back as the word listed.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { dictionaryEntries, splitPunctuation } from './dictionary.js';
import { findExecutable, runProgram } from '../program.js';

/** Debian's pocketsphinx-en-us, where pocketsphinx_continuous finds its default model. */
export const POCKETSPHINX_MODEL = '/usr/share/pocketsphinx/model/en-us';
const LANGUAGE_MODEL = 'en-us.lm.bin';
const PRONUNCIATIONS = 'cmudict-en-us.dict';
/** the name of the control file's one model, given to -lmname */
const LM_NAME = 'dictionary';
/** the one class's name, a word no dictionary has */
const CLASS = '[dictionary]';

export interface DecoderVocabulary {
  /** arguments for pocketsphinx_continuous: -dict, -lmctl, -lmname */
  args: string[];
  /** the listed spelling for a token the decoder printed; any other word as it came */
  spell(word: string): string;
  /** removes the job's files */
  dispose(): Promise<void>;
}

export interface VocabularyOptions {
  /** where espeak-ng is looked for (without it, words the model's dictionary lacks are left out) */
  searchPath: string;
  /** the job's folder (inWorkDir in jobs/work-dir.ts), where the files fed to the decoder and to espeak-ng go */
  workDir: string;
  /** the model folder (default: Debian's) */
  model?: string;
  signal?: AbortSignal;
}

/**
 * The decoder arguments that teach pocketsphinx a project's dictionary, or undefined when
 * there is nothing to teach (no entry, or no model files where they are expected: the
 * spellings are then only applied afterwards, by postProcess).
 */
export async function decoderVocabulary(dictionary: readonly string[] | undefined, opts: VocabularyOptions): Promise<DecoderVocabulary | undefined> {
  const entries = dictionaryEntries(dictionary).map((e) =>
    e.spelling
      .split(' ')
      .map((w) => splitPunctuation(w).core)
      .filter(Boolean),
  );
  if (entries.length === 0) return undefined;
  const model = opts.model ?? POCKETSPHINX_MODEL;
  const base = await fs.readFile(path.join(model, PRONUNCIATIONS), 'utf8').catch(() => undefined);
  if (base === undefined || !(await exists(path.join(model, LANGUAGE_MODEL)))) return undefined;

  const lower = [...new Set(entries.flat().map((w) => w.toLowerCase()))];
  const known = cmuPronunciations(base, new Set(lower));
  const generated = await generatePronunciations(lower, opts);
  // the model's own first; espeak-ng's reading too where it differs (a name the model's dictionary spells oddly)
  const plan = planVocabulary(entries, (w) => [...new Set([...(known.get(w.toLowerCase()) ?? []), ...(generated.get(w.toLowerCase()) ?? [])])]);
  if (plan.spellings.size === 0) return undefined;

  const dir = await fs.mkdtemp(path.join(opts.workDir, 'pocketsphinx-'));
  const dispose = () => fs.rm(dir, { recursive: true, force: true });
  const dict = path.join(dir, 'words.dict');
  const lmctl = path.join(dir, 'words.lmctl');
  try {
    await fs.writeFile(dict, `${base}${base.endsWith('\n') ? '' : '\n'}${plan.pronunciations.join('\n')}\n`);
    await fs.writeFile(path.join(dir, 'words.classdef'), plan.classdef);
    // the class file is named relative to the control file: a temporary folder's path may hold spaces
    await fs.writeFile(lmctl, `{ words.classdef }\n${path.join(model, LANGUAGE_MODEL)} ${LM_NAME} { ${CLASS} }\n`);
  } catch (e) {
    await dispose();
    throw e;
  }
  return { args: ['-dict', dict, '-lmctl', lmctl, '-lmname', LM_NAME], spell: (word) => plan.spellings.get(word) ?? word, dispose };
}

export interface VocabularyPlan {
  /** lines for the pronunciation dictionary: `dict-0-0 K OW V AH L EH NG K OW`, variants as `dict-0-0(2)` */
  pronunciations: string[];
  /** the class definition file: the listed words, equally likely */
  classdef: string;
  /** token to the word as listed */
  spellings: Map<string, string>;
}

/**
 * Tokens (`dict-<entry>-<word>`), pronunciations and the class for the dictionary's entries,
 * each a list of words. A word without a pronunciation is left out.
 */
export function planVocabulary(entries: readonly string[][], pronounce: (word: string) => string[]): VocabularyPlan {
  const pronunciations: string[] = [];
  const spellings = new Map<string, string>();
  entries.forEach((words, i) => {
    words.forEach((word, j) => {
      const phones = pronounce(word);
      if (phones.length === 0) return;
      const token = `dict-${i}-${j}`;
      spellings.set(token, word);
      phones.forEach((p, k) => pronunciations.push(`${k === 0 ? token : `${token}(${k + 1})`} ${p}`));
    });
  });
  const tokens = [...spellings.keys()];
  const classdef = spellings.size === 0 ? '' : [`LMCLASS ${CLASS}`, ...tokens.map((t) => `${t} ${1 / tokens.length}`), `END ${CLASS}`, ''].join('\n');
  return { pronunciations, classdef, spellings };
}

/** The model dictionary's pronunciations (all variants, in its order) of the wanted lower-case words. */
export function cmuPronunciations(dictText: string, wanted: ReadonlySet<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of dictText.split('\n')) {
    const space = line.indexOf(' ');
    if (space <= 0) continue;
    const word = line.slice(0, space).replace(/\(\d+\)$/, '');
    if (!wanted.has(word)) continue;
    const phones = line.slice(space + 1).trim();
    if (phones) out.set(word, [...(out.get(word) ?? []), phones]);
  }
  return out;
}

/**
 * espeak-ng's IPA (en-us, phonemes split by `_`, stress marks dropped) to the ARPAbet phones of
 * the pocketsphinx model, longest symbol first. Flaps, as in "water", are written T as the
 * model's dictionary does; symbols of other languages go to the nearest English phone.
 */
const IPA_TO_ARPABET: Record<string, string> = {
  // vowels and diphthongs, r-coloured ones whole
  ɑːɹ: 'AA R',
  ɔːɹ: 'AO R',
  oːɹ: 'AO R',
  ɛɹ: 'EH R',
  ɪɹ: 'IH R',
  ʊɹ: 'UH R',
  aɪɚ: 'AY ER',
  aɪə: 'AY AH',
  iə: 'IY AH',
  əl: 'AH L',
  ɑː: 'AA',
  ɑ: 'AA',
  ɒ: 'AA',
  a: 'AA',
  æ: 'AE',
  ʌ: 'AH',
  ə: 'AH',
  ɐ: 'AH',
  ɔː: 'AO',
  ɔ: 'AO',
  aʊ: 'AW',
  aɪ: 'AY',
  ɛ: 'EH',
  e: 'EH',
  ɜː: 'ER',
  ɜ: 'ER',
  ɚ: 'ER',
  ɝ: 'ER',
  eɪ: 'EY',
  ɪ: 'IH',
  ᵻ: 'IH',
  iː: 'IY',
  i: 'IY',
  oʊ: 'OW',
  oː: 'OW',
  o: 'OW',
  ɔɪ: 'OY',
  ʊ: 'UH',
  uː: 'UW',
  u: 'UW',
  y: 'UW',
  ø: 'ER',
  œ: 'ER',
  // consonants
  tʃ: 'CH',
  dʒ: 'JH',
  b: 'B',
  d: 'D',
  ð: 'DH',
  f: 'F',
  ɡ: 'G',
  g: 'G',
  h: 'HH',
  k: 'K',
  x: 'K',
  l: 'L',
  ɫ: 'L',
  m: 'M',
  n: 'N',
  n̩: 'AH N',
  ŋ: 'NG',
  p: 'P',
  ɹ: 'R',
  r: 'R',
  s: 'S',
  ʃ: 'SH',
  t: 'T',
  ɾ: 'T',
  ʔ: 'T',
  θ: 'TH',
  v: 'V',
  w: 'W',
  j: 'Y',
  z: 'Z',
  ʒ: 'ZH',
  ç: 'HH',
  ɣ: 'G',
  β: 'V',
  ɲ: 'N Y',
  ʎ: 'L Y',
};
const IPA_SYMBOLS = Object.keys(IPA_TO_ARPABET).sort((a, b) => b.length - a.length);

/** One word's espeak-ng IPA (`k_ˌoʊ_v_ə_l_ˈɛ_ŋ_k_oʊ`, groups may be space-separated) as ARPAbet phones. */
export function ipaToArpabet(ipa: string): string {
  const phones: string[] = [];
  for (let group of ipa.replace(/[ˈˌ‿͡.]/g, '').split(/[_\s]+/)) {
    // a separated symbol is usually whole; what is not (a long mark left alone, a cluster) is read longest first
    while (group) {
      const symbol = IPA_SYMBOLS.find((s) => group.startsWith(s));
      if (symbol) {
        phones.push(IPA_TO_ARPABET[symbol]);
        group = group.slice(symbol.length);
      } else {
        group = group.slice(1);
      }
    }
  }
  // espeak-ng writes "hurry" h_ɜː_ɹ_i and "jury" dʒ_ʊɹ_ɹ_i; the model's dictionary has one R (or ER) there
  return phones
    .join(' ')
    .split(' ')
    .filter((p, i, all) => !(p === 'R' && (all[i - 1] === 'R' || all[i - 1] === 'ER')))
    .join(' ');
}

/**
 * Pronunciations of words the model's dictionary lacks, from one espeak-ng run (US English,
 * one word a line, each line a clause of its own so lines come back one for one). Without
 * espeak-ng, none.
 */
export async function generatePronunciations(
  words: readonly string[],
  { searchPath, workDir, signal }: Pick<VocabularyOptions, 'searchPath' | 'workDir' | 'signal'>,
): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const espeak = findExecutable('espeak-ng', searchPath);
  if (!espeak || words.length === 0) return out;
  const lines: string[] = [];
  const dir = await fs.mkdtemp(path.join(workDir, 'g2p-'));
  try {
    const input = path.join(dir, 'words.txt');
    // a full stop inside a word ("Node.js") would end the clause early
    await fs.writeFile(input, words.map((w) => `${w.replace(/[.!?;:,]+/g, ' ').trim()}.\n`).join(''));
    await runProgram(espeak, ['-q', '--ipa', '--sep=_', '-v', 'en-us', '-f', input], { signal, stdout: (l) => lines.push(l) });
  } catch (e) {
    // the transcription goes on without generated pronunciations; only an abort stops it
    if (signal?.aborted) throw e;
    return out;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
  const read = lines.map((l) => l.trim()).filter(Boolean);
  // a word that came back as other than one line would shift the rest: trust none then
  if (read.length !== words.length) return out;
  words.forEach((w, i) => {
    const phones = ipaToArpabet(read[i]);
    if (phones) out.set(w, [phones]);
  });
  return out;
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
