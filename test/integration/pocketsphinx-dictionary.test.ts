import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import {
  cmuPronunciations,
  decoderVocabulary,
  generatePronunciations,
  ipaToArpabet,
  planVocabulary,
  POCKETSPHINX_MODEL,
} from '../../src/media/transcription/pocketsphinx-dictionary.js';
import { postProcess } from '../../src/media/transcription/post-process.js';
import { createTranscriber } from '../../src/media/transcription/transcriber.js';

const run = promisify(execFile);
const searchPath = process.env.PATH ?? '';
/** a name the model's dictionary lacks (its pronunciation is generated) and one it has */
const SENTENCE = 'Our guest today is doctor Kovalenko from Osaka.';
const NAMED = ['Kovalenko', 'Osaka'];
/** after 18 entries the sentence does not say: one language-model class per entry crashed pocketsphinx here */
const DICTIONARY = [
  ...['Zyntrix', 'Kubernetes', 'Terraform', 'Rottnest', 'Vantablack', 'Petrovic', 'Nakamura', 'Siobhan Okonkwo', 'Clipcast'],
  ...['quokka', 'GraphQL', 'Postgres', 'TikTok', 'YouTube', 'Brandeis', 'Marovski', 'Tavrenko', 'Zelgrom'],
  ...NAMED,
];

let dir: string;
let modelDictionary: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pocketsphinx-dictionary-'));
  modelDictionary = await fs.readFile(path.join(POCKETSPHINX_MODEL, 'cmudict-en-us.dict'), 'utf8');
});

afterAll(async () => {
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe('generated pronunciations', () => {
  it('maps espeak-ng IPA to the model phones, longest symbol first', () => {
    expect(ipaToArpabet('k_ˌoʊ_v_ə_l_ˈɛ_ŋ_k_oʊ')).toBe('K OW V AH L EH NG K OW');
    expect(ipaToArpabet('tʃ_ˈɜː_tʃ')).toBe('CH ER CH');
    expect(ipaToArpabet('k_ˈɑːɹ')).toBe('K AA R');
    // one R where espeak-ng writes an r-coloured vowel and then R
    expect(ipaToArpabet('h_ˈɜː_ɹ_i')).toBe('HH ER IY');
    expect(ipaToArpabet('dʒ_ˈʊɹ_ɹ_i')).toBe('JH UH R IY');
    // space-separated groups, and symbols left unseparated, are read too
    expect(ipaToArpabet('z_ˈɪ_n_t_ɹ_ɪ_k_s k_ˈæt')).toBe('Z IH N T R IH K S K AE T');
    expect(ipaToArpabet('')).toBe('');
  });

  it("come out as the model's own dictionary has common words", async () => {
    const words = [
      'water',
      'church',
      'judge',
      'thought',
      'hurry',
      'camera',
      'music',
      'nation',
      'vision',
      'mother',
      'thinking',
      'house',
      'near',
      'chair',
      'sure',
    ];
    const generated = await generatePronunciations(words, { searchPath, workDir: dir });
    const cmu = cmuPronunciations(modelDictionary, new Set(words));
    for (const w of words) {
      expect(generated.get(w), w).toHaveLength(1);
      expect(cmu.get(w), w).toContain(generated.get(w)![0]);
    }
  });

  it('reads words the model lacks, punctuation inside a word included, one pronunciation each', async () => {
    const words = ['Zyntrix', 'Node.js', 'Kovalenko'];
    const generated = await generatePronunciations(words, { searchPath, workDir: dir });
    expect([...generated.keys()]).toEqual(words);
    expect(generated.get('Zyntrix')).toEqual(['Z IH N T R IH K S']);
    expect(generated.get('Kovalenko')).toEqual(['K OW V AH L EH NG K OW']);
    expect(generated.get('Node.js')![0]).toMatch(/^N OW D /);
  });

  it('are none without espeak-ng', async () => {
    expect((await generatePronunciations(['Zyntrix'], { searchPath: dir, workDir: dir })).size).toBe(0);
  });

  it('takes every variant the model dictionary has', () => {
    const cmu = cmuPronunciations(modelDictionary, new Set(['read', 'osaka', 'zyntrix']));
    expect(cmu.get('read')).toEqual(['R EH D', 'R IY D']);
    expect(cmu.get('osaka')).toEqual(['OW S AA K AH']);
    expect(cmu.has('zyntrix')).toBe(false);
  });
});

describe('decoder vocabulary', () => {
  it('gives each word a token and a pronunciation per variant, all in one class, equally likely', () => {
    const phones: Record<string, string[]> = { jane: ['JH EY N'], doe: ['D OW', 'D OW2'], zyntrix: ['Z IH N T R IH K S'] };
    const plan = planVocabulary([['Jane', 'Doe'], ['!'], ['Zyntrix'], ['Jane']], (w) => phones[w.toLowerCase()] ?? []);
    expect(plan.pronunciations).toEqual(['dict-0-0 JH EY N', 'dict-0-1 D OW', 'dict-0-1(2) D OW2', 'dict-2-0 Z IH N T R IH K S', 'dict-3-0 JH EY N']);
    expect(plan.classdef).toBe('LMCLASS [dictionary]\ndict-0-0 0.25\ndict-0-1 0.25\ndict-2-0 0.25\ndict-3-0 0.25\nEND [dictionary]\n');
    expect(Object.fromEntries(plan.spellings)).toEqual({ 'dict-0-0': 'Jane', 'dict-0-1': 'Doe', 'dict-2-0': 'Zyntrix', 'dict-3-0': 'Jane' });
    expect(planVocabulary([['!']], () => [])).toEqual({ pronunciations: [], classdef: '', spellings: new Map() });
  });

  it("writes the job's dictionary and control file, spells tokens back, and removes them", async () => {
    const v = await decoderVocabulary(['Jane Doe', 'Zyntrix', 'jane doe', '(Kovalenko)'], { searchPath, workDir: dir });
    expect(v).toBeDefined();
    const at = (flag: string) => v!.args[v!.args.indexOf(flag) + 1];
    // in a folder of the job's own
    expect(path.dirname(path.dirname(at('-dict')))).toBe(dir);
    expect(at('-lmname')).toBe('dictionary');
    const dict = await fs.readFile(at('-dict'), 'utf8');
    expect(dict.startsWith(modelDictionary)).toBe(true);
    const added = dict.slice(modelDictionary.length).trim().split('\n');
    // Jane and Doe from the model's dictionary, with espeak-ng's reading where it differs; the others generated
    expect(added).toContain('dict-0-0 JH EY N');
    expect(added).toContain('dict-0-1 D OW');
    expect(added).toContain('dict-1-0 Z IH N T R IH K S');
    expect(added).toContain('dict-2-0 K OW V AH L EH NG K OW');
    expect(added.every((l) => /^dict-\d-\d(\(\d\))? [A-Z]+( [A-Z]+)*$/.test(l))).toBe(true);
    const lmctl = await fs.readFile(at('-lmctl'), 'utf8');
    expect(lmctl).toBe(`{ words.classdef }\n${POCKETSPHINX_MODEL}/en-us.lm.bin dictionary { [dictionary] }\n`);
    const classdef = await fs.readFile(path.join(path.dirname(at('-lmctl')), 'words.classdef'), 'utf8');
    expect(classdef.trim().split('\n')).toEqual([
      'LMCLASS [dictionary]',
      'dict-0-0 0.25',
      'dict-0-1 0.25',
      'dict-1-0 0.25',
      'dict-2-0 0.25',
      'END [dictionary]',
    ]);
    expect(['dict-0-0', 'dict-0-1', 'dict-1-0', 'dict-2-0', 'dict-9-0', 'osaka'].map(v!.spell)).toEqual([
      'Jane',
      'Doe',
      'Zyntrix',
      'Kovalenko',
      'dict-9-0',
      'osaka',
    ]);
    await v!.dispose();
    await expect(fs.access(path.dirname(at('-dict')))).rejects.toThrow();
  });

  it('is nothing to add for an empty dictionary, or without the model files', async () => {
    expect(await decoderVocabulary(undefined, { searchPath, workDir: dir })).toBeUndefined();
    expect(await decoderVocabulary([' ', '...'], { searchPath, workDir: dir })).toBeUndefined();
    expect(await decoderVocabulary(['Zyntrix'], { searchPath, workDir: dir, model: dir })).toBeUndefined();
  });
});

describe('pocketsphinx with a dictionary', () => {
  it('hears listed names it mishears without them', async () => {
    const raw = path.join(dir, 'raw.wav');
    const speech = path.join(dir, 'speech.wav');
    await run('espeak-ng', ['-v', 'en-us+klatt', '-s', '165', '-w', raw, SENTENCE]);
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', raw, '-ar', '16000', '-ac', '1', '-c:a', 'pcm_s16le', speech]);
    const engine = createTranscriber(loadConfig({ ...process.env, TRANSCRIBER: 'pocketsphinx' }));
    const text = (words: Awaited<ReturnType<typeof engine.transcribe>>) =>
      postProcess(words, { dictionary: DICTIONARY })
        .filter((w) => w.type === 'word')
        .map((w) => w.text);

    // the dictionary applied only afterwards, as before: the names are heard as other words
    const before = text(await engine.transcribe(speech, { language: 'en' }));
    expect(before.length).toBeGreaterThan(4);
    for (const name of NAMED) expect(before).not.toContain(name);

    // the engine's files go beside the WAV, in the job's folder, never to TMPDIR, and are gone once the words are in
    const job = path.join(dir, 'job');
    const tmp = path.join(dir, 'tmp');
    await Promise.all([fs.mkdir(job), fs.mkdir(tmp)]);
    await fs.copyFile(speech, path.join(job, 'speech.wav'));
    const tmpdir = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    let heard;
    try {
      heard = await engine.transcribe(path.join(job, 'speech.wav'), { language: 'en', dictionary: DICTIONARY });
    } finally {
      if (tmpdir === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmpdir;
    }
    expect(await fs.readdir(tmp)).toEqual([]);
    expect(await fs.readdir(job)).toEqual(['speech.wav']);
    const after = text(heard);
    expect(after).toContain('Kovalenko');
    expect(after).toContain('Osaka');
    expect(after.indexOf('Kovalenko')).toBeLessThan(after.indexOf('Osaka'));
    expect(after.slice(0, 3).join(' ').toLowerCase()).toContain('today');
    expect(after.filter((w) => DICTIONARY.includes(w) && !NAMED.includes(w))).toEqual([]);
  });
});
