/**
 * `npm run bench -- transcription`, second part: what a project's dictionary does to
 * pocketsphinx, which takes its words into the decoder (src/media/transcription/
 * pocketsphinx-dictionary.ts).
 * - harm: the LibriVox tuning set, clip by clip and joined, transcribed with a dictionary
 *   of 20 names and terms it never says (UNRELATED); compare with the transcription
 *   section's figures, which use no dictionary.
 * - gain: espeak-ng sentences naming people, places and products (NAMED); how many of
 *   the listed words come out as listed without a dictionary and with one. Synthetic
 *   speech, so a figure of the mechanism, not of real recordings.
 * - cost: the time a dictionary adds to one job: transcribe() of a 3 s sentence with and
 *   without UNRELATED, alternately, medians of RUNS; and the part spent writing the job's
 *   files (model dictionary copy, espeak-ng run).
 */
import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Row } from './row.js';
import { joinedSet, realSets, transcribeClip, type ClipResult } from './transcription.js';
import { loadConfig } from '../src/config.js';
import { TranscriberUnavailableError } from '../src/media/transcription/errors.js';
import { decoderVocabulary } from '../src/media/transcription/pocketsphinx-dictionary.js';
import { postProcess } from '../src/media/transcription/post-process.js';
import { createTranscriber } from '../src/media/transcription/transcriber.js';
import type { Transcriber } from '../src/media/transcription/types.js';
import { readWavInfo } from '../src/media/wav.js';
import { sumCounts, wordErrorRate } from './wer.js';

const SECTION = 'transcription-dictionary';
const run = promisify(execFile);
const RUNS = 5;

const UNRELATED = [
  'Zyntrix',
  'Kovalenko',
  'Kubernetes',
  'Terraform',
  'Rottnest',
  'Vantablack',
  'Petrovic',
  'Nakamura',
  'Osaka',
  'Siobhan Okonkwo',
  'Clipcast',
  'quokka',
  'GraphQL',
  'Postgres',
  'TikTok',
  'YouTube',
  'Brandeis',
  'Marovski',
  'Tavrenko',
  'Zelgrom',
];

const NAMED: Array<{ text: string; dictionary: string[] }> = [
  { text: 'Today we launch Zyntrix, the new camera from Kovalenko labs.', dictionary: ['Zyntrix', 'Kovalenko'] },
  { text: 'My name is Siobhan Okonkwo and I edit videos.', dictionary: ['Siobhan', 'Okonkwo'] },
  { text: 'We deployed the service on Kubernetes with Terraform.', dictionary: ['Kubernetes', 'Terraform'] },
  { text: 'The quokka is a small animal from Rottnest island.', dictionary: ['quokka', 'Rottnest'] },
  { text: 'Please subscribe to Clipcast for more tips.', dictionary: ['Clipcast'] },
  { text: 'Our guest today is doctor Nakamura from Osaka.', dictionary: ['Nakamura', 'Osaka'] },
  { text: 'The Vantablack paint absorbs almost all light.', dictionary: ['Vantablack'] },
  { text: 'Ask Brandeis about the Petrovic report.', dictionary: ['Brandeis', 'Petrovic'] },
  { text: 'Our guest today is doctor Tavrenko from Zelgrom.', dictionary: ['Tavrenko', 'Zelgrom'] },
  { text: 'The Marovski brothers opened a shop.', dictionary: ['Marovski'] },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function speak(text: string, file: string): Promise<string> {
  const raw = `${file}.raw.wav`;
  await run('espeak-ng', ['-v', 'en-us+klatt', '-s', '165', '-w', raw, text]);
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', raw, '-ar', '16000', '-ac', '1', '-c:a', 'pcm_s16le', file]);
  return file;
}

/** The words of a sentence, the dictionary's spellings applied afterwards as always; the decoder gets it only if `decoder`. */
async function heardWords(engine: Transcriber, wav: string, dictionary: string[], decoder: boolean): Promise<string[]> {
  const words = await engine.transcribe(wav, { language: 'en', dictionary: decoder ? dictionary : [] });
  return postProcess(words, { dictionary })
    .filter((w) => w.type === 'word')
    .map((w) => w.text);
}

export async function transcriptionDictionary(): Promise<Row[]> {
  let engine: Transcriber;
  try {
    engine = createTranscriber({ ...loadConfig(), transcriber: 'pocketsphinx' });
  } catch (e) {
    if (!(e instanceof TranscriberUnavailableError)) throw e;
    return [{ section: SECTION, metric: 'pocketsphinx: skipped', value: NaN, unit: '', note: `unavailable here: ${e.message}` }];
  }
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'bench-dictionary-'));
  try {
    const rows: Row[] = [];

    const librivox = realSets()[0];
    for (const set of [librivox, await joinedSet(dir, librivox)]) {
      const results: ClipResult[] = [];
      for (const clip of set.clips) {
        const r = await transcribeClip(engine, clip, dir, UNRELATED);
        process.stderr.write(`#   dictionary ${set.name} ${clip.id}\n#     ref: ${clip.reference}\n#     hyp: ${r.hypothesis}\n`);
        results.push(r);
      }
      const c = sumCounts(results.map((r) => r.counts));
      rows.push({
        section: SECTION,
        metric: `pocketsphinx, ${set.name}, with ${UNRELATED.length} unrelated dictionary entries: word error rate`,
        value: wordErrorRate(c) * 100,
        unit: '%',
        note: `N=${c.n} S=${c.substitutions} D=${c.deletions} I=${c.insertions}; the transcription section has the same set without a dictionary`,
      });
    }

    let listed = 0;
    let without = 0;
    let withDictionary = 0;
    for (const [i, s] of NAMED.entries()) {
      const wav = await speak(s.text, path.join(dir, `named-${i}.wav`));
      const before = await heardWords(engine, wav, s.dictionary, false);
      const after = await heardWords(engine, wav, s.dictionary, true);
      process.stderr.write(`#   named: ${s.text}\n#     without: ${before.join(' ')}\n#     with:    ${after.join(' ')}\n`);
      listed += s.dictionary.length;
      without += s.dictionary.filter((w) => before.includes(w)).length;
      withDictionary += s.dictionary.filter((w) => after.includes(w)).length;
    }
    const what = `of ${listed} listed words in ${NAMED.length} espeak-ng sentences (synthetic speech)`;
    rows.push(
      { section: SECTION, metric: 'pocketsphinx, listed words heard as listed, spellings applied afterwards only', value: without, unit: 'words', note: what },
      { section: SECTION, metric: 'pocketsphinx, listed words heard as listed, dictionary in the decoder', value: withDictionary, unit: 'words', note: what },
    );

    const short = await speak('Our guest today is doctor Nakamura from Osaka.', path.join(dir, 'short.wav'));
    const plain: number[] = [];
    const dictionary: number[] = [];
    const files: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let t0 = performance.now();
      await engine.transcribe(short, { language: 'en' });
      plain.push(performance.now() - t0);
      t0 = performance.now();
      await engine.transcribe(short, { language: 'en', dictionary: UNRELATED });
      dictionary.push(performance.now() - t0);
      t0 = performance.now();
      const v = await decoderVocabulary(UNRELATED, { searchPath: loadConfig().searchPath, workDir: dir });
      files.push(performance.now() - t0);
      await v?.dispose();
    }
    rows.push(
      {
        section: SECTION,
        metric: `pocketsphinx: time a dictionary of ${UNRELATED.length} entries adds to a job`,
        value: median(dictionary) - median(plain),
        unit: 'ms',
        note: `transcribe() of a ${(await readWavInfo(short)).duration.toFixed(1)} s sentence, median of ${RUNS}: ${median(plain).toFixed(0)} ms without, ${median(dictionary).toFixed(0)} ms with`,
      },
      {
        section: SECTION,
        metric: "pocketsphinx: of which writing the job's dictionary files",
        value: median(files),
        unit: 'ms',
        note: 'model dictionary copy (3.2 MB), one espeak-ng run, the class file',
      },
    );
    return rows;
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
