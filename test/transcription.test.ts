import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractAudio } from '../src/media/transcription/audio.js';
import { readWavInfo } from '../src/media/wav.js';
import { TranscriberUnavailableError, TranscriptionError } from '../src/media/transcription/errors.js';
import { createOpenAITranscriber, parseVerboseTranscription } from '../src/media/transcription/openai.js';
import { parsePocketsphinxLine } from '../src/media/transcription/pocketsphinx.js';
import { postProcess } from '../src/media/transcription/post-process.js';
import { loadConfig } from '../src/config.js';
import { createTranscriber as engineOf, type EngineName } from '../src/media/transcription/transcriber.js';
import type { TimedWord, Word } from '../src/media/transcript.js';
import { parseWhisperJson } from '../src/media/transcription/whisper.js';
import { startFakeOpenAI, type FakeOpenAI } from './fixtures/fake-openai.js';

/** The engine as a process with this environment would build it. */
const createTranscriber = (engine: EngineName, env: NodeJS.ProcessEnv = process.env) => engineOf(loadConfig({ ...env, TRANSCRIBER: engine }));

const run = promisify(execFile);
const FF = ['-hide_banner', '-loglevel', 'error', '-y'];
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
    console.info(`pocketsphinx: ${speechDuration.toFixed(2)} s of speech in ${seconds.toFixed(2)} s, real-time factor ${(seconds / speechDuration).toFixed(2)}`);

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
      for (let i = Math.round(from * 16000) * 2; i < Math.min(Math.round(to * 16000) * 2, pcm.length - 1); i += 2) m = Math.max(m, Math.abs(pcm.readInt16LE(i)));
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
    const out = postProcess([w('', 0, 0.1, 'silence'), w('a', 0.1, 0.5), w('', 0.5, 0.6, 'silence'), w('b', 0.6, 1), w('', 1, 2.5, 'silence'), w('c', 2.5, 3)], {});
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
    const out = postProcess(
      [w('late', 2.0004, 2.5), w('early', 0.12345, 0.2), w('overlapping', 0.15, 0.9), w('backwards', 1.2, 1.1), w('beyond', 2.9, 3.7)],
      { duration: 3.0006, minSilence: 10 },
    );
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
    await expect(engine.transcribe(speech, { language: 'en' })).rejects.toMatchObject({ status: 429, retryable: false, message: expect.stringMatching(/quota/) });
    await expect(engine.transcribe(speech, { language: 'en' })).resolves.toHaveLength(17);
  });

  it('marks an unreachable service retryable, and stops on abort', async () => {
    const engine = createTranscriber('openai', { OPENAI_BASE_URL: 'http://127.0.0.1:9', OPENAI_API_KEY: 'k' });
    await expect(engine.transcribe(speech, { language: 'en' })).rejects.toMatchObject({ retryable: true });
    await expect(createTranscriber('openai', env()).transcribe(speech, { language: 'en', signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
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
    expect(parseVerboseTranscription(answer).map((x) => x.text)).toEqual(['Well,', "it's", 'a', 'well', 'known', 'fact:', '"quokkas"', 'smile!']);
  });
});

describe('whisper.cpp', () => {
  /** whisper-cli -oj -ml 1 -sow output, byte for byte as its output_json writes it (tab indents, key order) */
  const SAMPLE = [
    '{',
    '\t"systeminfo": "AVX = 1 | AVX2 = 1 | AVX512 = 0 | FMA = 1 | NEON = 0 | ARM_FMA = 0 | F16C = 1 | FP16_VA = 0 | WASM_SIMD = 0 | SSE3 = 1 | SSSE3 = 1 | VSX = 0 | ",',
    '\t"model": {',
    '\t\t"type": "base",',
    '\t\t"multilingual": true,',
    '\t\t"vocab": 51865,',
    '\t\t"audio": {',
    '\t\t\t"ctx": 1500,',
    '\t\t\t"state": 512,',
    '\t\t\t"head": 8,',
    '\t\t\t"layer": 6',
    '\t\t},',
    '\t\t"text": {',
    '\t\t\t"ctx": 448,',
    '\t\t\t"state": 512,',
    '\t\t\t"head": 8,',
    '\t\t\t"layer": 6',
    '\t\t},',
    '\t\t"mels": 80,',
    '\t\t"ftype": 1',
    '\t},',
    '\t"params": {',
    '\t\t"model": "models/ggml-base.bin",',
    '\t\t"language": "en",',
    '\t\t"translate": false',
    '\t},',
    '\t"result": {',
    '\t\t"language": "en"',
    '\t},',
    '\t"transcription": [',
    ...[
      ['00:00:00,000', '00:00:00,000', 0, 0, ''],
      ['00:00:00,000', '00:00:00,410', 0, 410, ' Hello,'],
      ['00:00:00,410', '00:00:00,590', 410, 590, ' and'],
      ['00:00:00,590', '00:00:01,020', 590, 1020, ' welcome'],
      ['00:00:01,020', '00:00:01,300', 1020, 1300, ' to'],
      ['00:00:01,300', '00:00:01,940', 1300, 1940, ' "Quokka"'],
      ['00:00:01,940', '00:00:02,000', 1940, 2000, ' -'],
      ['00:00:02,000', '00:00:03,400', 2000, 3400, ' captions.'],
      ['00:00:03,400', '00:00:04,000', 3400, 4000, ' (upbeat'],
      ['00:00:04,000', '00:00:04,900', 4000, 4900, ' music)'],
      ['00:00:04,900', '00:00:05,500', 4900, 5500, ' [BLANK_AUDIO]'],
      ['00:00:05,500', '00:00:06,100', 5500, 6100, ' Now we'],
      ['00:00:06,100', '00:00:06,700', 6100, 6700, ' talk.'],
    ].map(
      ([from, to, f, t, text], i, all) =>
        `\t\t{\n\t\t\t"timestamps": {\n\t\t\t\t"from": "${from}",\n\t\t\t\t"to": "${to}"\n\t\t\t},\n\t\t\t"offsets": {\n\t\t\t\t"from": ${f},\n\t\t\t\t"to": ${t}\n\t\t\t},\n\t\t\t"text": "${String(text).replace(/"/g, '\\"')}"\n\t\t}${i === all.length - 1 ? '' : ','}`,
    ),
    '\t]',
    '}',
    '',
  ].join('\n');

  it('parses word segments, annotations as silence, several words sharing a span', () => {
    const words = parseWhisperJson(SAMPLE);
    expect(words.map((x) => (x.type === 'silence' ? '_' : x.text))).toEqual(['Hello,', 'and', 'welcome', 'to', '"Quokka"', '-', 'captions.', '_', '_', '_', 'Now', 'we', 'talk.']);
    expect(words[0]).toEqual(w('Hello,', 0, 0.41));
    expect(words[5].type).toBe('punctuation');
    expect(words.slice(10, 12)).toEqual([w('Now', 5.5, 5.86), w('we', 5.86, 6.1)].map((x) => ({ ...x, startTime: expect.closeTo(x.startTime, 6), endTime: expect.closeTo(x.endTime, 6) })));
    const transcript = postProcess(words, { duration: 6.8, dictionary: ['quokka'] });
    expect(texts(transcript)).toEqual(['Hello,', 'and', 'welcome', 'to', '"quokka"', '-', 'captions.', '_', 'Now', 'we', 'talk.']);
    expect(transcript[7]).toMatchObject({ startTime: 3.4, endTime: 5.5 });
  });

  it('parses the full format (-ojf), falls back to the clock times, survives raw control characters', () => {
    const full = JSON.stringify({
      transcription: [
        {
          timestamps: { from: '00:00:00,000', to: '00:00:00,500' },
          offsets: { from: 0, to: 500 },
          text: ' Hi',
          tokens: [
            { text: '[_BEG_]', timestamps: { from: '00:00:00,000', to: '00:00:00,000' }, offsets: { from: 0, to: 0 }, id: 50364, p: 0.98, t_dtw: -1 },
            { text: ' Hi', timestamps: { from: '00:00:00,000', to: '00:00:00,500' }, offsets: { from: 0, to: 500 }, id: 2421, p: 0.9, t_dtw: -1 },
          ],
        },
        { timestamps: { from: '00:01:02,345', to: '00:01:02,900' }, text: ' there' },
      ],
    });
    expect(parseWhisperJson(full)).toEqual([w('Hi', 0, 0.5), { ...w('there', 0, 0), startTime: expect.closeTo(62.345, 6), endTime: expect.closeTo(62.9, 6) }]);
    // a raw tab inside a string: not strict JSON; it separates two words
    const raw = '{"transcription": [{"offsets": {"from": 0, "to": 700}, "text": " tab\there"}]}';
    expect(parseWhisperJson(raw)).toEqual([w('tab', 0, 0.3), w('here', 0.3, 0.7)].map((x) => ({ ...x, startTime: expect.closeTo(x.startTime, 6), endTime: expect.closeTo(x.endTime, 6) })));
    expect(() => parseWhisperJson('{"nothing": 1}')).toThrow(/transcription/);
  });

  describe('installation', () => {
    let bin: string;
    let model: string;
    let englishModel: string;
    const ggml = (vocab: number) => {
      const b = Buffer.alloc(64);
      b.writeUInt32LE(0x67676d6c, 0);
      b.writeInt32LE(vocab, 4);
      return b;
    };
    beforeAll(async () => {
      bin = path.join(dir, 'bin');
      await fs.mkdir(bin, { recursive: true });
      model = path.join(dir, 'ggml-base.bin');
      englishModel = path.join(dir, 'ggml-base.en.bin');
      await fs.writeFile(model, ggml(51865));
      await fs.writeFile(englishModel, ggml(51864));
      await fs.writeFile(path.join(dir, 'sample.json'), SAMPLE);
      // stands in for whisper-cli: records its arguments, prints progress, writes the sample as <-of>.json
      const script = [
        '#!/bin/sh',
        `printf '%s\\n' "$@" > "${path.join(dir, 'args.txt')}"`,
        'out=""',
        'while [ $# -gt 0 ]; do if [ "$1" = "-of" ]; then out="$2"; fi; shift; done',
        'for p in 0 25 50 75 100; do echo "whisper_print_progress_callback: progress = $p%" >&2; done',
        `cp "${path.join(dir, 'sample.json')}" "$out.json"`,
      ].join('\n');
      await fs.writeFile(path.join(bin, 'whisper-cli'), script, { mode: 0o755 });
    });

    it('refuses to be created without its program or model, saying what is missing', () => {
      const noProgram = () => createTranscriber('whisper', { PATH: dir, WHISPER_MODEL: model });
      expect(noProgram).toThrow(TranscriberUnavailableError);
      expect(noProgram).toThrow(/whisper-cli.*WHISPER_CPP_BIN/);
      expect(() => createTranscriber('whisper', { WHISPER_CPP_BIN: path.join(dir, 'nope'), WHISPER_MODEL: model })).toThrow(/WHISPER_CPP_BIN/);
      expect(() => createTranscriber('whisper', { PATH: bin })).toThrow(/WHISPER_MODEL must name/);
      expect(() => createTranscriber('whisper', { PATH: bin, WHISPER_MODEL: path.join(dir, 'missing.bin') })).toThrow(/cannot be read/);
      expect(() => createTranscriber('whisper', { PATH: bin, WHISPER_MODEL: speech })).toThrow(/not a whisper.cpp ggml model/);
    });

    it('supports the model languages: all Whisper languages, or English for *.en models', () => {
      const multi = createTranscriber('whisper', { PATH: bin, WHISPER_MODEL: model });
      expect(multi.name).toBe('whisper');
      expect(['en', 'fr', 'de-DE', 'yue'].every((l) => multi.supports(l))).toBe(true);
      expect(multi.supports('xx')).toBe(false);
      const english = createTranscriber('whisper', { WHISPER_CPP_BIN: path.join(bin, 'whisper-cli'), WHISPER_MODEL: englishModel });
      expect(english.supports('en')).toBe(true);
      expect(english.supports('fr')).toBe(false);
    });

    it('runs the program with word-level JSON output and the dictionary prompt', async () => {
      const engine = createTranscriber('whisper', { PATH: bin, WHISPER_MODEL: model });
      const progress: number[] = [];
      const words = await engine.transcribe(speech, { language: 'en-US', dictionary: ['Quokka'], onProgress: (p) => progress.push(p) });
      expect(words.filter((x) => x.type === 'word').map((x) => x.text)).toEqual(['Hello,', 'and', 'welcome', 'to', '"Quokka"', 'captions.', 'Now', 'we', 'talk.']);
      const args = (await fs.readFile(path.join(dir, 'args.txt'), 'utf8')).trim().split('\n');
      const after = (flag: string) => args[args.indexOf(flag) + 1];
      expect(after('-m')).toBe(model);
      expect(after('-f')).toBe(speech);
      expect(after('-l')).toBe('en');
      expect(after('-ml')).toBe('1');
      expect(args).toEqual(expect.arrayContaining(['-oj', '-sow', '-pp']));
      expect(after('--prompt')).toBe('Quokka');
      expect(progress).toEqual([0.25, 0.5, 0.75, 0.99, 1]);
    });
  });
});
