import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractAudio } from '../../src/media/transcription/audio.js';
import { readWavInfo } from '../../src/media/wav.js';
import { TranscriberUnavailableError, TranscriptionError } from '../../src/media/transcription/errors.js';
import { createOpenAITranscriber, parseVerboseTranscription } from '../../src/media/transcription/openai.js';
import { parsePocketsphinxLine } from '../../src/media/transcription/pocketsphinx.js';
import { postProcess } from '../../src/media/transcription/post-process.js';
import { loadConfig } from '../../src/config.js';
import { createTranscriber as engineOf, type EngineName } from '../../src/media/transcription/transcriber.js';
import type { TimedWord, Word } from '../../src/media/transcript.js';
import { joinPieces, type TimedPiece } from '../../src/media/transcription/timed-pieces.js';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai.js';
import { generatedTinyEn } from '../support/whisper-model.js';
import { createWhisperTranscriber } from '../../src/media/transcription/whisper.js';
import { readWhisperModel } from '../../src/media/transcription/ggml-model.js';
import { runInClass } from '../../src/jobs/priority.js';
import { JOB_NAMES } from '../../src/jobs/names.js';
import { FF } from '../support/media.js';

/** The engine as a process with this environment would build it. */
const createTranscriber = (engine: EngineName, env: NodeJS.ProcessEnv = process.env) => engineOf(loadConfig({ ...env, TRANSCRIBER: engine }));

const run = promisify(execFile);
const FIRST = 'Hello and welcome to this short video about captions.';
const SECOND = 'Now we talk about clips and social publishing.';
const GAP = 1.5;

let dir: string;
/** FIRST, 1.5 s of silence, SECOND: 16 kHz mono PCM, about 8 s */
let speech: string;
/** where the silent gap lies in `speech` */
let gap: { start: number; end: number };
let speechDuration: number;

const w = (text: string, startTime: number, endTime: number, type: TimedWord['type'] = 'word'): TimedWord => ({ text, type, startTime, endTime });
const w2 = (word: string, start: number, end: number) => ({ word, start, end });
const texts = (words: Word[]) => words.map((x) => (x.type === 'silence' ? '_' : x.text));
const core = (s: string) => s.toLowerCase().replace(/[^a-z']/g, '');

function expectWellFormed(words: Array<TimedWord & { id?: string }>, duration: number) {
  let last = 0;
  for (const x of words) {
    expect(x.endTime).toBeGreaterThanOrEqual(x.startTime);
    expect(x.startTime).toBeGreaterThanOrEqual(last);
    expect(x.endTime).toBeLessThanOrEqual(duration + 1e-9);
    expect(Math.round(x.startTime * 1000) / 1000).toBe(x.startTime);
    expect(Math.round(x.endTime * 1000) / 1000).toBe(x.endTime);
    last = x.endTime;
  }
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'transcription-'));
  const f = (n: string) => path.join(dir, n);
  // the Klatt voice at 165 wpm is the espeak-ng voice pocketsphinx's US model hears best
  await Promise.all([
    run('espeak-ng', ['-v', 'en-us+klatt', '-s', '165', '-w', f('first.wav'), FIRST]),
    run('espeak-ng', ['-v', 'en-us+klatt', '-s', '165', '-w', f('second.wav'), SECOND]),
  ]);
  speech = f('speech.wav');
  await run('ffmpeg', [
    ...FF,
    ...['-i', f('first.wav'), '-i', f('second.wav')],
    '-filter_complex',
    `[0:a]aresample=16000[a];[1:a]aresample=16000[b];anullsrc=r=16000:cl=mono:d=${GAP}[s];[a][s][b]concat=n=3:v=0:a=1`,
    ...['-ar', '16000', '-ac', '1', '-c:a', 'pcm_s16le', speech],
  ]);
  const firstSeconds = Number((await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', f('first.wav')])).stdout);
  gap = { start: firstSeconds, end: firstSeconds + GAP };
  speechDuration = (await readWavInfo(speech)).duration;
});

afterAll(async () => {
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe('pocketsphinx', () => {
  it('transcribes speech with word timings, in order, and reports progress', async () => {
    const engine = createTranscriber('pocketsphinx');
    const progress: number[] = [];
    const t0 = performance.now();
    const heard = await engine.transcribe(speech, { language: 'en', onProgress: (p) => progress.push(p) });
    const seconds = (performance.now() - t0) / 1000;
    console.info(
      `pocketsphinx: ${speechDuration.toFixed(2)} s of speech in ${seconds.toFixed(2)} s, real-time factor ${(seconds / speechDuration).toFixed(2)}`,
    );

    const words = heard.filter((x) => x.type === 'word');
    const spoken = `${FIRST} ${SECOND}`.split(' ').map(core);
    const pool = words.map((x) => core(x.text));
    const recognised = spoken.filter((s) => {
      const at = pool.indexOf(s);
      if (at >= 0) pool.splice(at, 1);
      return at >= 0;
    });
    expect(recognised.length / spoken.length).toBeGreaterThanOrEqual(0.5);
    expect(words.some((x) => /\(\d+\)$/.test(x.text))).toBe(false);
    for (let i = 1; i < heard.length; i++) expect(heard[i].startTime).toBeGreaterThanOrEqual(heard[i - 1].startTime);
    expect(heard.every((x) => x.endTime <= speechDuration + 0.05)).toBe(true);
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.length).toBeGreaterThan(1);

    const transcript = postProcess(heard, { duration: speechDuration });
    expectWellFormed(transcript, speechDuration);
    const pause = transcript.find((x) => x.type === 'silence' && x.endTime - x.startTime >= 1);
    expect(pause).toBeDefined();
    expect(pause!.startTime).toBeLessThan(gap.start + 0.5);
    expect(pause!.endTime).toBeGreaterThan(gap.end - 0.5);
    expect(pause!.text).toBe('');
  });

  it('is killed by its abort signal', async () => {
    const long = path.join(dir, 'long.wav');
    await run('ffmpeg', [...FF, '-stream_loop', '3', '-i', speech, '-c', 'copy', long]);
    const engine = createTranscriber('pocketsphinx');
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300);
    const t0 = performance.now();
    await expect(engine.transcribe(long, { language: 'en', signal: ac.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - t0).toBeLessThan(2000);
    const already = AbortSignal.abort();
    await expect(engine.transcribe(long, { language: 'en', signal: already })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('supports English only', async () => {
    const engine = createTranscriber('pocketsphinx');
    expect(engine.name).toBe('pocketsphinx');
    expect(['en', 'en-US', 'EN_gb'].map((l) => engine.supports(l))).toEqual([true, true, true]);
    expect(['fr', 'de', 'es'].some((l) => engine.supports(l))).toBe(false);
    await expect(engine.transcribe(speech, { language: 'fr' })).rejects.toThrow(/only English/);
  });

  it('reads words, fillers and pronunciation variants from its output lines', () => {
    expect(parsePocketsphinxLine('and(2) 0.300 0.480 0.452670')).toEqual({ ...w('and', 0.3, 0.48), confidence: 0.45267 });
    expect(parsePocketsphinxLine("i'm 1.000 1.200 0.9")).toEqual({ ...w("I'm", 1, 1.2), confidence: 0.9 });
    expect(parsePocketsphinxLine('<sil> 0.920 0.950 0.783465')).toEqual(w('', 0.92, 0.95, 'silence'));
    expect(parsePocketsphinxLine('[NOISE] 2.000 2.500 1.0')?.type).toBe('silence');
    expect(parsePocketsphinxLine('</s> 3.080 3.520 1.000000')?.type).toBe('silence');
    expect(parsePocketsphinxLine('hello and welcome to this short video')).toBeUndefined();
  });

  it('is unavailable without its program', () => {
    expect(() => createTranscriber('pocketsphinx', { PATH: dir })).toThrow(TranscriberUnavailableError);
    expect(() => createTranscriber('pocketsphinx', { PATH: dir })).toThrow(/pocketsphinx_continuous/);
  });
});

describe('extractAudio', () => {
  it('takes 16 kHz mono PCM from a video, padded to the video length', async () => {
    const video = path.join(dir, 'talk.mp4');
    // 3 s of picture, 2 s of sound
    await run('ffmpeg', [
      ...FF,
      ...['-f', 'lavfi', '-i', 'testsrc2=s=160x120:r=25:d=3', '-f', 'lavfi', '-i', 'sine=f=440:d=2:sample_rate=44100'],
      ...['-ac', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-metadata', 'title=A talk', video],
    ]);
    const wav = path.join(dir, 'talk.wav');
    const out = await extractAudio(video, wav);
    expect(out.hasAudio).toBe(true);
    expect(out.duration).toBeCloseTo(3, 1);
    // the same run measured the sound: a sine of peak 1/8 (-18 dBFS) spread over two channels
    // (-3 dB each) peaks at -21 dBFS and reads about -22 LUFS (RMS 3 dB under the peak, both channels summed)
    expect(out.peak).toBeGreaterThan(-22);
    expect(out.peak).toBeLessThan(-20);
    expect(out.loudness).toBeGreaterThan(-23.5);
    expect(out.loudness).toBeLessThan(-20.5);
    const info = await readWavInfo(wav);
    // a plain 44-byte header, no LIST chunk of the source's tags: pocketsphinx reads samples from byte 44
    expect(info).toMatchObject({ sampleRate: 16000, channels: 1, bitsPerSample: 16, dataOffset: 44 });
    expect(Math.abs(info.duration - out.duration)).toBeLessThan(0.05);
    const pcm = (await fs.readFile(wav)).subarray(info.dataOffset);
    const peak = (from: number, to: number) => {
      let m = 0;
      for (let i = Math.round(from * 16000) * 2; i < Math.min(Math.round(to * 16000) * 2, pcm.length - 1); i += 2)
        m = Math.max(m, Math.abs(pcm.readInt16LE(i)));
      return m;
    };
    expect(peak(0.5, 1.5)).toBeGreaterThan(1000);
    expect(peak(2.2, 2.9)).toBe(0);
  });

  it('gives a silent file of the video length when the video has no sound', async () => {
    const video = path.join(dir, 'mute.mp4');
    await run('ffmpeg', [...FF, '-f', 'lavfi', '-i', 'testsrc2=s=160x120:r=25:d=2.5', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', video]);
    const wav = path.join(dir, 'mute.wav');
    const out = await extractAudio(video, wav);
    expect(out).toEqual({ duration: expect.closeTo(2.5, 1), hasAudio: false, loudness: null, peak: null });
    const info = await readWavInfo(wav);
    expect(info).toMatchObject({ sampleRate: 16000, channels: 1, bitsPerSample: 16, dataOffset: 44 });
    expect(Math.abs(info.duration - out.duration)).toBeLessThan(0.05);
    const pcm = (await fs.readFile(wav)).subarray(info.dataOffset);
    expect(pcm.every((b) => b === 0)).toBe(true);
  });

  it('refuses what is not media', async () => {
    const junk = path.join(dir, 'junk.mp4');
    await fs.writeFile(junk, 'not a video');
    await expect(extractAudio(junk, path.join(dir, 'junk.wav'))).rejects.toThrow();
  });
});

describe('postProcess', () => {
  it('adds empty silences for gaps of at least minSilence, at the start and up to the duration', () => {
    const out = postProcess([w('Hello', 0.5, 0.8), w('there', 0.9, 1.2), w('friend', 2, 2.4)], { duration: 3 });
    expect(texts(out)).toEqual(['_', 'Hello', 'there', '_', 'friend', '_']);
    expect(out.filter((x) => x.type === 'silence').map((x) => [x.startTime, x.endTime])).toEqual([
      [0, 0.5],
      [1.2, 2],
      [2.4, 3],
    ]);
    expect(out.filter((x) => x.type === 'silence').every((x) => x.text === '')).toBe(true);
    // exactly minSilence counts (0.6 - 0.3 is 0.29999... in floating point)
    expect(texts(postProcess([w('a', 0, 0.3), w('b', 0.6, 0.9)], {}))).toEqual(['a', '_', 'b']);
    expect(texts(postProcess([w('a', 0, 0.3), w('b', 0.6, 0.9)], { minSilence: 0.5 }))).toEqual(['a', 'b']);
    // no duration: nothing after the last word
    expect(texts(postProcess([w('a', 0, 0.3)], {}))).toEqual(['a']);
    // nothing heard: the whole duration is silence
    expect(postProcess([], { duration: 2 })).toMatchObject([{ type: 'silence', text: '', startTime: 0, endTime: 2 }]);
  });

  it('recomputes silence instead of keeping what the engine reported', () => {
    const out = postProcess(
      [w('', 0, 0.1, 'silence'), w('a', 0.1, 0.5), w('', 0.5, 0.6, 'silence'), w('b', 0.6, 1), w('', 1, 2.5, 'silence'), w('c', 2.5, 3)],
      {},
    );
    expect(texts(out)).toEqual(['a', 'b', '_', 'c']);
    expect(out[2]).toMatchObject({ startTime: 1, endTime: 2.5 });
  });

  it('gives unique w_ ids', () => {
    const many = Array.from({ length: 500 }, (_, i) => w(`w${i}`, i, i + 0.5));
    const out = postProcess(many, { duration: 600 });
    const ids = out.map((x) => x.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => /^w_[A-Za-z0-9_-]{8}$/.test(id))).toBe(true);
    expect(postProcess(many.slice(0, 5), {})[0].id).not.toBe(postProcess(many.slice(0, 5), {})[0].id);
  });

  it('rounds to milliseconds and keeps times in order within the duration', () => {
    const out = postProcess([w('late', 2.0004, 2.5), w('early', 0.12345, 0.2), w('overlapping', 0.15, 0.9), w('backwards', 1.2, 1.1), w('beyond', 2.9, 3.7)], {
      duration: 3.0006,
      minSilence: 10,
    });
    expect(out.map((x) => [x.text, x.startTime, x.endTime])).toEqual([
      ['early', 0.123, 0.15],
      ['overlapping', 0.15, 0.9],
      ['backwards', 1.2, 1.2],
      ['late', 2, 2.5],
      ['beyond', 2.9, 3.001],
    ]);
    expectWellFormed(out, 3.001);
  });

  it('types punctuation that stands alone, keeps punctuation attached to words', () => {
    const out = postProcess([w('Hello,', 0, 0.4), w('world', 0.4, 0.8), w('.', 0.8, 0.8), w('—', 0.8, 0.9)], {});
    expect(out.map((x) => [x.text, x.type])).toEqual([
      ['Hello,', 'word'],
      ['world', 'word'],
      ['.', 'punctuation'],
      ['—', 'punctuation'],
    ]);
  });

  it("keeps the engine's confidence on the words it heard; a dictionary spelling carries none", () => {
    const heard = [
      { ...w('welcome', 0, 0.2), confidence: 0.97 },
      { ...w('to', 0.2, 0.3), confidence: 0.4 },
      { ...w('clipcast', 0.3, 0.8), confidence: 0.95 },
      { ...w('quo', 0.8, 1), confidence: 0.9 },
      { ...w('kka', 1, 1.2), confidence: 0.9 },
      w('today', 1.2, 1.5),
    ];
    const out = postProcess(heard, { dictionary: ['ClipCast', 'Quokka'] });
    expect(out.map((x) => [x.text, x.confidence])).toEqual([
      ['welcome', 0.97],
      ['to', 0.4],
      ['ClipCast', undefined],
      ['Quokka', undefined],
      ['today', undefined],
    ]);
    // the spelling the engine heard already: still the engine's word
    expect(postProcess([{ ...w('ClipCast', 0, 0.5), confidence: 0.8 }], { dictionary: ['ClipCast'] })[0].confidence).toBe(0.8);
  });

  describe('dictionary', () => {
    const spell = (words: TimedWord[], dictionary: string[]) => texts(postProcess(words, { dictionary }));

    it('replaces case-insensitive matches by the dictionary spelling, keeping punctuation', () => {
      expect(spell([w('welcome', 0, 0.2), w('to', 0.2, 0.3), w('clipcast,', 0.3, 0.8)], ['ClipCast'])).toEqual(['welcome', 'to', 'ClipCast,']);
      expect(spell([w('"IPHONE"', 0, 0.5)], ['iPhone'])).toEqual(['"iPhone"']);
    });

    it('replaces near misses: one edit up to five letters, two beyond, none for three letters or fewer', () => {
      expect(spell([w('kwokka', 0, 0.5)], ['Quokka'])).toEqual(['Quokka']);
      expect(spell([w('kwokkah', 0, 0.5)], ['Quokka'])).toEqual(['kwokkah']);
      expect(spell([w('zapo', 0, 0.5)], ['Zappo'])).toEqual(['Zappo']);
      expect(spell([w('zepa', 0, 0.5)], ['Zappo'])).toEqual(['zepa']);
      expect(spell([w('Figma', 0, 0.5), w('sigma', 0.5, 1)], ['Figma'])).toEqual(['Figma', 'Figma']);
      expect(spell([w('map', 0, 0.5), w('zap', 0.5, 1)], ['Zap'])).toEqual(['map', 'Zap']);
      expect(spell([w('hello', 0, 0.5), w('world', 0.5, 1)], ['Quokka', 'ClipCast'])).toEqual(['hello', 'world']);
    });

    it('prefers an exact match to a near one', () => {
      expect(spell([w('sigma', 0, 0.5)], ['Figma', 'Sigma'])).toEqual(['Sigma']);
    });

    it('joins adjacent words whose letters spell an entry, not across a silence', () => {
      const joined = postProcess([w('the', 0, 0.2), w('quo', 0.2, 0.4), w('kka.', 0.45, 0.7)], { dictionary: ['Quokka'] });
      expect(joined.map((x) => [x.text, x.startTime, x.endTime])).toEqual([
        ['the', 0, 0.2],
        ['Quokka.', 0.2, 0.7],
      ]);
      expect(spell([w('new', 0, 0.2), w('york', 0.2, 0.5)], ['New York'])).toEqual(['New York']);
      expect(spell([w('clip', 0, 0.2), w('cast', 0.25, 0.5)], ['ClipCast'])).toEqual(['ClipCast']);
      expect(spell([w('quo', 0, 0.2), w('kka', 1.2, 1.5)], ['Quokka'])).toEqual(['quo', '_', 'kka']);
    });
  });
});

describe('openai', () => {
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI({ transcript: `${FIRST} ${SECOND}` });
  });
  afterAll(async () => {
    await fake?.close();
  });
  const env = () => ({ OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: fake.apiKey });

  it('sends the audio, model, language and dictionary prompt, and reads word timestamps', async () => {
    const engine = createTranscriber('openai', env());
    const before = fake.requests.length;
    const progress: number[] = [];
    const words = await engine.transcribe(speech, { language: 'en', dictionary: ['Quokka', ' ClipCast ', ''], onProgress: (p) => progress.push(p) });
    expect(fake.requests.length).toBe(before + 1);
    const req = fake.requests.at(-1)!;
    expect(req.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(req.fields).toMatchObject({
      model: ['whisper-1'],
      language: ['en'],
      response_format: ['verbose_json'],
      'timestamp_granularities[]': ['word'],
      prompt: ['Quokka, ClipCast'],
    });
    expect(req.file).toMatchObject({ name: 'audio.wav', mimeType: 'audio/wav' });
    expect(req.file!.duration).toBeCloseTo(speechDuration, 2);

    expect(words.map((x) => x.text)).toEqual(`${FIRST} ${SECOND}`.split(' '));
    expect(words.every((x) => x.type === 'word')).toBe(true);
    for (let i = 1; i < words.length; i++) expect(words[i].startTime).toBeGreaterThan(words[i - 1].startTime);
    expect(words.at(-1)!.endTime).toBeLessThanOrEqual(speechDuration);
    expect(progress).toEqual([1]);
  });

  it('uses OPENAI_TRANSCRIPTION_MODEL and a base URL that already ends in /v1', async () => {
    const engine = createTranscriber('openai', { ...env(), OPENAI_BASE_URL: `${fake.url}/v1/`, OPENAI_TRANSCRIPTION_MODEL: 'whisper-large' });
    await engine.transcribe(speech, { language: 'fr' });
    expect(fake.requests.at(-1)!.fields).toMatchObject({ model: ['whisper-large'], language: ['fr'] });
    expect(fake.requests.at(-1)!.fields.prompt).toBeUndefined();
  });

  it('sends long audio in pieces the API accepts, with times offset', async () => {
    const engine = createOpenAITranscriber({ baseUrl: fake.url, apiKey: fake.apiKey, model: 'whisper-1', maxUploadBytes: 100_000 });
    const before = fake.requests.length;
    const progress: number[] = [];
    const words = await engine.transcribe(speech, { language: 'en', onProgress: (p) => progress.push(p) });
    const sent = fake.requests.slice(before);
    expect(sent.length).toBe(Math.ceil((await readWavInfo(speech)).dataBytes / (100_000 - 44)));
    expect(sent.every((r) => r.file!.bytes <= 100_000)).toBe(true);
    expect(sent.reduce((s, r) => s + r.file!.duration!, 0)).toBeCloseTo(speechDuration, 2);
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    for (let i = 1; i < words.length; i++) expect(words[i].startTime).toBeGreaterThanOrEqual(words[i - 1].startTime);
    expect(words.at(-1)!.endTime).toBeLessThanOrEqual(speechDuration);
    expect(words[0].startTime).toBeLessThan(1);
  });

  it('reports a refused key as a non-retryable error with its status', async () => {
    const engine = createTranscriber('openai', { ...env(), OPENAI_API_KEY: 'sk-wrong-key' });
    const err = await engine.transcribe(speech, { language: 'en' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TranscriptionError);
    expect(err).toMatchObject({ status: 401, retryable: false });
    expect((err as Error).message).toMatch(/401.*Incorrect API key/);
  });

  it('marks rate limits and server errors retryable, an exhausted quota not', async () => {
    const engine = createTranscriber('openai', env());
    fake.failNext(429);
    await expect(engine.transcribe(speech, { language: 'en' })).rejects.toMatchObject({ status: 429, retryable: true, message: expect.stringMatching(/429/) });
    fake.failNext(500);
    await expect(engine.transcribe(speech, { language: 'en' })).rejects.toMatchObject({ status: 500, retryable: true });
    fake.failNext(429, 1, 'insufficient_quota');
    await expect(engine.transcribe(speech, { language: 'en' })).rejects.toMatchObject({
      status: 429,
      retryable: false,
      message: expect.stringMatching(/quota/),
    });
    await expect(engine.transcribe(speech, { language: 'en' })).resolves.toHaveLength(17);
  });

  it('marks an unreachable service retryable, and stops on abort', async () => {
    const engine = createTranscriber('openai', { OPENAI_BASE_URL: 'http://127.0.0.1:9', OPENAI_API_KEY: 'k' });
    await expect(engine.transcribe(speech, { language: 'en' })).rejects.toMatchObject({ retryable: true });
    await expect(createTranscriber('openai', env()).transcribe(speech, { language: 'en', signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('needs a key for the OpenAI service, supports the Whisper languages', () => {
    expect(() => createTranscriber('openai', {})).toThrow(TranscriberUnavailableError);
    expect(() => createTranscriber('openai', {})).toThrow(/OPENAI_API_KEY/);
    const engine = createTranscriber('openai', env());
    expect(engine.name).toBe('openai');
    expect(['en', 'fr', 'pt-BR', 'zh', 'ja'].every((l) => engine.supports(l))).toBe(true);
    expect(engine.supports('xx')).toBe(false);
  });

  it('parses answers without words from their segments', () => {
    const words = parseVerboseTranscription({ text: 'Hi there.', segments: [{ start: 1, end: 2, text: ' Hi there.' }] }, 10);
    expect(words).toEqual([w('Hi', 11, 11.25), w('there.', 11.25, 12)]);
  });

  it('puts the punctuation of the text back on the words', () => {
    const answer = {
      text: 'Well, it\'s a well-known fact: "quokkas" smile!',
      words: ['Well', "it's", 'a', 'well', 'known', 'fact', 'quokkas', 'smile'].map((word, i) => ({ word, start: i, end: i + 0.5 })),
    };
    expect(parseVerboseTranscription(answer).map((x) => x.text)).toEqual(['Well,', "it's", 'a', 'well-known', 'fact:', '"quokkas"', 'smile!']);
    expect(parseVerboseTranscription(answer)[3]).toMatchObject({ startTime: 3, endTime: 4.5 });
  });

  it('keeps word times within the piece of audio, in order, as with Whisper', () => {
    const answer = { text: 'One, two three.', duration: 2, words: [w2('One', -0.5, 0.4), w2('two', 1.2, 1.0), w2('three', 0.9, 2.6)] };
    expect(parseVerboseTranscription(answer, 10).map((x) => [x.text, x.startTime, x.endTime])).toEqual([
      ['One,', 10, 10.4],
      ['two', 11.2, 11.2],
      ['three.', 11.2, 12],
    ]);
  });
});

describe('joining timed pieces', () => {
  const piece = (text: string, start: number, end: number, p?: number): TimedPiece => ({ text, start, end, ...(p === undefined ? {} : { p }) });

  it('joins sub-word pieces into words, attaches punctuation, types what has no letter as punctuation', () => {
    const words = joinPieces([
      piece(' Hel', 0, 0.2, 0.9),
      piece('lo', 0.2, 0.4, 0.7),
      piece(',', 0.4, 0.45, 0.1),
      piece(' "', 0.5, 0.5),
      piece('Qu', 0.5, 0.7, 0.6),
      piece('okka', 0.7, 0.9, 0.8),
      piece('"', 0.9, 0.9),
      piece(' -', 1, 1.1),
      piece(' well', 1.1, 1.3),
      piece('-', 1.3, 1.3),
      piece('known', 1.3, 1.6),
      piece(' ', 1.6, 1.6),
      piece('fact', 1.7, 2),
      piece('.', 2, 2),
    ]);
    expect(words.map((x) => [x.text, x.type])).toEqual([
      ['Hello,', 'word'],
      ['"Quokka"', 'word'],
      ['-', 'punctuation'],
      ['well-known', 'word'],
      ['fact.', 'word'],
    ]);
    expect(words[0]).toMatchObject({ startTime: 0, endTime: 0.45, confidence: 0.8 });
    expect(words[1]).toMatchObject({ startTime: 0.5, endTime: 0.9, confidence: 0.7 });
    expect(words[3].confidence).toBeUndefined();
  });

  it('clamps times to the audio, never runs backwards, ends at or after the start', () => {
    const words = joinPieces([piece(' early', -1, 0.5), piece(' late', 2, 1.5), piece(' back', 1, 1.2), piece(' beyond', 2.5, 9)], 3);
    expect(words.map((x) => [x.text, x.startTime, x.endTime])).toEqual([
      ['early', 0, 0.5],
      ['late', 2, 2],
      ['back', 2, 2],
      ['beyond', 2.5, 3],
    ]);
    expectWellFormed(words, 3);
  });
});

/** The Whisper host processes this process started that still run. */
function whisperHosts(): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return ppid === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('whisper-host');
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('whisper', () => {
  let model: string;
  let looped: Promise<string> | undefined;
  /** The speech four times over: four pieces of about its length */
  const loopedSpeech = () =>
    (looped ??= (async () => {
      const file = path.join(dir, 'pieces-whisper.wav');
      await run('ffmpeg', [...FF, '-stream_loop', '3', '-i', speech, '-c', 'copy', file]);
      return file;
    })());
  const whisper = (env: NodeJS.ProcessEnv = {}) => createTranscriber('whisper', { WHISPER_MODEL: model, ...env });
  beforeAll(() => {
    model = generatedTinyEn();
  });

  it('transcribes with the generated tiny.en model: words joined from tokens, timed within the audio, with confidence and progress', async () => {
    const engine = whisper();
    try {
      const progress: number[] = [];
      const heard = await engine.transcribe(speech, { language: 'en-US', dictionary: ['Quokka'], onProgress: (p) => progress.push(p) });
      // random weights: the words are junk, but there are some, in order, within the audio
      const words = heard.filter((x) => x.type === 'word');
      expect(words.length).toBeGreaterThan(0);
      expect(words.every((x) => x.text.trim() === x.text && x.text !== '' && !/\[_/.test(x.text))).toBe(true);
      expect(words.every((x) => x.confidence !== undefined && x.confidence >= 0 && x.confidence <= 1)).toBe(true);
      for (let i = 1; i < heard.length; i++) expect(heard[i].startTime).toBeGreaterThanOrEqual(heard[i - 1].startTime);
      expect(heard.every((x) => x.startTime >= 0 && x.endTime >= x.startTime && x.endTime <= speechDuration + 0.001)).toBe(true);
      expect(progress.at(-1)).toBe(1);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      expectWellFormed(postProcess(heard, { duration: speechDuration }), speechDuration);
      // the model stays loaded: a second job gives the same words (greedy decoding is deterministic)
      const again = await engine.transcribe(speech, { language: 'en', dictionary: ['Quokka'] });
      expect(again.map((x) => x.text)).toEqual(heard.map((x) => x.text));
    } finally {
      await engine.close?.();
    }
  });

  it("transcribes a long recording a piece at a time: a short job asked during it goes before its next piece, and every word keeps the recording's clock", async () => {
    const long = await loopedSpeech();
    const longDuration = (await readWavInfo(long)).duration;
    const alone = whisper();
    let shortAlone: TimedWord[];
    try {
      shortAlone = await alone.transcribe(speech, { language: 'en' });
    } finally {
      await alone.close?.();
    }
    // pieces of about the speech's length: the looped speech is four of them
    const engine = createWhisperTranscriber({ model: readWhisperModel(model), pieceSeconds: speechDuration });
    try {
      const ended: string[] = [];
      const progress: number[] = [];
      const longOne = runInClass(JOB_NAMES.processMagicClips, () => engine.transcribe(long, { language: 'en', onProgress: (p) => progress.push(p) })).then(
        (words) => (ended.push('long'), words),
      );
      // asked while the long one's first piece runs, in the same class: it waits for that piece only
      await new Promise((r) => setTimeout(r, 300));
      const shortOne = runInClass(JOB_NAMES.processMagicClips, () => engine.transcribe(speech, { language: 'en' })).then(
        (words) => (ended.push('short'), words),
      );
      const [heard, short] = await Promise.all([longOne, shortOne]);
      expect(ended).toEqual(['short', 'long']);
      // one piece at a time on one model: the short job's words are those it has alone
      expect(short.map((x) => [x.text, x.startTime, x.endTime])).toEqual(shortAlone.map((x) => [x.text, x.startTime, x.endTime]));
      // the later pieces' words are on the recording's clock, not their piece's (a piece is at most 1.5 speeches long)
      const words = heard.filter((x) => x.type === 'word');
      expect(words.length).toBeGreaterThan(0);
      expect(words.at(-1)!.startTime).toBeGreaterThan(2 * speechDuration);
      expect(heard.every((x) => x.startTime >= 0 && x.endTime <= longDuration + 0.001)).toBe(true);
      // progress reached the later pieces
      expect(progress.some((p) => p > 0.5 && p < 1)).toBe(true);
    } finally {
      await engine.close?.();
    }
  });

  it('closes between the pieces of a long transcription: the piece under way ends, the next is refused as retryable, no model process is left', async () => {
    const long = await loopedSpeech();
    const engine = createWhisperTranscriber({ model: readWhisperModel(model), pieceSeconds: speechDuration });
    const job = engine.transcribe(long, { language: 'en' });
    job.catch(() => {});
    await new Promise((r) => setTimeout(r, 300));
    await engine.close!();
    await expect(job).rejects.toMatchObject({ name: 'TranscriptionError', retryable: true, message: expect.stringMatching(/closing/) });
    expect(whisperHosts()).toEqual([]);
  });

  it('refuses other languages with an English-only model', async () => {
    const engine = whisper();
    expect(engine.name).toBe('whisper');
    expect(['en', 'en-GB'].every((l) => engine.supports(l))).toBe(true);
    expect(['fr', 'de', 'yue'].some((l) => engine.supports(l))).toBe(false);
    await expect(engine.transcribe(speech, { language: 'fr' })).rejects.toThrow(/English-only/);
  });

  it('is stopped by its abort signal, and the next job still runs', async () => {
    const long = path.join(dir, 'long-whisper.wav');
    await run('ffmpeg', [...FF, '-stream_loop', '5', '-i', speech, '-c', 'copy', long]);
    const engine = whisper();
    try {
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 500);
      const t0 = performance.now();
      await expect(engine.transcribe(long, { language: 'en', signal: ac.signal })).rejects.toMatchObject({ name: 'AbortError' });
      expect(performance.now() - t0).toBeLessThan(2000);
      await expect(engine.transcribe(long, { language: 'en', signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
      expect((await engine.transcribe(speech, { language: 'en' })).length).toBeGreaterThan(0);
    } finally {
      await engine.close?.();
    }
  });

  it('refuses a missing, truncated or foreign model file when it is loaded, saying what is wrong', async () => {
    const broken = async (name: string, bytes: Buffer) => {
      const file = path.join(dir, name);
      await fs.writeFile(file, bytes);
      return file;
    };
    const whole = await fs.readFile(model);
    const fails = (file: string | undefined, message: RegExp) => {
      const create = () => createTranscriber('whisper', file === undefined ? {} : { WHISPER_MODEL: file });
      expect(create).toThrow(TranscriberUnavailableError);
      expect(create).toThrow(message);
    };
    fails(undefined, /WHISPER_MODEL must name/);
    fails(path.join(dir, 'missing.bin'), /cannot be read/);
    fails(speech, /not a ggml file \(wrong magic number\)/);
    fails(await broken('truncated.bin', whole.subarray(0, Math.floor(whole.length / 2))), /ends at byte \d+, in the middle of its tensor "/);
    fails(await broken('header-only.bin', whole.subarray(0, 40)), /ends at byte 40, in the middle of its (header|mel filters)/);
    // one tensor too few: whisper.cpp would load it and answer every job with nothing
    fails(
      await broken('short.bin', whole.subarray(0, whole.length - 4 * 384 - 16 - 'decoder.blocks.3.cross_attn.out.bias'.length)),
      /1 of its 167 tensors are missing/,
    );
    // a wider text decoder than audio encoder: whisper.cpp asserts and ends the process
    const wide = Buffer.from(whole);
    wide.writeInt32LE(768, 4 + 4 * 6);
    fails(await broken('wide.bin', wide), /text and audio widths differ/);
  });
});
